package dev.dmmodel.testkit.assertions;

import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.TraceEvent;
import java.util.List;

/**
 * Entry point of dmmodel's AssertJ-style assertions. Every assertion fails with AssertJ's standard
 * "Expecting actual not to be null" on a null value.
 *
 * <p><b>Names.</b> The single-value entry points are overloads of {@code assertThat}: {@link Layout},
 * {@link QueueLimits}, {@link Finding} and {@link ThinStats} are not types AssertJ has overloads for, so Java
 * picks these when you also {@code import static org.assertj.core.api.Assertions.*}. Lists are another
 * matter: {@code assertThat(List<TraceEvent>)} would have the same erasure as AssertJ's
 * {@code assertThat(List<? extends E>)} and the call would be ambiguous with both imported. The list entry
 * points therefore have their own names: {@link #assertThatTrace(List)} and {@link #assertThatFindings(List)}.
 *
 * <pre>{@code
 * import static dev.dmmodel.testkit.assertions.DmAssertions.*;
 * import static org.assertj.core.api.Assertions.*;
 *
 * assertThat(layout).hasFinding(FindingType.PARTITION_MISALIGNED_IO_MIN).hasNoFindingsOfSeverity(Severity.ERROR);
 * assertThat(layout).device("sda1").hasAlignmentOffset(33280);
 * assertThatTrace(events).at("dm-0").bioSizes().containsOnly(2048L);
 * assertThat(sim.thinStats().get(0)).zeroedNoBlocks();
 * assertThatPlan(Plan.read(Path.of("provision.sh"))).on(host).succeeds().hasNoFindingsOfSeverity(Severity.WARNING);
 * }</pre>
 */
public final class DmAssertions {

    private DmAssertions() {
    }

    /**
     * Assertions on a layout: findings, devices, limits, dm tables.
     *
     * <pre>{@code assertThat(layout).hasNoFindingsOfSeverity(Severity.WARNING);}</pre>
     */
    public static LayoutAssert assertThat(Layout actual) {
        return new LayoutAssert(actual);
    }

    /**
     * Assertions on queue limits not taken from a layout (messages call the device {@code (limits)}); for a
     * layout's device prefer {@link LayoutAssert#device(String)}, whose messages name it.
     *
     * <pre>{@code assertThat(layout.limits("sda")).hasMaxSegments(128);}</pre>
     */
    public static QueueLimitsAssert assertThat(QueueLimits actual) {
        return new QueueLimitsAssert(actual, "(limits)");
    }

    /**
     * Assertions on one finding.
     *
     * <pre>{@code assertThat(layout.findings().get(0)).hasId("align.partition.io-min");}</pre>
     */
    public static FindingAssert assertThat(Finding actual) {
        return new FindingAssert(actual);
    }

    /**
     * Assertions on a list of findings (named so as not to clash with AssertJ's {@code assertThat(List)}).
     *
     * <pre>{@code assertThatFindings(layout.findings()).hasNoFinding(FindingType.DEVICE_MISALIGNED);}</pre>
     */
    public static FindingsAssert assertThatFindings(List<Finding> actual) {
        return new FindingsAssert(actual);
    }

    /**
     * Assertions on a block trace (named so as not to clash with AssertJ's {@code assertThat(List)}).
     *
     * <pre>{@code assertThatTrace(events).at("sda").requestSizes().allMatch(n -> n <= 896);}</pre>
     */
    public static TraceAssert assertThatTrace(List<TraceEvent> actual) {
        return new TraceAssert(actual);
    }

    /**
     * Assertions on dm-thin's statistics for one thin device.
     *
     * <pre>{@code assertThat(sim.thinStats().get(0)).zeroedNoBlocks();}</pre>
     */
    public static ThinStatsAssert assertThat(ThinStats actual) {
        return new ThinStatsAssert(actual);
    }

    /**
     * Assertions on a provisioning plan: apply it to a host with {@code on(...)}.
     *
     * <pre>{@code assertThatPlan(Plan.read(Path.of("provision.sh"))).on(host).succeeds();}</pre>
     */
    public static PlanAssert assertThatPlan(dev.dmmodel.plan.Plan actual) {
        return new PlanAssert(actual);
    }
}
