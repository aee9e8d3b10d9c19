package dev.dmmodel.impl.lvm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.format.json.JsonException;
import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Fixtures in {@code src/test/resources/lvmreport/}: the reports of two recorded cases copied from
 * {@code shared/kernel-traces/<case>/snapshot/lvm/} ({@code thin-lvm-zy-direct1M}: a thin pool with a thin LV;
 * {@code ss-span-1M-at8M-512k}: a two-segment linear LV and a striped LV on two PVs) with their {@code .vg}
 * files; the same reports rewritten as {@code json_std} would print them ({@code *.json_std.json}: NUM fields
 * bare, undefined ones {@code null}, lists as arrays); and {@code *-fullreport.json}, the same rows arranged
 * as {@code lvm fullreport} prints them (one report object with {@code vg}, {@code pv}, {@code lv},
 * {@code pvseg}, {@code seg}, seg rows with only segment columns and {@code lv_uuid}, then the {@code "log"}
 * array of 2.03.26).
 */
class LvmReportReaderTest {

    static String resource(String name) {
        try (InputStream in = LvmReportReaderTest.class.getResourceAsStream("/lvmreport/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource lvmreport/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static VolumeGroup fromVg(String file) {
        return LvmReportConformanceTest.normalized(VgMetadataReader.read(resource(file), file));
    }

    private static VolumeGroup only(List<VolumeGroup> vgs) {
        assertThat(vgs).hasSize(1);
        return LvmReportConformanceTest.normalized(vgs.get(0));
    }

    @Test
    void thinPoolReportsBuildTheVgOfTheMetadata() {
        String dir = "thin-lvm-zy-direct1M/";
        VolumeGroup vg = only(LvmReportReader.read(resource(dir + "pvs-all.json"), resource(dir + "vgs-all.json"),
                resource(dir + "lvs-segments-all.json"), "thin"));
        assertThat(vg).isEqualTo(fromVg(dir + "vgt.vg"));
        // the numbers, as the recorded rows show them
        assertThat(vg.extentSize()).isEqualTo(Sectors.of(8192));
        assertThat(vg.physicalVolumes().get(0).device()).isEqualTo("sda");
        assertThat(vg.physicalVolumes().get(0).peStart()).isEqualTo(Sectors.of(2048));
        assertThat(vg.physicalVolumes().get(0).peCount()).isEqualTo(255);
        assertThat(vg.physicalVolumes().get(0).devSize()).isEqualTo(Sectors.of(2_097_152));
        LogicalVolume pool = vg.logicalVolume("pool").orElseThrow();
        assertThat(pool.role()).isEqualTo(LvRole.THIN_POOL);
        assertThat(pool.thinPool().orElseThrow()).isEqualTo(new SegmentType.ThinPool("pool_tmeta", "pool_tdata", 1,
                Sectors.of(2048), ThinDiscards.PASSDOWN, true));
        assertThat(pool.flags()).isEmpty(); // lv_when_full "queue"
        assertThat(vg.logicalVolume("thin").orElseThrow().thin().orElseThrow())
                .isEqualTo(new SegmentType.Thin("pool", 0, 1, Optional.empty()));
        assertThat(vg.logicalVolume("pool_tdata").orElseThrow().segments().get(0).areas())
                .containsExactly(new StripeArea("sda", 1));
        assertThat(vg.logicalVolume("lvol0_pmspare").orElseThrow().role()).isEqualTo(LvRole.POOL_METADATA_SPARE);
    }

    @Test
    void spanAndStripeReportsBuildTheVgOfTheMetadata() {
        String dir = "ss-span-1M-at8M-512k/";
        VolumeGroup vg = only(LvmReportReader.read(resource(dir + "pvs-all.json"), resource(dir + "vgs-all.json"),
                resource(dir + "lvs-segments-all.json"), "span"));
        assertThat(vg).isEqualTo(fromVg(dir + "vg.vg"));
        LogicalVolume span = vg.logicalVolume("span").orElseThrow();
        assertThat(span.segments()).hasSize(2);
        assertThat(span.segments().get(1).startExtent()).isEqualTo(span.segments().get(0).extentCount());
        assertThat(vg.logicalVolume("striped").orElseThrow().segments().get(0).stripeSize()).isEqualTo(Sectors.of(128));
    }

    @Test
    void jsonStdReportsBuildTheSameVg() {
        String dir = "ss-span-1M-at8M-512k/";
        VolumeGroup vg = only(LvmReportReader.read(resource(dir + "pvs-all.json_std.json"),
                resource(dir + "vgs-all.json_std.json"), resource(dir + "lvs-segments-all.json_std.json"), "std"));
        assertThat(vg).isEqualTo(fromVg(dir + "vg.vg"));
    }

    @Test
    void fullReportsBuildTheSameVgs() {
        assertThat(only(LvmReportReader.readFullReport(resource("thin-fullreport.json"), "thin-fullreport.json")))
                .isEqualTo(fromVg("thin-lvm-zy-direct1M/vgt.vg"));
        assertThat(only(LvmReportReader.readFullReport(resource("span-fullreport.json"), "span-fullreport.json")))
                .isEqualTo(fromVg("ss-span-1M-at8M-512k/vg.vg"));
    }

    @Test
    void fullReportWithTwoVgObjectsGivesBoth() {
        String thin = resource("thin-fullreport.json");
        String span = resource("span-fullreport.json");
        // the "report" array of each, joined: LVM prints one object per VG
        String a = thin.substring(thin.indexOf('[') + 1, thin.lastIndexOf("]\n      ,\n      \"log\""));
        String b = span.substring(span.indexOf('[') + 1, span.lastIndexOf("]\n      ,\n      \"log\""));
        String both = "{\"report\": [" + a + "," + b + "]}";
        List<VolumeGroup> vgs = LvmReportReader.readFullReport(both, "both");
        assertThat(vgs).extracting(VolumeGroup::name).containsExactly("vgt", "vg");
    }

    // ---- hand-written reports -----------------------------------------------------------------------------

    private static final String PVS = """
              {
                  "report": [
                      {
                          "pv": [
                              {"pv_name":"/dev/sdb", "vg_name":"vg0", "dev_size":"DEV", "pe_start":"PESTART", "pv_pe_count":"2559"}
                          ]
                      }
                  ]
              }
            """;
    private static final String VGS = """
              {"report": [ {"vg": [ {"vg_name":"vg0", "vg_attr":"ATTR", "vg_extent_size":"EXTENT"} ] } ]}
            """;
    private static final String LVS = """
              {"report": [ {"seg": [
                  {"lv_name":"data", "vg_name":"vg0", "lv_attr":"-wi-a-----", "segtype":"SEGTYPE", "stripes":"1", "stripe_size":"0S", "seg_start_pe":"0", "seg_size_pe":"512", AREAS}
              ] } ] }
            """;

    private static List<VolumeGroup> hand(String dev, String peStart, String extent, String attr, String segtype,
                                          String areas) {
        return LvmReportReader.read(PVS.replace("DEV", dev).replace("PESTART", peStart),
                VGS.replace("EXTENT", extent).replace("ATTR", attr),
                LVS.replace("SEGTYPE", segtype).replace("AREAS", areas), "hand");
    }

    private static List<VolumeGroup> hand() {
        return hand("20971520S", "2048S", "8192S", "wz--n-", "linear", "\"devices\":\"/dev/sdb(100)\"");
    }

    @Test
    void handWrittenLinearLv() {
        VolumeGroup vg = hand().get(0);
        assertThat(vg.allocationPolicy()).isEqualTo(AllocationPolicy.NORMAL); // 5th vg_attr character 'n'
        assertThat(vg.physicalVolumes().get(0).peCount()).isEqualTo(2559);
        assertThat(vg.logicalVolumes().get(0).segments().get(0).areas()).containsExactly(new StripeArea("sdb", 100));
        assertThat(vg.logicalVolumes().get(0).flags()).isEmpty();
    }

    @Test
    void bytesAndSevenCharacterAttrAndActivationSkip() {
        List<VolumeGroup> vgs = LvmReportReader.read(
                PVS.replace("DEV", "10737418240B").replace("PESTART", "1048576B"),
                VGS.replace("EXTENT", "4194304B").replace("ATTR", "wz--c-p"),
                LVS.replace("SEGTYPE", "linear").replace("-wi-a-----", "-wi------k")
                        .replace("AREAS", "\"seg_pe_ranges\":\"/dev/sdb:0-511\""), "bytes");
        VolumeGroup vg = vgs.get(0);
        assertThat(vg.extentSize()).isEqualTo(Sectors.of(8192));
        assertThat(vg.physicalVolumes().get(0).devSize()).isEqualTo(Sectors.of(20_971_520));
        assertThat(vg.physicalVolumes().get(0).peStart()).isEqualTo(Sectors.of(2048));
        assertThat(vg.allocationPolicy()).isEqualTo(AllocationPolicy.CONTIGUOUS);
        assertThat(vg.logicalVolumes().get(0).flags()).containsExactly(LvFlag.ACTIVATION_SKIP);
    }

    @Test
    void exactHumanExtentSizeIsAcceptedButHumanPeStartIsNot() {
        // "4.00m" can only be 8192 sectors for a power-of-two extent size
        List<VolumeGroup> vgs = hand("20971520S", "2048S", "4.00m", "wz--n-", "linear",
                "\"seg_le_ranges\":[\"/dev/sdb:7-518\"]");
        assertThat(vgs.get(0).extentSize()).isEqualTo(Sectors.of(8192));
        assertThat(vgs.get(0).logicalVolumes().get(0).segments().get(0).areas()).containsExactly(new StripeArea("sdb", 7));
        assertThatThrownBy(() -> hand("20971520S", "1.00m", "8192S", "wz--n-", "linear", "\"devices\":\"/dev/sdb(0)\""))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessage("hand (pvs):5:94: found the string \"1.00m\" for \"pe_start\": \"1.00m\" is rounded to two "
                        + "decimals and does not name one exact size; re-run with --units s");
        assertThatThrownBy(() -> hand("<10.00g", "2048S", "8192S", "wz--n-", "linear", "\"devices\":\"/dev/sdb(0)\""))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessageContaining("\"dev_size\": \"<10.00g\" is rounded to two decimals")
                .hasMessageContaining("re-run with --units s");
    }

    @Test
    void unknownSegmentTypeIsReportedWithLvAndType() {
        assertThatThrownBy(() -> hand("20971520S", "2048S", "8192S", "wz--n-", "mirror", "\"devices\":\"x\""))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessage("hand (lvs):2:77: segment type \"mirror\" of LV vg0/data is not modelled");
    }

    @Test
    void missingAreasNameTheOptionThatAddsThem() {
        assertThatThrownBy(() -> hand("20971520S", "2048S", "8192S", "wz--n-", "linear", "\"x\":\"\""))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessage("hand (lvs):2:7: the segment at LE 0 of LV vg0/data has no \"devices\", \"seg_pe_ranges\" "
                        + "or \"seg_le_ranges\" column; re-run lvs with -o +devices (or -o +seg_pe_ranges, or -o +all)");
    }

    @Test
    void missingColumnsAreNamed() {
        String lvs = LVS.replace("SEGTYPE", "linear").replace("AREAS", "\"devices\":\"/dev/sdb(0)\"");
        String pvs = PVS.replace("DEV", "20971520S").replace("PESTART", "2048S");
        assertThatThrownBy(() -> LvmReportReader.read(pvs.replace("\"pv_pe_count\":\"2559\"", "\"pv_size\":\"1\""),
                VGS.replace("EXTENT", "8192S").replace("ATTR", "wz--n-"), lvs, "m"))
                .hasMessageEndingWith("the pv /dev/sdb row has no \"pv_pe_count\" column; re-run pvs with "
                        + "-o +pv_pe_count (or -o +all)");
        assertThatThrownBy(() -> LvmReportReader.read(pvs, VGS.replace("\"vg_extent_size\":\"EXTENT\"", "\"x\":1")
                .replace("ATTR", "wz--n-"), lvs, "m"))
                .hasMessageEndingWith("the vg row has no \"vg_extent_size\" column; re-run vgs with "
                        + "-o +vg_extent_size (or -o +all)");
        assertThatThrownBy(() -> LvmReportReader.read(pvs, VGS.replace("EXTENT", "8192S").replace("ATTR", "wz--n-"),
                lvs.replace("\"seg_size_pe\":\"512\", ", ""), "m"))
                .hasMessageEndingWith("the segment at LE 0 of LV vg0/data row has no \"seg_size_pe\" column; re-run "
                        + "lvs --segments with -o +seg_size_pe (or -o +all)");
    }

    @Test
    void hiddenLvsWithoutRoleAndMissingPoolPartsAreErrors() {
        String lvs = LVS.replace("SEGTYPE", "linear").replace("AREAS", "\"devices\":\"/dev/sdb(0)\"")
                .replace("\"data\"", "\"[data]\"");
        assertThatThrownBy(() -> LvmReportReader.read(PVS.replace("DEV", "20971520S").replace("PESTART", "2048S"),
                VGS.replace("EXTENT", "8192S").replace("ATTR", "wz--n-"), lvs, "h"))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessageContaining("hidden LV vg0/data has no role this model knows");
        // lvs without -a: the pool's hidden LVs are absent
        String dir = "thin-lvm-zy-direct1M/";
        String seg = resource(dir + "lvs-segments-all.json");
        String visibleOnly = String.join("\n", seg.lines().filter(l -> !l.contains("\"lv_name\":\"[")).toList());
        assertThatThrownBy(() -> LvmReportReader.read(resource(dir + "pvs-all.json"), null, visibleOnly, "v"))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessageContaining("thin pool vgt/pool uses LV pool_tdata, which has no segment row; re-run lvs "
                        + "with -a");
    }

    @Test
    void overlappingAreasAndAreasBeyondThePvAreErrors() {
        assertThatThrownBy(() -> hand("20971520S", "2048S", "8192S", "wz--n-", "linear", "\"devices\":\"/dev/sdb(2500)\""))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessageContaining("extents 2500..3011 of the segment at LE 0 of LV vg0/data lie beyond the 2559 "
                        + "extents of /dev/sdb");
        assertThatThrownBy(() -> hand("20971520S", "2048S", "8192S", "wz--n-", "linear", "\"devices\":\"/dev/sdc(0)\""))
                .hasMessageContaining("Couldn't find PV \"/dev/sdc\"");
        // the PV's extents must lie on the device: 2048 + 2559 * 8192 > 20000000
        assertThatThrownBy(() -> hand("20000000S", "2048S", "8192S", "wz--n-", "linear", "\"devices\":\"/dev/sdb(0)\""))
                .hasMessageContaining("the 2559 extents of pv /dev/sdb end at sector 20965376, beyond dev_size 20000000");
    }

    @Test
    void syntaxErrorsBecomeLvmMetadataExceptionsWithTheJsonLocation() {
        assertThatThrownBy(() -> LvmReportReader.readFullReport("{\"report\": [\n  {\"vg\": [}]}", "r.json"))
                .isInstanceOf(LvmMetadataException.class)
                .hasMessage("r.json:2:11: found '}'; expected a JSON value (object, array, string, number, true, false "
                        + "or null)")
                .hasCauseInstanceOf(JsonException.class);
        assertThatThrownBy(() -> LvmReportReader.readFullReport("{\"log\": []}", "r.json"))
                .hasMessage("r.json:1:1: found no \"report\" member; expected {\"report\": [...]} as --reportformat json "
                        + "prints");
    }

    @Test
    void emptyFullReportHasNoVgs() {
        assertThat(LvmReportReader.readFullReport("{\"report\": [], \"log\": [{\"log_seq_num\":\"1\"}]}", "e"))
                .isEmpty();
    }
}
