package dev.dmmodel.testkit.assertions;

import dev.dmmodel.engine.ThinStats;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on what dm-thin did for one thin device ({@link dev.dmmodel.engine.Simulation#thinStats()}).
 * Failure messages show every field of the statistics.
 *
 * <pre>{@code
 * Simulation sim = Simulation.of(layout);
 * sim.execute(Command.parse("dd if=/dev/zero of=/dev/vg0/thin0 bs=1M count=4 oflag=direct"), e -> { });
 * assertThat(sim.thinStats().get(0)).zeroedNoBlocks().copiedNoBlocks().hasPartialFirstWrites(0);
 * }</pre>
 */
public final class ThinStatsAssert extends AbstractAssert<ThinStatsAssert, ThinStats> {

    ThinStatsAssert(ThinStats actual) {
        super(actual, ThinStatsAssert.class);
    }

    private ThinStatsAssert check(String field, long expected, long value) {
        isNotNull();
        if (expected != value) {
            failWithMessage("%s", "Expecting " + field + " of thin device " + actual.thinDevice() + " to be " + expected
                    + " but was " + value + "\n" + Messages.thinStats(actual));
        }
        return this;
    }

    /**
     * Verifies that no block was zeroed before its first write ({@code blocksZeroed} 0).
     *
     * <pre>{@code assertThat(stats).zeroedNoBlocks();}</pre>
     */
    public ThinStatsAssert zeroedNoBlocks() {
        return hasBlocksZeroed(0);
    }

    /**
     * Verifies how many blocks were zeroed before their first write.
     *
     * <pre>{@code assertThat(stats).hasBlocksZeroed(4);}</pre>
     */
    public ThinStatsAssert hasBlocksZeroed(long blocks) {
        isNotNull();
        return check("blocksZeroed", blocks, actual.blocksZeroed());
    }

    /**
     * Verifies how many provisioning writes did not cover their whole block.
     *
     * <pre>{@code assertThat(stats).hasPartialFirstWrites(0);}</pre>
     */
    public ThinStatsAssert hasPartialFirstWrites(long writes) {
        isNotNull();
        return check("partialFirstWrites", writes, actual.partialFirstWrites());
    }

    /**
     * Verifies that no shared block was copied before being written ({@code blocksCopied} 0).
     *
     * <pre>{@code assertThat(stats).copiedNoBlocks();}</pre>
     */
    public ThinStatsAssert copiedNoBlocks() {
        return hasBlocksCopied(0);
    }

    /**
     * Verifies how many shared blocks were copied before being written (snapshots' break of sharing).
     *
     * <pre>{@code assertThat(stats).hasBlocksCopied(1);}</pre>
     */
    public ThinStatsAssert hasBlocksCopied(long blocks) {
        isNotNull();
        return check("blocksCopied", blocks, actual.blocksCopied());
    }

    /**
     * Verifies how many blocks were newly mapped to the thin device.
     *
     * <pre>{@code assertThat(stats).hasBlocksProvisioned(4);}</pre>
     */
    public ThinStatsAssert hasBlocksProvisioned(long blocks) {
        isNotNull();
        return check("blocksProvisioned", blocks, actual.blocksProvisioned());
    }
}
