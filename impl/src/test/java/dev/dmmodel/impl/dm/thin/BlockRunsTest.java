package dev.dmmodel.impl.dm.thin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The run map against a block-by-block array: same values everywhere, runs always coalesced. */
class BlockRunsTest {

    private static final int SIZE = 200;

    @Test
    void randomPutsAndRemovesAgreeWithAnArrayAndStayCoalesced() {
        SplittableRandom r = new SplittableRandom(0x7B10CCL);
        for (int round = 0; round < 300; round++) {
            BlockRuns runs = new BlockRuns();
            Long[] model = new Long[SIZE];
            for (int op = 0; op < 60; op++) {
                int from = r.nextInt(SIZE);
                // mostly short ranges and the sequential case (extend by one block), sometimes long ones
                int to = Math.min(SIZE, from + (r.nextInt(4) == 0 ? 1 + r.nextInt(40) : 1));
                if (r.nextInt(5) == 0) {
                    runs.remove(from, to);
                    for (int b = from; b < to; b++) {
                        model[b] = null;
                    }
                } else {
                    long v = r.nextInt(3);
                    runs.put(from, to, v);
                    for (int b = from; b < to; b++) {
                        model[b] = v;
                    }
                }
                for (int b = 0; b < SIZE; b++) {
                    assertThat(runs.get(b)).as("round %d op %d block %d", round, op, b).isEqualTo(model[b]);
                }
                // coalesced: adjacent runs differ in value; and the counts add up
                long covered = 0;
                long[] prev = null;
                for (long[] run : runs.all()) {
                    assertThat(run[0]).isLessThan(run[1]);
                    if (prev != null) {
                        assertThat(prev[1]).isLessThanOrEqualTo(run[0]);
                        if (prev[1] == run[0]) {
                            assertThat(prev[2]).isNotEqualTo(run[2]);
                        }
                    }
                    covered += run[1] - run[0];
                    prev = run;
                }
                long expected = 0;
                for (Long m : model) {
                    expected += m == null ? 0 : 1;
                }
                assertThat(runs.covered()).isEqualTo(covered).isEqualTo(expected);
            }
        }
    }

    @Test
    void sequentialProvisioningIsOneRun() {
        // a thin device written front to back: virtual block b -> data block b + 5, one run however long
        BlockRuns runs = new BlockRuns();
        for (long b = 0; b < 100_000; b++) {
            runs.put(b, b + 1, 5);
        }
        assertThat(runs.size()).isEqualTo(1);
        assertThat(runs.upperEnd()).isEqualTo(100_000);
        assertThat(runs.within(10, 20)).singleElement().satisfies(x -> assertThat(x).containsExactly(10, 20, 5));
    }
}
