package dev.dmmodel.impl.plan;

import java.util.List;

/**
 * One command of a plan, read and checked, ready to run on a host. Reading never looks at the host; everything
 * that depends on it (a disk's size and I/O limits, a VG's free extents, a percentage) is decided in
 * {@link #apply(PlanState)}, as the tool decides it when it runs.
 */
public interface PlanOp {

    /** Where the command was written. */
    Origin origin();

    /** The tool or entry type, as the result names it ({@code sfdisk}, {@code lvcreate}, {@code part}). */
    String tool();

    /**
     * Runs the command on the host.
     *
     * @return what the tool printed or decided, one decision a string (may be empty)
     * @throws PlanOpFailure with the tool's own message when the tool would fail on this host
     * @throws dev.dmmodel.layout.LayoutException when the model refuses a step: its message is LVM's or the
     *     kernel's wording and becomes the failure's message
     */
    List<String> apply(PlanState state);

    /**
     * A command whose effect is a function of the host: what most readers make.
     *
     * @param run applies the command and returns its results
     */
    static PlanOp of(Origin origin, String tool, java.util.function.Function<PlanState, List<String>> run) {
        java.util.Objects.requireNonNull(origin, "origin");
        java.util.Objects.requireNonNull(tool, "tool");
        java.util.Objects.requireNonNull(run, "run");
        return new PlanOp() {
            @Override
            public Origin origin() {
                return origin;
            }

            @Override
            public String tool() {
                return tool;
            }

            @Override
            public List<String> apply(PlanState state) {
                return run.apply(state);
            }
        };
    }
}
