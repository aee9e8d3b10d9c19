package dev.dmmodel.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import org.junit.jupiter.api.Test;

class DiskPresetsTest {

    @Test
    void aPresetIsAValueThatCanBeKeptAndCompared() {
        assertThat(DiskPresets.qemuAhci()).isEqualTo(DiskPresets.qemuAhci());
        assertThat(DiskPresets.qemuAhci().hashCode()).isEqualTo(DiskPresets.qemuAhci().hashCode());
        assertThat(DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)))
                .isEqualTo(DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)))
                .isNotEqualTo(DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(128)));
        assertThat(DiskPresets.ahciSata()).isNotEqualTo(DiskPresets.ahciSataSsd());
    }

    @Test
    void withSizeChangesTheSizeOnlyAndLeavesThePresetAlone() {
        DiskSpec sized = DiskPresets.sasDisk().withSize(Bytes.gib(10));
        // 10 GiB = 10 x 2^30 / 512 = 20971520 sectors
        assertThat(sized.size()).isEqualTo(Sectors.of(20971520));
        assertThat(sized.limits()).isEqualTo(DiskPresets.sasDisk().limits());
        assertThat(sized.driver()).isEqualTo(DiskDriver.SD);
        // every preset is 16 GiB until sized: 16 x 2^30 / 512 = 33554432 sectors
        assertThat(DiskPresets.sasDisk().size()).isEqualTo(Sectors.of(33554432));
        assertThat(sized.withSize(Sectors.of(33554432))).isEqualTo(DiskPresets.sasDisk());
    }

    @Test
    void toBuilderDerivesAVariantAndLeavesThePresetAlone() {
        DiskSpec pata = DiskPresets.qemuAhci().toBuilder().maxHwSectors(256).size(Bytes.gib(1)).build();
        assertThat(pata.limits().maxHwSectors()).isEqualTo(256);
        // ATA_MAX_SECTORS_LBA48
        assertThat(DiskPresets.qemuAhci().limits().maxHwSectors()).isEqualTo(65535);
    }

    @Test
    void qemuAhciHasTheLimitsRecordedWithLibataForcedToLba48() {
        // shared/kernel-traces/limits-ahci-lba48/snapshot/block/sda/queue: max_segments 168 (AHCI_MAX_SG),
        // max_segment_size 65536, max_hw_sectors_kb 32767 (65535 sectors / 2, rounded down), rotational 1,
        // discard_granularity 512, discard_max_hw_bytes 2147450880 = 4194240 sectors of 512
        var l = DiskPresets.qemuAhci().limits();
        assertThat(l.maxSegments()).isEqualTo(168);
        assertThat(l.maxSegmentSize()).isEqualTo(65536);
        assertThat(l.maxHwSectors()).isEqualTo(65535);
        assertThat(l.rotational()).isTrue();
        assertThat(l.discardGranularity()).isEqualTo(512);
        assertThat(l.maxHwDiscardSectors()).isEqualTo(4194240);
    }

    @Test
    void nullBlkHasTheLimitsRecordedForBlocksize512() {
        // shared/kernel-traces/limits-nb512/snapshot/block/nb512a/queue: max_segments 128, max_segment_size
        // 65536, max_hw_sectors_kb 127 (255 sectors / 2, rounded down), discard_max_hw_bytes 0, rotational 0
        var l = DiskPresets.nullBlk().limits();
        assertThat(l.maxSegments()).isEqualTo(128);
        assertThat(l.maxSegmentSize()).isEqualTo(65536);
        assertThat(l.maxHwSectors()).isEqualTo(255);
        assertThat(l.maxHwDiscardSectors()).isZero();
        assertThat(l.rotational()).isFalse();
    }

    @Test
    void hardwareRaidDeclaresItsChunkAndFullStripe() {
        // 7+1 RAID 5 with 64 KiB chunks: io_min 65536, io_opt 7 x 65536 = 458752 (what the lp-* cases'
        // scsi_debug disk was given to stand in for such an array)
        var l = DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).limits();
        assertThat(l.ioMin()).isEqualTo(65536);
        assertThat(l.ioOpt()).isEqualTo(458752);
        assertThat(DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).description())
                .isEqualTo("RAID5 volume, 8 disks, 64KiB chunk");
        assertThatThrownBy(() -> DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.of(1000)))
                .hasMessage("hardware RAID chunk (1000 bytes) must be a positive multiple of 512 bytes");
        assertThatThrownBy(() -> DiskPresets.hardwareRaid(null, 8, Bytes.kib(64)))
                .isInstanceOf(NullPointerException.class);
    }
}
