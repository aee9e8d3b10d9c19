package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.*;
import static org.assertj.core.api.Assertions.*;

import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Script;
import org.junit.jupiter.api.Test;

/** dm-thin on an AHCI disk: 1 MiB pool blocks, zeroing on. */
class ThinStatsAssertTest {

    private static final Bytes BLOCK = Bytes.mib(1);

    private static ThinStats run(String script) {
        Layout layout = Fixtures.thin(BLOCK, true);
        Simulation sim = Simulation.of(layout);
        sim.run(Script.parse(script), e -> { });
        String thin = layout.device("/dev/vg0/thin0").name();
        return sim.thinStats().stream().filter(s -> s.thinDevice().equals(thin)).findFirst().orElseThrow();
    }

    @Test
    void wholeBlockWritesProvisionWithoutZeroing() {
        long count = 4;
        ThinStats stats = run("dd if=/dev/zero of=/dev/vg0/thin0 bs=" + BLOCK.count() + " count=" + count
                + " oflag=direct");
        // each write is one whole block (the largest bio carries it), so nothing is zeroed first
        assertThat(stats.largestBioSectors()).isGreaterThanOrEqualTo(stats.blockSectors());
        assertThat(stats).hasBlocksProvisioned(count).hasPartialFirstWrites(0).zeroedNoBlocks().copiedNoBlocks()
                .hasBlocksCopied(0);

        assertThatThrownBy(() -> assertThat(stats).hasBlocksZeroed(count))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting blocksZeroed of thin device " + stats.thinDevice() + " to be " + count
                        + " but was 0")
                .hasMessageContaining("thin statistics of " + stats.thinDevice() + " (pool " + stats.poolDevice() + "):")
                .hasMessageContaining("    blockSectors=" + BLOCK.count() / 512)
                .hasMessageContaining("    blocksProvisioned=" + count)
                .hasMessageContaining("    poolTransactionId=" + stats.poolTransactionId());
        assertThatThrownBy(() -> assertThat(stats).hasPartialFirstWrites(1))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting partialFirstWrites of thin device " + stats.thinDevice()
                        + " to be 1 but was 0");
        assertThatThrownBy(() -> assertThat(stats).hasBlocksProvisioned(0))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("blocksProvisioned of thin device " + stats.thinDevice() + " to be 0 but was "
                        + count);
    }

    @Test
    void aSmallFirstWriteZeroesItsBlock() {
        // four 64 KiB writes fill a quarter of block 0: its first write is partial, so the block is zeroed first
        ThinStats stats = run("dd if=/dev/zero of=/dev/vg0/thin0 bs=64k count=4 oflag=direct");
        assertThat(stats).hasBlocksProvisioned(1).hasPartialFirstWrites(1).hasBlocksZeroed(1);

        assertThatThrownBy(() -> assertThat(stats).zeroedNoBlocks())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting blocksZeroed of thin device " + stats.thinDevice()
                        + " to be 0 but was 1")
                .hasMessageContaining("    partialFirstWrites=1");
    }

    @Test
    void aWriteToAnOriginAfterASnapshotCopiesTheSharedBlock() {
        ThinStats stats = run("""
                dd if=/dev/zero of=/dev/vg0/thin0 bs=1M count=1 oflag=direct
                lvcreate -s vg0/thin0 -n snap
                dd if=/dev/zero of=/dev/vg0/thin0 bs=64k count=1 oflag=direct
                """);
        assertThat(stats).hasBlocksCopied(1);

        assertThatThrownBy(() -> assertThat(stats).copiedNoBlocks())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting blocksCopied of thin device " + stats.thinDevice()
                        + " to be 0 but was 1")
                .hasMessageContaining("    blocksCopied=1");
    }

    @Test
    void nullStatsAreRejectedTheAssertJWay() {
        assertThatThrownBy(() -> assertThat((ThinStats) null).zeroedNoBlocks())
                .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting actual not to be null");
    }
}
