package dev.dmmodel.impl.dm.thin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.block.Limits;
import org.junit.jupiter.api.Test;

class ThinPoolModelTest {

    private static Limits limits(long maxSectors, long ioOpt) {
        Limits l = new Limits();
        l.logicalBlockSize = 512;
        l.physicalBlockSize = 512;
        l.ioMin = 512;
        l.ioOpt = ioOpt;
        l.maxSectors = maxSectors;
        return l;
    }

    @Test
    void blockOf768KiBUnderA512KiBQueueGetsAPowerOfTwoFactor() {
        // bs 1536: 1024 does not divide it -> 1023 -> 512, which does; io_min 512 x 512 = 256 KiB
        Limits l = limits(1024, 0);
        ThinPoolModel.blockSizeHints(l, 1536);
        assertThat(l.maxSectors).isEqualTo(512);
        assertThat(l.ioMin).isEqualTo(262144);
        assertThat(l.ioOpt).isEqualTo(786432);
    }

    @Test
    void oneMiBBlockOnA124KiBQueue() {
        // 248 is not a power of two and does not divide 2048 -> rounddown_pow_of_two(248) = 128 (recorded: 64 KiB)
        Limits l = limits(248, 0);
        ThinPoolModel.blockSizeHints(l, 2048);
        assertThat(l.maxSectors).isEqualTo(128);
        assertThat(l.ioMin).isEqualTo(65536);
        assertThat(l.ioOpt).isEqualTo(1048576);
    }

    @Test
    void ioOptThatIsAMultipleOfTheBlockIsKept() {
        // 448 KiB stripe (896 sectors) with a 64 KiB block: 896 mod 128 = 0 -> io hints untouched
        Limits l = limits(896, 458752);
        l.ioMin = 65536;
        ThinPoolModel.blockSizeHints(l, 128);
        assertThat(l.ioMin).isEqualTo(65536);
        assertThat(l.ioOpt).isEqualTo(458752);
    }

    @Test
    void largeEnoughQueueLeavesMaxSectorsAndTakesTheBlockAsHints() {
        // 2560 >= 2048: no cut; 2048 mod 2560 != 0 -> io_min = block
        Limits l = limits(2560, 0);
        ThinPoolModel.blockSizeHints(l, 2048);
        assertThat(l.maxSectors).isEqualTo(2560);
        assertThat(l.ioMin).isEqualTo(1048576);
        assertThat(l.ioOpt).isEqualTo(1048576);
    }
}
