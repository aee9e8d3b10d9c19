package dev.dmmodel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.spi.ModelProviders;
import dev.dmmodel.trace.TraceEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The harness on the recorded cases themselves, without the engine: every case with a {@code compare.txt}
 * reads ({@link TraceCase#read}), its layout builds under the recorded kernel's profile, the dm and thin-pool
 * metadata devices found in the layout are the snapshot's, and the recorded trace compared with itself
 * agrees, also with the devices' events interleaved otherwise, while dropping one compared event does not.
 * Skipped, saying where it looked, without the shared folder.
 */
class RecordedCasesTest {

    private static final String WHAT = "recorded trace cases";

    @TestFactory
    Stream<DynamicNode> recordedCasesAreConsistentWithTheHarness() {
        return SharedFolders.perCase(WHAT, "compare.txt", (id, dir) -> dynamicTest(id, dir.toUri(),
                () -> check(id, dir)));
    }

    private static void check(String id, Path dir) {
        TraceCase c;
        try {
            c = TraceCase.read(dir);
        } catch (IllegalArgumentException e) {
            Assumptions.assumeFalse(String.valueOf(e.getMessage()).endsWith("found 'block_rq_requeue'"),
                    () -> id + ": trace.csv holds block_rq_requeue, which dev.dmmodel.trace.EventType does not know"
                            + " yet (" + e.getMessage() + ")");
            throw new AssertionError(id + ": reading the case failed: " + e.getMessage(), e);
        }
        KernelProfile profile = c.snapshot().profile().orElseThrow(
                () -> new AssertionError(id + ": the snapshot has no kernel-release"));
        Layout layout = ModelProviders.get().build(c.snapshot().toLayoutSpec(profile));
        Set<String> dm = KernelConformance.dmDevices(layout);
        Set<String> metadata = KernelConformance.thinPoolMetadataDevices(layout);
        CompareMode mode = c.compareMode().orElseThrow();

        assertThat(dm).as("%s: dm devices", id)
                .isEqualTo(c.snapshot().steps().stream().filter(LayoutStep.DmCreate.class::isInstance)
                        .map(st -> ((LayoutStep.DmCreate) st).kernelName().orElseThrow()).collect(Collectors.toSet()));
        assertThat(dm).as("%s: metadata devices are dm devices", id).containsAll(metadata);
        if (c.name().startsWith("thin-")) {
            assertThat(metadata).as("%s: thin-pool metadata devices", id).hasSize(1);
        } else {
            assertThat(metadata).as("%s: thin-pool metadata devices", id).isEmpty();
        }

        List<TraceEvent> recorded = c.trace();
        Comparison self = TraceComparator.compare(recorded, recorded, mode, dm, metadata);
        assertThat(self.matches()).as("%s: the recorded trace against itself:\n%s", id, self.report()).isTrue();

        List<TraceEvent> byDevice = new ArrayList<>(recorded);
        byDevice.sort(Comparator.comparing(TraceEvent::device)); // stable: each device's own order is kept
        Comparison regrouped = TraceComparator.compare(recorded, byDevice, mode, dm, metadata);
        assertThat(regrouped.matches()).as("%s: regrouped by device:\n%s", id, regrouped.report()).isTrue();

        List<TraceEvent> compared = recorded.stream()
                .filter(e -> TraceComparator.compared(e, mode, dm, metadata)).toList();
        if (c.workloadLines().stream().anyMatch(l -> l.contains("bs=2k") && l.contains("/dev/vg/striped"))) {
            assertThat(compared).as("%s: the refused O_DIRECT write issues no bio", id).isEmpty();
            return;
        }
        assertThat(compared).as("%s: events the mode compares", id).isNotEmpty();
        List<TraceEvent> oneLess = new ArrayList<>(recorded);
        oneLess.remove(compared.get(compared.size() / 2));
        Comparison missing = TraceComparator.compare(recorded, oneLess, mode, dm, metadata);
        assertThat(missing.matches()).as("%s: one compared event left out", id).isFalse();
        assertThat(missing.report().lines().count()).as("%s: report length", id)
                .isLessThanOrEqualTo(TraceComparator.MAX_REPORT_LINES);
    }
}
