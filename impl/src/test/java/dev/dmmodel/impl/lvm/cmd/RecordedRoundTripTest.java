package dev.dmmodel.impl.lvm.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * For every recorded host snapshot in {@code ${dmmodel.shared.dir}/kernel-traces{,-6.12}/<case>/snapshot} that
 * has {@code lvm/*.vg}: the imported layout's LVM is exported as commands, the commands are read back and
 * replayed on the same disks and partitions (nothing else of the snapshot), and every VG of the replay equals
 * the imported one ({@link VolumeGroupDiff}: PVs with {@code pe_start} and {@code pe_count}, every LV's
 * segments and areas, thin pools' chunk sizes and transaction ids, thin device ids), with no warning; and the
 * same script read as a provisioning plan ({@code dev.dmmodel.plan.Plan}) applies on those disks line by line to
 * the same VGs.
 * Without the shared folder the factory is one skipped test with the reason.
 */
class RecordedRoundTripTest {

    private static final String PROPERTY = "dmmodel.shared.dir";
    private static final List<String> TRACE_FOLDERS = List.of("kernel-traces", "kernel-traces-6.12");

    @TestFactory
    Stream<DynamicTest> everyRecordedVolumeGroupSurvivesExportAndReplay() {
        String property = System.getProperty(PROPERTY);
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        if (shared == null || !Files.isDirectory(shared)) {
            String where = shared == null ? "<system property " + PROPERTY + " is not set>" : shared.toString();
            return Stream.of(dynamicTest("recorded round trip", () -> Assumptions.assumeTrue(false,
                    "shared/ folder not found at " + where + ": LVM command round trip skipped")));
        }
        List<Path> cases = new ArrayList<>();
        for (String folder : TRACE_FOLDERS) {
            Path root = shared.resolve(folder);
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> s = Files.list(root)) {
                for (Path c : s.sorted().toList()) {
                    Path lvm = c.resolve("snapshot").resolve("lvm");
                    if (Files.isDirectory(lvm) && hasVgFile(lvm)) {
                        cases.add(c.resolve("snapshot"));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (cases.isEmpty()) {
            return Stream.of(dynamicTest("recorded round trip", () -> Assumptions.assumeTrue(false,
                    "no snapshot with lvm/*.vg under " + shared + ": LVM command round trip skipped")));
        }
        return cases.stream().map(c -> dynamicTest(shared.relativize(c).toString(), c.toUri(), () -> check(c)));
    }

    private static boolean hasVgFile(Path lvm) throws IOException {
        try (Stream<Path> s = Files.list(lvm)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".vg"));
        }
    }

    static void check(Path snapshotDir) {
        Snapshot snapshot = Snapshot.read(snapshotDir);
        LayoutSpec spec = snapshot.toLayoutSpec();
        Layout imported = Layout.of(spec);
        assertThat(imported.volumeGroups()).as("imported VGs").isNotEmpty();
        LvmCommandWriter.Result exported = LvmCommandWriter.write(imported);
        assertThat(exported.warnings()).as("warnings of\n%s", exported.script()).isEmpty();
        List<LayoutStep> steps = new ArrayList<>();
        for (LayoutStep s : spec.steps()) {
            if (s instanceof LayoutStep.AddDisk || s instanceof LayoutStep.AddPartition) {
                steps.add(s);
            }
        }
        steps.addAll(LvmCommandParser.parse(exported.script(), snapshotDir + " export"));
        Layout replayed = Layout.of(new LayoutSpec(spec.profile(), steps));
        assertThat(replayed.volumeGroups()).hasSameSizeAs(imported.volumeGroups());
        for (VolumeGroup vg : imported.volumeGroups()) {
            VolumeGroup again = replayed.volumeGroup(vg.name()).orElseThrow(() -> new AssertionError(
                    "VG " + vg.name() + " missing after replaying\n" + exported.script()));
            assertThat(VolumeGroupDiff.differences(vg, again)).as("replaying\n%s", exported.script()).isEmpty();
        }
        // the same script as a provisioning plan's dry run on the blank host: every line applies, the same VGs
        dev.dmmodel.plan.PlanResult planned = dev.dmmodel.plan.Plan.parse(exported.script(), "export.sh",
                dev.dmmodel.plan.PlanFormat.SHELL).applyTo(new LayoutSpec(spec.profile(), steps.subList(0,
                (int) spec.steps().stream().filter(x -> x instanceof LayoutStep.AddDisk
                        || x instanceof LayoutStep.AddPartition).count())));
        assertThat(planned.failure()).as("the export as a plan\n%s", exported.script()).isEmpty();
        for (VolumeGroup vg : imported.volumeGroups()) {
            VolumeGroup again = planned.layout().volumeGroup(vg.name()).orElseThrow();
            assertThat(VolumeGroupDiff.differences(vg, again)).as("the plan\n%s", exported.script()).isEmpty();
        }
    }
}
