/**
 * AssertJ-style assertions for dmmodel's values: layouts and their findings, queue limits, block traces
 * and dm-thin statistics, with failure messages that show the part of the layout or trace that matters.
 * The entry point is {@link dev.dmmodel.testkit.assertions.DmAssertions}.
 *
 * <pre>{@code
 * import static dev.dmmodel.testkit.assertions.DmAssertions.*;
 * import static org.assertj.core.api.Assertions.*;   // no clash: see DmAssertions
 *
 * assertThat(layout).hasNoFindingsOfSeverity(Severity.WARNING);
 * assertThat(layout).device("/dev/vg/lv").isAligned().hasMaxSectorsKb(448);
 * assertThatTrace(events).at("dm-0").bioSizes().containsOnly(2048L);
 * }</pre>
 */
package dev.dmmodel.testkit.assertions;
