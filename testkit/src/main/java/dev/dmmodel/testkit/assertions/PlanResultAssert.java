package dev.dmmodel.testkit.assertions;

import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.plan.PlanEntry;
import dev.dmmodel.plan.PlanFailure;
import dev.dmmodel.plan.PlanResult;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a plan applied to a host: whether every line applied, where and how it fails, what each line did,
 * and the findings of the stack it builds. Failure messages quote the plan's lines with their results.
 *
 * <pre>{@code
 * assertThatPlan(plan).on(host)
 *         .failsAtLine(7)
 *         .withFailureMessageContaining("insufficient free space");
 * }</pre>
 */
public final class PlanResultAssert extends AbstractAssert<PlanResultAssert, PlanResult> {

    PlanResultAssert(PlanResult actual) {
        super(actual, PlanResultAssert.class);
    }

    /**
     * Verifies that every line of the plan applies on the host.
     *
     * <pre>{@code assertThatPlan(plan).on(host).succeeds();}</pre>
     */
    public PlanResultAssert succeeds() {
        isNotNull();
        actual.failure().ifPresent(f -> failWithMessage("Expecting the plan to apply, but it fails:%n  %s%nafter:%n%s",
                f, entries()));
        return this;
    }

    /**
     * Verifies that the plan fails, at the given line.
     *
     * <pre>{@code assertThatPlan(plan).on(host).failsAtLine(7);}</pre>
     */
    public PlanResultAssert failsAtLine(int line) {
        isNotNull();
        PlanFailure f = actual.failure().orElse(null);
        if (f == null) {
            failWithMessage("Expecting the plan to fail at line %s, but every line applies:%n%s", line, entries());
        } else if (f.line() != line) {
            failWithMessage("Expecting the plan to fail at line %s, but it fails at line %s:%n  %s", line, f.line(), f);
        }
        return this;
    }

    /**
     * Verifies that the plan fails with a message (the tool's own) containing {@code text}.
     *
     * <pre>{@code assertThatPlan(plan).on(host).withFailureMessageContaining("insufficient free space");}</pre>
     */
    public PlanResultAssert withFailureMessageContaining(String text) {
        isNotNull();
        PlanFailure f = actual.failure().orElse(null);
        if (f == null) {
            failWithMessage("Expecting the plan to fail with a message containing \"%s\", but every line applies",
                    text);
        } else if (!f.message().contains(text)) {
            failWithMessage("Expecting the failure message to contain \"%s\", but it is:%n  %s", text, f);
        }
        return this;
    }

    /**
     * Verifies that the command at {@code line} applied and that one of its results contains {@code text}.
     *
     * <pre>{@code assertThatPlan(plan).on(host).hasResultAtLine(4, "pe_start 2048s");}</pre>
     */
    public PlanResultAssert hasResultAtLine(int line, String text) {
        isNotNull();
        List<PlanEntry> at = new ArrayList<>();
        for (PlanEntry e : actual.entries()) {
            if (e.line() == line) {
                at.add(e);
                if (e.results().stream().anyMatch(r -> r.contains(text))) {
                    return this;
                }
            }
        }
        if (at.isEmpty()) {
            failWithMessage("Expecting a result at line %s containing \"%s\", but no command of line %s applied:%n%s",
                    line, text, line, entries());
        } else {
            failWithMessage("Expecting a result at line %s containing \"%s\", but its results are:%n  %s", line, text,
                    at);
        }
        return this;
    }

    /**
     * Verifies that the resulting stack has a finding of that kind.
     *
     * <pre>{@code assertThatPlan(plan).on(host).hasFinding(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE);}</pre>
     */
    public PlanResultAssert hasFinding(FindingType type) {
        isNotNull();
        String failure = FindingChecks.hasFinding(actual.findings(), type);
        if (failure != null) {
            failWithMessage("%s", failure);
        }
        return this;
    }

    /**
     * Verifies that the resulting stack has no finding of that kind.
     *
     * <pre>{@code assertThatPlan(plan).on(host).hasNoFinding(FindingType.PARTITION_MISALIGNED_IO_MIN);}</pre>
     */
    public PlanResultAssert hasNoFinding(FindingType type) {
        isNotNull();
        String failure = FindingChecks.hasNoFinding(actual.findings(), type);
        if (failure != null) {
            failWithMessage("%s", failure);
        }
        return this;
    }

    /**
     * Verifies that the resulting stack has no finding of {@code severity} or worse.
     *
     * <pre>{@code assertThatPlan(plan).on(host).hasNoFindingsOfSeverity(Severity.WARNING);}</pre>
     */
    public PlanResultAssert hasNoFindingsOfSeverity(Severity severity) {
        isNotNull();
        String failure = FindingChecks.noFindingsOfSeverity(actual.findings(), severity);
        if (failure != null) {
            failWithMessage("%s", failure);
        }
        return this;
    }

    /**
     * Assertions on the stack the plan leaves.
     *
     * <pre>{@code assertThatPlan(plan).on(host).layout().device("/dev/vg0/lv").hasAlignmentOffset(0);}</pre>
     */
    public LayoutAssert layout() {
        isNotNull();
        return new LayoutAssert(actual.layout());
    }

    private String entries() {
        StringBuilder b = new StringBuilder();
        for (PlanEntry e : actual.entries()) {
            b.append("  ").append(e).append(System.lineSeparator());
        }
        return b.length() == 0 ? "  (no command applied)" : b.toString().stripTrailing();
    }
}
