package dev.dmmodel.testkit.assertions;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on one finding. Failure messages show the whole finding: severity, id, device, message and fix.
 *
 * <pre>{@code
 * assertThat(layout.findings().get(0))
 *         .hasType(FindingType.PARTITION_MISALIGNED_IO_MIN)
 *         .hasSeverity(Severity.WARNING)
 *         .isOnDevice("sda1");
 * }</pre>
 */
public final class FindingAssert extends AbstractAssert<FindingAssert, Finding> {

    FindingAssert(Finding actual) {
        super(actual, FindingAssert.class);
    }

    private FindingAssert check(boolean ok, String expectation) {
        if (!ok) {
            failWithMessage("%s", "Expecting finding\n    " + actual + "\n" + expectation);
        }
        return this;
    }

    /**
     * Verifies the finding's kind.
     *
     * <pre>{@code assertThat(finding).hasType(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE);}</pre>
     */
    public FindingAssert hasType(FindingType type) {
        isNotNull();
        Objects.requireNonNull(type, "type");
        return check(actual.type() == type, "to be of type " + type.id() + " (" + type + ")");
    }

    /**
     * Verifies the finding's stable id.
     *
     * <pre>{@code assertThat(finding).hasId("align.partition.io-min");}</pre>
     */
    public FindingAssert hasId(String id) {
        isNotNull();
        Objects.requireNonNull(id, "id");
        return check(actual.id().equals(id), "to have id " + id);
    }

    /**
     * Verifies the finding's severity (exactly).
     *
     * <pre>{@code assertThat(finding).hasSeverity(Severity.WARNING);}</pre>
     */
    public FindingAssert hasSeverity(Severity severity) {
        isNotNull();
        Objects.requireNonNull(severity, "severity");
        return check(actual.severity() == severity, "to have severity " + severity);
    }

    /**
     * Verifies the device (kernel name, or VG name) the finding concerns.
     *
     * <pre>{@code assertThat(finding).isOnDevice("sda1");}</pre>
     */
    public FindingAssert isOnDevice(String device) {
        isNotNull();
        Objects.requireNonNull(device, "device");
        return check(actual.device().equals(device), "to concern device " + device);
    }

    /**
     * Verifies that the finding's message contains the text.
     *
     * <pre>{@code assertThat(finding).hasMessageContaining("starts at sector 63");}</pre>
     */
    public FindingAssert hasMessageContaining(String text) {
        isNotNull();
        Objects.requireNonNull(text, "text");
        return check(actual.message().contains(text), "to have a message containing \"" + text + "\"");
    }
}
