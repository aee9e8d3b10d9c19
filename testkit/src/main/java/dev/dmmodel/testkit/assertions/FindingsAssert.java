package dev.dmmodel.testkit.assertions;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a list of findings, e.g. from {@link dev.dmmodel.layout.Layout#findings()} or a validation
 * of your own. Failure messages list the offending findings with their ids, devices and messages.
 *
 * <pre>{@code
 * assertThatFindings(layout.findings())
 *         .hasFinding(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE)
 *         .hasNoFindingsOfSeverity(Severity.ERROR);
 * }</pre>
 */
public final class FindingsAssert extends AbstractAssert<FindingsAssert, List<Finding>> {

    FindingsAssert(List<Finding> actual) {
        super(actual, FindingsAssert.class);
    }

    private FindingsAssert check(String failure) {
        isNotNull();
        if (failure != null) {
            failWithMessage("%s", failure);
        }
        return this;
    }

    /**
     * Verifies that the list is empty.
     *
     * <pre>{@code assertThatFindings(layout.findings()).hasNoFindings();}</pre>
     */
    public FindingsAssert hasNoFindings() {
        isNotNull();
        return check(FindingChecks.noFindings(actual));
    }

    /**
     * Verifies that no finding has {@code severity} or a worse one ({@link Severity} orders INFO &lt; WARNING
     * &lt; ERROR): {@code hasNoFindingsOfSeverity(WARNING)} allows INFO findings only.
     *
     * <pre>{@code assertThatFindings(findings).hasNoFindingsOfSeverity(Severity.WARNING);}</pre>
     */
    public FindingsAssert hasNoFindingsOfSeverity(Severity severity) {
        isNotNull();
        return check(FindingChecks.noFindingsOfSeverity(actual, severity));
    }

    /**
     * Verifies that some finding is of that kind.
     *
     * <pre>{@code assertThatFindings(findings).hasFinding(FindingType.PARTITION_MISALIGNED_IO_MIN);}</pre>
     */
    public FindingsAssert hasFinding(FindingType type) {
        isNotNull();
        return check(FindingChecks.hasFinding(actual, type));
    }

    /**
     * Verifies that some finding has that stable id ({@link FindingType#id()}).
     *
     * <pre>{@code assertThatFindings(findings).hasFindingWithId("align.pv.full-stripe");}</pre>
     */
    public FindingsAssert hasFindingWithId(String id) {
        isNotNull();
        return check(FindingChecks.hasFindingWithId(actual, id));
    }

    /**
     * Verifies that no finding is of that kind.
     *
     * <pre>{@code assertThatFindings(findings).hasNoFinding(FindingType.DEVICE_MISALIGNED);}</pre>
     */
    public FindingsAssert hasNoFinding(FindingType type) {
        isNotNull();
        return check(FindingChecks.hasNoFinding(actual, type));
    }
}
