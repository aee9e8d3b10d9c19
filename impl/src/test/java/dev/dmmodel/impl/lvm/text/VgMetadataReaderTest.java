package dev.dmmodel.impl.lvm.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.PhysicalVolume;
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

/** The reader on real vgcfgbackup files (copied from shared/kernel-traces) and on edited copies. */
class VgMetadataReaderTest {

    static final List<String> FIXTURES = List.of("thin-lvm-zy-direct1M.vg", "lp-raid-part63.vg", "ss-str-1M-at0.vg",
            "snapshot-c64k-6.12-stacks.vg", "cache-writecache-6.12-stacks.vg", "lvmraid-6.12-stacks.vg");

    static String fixture(String name) {
        try (InputStream in = VgMetadataReaderTest.class.getResourceAsStream("/lvmtext/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource /lvmtext/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static VolumeGroup read(String name) {
        return VgMetadataReader.read(fixture(name), name);
    }

    private static LvmMetadataException failure(String text) {
        try {
            VgMetadataReader.read(text, "t.vg");
        } catch (LvmMetadataException e) {
            return e;
        }
        throw new AssertionError("no error");
    }

    /** The thin fixture with one replacement, which must occur exactly once. */
    private static String thinWith(String from, String to) {
        String text = fixture("thin-lvm-zy-direct1M.vg");
        assertThat(text.indexOf(from)).as(from).isGreaterThanOrEqualTo(0);
        assertThat(text.indexOf(from, text.indexOf(from) + 1)).as(from).isEqualTo(-1);
        return text.replace(from, to);
    }

    private static String stripedWith(String from, String to) {
        String text = fixture("ss-str-1M-at0.vg");
        assertThat(text.indexOf(from)).as(from).isGreaterThanOrEqualTo(0);
        return text.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    }

    @Test
    void thinPoolThinVolumeAndSpare() {
        VolumeGroup vg = read("thin-lvm-zy-direct1M.vg");
        assertThat(vg.name()).isEqualTo("vgt");
        assertThat(vg.extentSize()).isEqualTo(Sectors.of(8192));
        assertThat(vg.allocationPolicy()).isEqualTo(AllocationPolicy.NORMAL);
        assertThat(vg.physicalVolumes()).containsExactly(new PhysicalVolume("sda", Sectors.of(2_097_152),
                Sectors.of(2048), Sectors.ZERO, Sectors.ZERO, "vgt", 255, Sectors.of(8192)));
        assertThat(vg.logicalVolumes()).extracting(LogicalVolume::name)
                .containsExactly("pool", "thin", "lvol0_pmspare", "pool_tmeta", "pool_tdata");
        assertThat(vg.logicalVolumes()).extracting(LogicalVolume::role).containsExactly(LvRole.THIN_POOL,
                LvRole.THIN_VOLUME, LvRole.POOL_METADATA_SPARE, LvRole.THIN_POOL_METADATA, LvRole.THIN_POOL_DATA);
        assertThat(vg.logicalVolumes()).allMatch(lv -> lv.dmDevice().isEmpty() && lv.flags().isEmpty());

        LogicalVolume pool = vg.logicalVolume("pool").orElseThrow();
        assertThat(pool.extentCount()).isEqualTo(64);
        assertThat(pool.thinPool()).contains(new SegmentType.ThinPool("pool_tmeta", "pool_tdata", 1,
                Sectors.of(2048), ThinDiscards.PASSDOWN, true));
        LogicalVolume thin = vg.logicalVolume("thin").orElseThrow();
        assertThat(thin.extentCount()).isEqualTo(16);
        assertThat(thin.thin()).contains(new SegmentType.Thin("pool", 0, 1, Optional.empty()));
        assertThat(vg.logicalVolume("lvol0_pmspare").orElseThrow().segments())
                .containsExactly(new LvSegment(0, 1, Sectors.ZERO, List.of(new StripeArea("sda", 0))));
        assertThat(vg.logicalVolume("pool_tmeta").orElseThrow().segments())
                .containsExactly(new LvSegment(0, 1, Sectors.ZERO, List.of(new StripeArea("sda", 65))));
        assertThat(vg.logicalVolume("pool_tdata").orElseThrow().segments())
                .containsExactly(new LvSegment(0, 64, Sectors.ZERO, List.of(new StripeArea("sda", 1))));
        assertThat(vg.freeCount()).isEqualTo(255 - 66);
    }

    @Test
    void linearOnAPartition() {
        VolumeGroup vg = read("lp-raid-part63.vg");
        assertThat(vg.physicalVolumes()).singleElement().satisfies(pv -> {
            assertThat(pv.device()).isEqualTo("sda1");
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2753));
            assertThat(pv.peCount()).isEqualTo(1023);
            assertThat(pv.devSize()).isEqualTo(Sectors.of(8_388_545));
        });
        LogicalVolume lv = vg.logicalVolume("lv").orElseThrow();
        assertThat(lv.role()).isEqualTo(LvRole.PUBLIC);
        assertThat(lv.segments()).containsExactly(new LvSegment(0, 256, Sectors.ZERO, List.of(new StripeArea("sda1", 0))));
    }

