package dev.dmmodel.testkit.assertions;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import java.util.Objects;
import java.util.Optional;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a {@link Layout}: its findings, its devices, their queue limits and its dm tables. Failure
 * messages show the offending findings (severity, id, device, message) and the layout summary of
 * {@link dev.dmmodel.testkit.property.StackPlan#describe(Layout)}.
 *
 * <p>{@link Layout#findings()} is computed once, when the first finding check runs, and reused.
 *
 * <pre>{@code
 * assertThat(layout)
 *         .hasFinding(FindingType.PARTITION_MISALIGNED_IO_MIN)
 *         .hasNoFindingsOfSeverity(Severity.ERROR)
 *         .hasDevice("/dev/vg/lv");
 * }</pre>
 */
public final class LayoutAssert extends AbstractAssert<LayoutAssert, Layout> {

    private java.util.List<dev.dmmodel.finding.Finding> findings;

    LayoutAssert(Layout actual) {
        super(actual, LayoutAssert.class);
    }

    private java.util.List<dev.dmmodel.finding.Finding> findings() {
        if (findings == null) {
            findings = actual.findings();
        }
        return findings;
    }

    private LayoutAssert check(String failure) {
        if (failure != null) {
            failWithMessage("%s", failure + "\nin " + Messages.layout(actual));
        }
        return this;
    }

    /**
     * Verifies that the layout has no findings at all, not even INFO ones.
     *
     * <pre>{@code assertThat(layout).hasNoFindings();}</pre>
     */
    public LayoutAssert hasNoFindings() {
        isNotNull();
        return check(FindingChecks.noFindings(findings()));
    }

    /**
     * Verifies that the layout has no finding of {@code severity} <em>or worse</em> ({@link Severity} orders
     * INFO &lt; WARNING &lt; ERROR): {@code hasNoFindingsOfSeverity(Severity.WARNING)} fails on WARNING and
     * ERROR findings and lets INFO ones pass; {@code hasNoFindingsOfSeverity(Severity.INFO)} is
     * {@link #hasNoFindings()}.
     *
     * <pre>{@code assertThat(layout).hasNoFindingsOfSeverity(Severity.WARNING);}</pre>
     */
    public LayoutAssert hasNoFindingsOfSeverity(Severity severity) {
        isNotNull();
        return check(FindingChecks.noFindingsOfSeverity(findings(), severity));
    }

    /**
     * Verifies that the layout has a finding of that kind.
     *
     * <pre>{@code assertThat(layout).hasFinding(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE);}</pre>
     */
    public LayoutAssert hasFinding(FindingType type) {
        isNotNull();
        return check(FindingChecks.hasFinding(findings(), type));
    }

    /**
     * Verifies that the layout has a finding with that stable id ({@link FindingType#id()}).
     *
     * <pre>{@code assertThat(layout).hasFindingWithId("align.partition.io-min");}</pre>
     */
    public LayoutAssert hasFindingWithId(String id) {
        isNotNull();
        return check(FindingChecks.hasFindingWithId(findings(), id));
    }

    /**
     * Verifies that the layout has no finding of that kind.
     *
     * <pre>{@code assertThat(layout).hasNoFinding(FindingType.DEVICE_MISALIGNED);}</pre>
     */
    public LayoutAssert hasNoFinding(FindingType type) {
        isNotNull();
        return check(FindingChecks.hasNoFinding(findings(), type));
    }

    /**
     * Verifies that a device answers to the reference (any form {@link Layout#find(String)} takes: {@code dm-0},
     * {@code /dev/sda1}, {@code /dev/vg/lv}, {@code vg/lv}, {@code vg-lv}, {@code 253:0}).
     *
     * <pre>{@code assertThat(layout).hasDevice("/dev/vg/lv");}</pre>
     */
    public LayoutAssert hasDevice(String reference) {
        isNotNull();
        Objects.requireNonNull(reference, "reference");
        return check(actual.find(reference).isPresent() ? null
                : "Expecting a device '" + reference + "' but there is none (devices: "
                + actual.devices().stream().map(BlockDevice::name).toList() + ")");
    }

    /**
     * Verifies {@code dmsetup table} for every dm device ({@link Layout#dmsetupTable()}), compared line for
     * line; a missing or extra final newline does not matter.
     *
     * <pre>{@code assertThat(layout).hasDmsetupTable("vg-lv: 0 2097152 linear 8:1 2753");}</pre>
     */
    public LayoutAssert hasDmsetupTable(String expected) {
        isNotNull();
        Objects.requireNonNull(expected, "expected");
        String table = actual.dmsetupTable();
        return check(trimEnd(table).equals(trimEnd(expected)) ? null
                : "Expecting dmsetup table:\n" + indent(expected) + "\nbut was:\n" + indent(table));
    }

    /**
     * Verifies that a device answers to the reference (see {@link #hasDevice(String)}) and returns assertions on
     * its queue limits, whose messages name the device.
     *
     * <pre>{@code assertThat(layout).device("sda1").hasAlignmentOffset(33280);}</pre>
     */
    public QueueLimitsAssert device(String reference) {
        hasDevice(reference);
        Optional<BlockDevice> d = actual.find(reference);
        String name = d.get().name().equals(reference) ? reference : reference + " (" + d.get().name() + ")";
        return new QueueLimitsAssert(d.get().limits(), name);
    }

    private static String trimEnd(String s) {
        return s.replaceAll("\\s+$", "");
    }

    private static String indent(String s) {
        String t = trimEnd(s);
        return t.isEmpty() ? "    (empty)" : "    " + t.replace("\n", "\n    ");
    }
}
