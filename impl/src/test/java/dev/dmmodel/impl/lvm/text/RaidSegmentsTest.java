package dev.dmmodel.impl.lvm.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * LVM RAID segment types in text metadata, on the vgcfgbackup recorded for kernel-traces-6.12-stacks/lvmraid-*
 * (VG vgr on vda, vdb, vdc with 4 MiB extents: r1 = raid1 over two images of 16 extents, r5 = raid5 over three
 * images of 8 extents, all --nosync).
 */
class RaidSegmentsTest {

    private static final String RAID = "lvmraid-6.12-stacks.vg";

    private static String fixture() {
        try (InputStream in = RaidSegmentsTest.class.getResourceAsStream("/lvmtext/" + RAID)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String with(String from, String to) {
        String text = fixture();
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
    void raid1AndRaid5LvsWithTheirImagesAndMetadataLvs() {
        VolumeGroup vg = VgMetadataReader.read(fixture(), RAID);
        LogicalVolume r1 = vg.logicalVolume("r1").orElseThrow();
        // r1 segment1: 16 extents, type "raid1", device_count 2, region_size 4096, no stripe_size
        assertThat(r1.segments().get(0).type()).isEqualTo(new SegmentType.Raid("raid1", Sectors.ZERO,
                Sectors.of(4096), List.of("r1_rmeta_0", "r1_rmeta_1"), List.of("r1_rimage_0", "r1_rimage_1"),
                OptionalInt.empty()));
        assertThat(r1.role()).isEqualTo(LvRole.RAID);
        assertThat(r1.flags()).containsExactly(LvFlag.NOTSYNCED);
        assertThat(r1.extentCount()).isEqualTo(16);
        SegmentType.Raid r5 = (SegmentType.Raid) vg.logicalVolume("r5").orElseThrow().segments().get(0).type();
        // r5: raid5 (left symmetric: the kernel's raid5_ls), stripe_size 128 (64 KiB), 3 devices = 2 data + parity
        assertThat(r5.raidType()).isEqualTo("raid5");
        assertThat(r5.targetType()).isEqualTo("raid5_ls");
        assertThat(r5.stripeSize().count()).isEqualTo(128);
        assertThat(r5.dataStripes()).isEqualTo(2);
        assertThat(r5.parityDevices()).isEqualTo(1);
        // each image holds 16 / 2 = 8 extents
        assertThat(r5.imageExtents(16)).isEqualTo(8);
        assertThat(vg.logicalVolume("r5_rimage_2").orElseThrow().segments().get(0).areas())
                .containsExactly(new StripeArea("vdc", 1));
        assertThat(vg.logicalVolume("r5_rmeta_2").orElseThrow().segments().get(0).areas())
                .containsExactly(new StripeArea("vdc", 0));
        assertThat(vg.logicalVolume("r1_rimage_0").orElseThrow().role()).isEqualTo(LvRole.RAID_IMAGE);
        assertThat(vg.logicalVolume("r1_rmeta_0").orElseThrow().role()).isEqualTo(LvRole.RAID_METADATA);
        assertThat(vg.logicalVolume("r1_rmeta_0").orElseThrow().visible()).isFalse();
        // 2 x (1 + 16) + 3 x (1 + 8) = 61 of 765 extents used: 704 free, as vgs says (vg_free_count 704)
        assertThat(vg.freeCount()).isEqualTo(704);
    }

    @Test
    void theWriterPutsNotsyncedAfterVisibleAndTheRaidKeysInExportOrder() {
        VolumeGroup vg = VgMetadataReader.read(fixture(), RAID);
        String text = VgMetadataWriter.write(vg);
        assertThat(text).contains("\t\t\tstatus = [\"READ\", \"WRITE\", \"VISIBLE\", \"NOTSYNCED\"]\n");
        assertThat(text).contains("\t\t\t\ttype = \"raid5\"\n\t\t\t\tdevice_count = 3\n\t\t\t\tregion_size = 4096\n"
                + "\t\t\t\tstripe_size = 128\n\n\t\t\t\traids = [\n\t\t\t\t\t\"r5_rmeta_0\", \"r5_rimage_0\",\n");
        assertThat(VgMetadataReader.read(text, "<written>")).isEqualTo(vg);
    }

    @Test
    void theImportersChecksWithLvmsWords() {
        // lib/metadata/merge.c: _check_raid1_seg — a raid1 has no stripe size
        assertThat(problem(with("device_count = 2\n", "device_count = 2\n\t\t\t\tstripe_size = 128\n")))
                .isEqualTo("LV vgr/r1 invalid: non-zero stripe size (is 128) for raid1 segment");
        // _check_raid_region_recovery
        assertThat(problem(with("region_size = 4096\n\t\t\t\tstripe_size", "region_size = 3000\n\t\t\t\tstripe_size")))
                .isEqualTo("LV vgr/r5 invalid: non power of 2 region size (is 3000) for raid5 segment");
        // _raid_text_import_area_count
        assertThat(problem(with("device_count = 3\n", ""))).isEqualTo(
                "Couldn't read 'device_count' or 'stripe_count' for segment 'segment1'.");
        // _raid_text_import_areas: device_count 3 but two pairs
        assertThat(problem(with("\"r5_rmeta_1\", \"r5_rimage_1\",\n\t\t\t\t\t", ""))).startsWith(
                "Incorrect number of areas in area array for segment 'segment1'");
        assertThat(problem(with("\"r1_rmeta_0\", \"r1_rimage_0\"", "\"r1_rmeta_0\", \"r1_rimage_9\"")))
                .isEqualTo("Couldn't find volume 'r1_rimage_9' for segment segment1 of logical volume vgr/r1.");
        // check_lv_segments: an image of 8 extents for r1's 16
        assertThat(problem(with("\"r1_rmeta_1\", \"r1_rimage_1\"", "\"r1_rmeta_1\", \"r5_rimage_1\"")))
                .startsWith("LV vgr/r5_rimage_1 is the raid image 1 of LV vgr/r5 and already the raid image 1 of LV "
                        + "vgr/r1");
        assertThat(problem(with("stripe_size = 128\n", "stripe_size = 128\n\t\t\t\twritebehind = 10\n")))
                .isEqualTo("\"writebehind\" of segment segment1 of logical volume vgr/r5 is not modelled");
        assertThat(problem(with("type = \"raid5\"", "type = \"raid0\""))).isEqualTo(
                "segment type \"raid0\" of LV vgr/r5 (striped RAID without redundancy) is not modelled");
    }

    @Test
    void anImageShorterThanItsShareIsInconsistent() {
        // r5 of 24 extents needs images of 24 / 2 = 12 extents; they have 8
        String text = with("extent_count = 16\t# 64 Megabytes\n\n\t\t\t\ttype = \"raid5\"",
                "extent_count = 24\t# 96 Megabytes\n\n\t\t\t\ttype = \"raid5\"");
        assertThat(problem(text)).isEqualTo("LV vgr/r5: segment 1 with len=24 has inconsistent area_len 12 (raid5 "
                + "image r5_rimage_0 has 8 extents)");
    }

    @Test
    void theTypeRecordChecksCountsAndCopies() {
        List<String> m3 = List.of("a_rmeta_0", "a_rmeta_1", "a_rmeta_2");
        List<String> i3 = List.of("a_rimage_0", "a_rimage_1", "a_rimage_2");
        // raid6 needs 5 devices (3 stripes + 2 parity)
        assertThatThrownBy(() -> new SegmentType.Raid("raid6", Sectors.of(128), Sectors.of(4096), m3, i3,
                OptionalInt.empty())).hasMessage("minimum 5 areas required (is 3) for raid6 segment");
        assertThatThrownBy(() -> new SegmentType.Raid("raid5", Sectors.of(128), Sectors.of(4096), m3.subList(0, 2),
                i3, OptionalInt.empty())).hasMessage("2 meta areas for 3 images for raid5 segment");
        assertThatThrownBy(() -> new SegmentType.Raid("raid5", Sectors.of(128), Sectors.of(4096), m3, i3,
                OptionalInt.of(2))).hasMessageStartingWith("data_copies 2 for raid5 segment");
        assertThatThrownBy(() -> new SegmentType.Raid("raid7", Sectors.of(128), Sectors.of(4096), m3, i3,
                OptionalInt.empty())).hasMessageStartingWith("Unknown RAID segment type \"raid7\"");
        // raid10 over 4 devices with 2 copies: 2 data stripes, each image 16 * 2 / 4 = 8 extents of a 16-extent LV
        List<String> m4 = List.of("b_rmeta_0", "b_rmeta_1", "b_rmeta_2", "b_rmeta_3");
        List<String> i4 = List.of("b_rimage_0", "b_rimage_1", "b_rimage_2", "b_rimage_3");
        SegmentType.Raid r10 = new SegmentType.Raid("raid10", Sectors.of(128), Sectors.of(4096), m4, i4,
                OptionalInt.of(2));
        assertThat(r10.dataStripes()).isEqualTo(2);
        assertThat(r10.imageExtents(16)).isEqualTo(8);
        assertThat(r10.targetType()).isEqualTo("raid10");
    }
}
