package dev.dmmodel.testkit.assertions;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.plan.Plan;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a provisioning plan, for the unit tests of provisioning code: apply it to a host with
 * {@link #on(LayoutSpec)} and assert on what each line did and on the stack it builds.
 *
 * <pre>{@code
 * assertThatPlan(Plan.read(Path.of("provision.sh")))
 *         .on(HostSnapshot.read(Path.of("hosts/db01")).toLayoutSpec())
 *         .succeeds()
 *         .hasResultAtLine(4, "pe_start 2048s")
 *         .hasNoFindingsOfSeverity(Severity.WARNING);
 * }</pre>
 */
public final class PlanAssert extends AbstractAssert<PlanAssert, Plan> {

    PlanAssert(Plan actual) {
        super(actual, PlanAssert.class);
    }

    /**
     * Applies the plan to a host given by its steps and returns assertions on the result.
     *
     * <pre>{@code assertThatPlan(plan).on(blankHost).succeeds();}</pre>
     */
    public PlanResultAssert on(LayoutSpec host) {
        isNotNull();
        if (host == null) {
            failWithMessage("Expecting a host to apply %s to, but it was null", actual);
        }
        return new PlanResultAssert(actual.applyTo(host));
    }

    /**
     * Applies the plan to a layout (a builder's, a reader's, another plan's result) and returns assertions on the
     * result.
     *
     * <pre>{@code assertThatPlan(second).on(first.layout()).succeeds();}</pre>
     */
    public PlanResultAssert on(Layout host) {
        isNotNull();
        if (host == null) {
            failWithMessage("Expecting a host to apply %s to, but it was null", actual);
        }
        return new PlanResultAssert(actual.applyTo(host));
    }

    /**
     * Verifies that the plan has {@code count} commands.
     *
     * <pre>{@code assertThatPlan(plan).hasCommandCount(6);}</pre>
     */
    public PlanAssert hasCommandCount(int count) {
        isNotNull();
        if (actual.commands().size() != count) {
            failWithMessage("Expecting %s to have %s commands but it has %s: %s", actual.source(), count,
                    actual.commands().size(), actual.commands());
        }
        return this;
    }
}
