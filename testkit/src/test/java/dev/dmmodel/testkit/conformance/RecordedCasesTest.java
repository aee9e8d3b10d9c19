package dev.dmmodel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.nio.file.Files;
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
        Layout layout = Layout.of(c.snapshot().toLayoutSpec(profile));
        Set<String> dm = KernelConformance.dmDevices(layout);
        Set<String> metadata = KernelConformance.thinPoolMetadataDevices(layout);
        CompareMode mode = c.compareMode().orElseThrow();
        CompareScope scope = KernelConformance.scope(layout, KernelConformance.requestSizesDeterministic(c));

        assertThat(dm).as("%s: dm devices", id)
                .isEqualTo(c.snapshot().steps().stream().filter(LayoutStep.DmCreate.class::isInstance)
                        .map(st -> ((LayoutStep.DmCreate) st).kernelName().orElseThrow()).collect(Collectors.toSet()));
        assertThat(dm).as("%s: metadata devices are dm devices", id).containsAll(metadata);
        if (c.name().startsWith("thin-")) {
            assertThat(metadata).as("%s: thin-pool metadata devices", id).hasSize(1);
            checkMetadataRanges(id, dir, c, scope);
        } else {
            assertThat(metadata).as("%s: thin-pool metadata devices", id).isEmpty();
            assertThat(scope.thinMetadata()).as("%s: thin-pool metadata ranges", id).isEmpty();
        }

        List<TraceEvent> recorded = c.trace();
        Comparison self = TraceComparator.compare(recorded, recorded, mode, scope);
        assertThat(self.matches()).as("%s: the recorded trace against itself:\n%s", id, self.report()).isTrue();

        List<TraceEvent> byDevice = new ArrayList<>(recorded);
        byDevice.sort(Comparator.comparing(TraceEvent::device)); // stable: each device's own order is kept
        Comparison regrouped = TraceComparator.compare(recorded, byDevice, mode, scope);
        assertThat(regrouped.matches()).as("%s: regrouped by device:\n%s", id, regrouped.report()).isTrue();

        List<TraceEvent> compared = recorded.stream()
                .filter(e -> TraceComparator.compared(e, mode, scope)).toList();
        if (c.workloadLines().stream().anyMatch(l -> l.contains("bs=2k") && l.contains("/dev/vg/striped"))) {
            assertThat(compared).as("%s: the refused O_DIRECT write issues no bio", id).isEmpty();
            return;
        }
        assertThat(compared).as("%s: events the mode compares", id).isNotEmpty();
        List<TraceEvent> oneLess = new ArrayList<>(recorded);
        oneLess.remove(compared.get(compared.size() / 2));
        Comparison missing = TraceComparator.compare(recorded, oneLess, mode, scope);
        assertThat(missing.matches()).as("%s: one compared event left out", id).isFalse();
        assertThat(missing.report().lines().count()).as("%s: report length", id)
                .isLessThanOrEqualTo(TraceComparator.MAX_REPORT_LINES);

        if (scope.requestSizes()) {
            List<TraceEvent> requests = recorded.stream()
                    .filter(e -> e.type() == EventType.RQ_ISSUE && TraceComparator.requestCompared(e, mode, scope))
                    .toList();
            if (!requests.isEmpty()) {
                List<TraceEvent> oneRequestLess = new ArrayList<>(recorded);
                oneRequestLess.remove(requests.get(requests.size() / 2));
                assertThat(TraceComparator.compare(recorded, oneRequestLess, mode, scope).requestsDiffering())
                        .as("%s: one compared request left out", id).hasSize(1);
            }
        }
    }

    /**
     * The metadata ranges of a thin case against the snapshot's own text: the metadata device is the first
     * device of the {@code thin-pool} line of {@code dmsetup-table.txt}, its table one {@code linear} line
     * {@code 0 LEN linear MAJ:MIN OFF}, so its ranges are the device's {@code 0+LEN} and the disk's
     * {@code OFF+LEN}. And the recording bears the rule out: every remap out of the metadata device lands inside
     * them, and every remap onto the disk inside them comes from the metadata device.
     */
    private static void checkMetadataRanges(String id, Path dir, TraceCase c, CompareScope scope) {
        Path snap = dir.resolve("snapshot");
        java.util.Map<String, String> knameOfNumber = new java.util.HashMap<>();
        java.util.Map<String, String> knameOfDmName = new java.util.HashMap<>();
        try (Stream<Path> s = Files.list(snap.resolve("block"))) {
            for (Path d : s.toList()) {
                knameOfNumber.put(Files.readString(d.resolve("dev")).strip(), d.getFileName().toString());
                if (Files.isRegularFile(d.resolve("dm/name"))) {
                    knameOfDmName.put(Files.readString(d.resolve("dm/name")).strip(), d.getFileName().toString());
                }
            }
            List<String> table = Files.readAllLines(snap.resolve("dmsetup-table.txt"));
            String poolLine = table.stream().filter(l -> l.contains(" thin-pool ")).findFirst().orElseThrow();
            String metaNumber = poolLine.split(" thin-pool ")[1].strip().split("\\s+")[0];
            String meta = knameOfNumber.get(metaNumber);
            String metaLine = table.stream()
                    .filter(l -> knameOfDmName.get(l.substring(0, l.indexOf(':'))).equals(meta)).findFirst().orElseThrow();
            String[] w = metaLine.substring(metaLine.indexOf(':') + 1).strip().split("\\s+");
            assertThat(w[2]).as("%s: the metadata device's table %s", id, metaLine).isEqualTo("linear");
            long len = Long.parseLong(w[1]);
            String disk = knameOfNumber.get(w[3]);
            long off = Long.parseLong(w[4]);
            assertThat(scope.thinMetadata()).as("%s: metadata ranges of %s", id, metaLine)
                    .containsExactlyInAnyOrder(new DeviceRange(meta, 0, len), new DeviceRange(disk, off, len));
            DeviceRange onDisk = new DeviceRange(disk, off, len);
            long fromMeta = 0;
            for (TraceEvent e : c.trace()) {
                if (e.type() != EventType.BIO_REMAP || e.nrSectors() <= 0) {
                    continue;
                }
                boolean fromMetadata = e.extra().startsWith("from=" + meta + ":");
                if (fromMetadata) {
                    fromMeta++;
                    assertThat(onDisk.contains(e)).as("%s: a metadata remap lands inside %s: %s", id, onDisk, e).isTrue();
                } else if (e.device().equals(disk)) {
                    assertThat(onDisk.contains(e)).as("%s: a data remap lands outside %s: %s", id, onDisk, e).isFalse();
                }
            }
            boolean commitsInPhase = id.startsWith("kernel-traces/") || id.startsWith("kernel-traces-6.12/");
            if (commitsInPhase && c.name().matches("thin-(b\\d+|lvm)-.*") && !c.name().endsWith("-pass2")) {
                // every first pass provisions blocks, so dm-thin commits (pass2 writes provisioned blocks only);
                // on 5.10 and 7.2 "how many pool metadata commits ... fall inside a traced phase" varies (READMEs)
                assertThat(fromMeta).as("%s: metadata commits recorded", id).isPositive();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * {@code request-sizes.txt} gives a verdict for exactly the cases of the two trace folders compared in a
     * multiset mode (a new recording gets a decision, a renamed one does not leave a stale line).
     */
    @org.junit.jupiter.api.Test
    void everyMultisetCaseHasARequestSizeVerdict() {
        java.util.Optional<Path> shared = SharedFolders.shared();
        Assumptions.assumeTrue(shared.isPresent(), () -> "shared/ folder not found (system property "
                + SharedFolders.PROPERTY + " = " + System.getProperty(SharedFolders.PROPERTY)
                + "): request-size verdicts not checked against the recordings");
        Set<String> multiset = new java.util.TreeSet<>();
        for (String folder : SharedFolders.TRACE_FOLDERS) {
            Path root = shared.get().resolve(folder);
            Assumptions.assumeTrue(Files.isDirectory(root), () -> root + " not found: verdicts not checked");
            for (Path dir : SharedFolders.casesRun(folder, root)) {
                String word;
                try {
                    word = Files.readString(dir.resolve("compare.txt")).strip();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                if (CompareMode.ofWord(word) != CompareMode.SEQUENCE) {
                    multiset.add(folder + "/" + dir.getFileName());
                }
            }
        }
        assertThat(KernelConformance.requestSizeVerdicts().keySet()).containsExactlyInAnyOrderElementsOf(multiset);
    }

    /**
     * Every line of {@code timing-dependent-events.txt} names a recorded multiset case whose trace holds events of
     * that tracepoint on that device, and only 5.10's untraced deferred thin remaps are listed (a new entry is a
     * decision, not a way to hide a difference).
     */
    @org.junit.jupiter.api.Test
    void timingDependentEventsNameRecordedEvents() {
        java.util.Optional<Path> shared = SharedFolders.shared();
        Assumptions.assumeTrue(shared.isPresent(), () -> "shared/ folder not found (system property "
                + SharedFolders.PROPERTY + " = " + System.getProperty(SharedFolders.PROPERTY)
                + "): timing-dependent events not checked against the recordings");
        // 5.10's two buffered thin writes: the pool dm-2 is where the thin device's remaps land
        for (String id : List.of("kernel-traces-5.10/thin-b2048-zon-buffered1M",
                "kernel-traces-5.10/thin-lvm-zy-buffered1M")) {
            Path dir = shared.get().resolve(id);
            Assumptions.assumeTrue(Files.isDirectory(dir), () -> dir + " not found");
            TraceCase c = TraceCase.read(dir);
            assertThat(c.compareMode()).contains(CompareMode.MULTISET_DATA);
            assertThat(KernelConformance.timingDependentEvents(c)).as(id)
                    .containsExactly(new CompareScope.DeviceEvents("dm-2", EventType.BIO_REMAP));
            // dm-2 is the pool: it remaps every bio to its data device dm-1
            assertThat(c.trace()).anyMatch(e -> e.type() == EventType.BIO_REMAP && e.device().equals("dm-1")
                    && e.extra().startsWith("from=dm-2:"));
        }
        // every other recorded case has none
        for (String folder : SharedFolders.TRACE_FOLDERS) {
            Path root = shared.get().resolve(folder);
            if (!Files.isDirectory(root)) {
                continue;
            }
            for (Path dir : SharedFolders.casesRun(folder, root)) {
                String id = folder + "/" + dir.getFileName();
                if (!id.startsWith("kernel-traces-5.10/thin-") || !id.endsWith("-buffered1M")) {
                    assertThat(KernelConformance.timingDependentEvents(TraceCase.read(dir))).as(id).isEmpty();
                }
            }
        }
    }
}