    @Test
    void stripedAndSpanningLinear() {
        VolumeGroup vg = read("ss-str-1M-at0.vg");
        assertThat(vg.physicalVolumes()).extracting(PhysicalVolume::device).containsExactly("sda", "sdb");
        LogicalVolume striped = vg.logicalVolume("striped").orElseThrow();
        assertThat(striped.segments()).containsExactly(new LvSegment(0, 16, Sectors.of(128),
                List.of(new StripeArea("sda", 0), new StripeArea("sdb", 0))));
        assertThat(striped.segments().get(0).segType()).isEqualTo("striped");
        assertThat(vg.logicalVolume("span").orElseThrow().segments()).containsExactly(
                new LvSegment(0, 2, Sectors.ZERO, List.of(new StripeArea("sda", 20))),
                new LvSegment(2, 2, Sectors.ZERO, List.of(new StripeArea("sdb", 30))));
    }

    @Test
    void flagsAndOptionalKeys() {
        VolumeGroup vg = VgMetadataReader.read(thinWith("flags = []\n\t\t\tcreation_time = 1795987349",
                "flags = [\"ACTIVATION_SKIP\", \"NOAUTOACTIVATE\"]\n\t\t\tcreation_time = 1795987349")
                .replace("\t\t\t\tdiscards = \"passdown\"\n", "").replace("zero_new_blocks = 1", "zero_new_blocks = 0")
                .replace("metadata_copies = 0", "metadata_copies = 0\n\tallocation_policy = \"cling\""), "t.vg");
        assertThat(vg.logicalVolume("thin").orElseThrow().flags()).containsExactly(LvFlag.ACTIVATION_SKIP);
        SegmentType.ThinPool pool = vg.logicalVolume("pool").orElseThrow().thinPool().orElseThrow();
        assertThat(pool.discards()).isEqualTo(ThinDiscards.IGNORE);
        assertThat(pool.zeroNewBlocks()).isFalse();
        assertThat(vg.allocationPolicy()).isEqualTo(AllocationPolicy.CLING);
    }

    @Test
    void unknownSegmentTypesAreReportedWithTheLvAndTheLine() {
        LvmMetadataException e = failure(thinWith("type = \"thin\"", "type = \"mirror\""));
        assertThat(e.getMessage()).isEqualTo("t.vg:72:12: segment type \"mirror\" of LV vgt/thin is not modelled");
        assertThat(failure(thinWith("type = \"thin-pool\"", "type = \"mirror\"")).problem())
                .isEqualTo("segment type \"mirror\" of LV vgt/pool is not modelled");
        // a flag on a type that takes none: thin-pool+METADATA_FORMAT is not an LVM type
        assertThat(failure(thinWith("type = \"thin-pool\"", "type = \"thin-pool+METADATA_FORMAT\"")).problem())
                .isEqualTo("segment type flags \"METADATA_FORMAT\" of LV vgt/pool are not modelled (only"
                        + " cache-pool+METADATA_FORMAT is)");
    }

