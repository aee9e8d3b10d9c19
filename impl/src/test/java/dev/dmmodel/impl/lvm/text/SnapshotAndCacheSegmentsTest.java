package dev.dmmodel.impl.lvm.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The classic snapshot, cache-pool, cache and writecache segment types of LVM 2.03 text metadata, on the two
 * fixtures recorded for kernel-traces-6.12-stacks (snap-c64k-* and writecache-*: the VG holds both an lvmcache LV
 * and a writecache LV).
 */
class SnapshotAndCacheSegmentsTest {

    private static String fixture(String name) {
        try (InputStream in = SnapshotAndCacheSegmentsTest.class.getResourceAsStream("/lvmtext/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static final String SNAP = "snapshot-c64k-6.12-stacks.vg";
    private static final String CACHE = "cache-writecache-6.12-stacks.vg";

    private static String with(String name, String from, String to) {
        String text = fixture(name);
        assertThat(text).contains(from);
        return text.replace(from, to);
    }

    private static String problem(String text) {
        try {
            VgMetadataReader.read(text, "t.vg");
        } catch (LvmMetadataException e) {
            return e.problem();
        }
        throw new AssertionError("no error");
    }

    @Test
    void aClassicSnapshotIsTheSnapshotLvTheHiddenCowStoreAndThePublicOrigin() {
        VolumeGroup vg = VgMetadataReader.read(fixture(SNAP), SNAP);
        LogicalVolume snapshot0 = vg.logicalVolume("snapshot0").orElseThrow();
        // segment1 of snapshot0: chunk_size = 128 (64 KiB), origin = "origin", cow_store = "snap"; as long as the
        // origin (16 extents of 4 MiB)
        assertThat(snapshot0.segments().get(0).type())
                .isEqualTo(new SegmentType.Snapshot("origin", "snap", Sectors.of(128)));
        assertThat(snapshot0.role()).isEqualTo(LvRole.SNAPSHOT);
        assertThat(snapshot0.extentCount()).isEqualTo(16);
        assertThat(vg.logicalVolume("snap").orElseThrow().role()).isEqualTo(LvRole.SNAPSHOT_COW);
        assertThat(vg.logicalVolume("snap").orElseThrow().extentCount()).isEqualTo(8);
        assertThat(vg.logicalVolume("origin").orElseThrow().role()).isEqualTo(LvRole.PUBLIC);
    }

    @Test
    void theCacheAndWritecacheLvsWithTheirSubLvs() {
        VolumeGroup vg = VgMetadataReader.read(fixture(CACHE), CACHE);
        assertThat(vg.logicalVolume("origin").orElseThrow().segments().get(0).type())
                .isEqualTo(new SegmentType.Cache("cpool_cpool", "origin_corig"));
        assertThat(vg.logicalVolume("cpool_cpool").orElseThrow().segments().get(0).type())
                .isEqualTo(new SegmentType.CachePool("cpool_cpool_cdata", "cpool_cpool_cmeta", Sectors.of(128),
                        Optional.of(SegmentType.CacheMode.WRITETHROUGH), Optional.of("smq"), Map.of(), Optional.of(2)));
        assertThat(vg.logicalVolume("origin2").orElseThrow().segments().get(0).type())
                .isEqualTo(new SegmentType.Writecache("origin2_wcorig", "wcvol_cvol", 4096, Map.of()));
        Map<String, LvRole> roles = new java.util.LinkedHashMap<>();
        vg.logicalVolumes().forEach(l -> roles.put(l.name(), l.role()));
        assertThat(roles).containsExactlyInAnyOrderEntriesOf(Map.of("origin", LvRole.CACHED,
                "origin2", LvRole.WRITECACHED, "wcvol_cvol", LvRole.CACHE_VOLUME, "cpool_cpool", LvRole.CACHE_POOL_IN_USE,
                "lvol0_pmspare", LvRole.POOL_METADATA_SPARE, "cpool_cpool_cmeta", LvRole.CACHE_POOL_METADATA,
                "cpool_cpool_cdata", LvRole.CACHE_POOL_DATA, "origin_corig", LvRole.CACHE_ORIGIN,
                "origin2_wcorig", LvRole.WRITECACHE_ORIGIN));
    }

    @Test
    void bothFixturesAreWrittenAgainByteForByte() {
        for (String name : new String[] {SNAP, CACHE}) {
            String text = fixture(name);
            VolumeGroup vg = VgMetadataReader.read(text, name);
            assertThat(VgMetadataWriter.write(vg, VgMetadataWriterTest.contextOf(text))).as(name).isEqualTo(text);
            assertThat(VgMetadataReader.read(VgMetadataWriter.write(vg), "<written>")).as(name).isEqualTo(vg);
        }
    }

    @Test
    void policySettingsAndWritecacheSettingsRoundTrip() {
        String text = with(CACHE, "\t\t\t\tpolicy = \"smq\"\n", "\t\t\t\tpolicy = \"smq\"\n\t\t\t\tpolicy_settings {\n"
                + "\t\t\t\t\tmigration_threshold = 2048\n\t\t\t\t}\n")
                .replace("writecache_block_size = 4096\n", "writecache_block_size = 4096\n"
                        + "\t\t\t\thigh_watermark = 50\n\t\t\t\tautocommit_time = 1000\n");
        VolumeGroup vg = VgMetadataReader.read(text, "t.vg");
        SegmentType.CachePool p = (SegmentType.CachePool) vg.logicalVolume("cpool_cpool").orElseThrow().segments()
                .get(0).type();
        assertThat(p.policySettings()).containsExactly(Map.entry("migration_threshold", 2048L));
        SegmentType.Writecache w = (SegmentType.Writecache) vg.logicalVolume("origin2").orElseThrow().segments()
                .get(0).type();
        assertThat(w.settings()).containsExactly(Map.entry("high_watermark", 50L), Map.entry("autocommit_time", 1000L));
        assertThat(VgMetadataReader.read(VgMetadataWriter.write(vg), "<written>")).isEqualTo(vg);
    }

    @Test
    void snapshotRulesNameTheValue() {
        // 12 sectors = 6 KiB: not a power of two; 2048 sectors = 1 MiB: above lvcreate's 512 KiB
        assertThat(problem(with(SNAP, "chunk_size = 128", "chunk_size = 12")))
                .isEqualTo("Chunk size 12 sectors must be a power of 2 in the range 4K to 512K");
        assertThat(problem(with(SNAP, "chunk_size = 128", "chunk_size = 2048")))
                .isEqualTo("Chunk size 2048 sectors must be a power of 2 in the range 4K to 512K");
        assertThat(problem(with(SNAP, "cow_store = \"snap\"", "cow_store = \"nosuch\"")))
                .isEqualTo("Unknown cow_store nosuch in segment segment1 of logical volume vgs/snapshot0");
        assertThat(problem(with(SNAP, "cow_store = \"snap\"", "cow_store = \"snap\"\n\t\t\t\tmerging_store = \"snap\"")))
                .startsWith("\"merging_store\" of snapshot segment segment1 of logical volume vgs/snapshot0");
    }

    @Test
    void cacheRulesNameTheValue() {
        assertThat(problem(with(CACHE, "cache_mode = \"writethrough\"", "cache_mode = \"writearound\"")))
                .isEqualTo("Unknown cache_mode \"writearound\" in segment segment1 of logical volume vgk/cpool_cpool"
                        + " (expected writethrough, writeback or passthrough)");
        // 96 sectors = 48 KiB: not a multiple of 32 KiB
        assertThat(problem(with(CACHE, "chunk_size = 128\n\t\t\t\tcache_mode", "chunk_size = 96\n\t\t\t\tcache_mode")))
                .isEqualTo("Chunk size 96 sectors must be a multiple of 64 sectors (32KiB) from 32KiB to 1GiB");
        assertThat(problem(with(CACHE, "\t\t\t\tmetadata_format = 2\n", "")))
                .isEqualTo("segment type cache-pool+METADATA_FORMAT of segment segment1 of logical volume"
                        + " vgk/cpool_cpool without metadata_format");
        assertThat(problem(with(CACHE, "writecache_block_size = 4096", "writecache_block_size = 1024")))
                .isEqualTo("Invalid writecache_block_size 1024 (expected 512 or 4096)");
        assertThat(problem(with(CACHE, "writecache_block_size = 4096", "writecache_block_size = 4096\n\t\t\t\tcolor = 1")))
                .isEqualTo("\"color\" of segment segment1 of logical volume vgk/origin2 is not modelled");
    }

    @Test
    void aSubLvBelongsToOneLvAndCachePoolsMustBeCachePools() {
        // origin2 names origin_corig, origin's cache origin, as its writecache origin too
        assertThat(problem(with(CACHE, "origin = \"origin2_wcorig\"", "origin = \"origin_corig\"")))
                .startsWith("LV vgk/origin_corig is the writecache origin of LV vgk/origin2 and already the cache"
                        + " origin of LV vgk/origin (line ");
        // the cache names a striped LV as its pool
        assertThat(problem(with(CACHE, "cache_pool = \"cpool_cpool\"", "cache_pool = \"lvol0_pmspare\"")))
                .isEqualTo("LV vgk/lvol0_pmspare, the cache_pool of LV vgk/origin, is a striped LV, not a cache pool");
    }

    @Test
    void typesRejectWhatLvmRejects() {
        assertThatThrownBy(() -> new SegmentType.Snapshot("o", "o", Sectors.of(8)))
                .hasMessage("snapshot origin and cow_store are the same LV \"o\"");
        assertThatThrownBy(() -> new SegmentType.Writecache("o", "c", 4096, Map.of("colour", 1L)))
                .hasMessageStartingWith("Unknown writecache setting \"colour\"");
        assertThatThrownBy(() -> new SegmentType.CachePool("d", "m", Sectors.of(128), Optional.empty(),
                Optional.empty(), Map.of(), Optional.of(3))).hasMessage("Unknown cache metadata format 3 (expected 1 or 2)");
    }
}
