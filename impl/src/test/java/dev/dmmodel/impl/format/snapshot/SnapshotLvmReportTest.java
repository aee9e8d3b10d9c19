package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lvm/report.json} in a snapshot. The fixture {@code snapshots/thin-lvm-zy-direct1M-report} is the
 * {@code thin-lvm-zy-direct1M} fixture with {@code lvm/} holding only {@code report.json}: the recorded case's
 * {@code pvs-all.json}, {@code vgs-all.json} and {@code lvs-segments-all.json} rows arranged as
 * {@code lvm fullreport --reportformat json --units s} prints them (one object with {@code vg}, {@code pv},
 * {@code lv}, {@code pvseg} and {@code seg}; seg rows keep segment columns and {@code lv_uuid}; then the
 * empty {@code "log"} of LVM 2.03.26).
 */
class SnapshotLvmReportTest {

    @TempDir
    Path tmp;

    private Path copy(String name) {
        return SnapshotTest.copyFixture(name, tmp);
    }

    private static List<String> sortedNames(VolumeGroup vg) {
        return vg.logicalVolumes().stream().map(LogicalVolume::name).sorted().toList();
    }

    @Test
    void reportJsonGivesTheVgTheVgFileGives() {
        Snapshot fromReport = Snapshot.read(SnapshotTest.fixture("thin-lvm-zy-direct1M-report"));
        Snapshot fromVg = Snapshot.read(SnapshotTest.fixture("thin-lvm-zy-direct1M"));
        assertThat(fromReport.lvmProblems()).isEmpty();
        assertThat(fromReport.volumeGroups()).hasSize(1);
        VolumeGroup a = fromReport.volumeGroups().get(0);
        VolumeGroup b = fromVg.volumeGroups().get(0);
        // the same VG up to LV order (reports sort by name; metadata keeps creation order)
        assertThat(a.logicalVolumes()).extracting(LogicalVolume::name)
                .containsExactly("lvol0_pmspare", "pool", "pool_tdata", "pool_tmeta", "thin");
        assertThat(sortedNames(a)).isEqualTo(sortedNames(b));
        for (LogicalVolume lv : b.logicalVolumes()) {
            assertThat(a.logicalVolume(lv.name())).contains(lv);
        }
        assertThat(a.physicalVolumes()).isEqualTo(b.physicalVolumes());
        assertThat(a.extentSize()).isEqualTo(b.extentSize());
        assertThat(a.allocationPolicy()).isEqualTo(b.allocationPolicy());
        // no .vg file: no recorded pe_start from one
        assertThat(fromReport.recordedPeStarts()).isEmpty();

        List<LayoutStep> steps = fromReport.toLayoutSpec(KernelProfile.LINUX_6_1).steps();
        assertThat(steps).hasSize(7);
        assertThat(steps.get(6)).isEqualTo(new LayoutStep.ImportVolumeGroup(a));
        Layout layout = Layout.of(fromReport.toLayoutSpec(KernelProfile.LINUX_6_1));
        VolumeGroup vgt = layout.volumeGroups().get(0);
        assertThat(vgt.logicalVolume("thin").orElseThrow().dmDevice()).isEqualTo("dm-4");
        assertThat(vgt.logicalVolume("pool").orElseThrow().dmDevice()).isEqualTo("dm-3");
        assertThat(vgt.logicalVolume("lvol0_pmspare").orElseThrow().dmDevice()).isEmpty();
        Simulation sim = Simulation.of(layout);
        assertThat(sim.thinStats().get(0).poolTransactionId()).isEqualTo(1);
    }

    @Test
    void aVgFileWinsOverTheReport() throws IOException {
        Path dir = copy("thin-lvm-zy-direct1M");
        Files.copy(SnapshotTest.fixture("thin-lvm-zy-direct1M-report").resolve("lvm/report.json"),
                dir.resolve("lvm/report.json"));
        Snapshot s = Snapshot.read(dir);
        assertThat(s.lvmProblems()).isEmpty();
        assertThat(s.volumeGroups()).hasSize(1);
        // the .vg file's LV order (metadata order), not the report's
        assertThat(s.volumeGroups().get(0).logicalVolumes()).extracting(LogicalVolume::name)
                .containsExactly("pool", "thin", "lvol0_pmspare", "pool_tmeta", "pool_tdata");
    }

    @Test
    void aBrokenReportIsAProblemNotAnError() throws IOException {
        Path dir = copy("thin-lvm-zy-direct1M-report");
        Path report = dir.resolve("lvm/report.json");
        Files.writeString(report, Files.readString(report).replace("\"pe_start\":\"2048S\"", "\"pe_start\":\"1.00m\""));
        Snapshot s = Snapshot.read(dir);
        assertThat(s.volumeGroups()).isEmpty();
        assertThat(s.lvmProblems()).singleElement().asString()
                .startsWith(report + ": not imported: report.json:9:")
                .contains("found the string \"1.00m\" for \"pe_start\"")
                .endsWith("re-run with --units s");
        Files.writeString(report, "{\"report\": [");
        assertThat(Snapshot.read(dir).lvmProblems()).singleElement().asString()
                .isEqualTo(report + ": not imported: report.json:1:13: found the end of the text; expected a JSON "
                        + "value");
    }

    @Test
    void aReportVgOnDevicesTheSnapshotLacksIsAProblem() throws IOException {
        Path dir = copy("thin-lvm-zy-direct1M-report");
        Path report = dir.resolve("lvm/report.json");
        Files.writeString(report, Files.readString(report).replace("/dev/sda", "/dev/sdz"));
        Snapshot s = Snapshot.read(dir);
        assertThat(s.volumeGroups()).isEmpty();
        assertThat(s.lvmProblems()).containsExactly(report + ": not imported: PV sdz of volume group vgt is not a "
                + "device of this snapshot");
    }
}