    @Test
    void importValidationNamesTheOffendingLine() {
        assertThat(failure(stripedWith("\"pv1\", 0", "\"pv7\", 0")).getMessage())
                .isEqualTo("t.vg:67:6: Couldn't find volume 'pv7' for segment segment1 of logical volume vg/striped.");
        assertThat(failure(stripedWith("\"pv0\", 20", "\"pv0\", 62")).getMessage()).isEqualTo(
                "t.vg:88:13: extents 62..63 of segment segment1 of logical volume vg/span lie beyond the 63 extents of pv0");
        assertThat(failure(stripedWith("start_extent = 2", "start_extent = 3")).getMessage())
                .isEqualTo("t.vg:92:20: LV vg/span invalid: segment2 should begin at LE 2 (found 3).");
        assertThat(failure(stripedWith("segment_count = 2", "segment_count = 3")).getMessage()).isEqualTo(
                "t.vg:78:20: segment_count and actual number of segments disagree for logical volume vg/span "
                        + "(segment_count 3, 2 segments)");
        assertThat(failure(stripedWith("extent_count = 16", "extent_count = 15")).problem())
                .isEqualTo("extent_count 15 of segment segment1 of logical volume vg/striped is not divisible by 2 stripes");
        assertThat(failure(stripedWith("\"pv0\", 0,\n\t\t\t\t\t\"pv1\", 0", "\"pv0\", 0")).problem()).isEqualTo(
                "Incorrect number of areas in area array for segment segment1 of logical volume vg/striped "
                        + "(1 pairs for stripe_count 2)");
        assertThat(failure(stripedWith("\"pv1\", 0", "\"pv1\", \"0\"")).problem()).isEqualTo(
                "Missing offset in areas array for segment segment1 of logical volume vg/striped: found string \"0\"");
        assertThat(failure(stripedWith("\"pv1\", 0", "1, 0")).problem())
                .isEqualTo("Bad volume name in areas array for segment segment1 of logical volume vg/striped: found \"1\"");
        assertThat(failure(stripedWith("\t\t\t\tstripe_size = 128\t# 64 Kilobytes\n", "")).problem())
                .isEqualTo("Couldn't read 'stripe_size' for segment segment1 of logical volume vg/striped");
        assertThat(failure(stripedWith("extent_size = 8192", "extent_size = \"8192\"")).getMessage())
                .isEqualTo("t.vg:17:16: expected an integer for \"extent_size\", found string \"8192\"");
        assertThat(failure(stripedWith("\"pv1\", 30", "\"pv0\", 21")).problem())
                .isEqualTo("PV sda: extents 21-22 of LV span overlap extents 20-21 of LV span");
        assertThat(failure(stripedWith("pe_count = 63", "pe_count = 64")).getMessage())
                .isEqualTo("t.vg:32:15: the 64 extents of physical volume pv0 end at sector 526336, beyond dev_size 524288");
        assertThat(failure(stripedWith("\"RESIZEABLE\"", "\"RESIZABLE\"")).getMessage())
                .isEqualTo("t.vg:15:12: Unknown status flag 'RESIZABLE'.");
    }

