package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.impl.lvm.PvCreate;
import dev.dmmodel.impl.lvm.PvTopology;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.spi.ModelProviders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The kernel's recorded answers against the model: for every recorded case in
 * {@code ${dmmodel.shared.dir}/kernel-traces} (Linux 6.1), {@code .../kernel-traces-6.12}, {@code -5.10},
 * {@code -7.2} and {@code -6.12-stacks} (dm-crypt, snapshots, caches, multipath, md, LVM raid, NVMe), the snapshot
 * is imported ({@link Snapshot#toLayoutSpec}), the layout built under the profile of the recorded kernel
 * release, and every dm device's queue limits compared, field by field, with what sysfs showed; for
 * partitions the alignment offset; for LVM cases the PV's {@code pe_start}. A dm device with a target the model
 * does not implement takes the limits the kernel recorded ({@link dev.dmmodel.dm.OpaqueTarget}): its test, named
 * {@code [not modelled: as recorded]}, checks only that the import read them; the devices above and below it are
 * computed as any other.
 *
 * <p>One dynamic test per case and device. A failure lists every differing field as
 * {@code field: expected X, computed Y}. An attribute the recorded kernel's sysfs does not have (5.10 has no
 * {@code dma_alignment} or {@code virt_boundary_mask}) is not compared. A device listed in
 * {@code conformance/limits-known-gaps.txt} with its reason is reported as skipped while it still differs and
 * fails as soon as it matches. Without the shared folder the whole factory is one skipped test,
 * so that a plain build of the project works without the recordings.
 */
class LimitsConformanceTest {

    private static final String PROPERTY = "dmmodel.shared.dir";
    private static final List<String> TRACE_FOLDERS = List.of("kernel-traces", "kernel-traces-6.12",
            "kernel-traces-5.10", "kernel-traces-7.2", "kernel-traces-6.12-stacks");
    private static final Map<String, String> KNOWN_GAPS = knownGaps();

    /** {@code <folder>/<case> <kname>} to why its limits do not match yet ({@code conformance/limits-known-gaps.txt}). */
    static Map<String, String> knownGaps() {
        Map<String, String> gaps = new java.util.LinkedHashMap<>();
        try (var in = LimitsConformanceTest.class.getResourceAsStream("/conformance/limits-known-gaps.txt")) {
            if (in == null) {
                throw new IllegalStateException("test resource /conformance/limits-known-gaps.txt is missing");
            }
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t", 2);
                gaps.put(parts[0].strip(), parts.length > 1 ? parts[1].strip() : "no reason given");
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return gaps;
    }

    @TestFactory
    Stream<DynamicNode> recordedKernelsAgreeWithTheModel() {
        String property = System.getProperty(PROPERTY);
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        if (shared == null || !Files.isDirectory(shared)) {
            String where = shared == null ? "<system property " + PROPERTY + " is not set>" : shared.toString();
            return Stream.of(skipped("shared/ folder not found at " + where + ": kernel conformance cases skipped"));
        }
        List<DynamicNode> folders = new ArrayList<>();
        for (String folder : TRACE_FOLDERS) {
            Path root = shared.resolve(folder);
            if (!Files.isDirectory(root)) {
                folders.add(skipped(folder + "/ folder not found at " + root + ": its kernel conformance cases skipped"));
            } else {
                folders.add(dynamicContainer(folder, root.toUri(), cases(folder, root)));
            }
        }
        return folders.stream();
    }

    private static DynamicNode skipped(String message) {
        return dynamicTest("kernel conformance cases", () -> Assumptions.assumeTrue(false, message));
    }

    private static Stream<DynamicNode> cases(String folder, Path root) {
        List<Path> caseDirs;
        try (Stream<Path> s = Files.list(root)) {
            caseDirs = s.filter(p -> Files.isDirectory(p.resolve("snapshot"))).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + root + ": " + e.getMessage(), e);
        }
        if (caseDirs.isEmpty()) {
            return Stream.of(dynamicTest("cases", () -> {
                throw new AssertionError(root + " holds no case folder with a snapshot/");
            }));
        }
        return caseDirs.stream().map(c -> caseNode(folder, c));
    }

    private static DynamicNode caseNode(String folder, Path caseDir) {
        String id = folder + "/" + caseDir.getFileName();
        Snapshot snapshot;
        try {
            snapshot = Snapshot.read(caseDir.resolve("snapshot"));
        } catch (RuntimeException e) {
            return dynamicTest(id + ": snapshot", () -> {
                throw new AssertionError(id + ": reading the snapshot failed: " + e.getMessage(), e);
            });
        }
        Optional<KernelProfile> recorded = snapshot.profile();
        if (recorded.isEmpty()) {
            return dynamicTest(id + ": kernel-release", () -> {
                throw new AssertionError(id + ": the snapshot has no kernel-release, so no profile to check");
            });
        }
        KernelProfile profile = recorded.get();
        LazyLayout layout = new LazyLayout(id, snapshot, profile);
        List<DynamicNode> tests = new ArrayList<>();
        for (Snapshot.Device dm : snapshot.dmDevices()) {
            String gap = KNOWN_GAPS.get(id + " " + dm.kname());
            boolean opaque = snapshot.dmTable(dm.kname()).targets().stream()
                    .anyMatch(t -> t instanceof dev.dmmodel.dm.OpaqueTarget);
            tests.add(dynamicTest(id + " " + dm.kname() + " (" + dm.dmName().orElseThrow() + ")"
                    + (opaque ? " [not modelled: as recorded]" : ""), () -> {
                if (gap == null) {
                    checkDmDevice(id, snapshot, layout.get(), dm);
                    return;
                }
                try {
                    checkDmDevice(id, snapshot, layout.get(), dm);
                } catch (AssertionError expected) {
                    Assumptions.abort("known gap: " + gap);
                }
                throw new AssertionError(id + " " + dm.kname() + " now matches the recorded limits: remove it from"
                        + " conformance/limits-known-gaps.txt (listed as: " + gap + ")");
            }));
        }
        for (Snapshot.Device md : snapshot.mdArrays()) {
            tests.add(dynamicTest(id + " " + md.kname() + " (md " + md.md().orElseThrow().level().sysfsName() + ")",
                    () -> checkMdArray(id, snapshot, layout.get(), md)));
        }
        for (Snapshot.PartitionEntry p : snapshot.partitions()) {
            tests.add(dynamicTest(id + " " + p.kname() + " (partition of " + p.disk() + ")",
                    () -> checkPartition(id, snapshot, layout.get(), p)));
        }
        for (Map.Entry<String, Long> pe : snapshot.recordedPeStarts().entrySet()) {
            tests.add(dynamicTest(id + " pe_start of " + pe.getKey(),
                    () -> checkPeStart(id, layout.get(), profile, pe.getKey(), pe.getValue())));
        }
        return dynamicContainer(caseDir.getFileName() + " (" + profile.name() + ")", caseDir.toUri(), tests.stream());
    }

    // ------------------------------------------------------------------------------------------ checks

    private static void checkDmDevice(String id, Snapshot snapshot, Layout layout, Snapshot.Device dm) {
        BlockDevice computed = device(id, layout, dm.kname());
        List<String> differences = differences(SysfsQueueAttributes.of(computed.limits()),
                snapshot.recordedQueue(dm.kname()), snapshot.recordedAlignmentOffset(dm.kname()),
                attributesTheKernelLacks(snapshot));
        assertThat(differences)
                .withFailMessage(() -> report(id, dm.kname() + " (" + dm.dmName().orElseThrow() + ")", differences))
                .isEmpty();
    }

    /** An md array: its limits, alignment offset and size are derived from the members by its personality. */
    private static void checkMdArray(String id, Snapshot snapshot, Layout layout, Snapshot.Device md) {
        BlockDevice computed = device(id, layout, md.kname());
        List<String> differences = differences(SysfsQueueAttributes.of(computed.limits()),
                snapshot.recordedQueue(md.kname()), snapshot.recordedAlignmentOffset(md.kname()),
                attributesTheKernelLacks(snapshot));
        compare(differences, "size", Long.toString(md.size().count()), computed.size().count());
        assertThat(differences)
                .withFailMessage(() -> report(id, md.kname() + " (md " + md.md().orElseThrow().level().sysfsName()
                        + ")", differences))
                .isEmpty();
    }

    /** A partition shares its disk's queue: only its own alignment offset is derived. */
    private static void checkPartition(String id, Snapshot snapshot, Layout layout, Snapshot.PartitionEntry p) {
        BlockDevice computed = device(id, layout, p.kname());
        List<String> differences = new ArrayList<>();
        compare(differences, "alignment_offset", text(snapshot.recordedAlignmentOffset(p.kname())),
                computed.limits().sysfsAlignmentOffset());
        assertThat(differences)
                .withFailMessage(() -> report(id, p.kname() + " (partition " + p.number() + " of " + p.disk()
                        + " at sector " + p.start().count() + ")", differences))
                .isEmpty();
    }

    /**
     * LVM's {@code pe_start}: from the layout's PV if the layout has one, else as {@code pvcreate} would
     * place it on the device with the computed topology (snapshot import does not recreate LVM objects).
     */
    private static void checkPeStart(String id, Layout layout, KernelProfile profile, String hint, long recorded) {
        BlockDevice device = layout.find(hint).orElseThrow(() -> new AssertionError(id + ": the PV's device "
                + hint + " is not in the built layout (devices: " + names(layout) + ")"));
        Optional<PhysicalVolume> pv = layout.physicalVolume(device.name());
        long computed;
        String how;
        if (pv.isPresent()) {
            computed = pv.get().peStart().count();
            how = "the layout's PV";
        } else {
            QueueLimits l = device.limits();
            PvTopology topology = new PvTopology(l.ioMin(), l.ioOpt(), l.sysfsAlignmentOffset(), l.logicalBlockSize(),
                    profile.pageSize(), 0);
            computed = PvCreate.pvcreate(device.name(), device.size(), topology, PvCreateOptions.DEFAULTS)
                    .peStart().count();
            how = "pvcreate with defaults on the computed topology " + topology;
        }
        assertThat(computed)
                .withFailMessage("%s %s: pe_start: expected %d, computed %d (%s)", id, hint, recorded, computed, how)
                .isEqualTo(recorded);
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Every field of {@link SysfsQueueAttributes} whose computed value differs from the recorded text. */
    static List<String> differences(Map<String, Long> computed, Map<String, String> recordedQueue,
                                    OptionalLong recordedAlignmentOffset) {
        return differences(computed, recordedQueue, recordedAlignmentOffset, java.util.Set.of());
    }

    /** As above, leaving out the attributes the recorded kernel's sysfs does not have. */
    static List<String> differences(Map<String, Long> computed, Map<String, String> recordedQueue,
                                    OptionalLong recordedAlignmentOffset, java.util.Set<String> lacking) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : computed.entrySet()) {
            String name = e.getKey();
            if (lacking.contains(name)) {
                continue;
            }
            String expected = name.equals("alignment_offset") ? text(recordedAlignmentOffset) : recordedQueue.get(name);
            compare(out, name, expected, e.getValue());
        }
        return out;
    }

    private static void compare(List<String> out, String field, String expected, long computed) {
        if (expected == null) {
            out.add(field + ": expected <not recorded>, computed " + computed);
            return;
        }
        long value;
        try {
            value = Long.parseLong(expected.strip());
        } catch (NumberFormatException e) {
            out.add(field + ": expected '" + expected + "' (not a number), computed " + computed);
            return;
        }
        if (value != computed) {
            out.add(field + ": expected " + value + ", computed " + computed);
        }
    }

    /**
     * The queue attributes the recorded kernel's sysfs does not show ({@link SysfsHistory}: 5.10 has no
     * {@code dma_alignment} or {@code virt_boundary_mask}), not compared; none for a snapshot without a release.
     */
    private static java.util.Set<String> attributesTheKernelLacks(Snapshot snapshot) {
        java.util.Set<String> lacking = new java.util.TreeSet<>();
        snapshot.kernelRelease().map(dev.dmmodel.limits.KernelRelease::parse).ifPresent(r -> {
            for (String name : SysfsQueueAttributes.NAMES) {
                SysfsHistory.of(name).filter(e -> !e.hasFile(r)).ifPresent(e -> lacking.add(name));
            }
        });
        return lacking;
    }

    private static String text(OptionalLong v) {
        return v.isPresent() ? Long.toString(v.getAsLong()) : null;
    }

    private static String report(String id, String device, List<String> differences) {
        return id + " " + device + ": " + differences.size() + " field(s) differ from the recorded kernel:\n  "
                + String.join("\n  ", differences);
    }

    private static BlockDevice device(String id, Layout layout, String kname) {
        return layout.find(kname).orElseThrow(() -> new AssertionError(id + ": the built layout has no device "
                + kname + " (devices: " + names(layout) + ")"));
    }

    private static String names(Layout layout) {
        return String.join(", ", layout.devices().stream().map(BlockDevice::name).toList());
    }

    /** Builds a case's layout once, on first use; a failure fails every test of the case with the cause. */
    private static final class LazyLayout {
        private final String id;
        private final Snapshot snapshot;
        private final KernelProfile profile;
        private Layout layout;
        private RuntimeException failure;

        LazyLayout(String id, Snapshot snapshot, KernelProfile profile) {
            this.id = id;
            this.snapshot = snapshot;
            this.profile = profile;
        }

        synchronized Layout get() {
            if (layout == null && failure == null) {
                try {
                    layout = ModelProviders.get().build(snapshot.toLayoutSpec(profile));
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            if (failure != null) {
                throw new AssertionError(id + ": building the layout under " + profile + " failed: " + failure,
                        failure);
            }
            return layout;
        }
    }
}
