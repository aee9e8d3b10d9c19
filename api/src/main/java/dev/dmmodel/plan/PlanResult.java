package dev.dmmodel.plan;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.workload.Script;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A plan applied to a host: the layout it leaves, what each command did and the first command that would fail.
 * Application stops at the first failure, as {@code set -e}, anaconda and curtin do: {@link #layout()} is then the
 * stack as the commands before it left it.
 */
public final class PlanResult {

    private final Layout layout;
    private final List<PlanEntry> entries;
    private final Optional<PlanFailure> failure;
    private final Script setup;

    /**
     * @param layout the stack after the last command that succeeded
     * @param entries one entry per command applied, in plan order (the failing command has none)
     * @param failure the first failing command, if any
     * @param setup the plan's filesystem commands ({@code mkfs}, {@code mount}) that a workload on the result runs
     *     after: they set block sizes the engine uses (a mounted XFS's sector size, ext4's block size)
     */
    public PlanResult(Layout layout, List<PlanEntry> entries, Optional<PlanFailure> failure, Script setup) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.entries = List.copyOf(entries);
        this.failure = Objects.requireNonNull(failure, "failure");
        this.setup = Objects.requireNonNull(setup, "setup");
    }

    /** The stack the plan leaves (up to its first failure); its {@link Layout#spec()} is present. */
    public Layout layout() {
        return layout;
    }

    /** One entry per command applied, in plan order. */
    public List<PlanEntry> entries() {
        return entries;
    }

    /** The first command that would fail on the host, if any. */
    public Optional<PlanFailure> failure() {
        return failure;
    }

    /** Whether every command applied. */
    public boolean succeeded() {
        return failure.isEmpty();
    }

    /** The filesystem commands ({@code mkfs}, {@code mount}) to run before a workload on {@link #layout()}. */
    public Script setup() {
        return setup;
    }

    /** The findings of the resulting stack ({@link Layout#findings()}). */
    public List<Finding> findings() {
        return layout.findings();
    }

    @Override
    public String toString() {
        return "PlanResult[" + entries.size() + " commands applied" + failure.map(f -> ", failed at " + f).orElse("")
                + "]";
    }
}
