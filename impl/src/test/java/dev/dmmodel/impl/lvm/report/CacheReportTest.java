package dev.dmmodel.impl.lvm.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The cache-pool, cache and writecache segment types from LVM's JSON reports, against the same VG read from its
 * text metadata: kernel-traces-6.12-stacks/writecache-w1M-at0 (VG vgk: an lvmcache LV with its cache pool and a
 * writecache LV on a cachevol), whose lvs/pvs/vgs reports and vgk.vg are both kept in the test resources.
 */
class CacheReportTest {

    private static String resource(String path) {
        try (InputStream in = CacheReportTest.class.getResourceAsStream(path)) {
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

    @Test
    void theReportsGiveTheSameCacheAndWritecacheLvsAsTheTextMetadata() {
        String dir = "/lvmreport/writecache-w1M-at0/";
        VolumeGroup reported = LvmReportReader.read(resource(dir + "pvs-all.json"), resource(dir + "vgs-all.json"),
                resource(dir + "lvs-segments-all.json"), "writecache-w1M-at0").get(0);
        VolumeGroup text = VgMetadataReader.read(resource("/lvmtext/cache-writecache-6.12-stacks.vg"), "vgk.vg");
        // every LV with its segments and role: origin (cache over origin_corig with cpool_cpool: 64 KiB chunks,
        // writethrough, smq, metadata format 2), origin2 (writecache of origin2_wcorig on wcvol_cvol, 4096-byte
        // blocks), the hidden sub-LVs and the spare
        assertThat(byName(reported)).isEqualTo(byName(text));
        // the PVs alike, in the report's order (pvs sorts by name) rather than the metadata's
        assertThat(reported.physicalVolumes()).containsExactlyInAnyOrderElementsOf(text.physicalVolumes());
    }
}
