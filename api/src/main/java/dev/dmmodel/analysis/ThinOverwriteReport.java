package dev.dmmodel.analysis;

import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.finding.Finding;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why first writes to a thin device did not overwrite whole blocks, what it cost, and what would fix it
 * — each fix checked by running the model again with the change.
 *
 * @param thinDevice the thin device (kernel name)
 * @param stats what dm-thin did in the run
 * @param causes the cause chain, from the bios that reached the thin device down to the limit that shaped them
 * @param finding the finding, if any first write was partial
 * @param fixes candidate fixes with their effect
 */
public record ThinOverwriteReport(String thinDevice, ThinStats stats, List<String> causes, Optional<Finding> finding,
                                  List<FixOutcome> fixes) {

    /**
     * One candidate fix, re-run through the model.
     *
     * @param description what to do, as a user would do it
     * @param blocksZeroed blocks zeroed before their first write with the fix
     * @param blocksCopied shared blocks copied with the fix
     * @param extraBytesWritten extra bytes written with the fix
     * @param partialFirstWrites first writes that still did not cover their block
     * @param caveat what the fix costs or risks, empty if nothing
     */
    public record FixOutcome(String description, long blocksZeroed, long blocksCopied, long extraBytesWritten,
                             long partialFirstWrites, String caveat) {
        /** Rejects nulls. */
        public FixOutcome {
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(caveat, "caveat");
        }

        /** Whether the fix removes the extra zeroing and copying. */
        public boolean works() {
            return blocksZeroed == 0 && blocksCopied == 0;
        }
    }

    /** Copies the lists. */
    public ThinOverwriteReport {
        Objects.requireNonNull(thinDevice, "thinDevice");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(finding, "finding");
        causes = List.copyOf(causes);
        fixes = List.copyOf(fixes);
    }
}
