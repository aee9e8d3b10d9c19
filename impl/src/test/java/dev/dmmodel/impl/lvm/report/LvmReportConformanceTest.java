package dev.dmmodel.impl.lvm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * For every recorded case folder {@code ${dmmodel.shared.dir}/kernel-traces{,-6.12}/<case>/snapshot/lvm/} that has
 * {@code pvs-all.json}, {@code vgs-all.json} and {@code lvs-segments-all.json} (recorded with {@code --units s}
 * and {@code -o all}), the volume group {@link LvmReportReader} builds from the three reports equals the one
 * {@link VgMetadataReader} builds from the {@code .vg} file of the same folder: the whole {@link VolumeGroup}
 * record, with one normalization: PVs and LVs sorted by name on both sides, because reports sort their rows
 * ({@code pvs} by {@code pv_name}, {@code lvs} by {@code vg_name,lv_name}) while metadata keeps creation order,
 * which no report column shows. Nothing else is normalized: metadata-area sizes are zero on both sides (the
 * text reader has no place to learn them and the report reader leaves them as it does), LVs inactive on both.
 * The same reports are read again without {@code vgs-all.json} (the VG fields then come from the segment
 * rows, which {@code -o all} fills). {@code lvs-all.json} ({@code lvs -a -o all} without {@code --segments}: no
 * segment columns) is refused with the message that names {@code --segments}.
 *
 * <p>Without the shared folder each set is skipped with the reason.
 */
class LvmReportConformanceTest {

    private static final String PROPERTY = "dmmodel.shared.dir";

    @ParameterizedTest
    @ValueSource(strings = {"kernel-traces", "kernel-traces-6.12"})
    void everyRecordedReportBuildsTheVgOfItsMetadata(String folder) throws IOException {
        String property = System.getProperty(PROPERTY);
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        Assumptions.assumeTrue(shared != null && Files.isDirectory(shared.resolve(folder)),
                "shared/" + folder + " folder absent (" + PROPERTY + "=" + property + "): skipped");
        List<Path> cases = new ArrayList<>();
        try (Stream<Path> s = Files.list(shared.resolve(folder))) {
            for (Path c : s.sorted().toList()) {
                Path lvm = c.resolve("snapshot").resolve("lvm");
                if (Files.isRegularFile(lvm.resolve("pvs-all.json")) && Files.isRegularFile(lvm.resolve("vgs-all.json"))
                        && Files.isRegularFile(lvm.resolve("lvs-segments-all.json"))) {
                    cases.add(lvm);
                }
            }
        }
        assertThat(cases).as("cases with pvs/vgs/lvs-segments reports in " + folder).isNotEmpty();
        int agreed = 0;
        for (Path lvm : cases) {
            List<Path> vgFiles;
            try (Stream<Path> s = Files.list(lvm)) {
                vgFiles = s.filter(p -> p.getFileName().toString().endsWith(".vg")).toList();
            }
            assertThat(vgFiles).as(lvm + ": one .vg file").hasSize(1);
            VolumeGroup expected = normalized(VgMetadataReader.read(vgFiles.get(0)));
            String pvs = Files.readString(lvm.resolve("pvs-all.json"));
            String vgs = Files.readString(lvm.resolve("vgs-all.json"));
            String lvs = Files.readString(lvm.resolve("lvs-segments-all.json"));
            List<VolumeGroup> withVgs = LvmReportReader.read(pvs, vgs, lvs, lvm.toString());
            assertThat(withVgs).as(lvm.toString()).hasSize(1);
            assertThat(normalized(withVgs.get(0))).as(lvm + " (pvs, vgs, lvs)").isEqualTo(expected);
            List<VolumeGroup> withoutVgs = LvmReportReader.read(
                    new LvmReportReader.Text(pvs, "pvs-all.json"), Optional.empty(),
                    new LvmReportReader.Text(lvs, "lvs-segments-all.json"));
            assertThat(withoutVgs).hasSize(1);
            assertThat(normalized(withoutVgs.get(0))).as(lvm + " (pvs, lvs)").isEqualTo(expected);
            // lvs -o all without --segments has no segment columns: the error says how to get them
            if (Files.isRegularFile(lvm.resolve("lvs-all.json"))) {
                String lvsAll = Files.readString(lvm.resolve("lvs-all.json"));
                assertThatThrownBy(() -> LvmReportReader.read(pvs, vgs, lvsAll, "lvs-all"))
                        .isInstanceOf(LvmMetadataException.class)
                        .hasMessageContaining("has no \"seg_start_pe\" column; re-run lvs --segments with -o "
                                + "+seg_start_pe (or -o +all)");
            }
            agreed++;
        }
        assertThat(agreed).as(folder + ": cases that agree").isEqualTo(cases.size());
        // the recorded sets: 19 cases with the three reports on 6.1, 12 on 6.12 (counted with ls)
        assertThat(cases).hasSize(folder.equals("kernel-traces") ? 19 : 12);
    }

    /** The same VG with PVs sorted by device and LVs by name. */
    static VolumeGroup normalized(VolumeGroup vg) {
        List<PhysicalVolume> pvs = new ArrayList<>(vg.physicalVolumes());
        pvs.sort(Comparator.comparing(PhysicalVolume::device));
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        lvs.sort(Comparator.comparing(LogicalVolume::name));
        return new VolumeGroup(vg.name(), vg.extentSize(), pvs, lvs, vg.allocationPolicy());
    }
}
