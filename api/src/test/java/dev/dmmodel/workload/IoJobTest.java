package dev.dmmodel.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.workload.IoJob.IoOp;
import dev.dmmodel.workload.IoJob.OpType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class IoJobTest {

    private static final long TIB = 1L << 40;

    private static List<IoOp> take(IoJob job, int n) {
        List<IoOp> out = new ArrayList<>();
        Iterator<IoOp> it = job.ops();
        while (out.size() < n && it.hasNext()) {
            out.add(it.next());
        }
        return out;
    }

    private static List<IoOp> all(IoJob job) {
        return take(job, Integer.MAX_VALUE);
    }

    @Test
    void sequentialWritesCoverTheRangeInOrder() {
        IoJob job = IoJob.builder().target("/dev/mapper/thin").write().blockSize(4096).size(16384).offset(1 << 20)
                .direct().build();
        assertThat(job.opCount()).isEqualTo(4);
        assertThat(all(job)).containsExactly(
                new IoOp(OpType.WRITE, 1048576, 4096),
                new IoOp(OpType.WRITE, 1048576 + 4096, 4096),
                new IoOp(OpType.WRITE, 1048576 + 8192, 4096),
                new IoOp(OpType.WRITE, 1048576 + 12288, 4096));
        assertThat(job.direct()).isTrue();
        assertThat(job.pattern()).isEqualTo(IoJob.Pattern.SEQUENTIAL);
    }

    @Test
    void defaultsAreSequentialBufferedFourKibReads() {
        IoJob job = IoJob.builder().target("/dev/sda").size(8192).build();
        assertThat(job.operation()).isEqualTo(IoJob.Operation.READ);
        assertThat(job.blockSize()).isEqualTo(4096);
        assertThat(job.offset()).isZero();
        assertThat(job.direct()).isFalse();
        assertThat(job.readPercentage()).isEqualTo(100);
        assertThat(all(job)).containsExactly(new IoOp(OpType.READ, 0, 4096), new IoOp(OpType.READ, 4096, 4096));
    }

    @Test
    void theIteratorEndsCleanly() {
        Iterator<IoOp> it = IoJob.builder().target("/dev/sda").size(4096).build().ops();
        it.next();
        assertThat(it.hasNext()).isFalse();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void randomVisitsEveryBlockOnceAlignedWithinTheRange() {
        long offset = 3 * 512;
        long bs = 8192;
        int blocks = 1000; // not a power of two: cycle walking at work
        IoJob job = IoJob.builder().target("/dev/vg/lv").random(42).write().blockSize(bs).size(bs * blocks)
                .offset(offset).build();
        List<IoOp> ops = all(job);
        assertThat(ops).hasSize(blocks);
        BitSet seen = new BitSet(blocks);
        for (IoOp op : ops) {
            assertThat(op.op()).isEqualTo(OpType.WRITE);
            assertThat(op.lengthBytes()).isEqualTo(bs);
            assertThat(op.offsetBytes()).isBetween(offset, offset + bs * blocks - bs);
            assertThat((op.offsetBytes() - offset) % bs).isZero();
            int k = (int) ((op.offsetBytes() - offset) / bs);
            assertThat(seen.get(k)).as("block %d twice", k).isFalse();
            seen.set(k);
        }
        assertThat(seen.cardinality()).isEqualTo(blocks);
        // and it is not simply sequential
        assertThat(ops).isNotEqualTo(all(IoJob.builder().target("/dev/vg/lv").write().blockSize(bs)
                .size(bs * blocks).offset(offset).build()));
    }

    @Test
    void sameSeedSameOpsOtherSeedOtherOrder() {
        IoJob a = IoJob.builder().target("/dev/sda").random(7).mixed(70).blockSize(4096).size(4096L * 5000).build();
        IoJob b = IoJob.builder().target("/dev/sda").random(7).mixed(70).blockSize(4096).size(4096L * 5000).build();
        IoJob c = IoJob.builder().target("/dev/sda").random(8).mixed(70).blockSize(4096).size(4096L * 5000).build();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(all(a)).isEqualTo(all(b));
        // each call of ops() starts again
        assertThat(take(a, 100)).isEqualTo(take(a, 100));
        assertThat(take(a, 100)).isNotEqualTo(take(c, 100));
    }

    @Test
    void mixedDrawsTheReadShare() {
        IoJob job = IoJob.builder().target("/dev/sda").mixed(70).seed(1).blockSize(512).size(512L * 100_000).build();
        long reads = all(job).stream().filter(op -> op.op() == OpType.READ).count();
        // 70% of 100000 within 1%
        assertThat(reads).isBetween(69_000L, 71_000L);
        assertThat(all(IoJob.builder().target("/dev/sda").mixed(0).size(40960).build()))
                .allMatch(op -> op.op() == OpType.WRITE);
        assertThat(all(IoJob.builder().target("/dev/sda").mixed(100).size(40960).build()))
                .allMatch(op -> op.op() == OpType.READ);
    }

    @Test
    void discardWriteZeroesAndFlush() {
        assertThat(all(IoJob.builder().target("/dev/x").discard().blockSize(1 << 20).size(2 << 20).build()))
                .containsExactly(new IoOp(OpType.DISCARD, 0, 1 << 20), new IoOp(OpType.DISCARD, 1 << 20, 1 << 20));
        assertThat(all(IoJob.builder().target("/dev/x").writeZeroes().blockSize(4096).size(4096).offset(512).build()))
                .containsExactly(new IoOp(OpType.WRITE_ZEROES, 512, 4096));
        // a flush carries no data
        assertThat(all(IoJob.builder().target("/dev/x").flush().blockSize(4096).size(3 * 4096).build()))
                .containsExactly(new IoOp(OpType.FLUSH, 0, 0), new IoOp(OpType.FLUSH, 0, 0), new IoOp(OpType.FLUSH, 0, 0));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void aTenTibJobStreams() {
        // 10 TiB in 4 KiB: 2684354560 operations, never materialised
        IoJob seq = IoJob.builder().target("/dev/mapper/big").write().blockSize(4096).size(10 * TIB).build();
        IoJob rnd = IoJob.builder().target("/dev/mapper/big").random(99).write().blockSize(4096).size(10 * TIB)
                .build();
        assertThat(seq.opCount()).isEqualTo(2_684_354_560L);
        List<IoOp> first = take(seq, 1000);
        assertThat(first).hasSize(1000);
        assertThat(first.get(999)).isEqualTo(new IoOp(OpType.WRITE, 999L * 4096, 4096));
        List<IoOp> random = take(rnd, 1000);
        assertThat(random).hasSize(1000).allSatisfy(op -> {
            assertThat(op.offsetBytes() % 4096).isZero();
            assertThat(op.offsetBytes()).isBetween(0L, 10 * TIB - 4096);
        });
        assertThat(random).doesNotHaveDuplicates();
        // the random offsets spread over the whole device, not just its start
        assertThat(random.stream().mapToLong(IoOp::offsetBytes).max().orElseThrow()).isGreaterThan(5 * TIB);
        // the largest job the offsets allow still iterates (2^54 blocks of 512 bytes)
        IoJob huge = IoJob.builder().target("/dev/x").random(1).blockSize(512).size(Long.MAX_VALUE / 512 * 512).build();
        assertThat(take(huge, 1000)).hasSize(1000);
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> IoJob.builder().size(4096).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the target device must be given");
        assertThatThrownBy(() -> IoJob.builder().target(" ").size(4096).build())
                .hasMessage("the target device must be given");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").build()).hasMessage("the size must be given");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").blockSize(0).size(4096).build())
                .hasMessage("block size must be a positive multiple of 512 bytes, not 0");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").blockSize(1000).size(4000).build())
                .hasMessage("block size must be a positive multiple of 512 bytes, not 1000");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").blockSize(-512).size(4096).build())
                .hasMessage("block size must be a positive multiple of 512 bytes, not -512");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(0).build())
                .hasMessage("size must be positive, not 0");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").blockSize(4096).size(6144).build())
                .hasMessage("size (6144 bytes) must be a multiple of the block size (4096 bytes)");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(4096).offset(100).build())
                .hasMessage("offset must be a non-negative multiple of 512 bytes, not 100");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(4096).offset(-512).build())
                .hasMessage("offset must be a non-negative multiple of 512 bytes, not -512");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(4096).offset(Long.MAX_VALUE / 512 * 512)
                .build()).hasMessageContaining("beyond the largest byte offset");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(4096).mixed(101).build())
                .hasMessage("read percentage must be 0 to 100, not 101");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(4096).mixed(-1).build())
                .hasMessage("read percentage must be 0 to 100, not -1");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(4096).operation(IoJob.Operation.MIXED).build())
                .hasMessage("a MIXED job needs a read percentage (0 to 100)");
        assertThatThrownBy(() -> IoJob.builder().target("/dev/x").size(4096).readPercentage(50).write().build())
                .hasMessage("a read percentage applies only to MIXED jobs, not to WRITE");
        assertThatThrownBy(() -> new IoOp(OpType.READ, -1, 512)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readableToString() {
        assertThat(IoJob.builder().target("/dev/x").random(5).mixed(30).blockSize(8192).size(8192).direct().build())
                .hasToString("IoJob[/dev/x random mixed 30% reads bs=8192 size=8192 offset=0 direct seed=5]");
    }
}
