package dev.dmmodel.impl.lvm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The RAID segment types from LVM's JSON reports, against the same VG read from its text metadata:
 * kernel-traces-6.12-stacks/lvmraid-r5-w4k-at1M (VG vgr: r1 = raid1 on vda and vdb, r5 = raid5 on vda, vdb and vdc,
 * both --nosync; the six lvmraid-* cases hold the same snapshot/lvm files), kept in the test resources.
 */
class RaidReportTest {

    private static final String DIR = "/lvmreport/lvmraid/";

    private static String resource(String path) {
        try (InputStream in = RaidReportTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Map<String, LogicalVolume> byName(VolumeGroup vg) {
        Map<String, LogicalVolume> m = new TreeMap<>();
        vg.logicalVolumes().forEach(lv -> m.put(lv.name(), lv));
        return m;
    }

    private static VolumeGroup reported(String lvs) {
        return LvmReportReader.read(resource(DIR + "pvs-all.json"), resource(DIR + "vgs-all.json"), lvs,
                "lvmraid").get(0);
    }

    @Test
    void theReportsGiveTheSameRaidLvsAsTheTextMetadata() {
        VolumeGroup reported = reported(resource(DIR + "lvs-segments-all.json"));
        VolumeGroup text = VgMetadataReader.read(resource("/lvmtext/lvmraid-6.12-stacks.vg"), "vgr.vg");
        // r1: segtype raid1, stripes 2, stripe_size 0S, region_size 4096S, devices r1_rimage_0(0),r1_rimage_1(0),
        // metadata_devices r1_rmeta_0(0),r1_rmeta_1(0), lv_initial_image_sync "" (created --nosync); r5 alike with
        // stripes 3 and stripe_size 128S; the ten linear sub-LVs
        assertThat(byName(reported)).isEqualTo(byName(text));
        assertThat(reported.physicalVolumes()).containsExactlyInAnyOrderElementsOf(text.physicalVolumes());
        LogicalVolume r5 = reported.logicalVolume("r5").orElseThrow();
        assertThat(r5.role()).isEqualTo(LvRole.RAID);
        assertThat(r5.flags()).containsExactly(LvFlag.NOTSYNCED);
        assertThat(((SegmentType.Raid) r5.segments().get(0).type()).imageLvs())
                .containsExactly("r5_rimage_0", "r5_rimage_1", "r5_rimage_2");
    }

    @Test
    void aSyncedRaidLvHasNoNotsyncedFlag() {
        // "lv_initial_image_sync":"initial image sync" is what lvs prints for a RAID LV created without --nosync
        String lvs = resource(DIR + "lvs-segments-all.json").replace("\"lv_name\":\"r1\"", "\"lv_name\":\"r1\"")
                .replaceFirst("(\"lv_name\":\"r1\",[^}]*\"lv_initial_image_sync\":)\"\"", "$1\"initial image sync\"");
        assertThat(lvs).contains("\"initial image sync\"");
        assertThat(reported(lvs).logicalVolume("r1").orElseThrow().flags()).isEmpty();
    }

    @Test
    void aRaidLvWithoutItsImageRowsIsRefused() {
        // lvs without -a: no rows for the hidden sub-LVs
        String lvs = resource(DIR + "lvs-segments-all.json").replaceAll("\\{[^{}]*\"lv_name\":\"\\[r5_rimage_2\\]\"[^{}]*\\},?", "");
        assertThat(lvs).doesNotContain("\"[r5_rimage_2]\"");
        assertThatThrownBy(() -> reported(lvs)).hasMessageContaining("RAID LV vgr/r5 uses LV r5_rimage_2, which has "
                + "no segment row; re-run lvs with -a");
    }
}