    @Test
    void thinValidation() {
        assertThat(failure(thinWith("chunk_size = 2048", "chunk_size = 64")).getMessage())
                .isEqualTo("t.vg:54:18: Unsupported value 64 for chunk_size");
        assertThat(failure(thinWith("device_id = 1", "device_id = 16777216")).getMessage())
                .isEqualTo("t.vg:75:17: Unsupported value 16777216 for device_id");
        assertThat(failure(thinWith("metadata = \"pool_tmeta\"", "metadata = \"nope\"")).problem())
                .isEqualTo("Unknown metadata nope in segment segment1 of logical volume vgt/pool");
        assertThat(failure(thinWith("metadata = \"pool_tmeta\"", "metadata = 3")).problem())
                .isEqualTo("Metadata must be a string in segment segment1 of logical volume vgt/pool, found \"3\"");
        assertThat(failure(thinWith("transaction_id = 1", "transaction_id = \"x\"")).problem())
                .isEqualTo("expected an integer for \"transaction_id\", found string \"x\"");
        assertThat(failure(thinWith("thin_pool = \"pool\"", "thin_pool = \"pool_tdata\"")).problem())
                .isEqualTo("LV vgt/thin: thin_pool \"pool_tdata\" is not a thin pool");
        assertThat(failure(thinWith("discards = \"passdown\"", "discards = \"sometimes\"")).problem())
                .isEqualTo("Thin pool discards type \"sometimes\" is unknown.");
        assertThat(failure(thinWith("extent_count = 64\t# 256 Megabytes\n\n\t\t\t\ttype = \"thin-pool\"",
                "extent_count = 63\n\t\t\t\ttype = \"thin-pool\"")).problem())
                .isEqualTo("LV vgt/pool: segment 1 with len=63 has inconsistent area_len 64 (data LV pool_tdata)");
        assertThat(failure(thinWith("lvol0_pmspare {", "lvol0_spare {")).problem())
                .isEqualTo("hidden LV vgt/lvol0_spare has no role this model knows (not a thin pool's data or "
                        + "metadata LV, not a *_pmspare)");
        assertThat(failure(thinWith("zero_new_blocks = 1", "zero_new_blocks = 1\n message1 { create = \"thin\" }"))
                .problem()).isEqualTo("queued thin-pool message \"message1\" in segment segment1 of logical volume "
                        + "vgt/pool is not modelled");
    }

    @Test
    void headerAndVgSection() {
        assertThat(failure(thinWith("contents = \"Text Format Volume Group\"", "")).getMessage())
                .isEqualTo("t.vg:1:1: Can't process text format file - missing contents field.");
        assertThat(failure(thinWith("version = 1", "version = 2")).getMessage())
                .isEqualTo("t.vg:4:11: Can't process text format file - unrecognised version number 2 (expected 1)");
        assertThat(failure("contents = \"Text Format Volume Group\"\nversion = 1\n").getMessage()).isEqualTo(
                "t.vg:1:1: expected a volume group section (with id, seqno and physical_volumes), found none");
        assertThat(failure(thinWith("\tseqno = 6\n", "")).getMessage())
                .isEqualTo("t.vg:11:1: Couldn't read 'seqno' for volume group vgt");
    }

    @Test
    void readsFilesAndRejectsNulls(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
        java.nio.file.Path f = dir.resolve("x.vg");
        java.nio.file.Files.writeString(f, stripedWith("extent_size = 8192", "extent_size 8192"));
        assertThatThrownBy(() -> VgMetadataReader.read(f)).isInstanceOf(LvmMetadataException.class)
                .hasMessage("x.vg:17:14: expected '=' or '{' after \"extent_size\", found \"8192\"");
        assertThatThrownBy(() -> VgMetadataReader.read((String) null, "x")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theDocumentedExampleWithAThinSnapshot() {
        // docs/lvm2-semantics.md section 4.5 (shared/docs), copied as written
        VolumeGroup vg = read("doc-4.5-example.vg");
        assertThat(vg.name()).isEqualTo("vg0");
        assertThat(vg.physicalVolumes()).extracting(PhysicalVolume::device).containsExactly("sdb", "sdc");
        assertThat(vg.physicalVolumes()).extracting(PhysicalVolume::peCount).containsExactly(2559L, 2559L);
        LogicalVolume snap = vg.logicalVolume("snap1").orElseThrow();
        assertThat(snap.flags()).containsExactly(LvFlag.ACTIVATION_SKIP);
        assertThat(snap.thin()).contains(new SegmentType.Thin("pool", 1, 2, Optional.of("thin1")));
        assertThat(vg.logicalVolume("pool").orElseThrow().thinPool().orElseThrow().chunkSize())
                .isEqualTo(Sectors.of(128));
        assertThat(vg.logicalVolume("data").orElseThrow().segments()).containsExactly(new LvSegment(0, 512,
                Sectors.of(128), List.of(new StripeArea("sdb", 1280), new StripeArea("sdc", 0))));
        assertThat(failure(fixture("doc-4.5-example.vg").replace("origin = \"thin1\"", "origin = \"thin9\""))
                .problem()).isEqualTo("Unknown origin thin9 in segment segment1 of logical volume vg0/snap1");
    }
}
