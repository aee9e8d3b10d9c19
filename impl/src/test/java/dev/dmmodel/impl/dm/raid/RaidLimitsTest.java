package dev.dmmodel.impl.dm.raid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The limits of the recorded LVM raid stack (kernel-traces-6.12-stacks/lvmraid-*: three 1 GiB virtio disks vda,
 * vdb, vdc with queue size 1024, the tables of snapshot/dmsetup-table.txt written with device paths), derived from
 * dm-raid's hints and discard rules; the numbers are the snapshot's block/dm-4 (vgr-r1) and block/dm-11 (vgr-r5)
 * queue files.
 */
class RaidLimitsTest {

    private static Layout layout() {
        LayoutSpec disks = new LayoutSpec(KernelProfile.LINUX_6_12, Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .disk("vdb", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .disk("vdc", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .steps());
        return Layout.of(DmTables.addTo(disks, """
                vgr-r1_rmeta_0: 0 8192 linear /dev/vda 2048
                vgr-r1_rimage_0: 0 131072 linear /dev/vda 10240
                vgr-r1_rmeta_1: 0 8192 linear /dev/vdb 2048
                vgr-r1_rimage_1: 0 131072 linear /dev/vdb 10240
                vgr-r1: 0 131072 raid raid1 4 0 nosync region_size 4096 2 /dev/mapper/vgr-r1_rmeta_0 \
                /dev/mapper/vgr-r1_rimage_0 /dev/mapper/vgr-r1_rmeta_1 /dev/mapper/vgr-r1_rimage_1
                vgr-r5_rmeta_0: 0 8192 linear /dev/vda 141312
                vgr-r5_rimage_0: 0 65536 linear /dev/vda 149504
                vgr-r5_rmeta_1: 0 8192 linear /dev/vdb 141312
                vgr-r5_rimage_1: 0 65536 linear /dev/vdb 149504
                vgr-r5_rmeta_2: 0 8192 linear /dev/vdc 2048
                vgr-r5_rimage_2: 0 65536 linear /dev/vdc 10240
                vgr-r5: 0 131072 raid raid5_ls 4 128 nosync region_size 4096 3 /dev/mapper/vgr-r5_rmeta_0 \
                /dev/mapper/vgr-r5_rimage_0 /dev/mapper/vgr-r5_rmeta_1 /dev/mapper/vgr-r5_rimage_1 \
                /dev/mapper/vgr-r5_rmeta_2 /dev/mapper/vgr-r5_rimage_2
                """, "lvmraid.txt"));
    }

    @Test
    void raid5HintsTheChunkAndTheFullStripeAndPassesNoDiscards() {
        Layout l = layout();
        QueueLimits r5 = l.device("/dev/mapper/vgr-r5").limits();
        QueueLimits image = l.device("/dev/mapper/vgr-r5_rimage_0").limits();
        // raid_io_hints: io_min = 128 sectors x 512 = 65536, io_opt = 65536 x 2 data devices = 131072
        assertThat(r5.ioMin()).isEqualTo(65536);
        assertThat(r5.ioOpt()).isEqualTo(131072);
        // configure_discard_support: raid4/5/6 without devices_handle_discard_safely: num_discard_bios 0, although
        // the images pass discards (discard_max_bytes 2147483136 recorded for dm-6)
        assertThat(image.maxDiscardSectors()).isGreaterThan(0);
        assertThat(r5.maxDiscardSectors()).isZero();
        assertThat(r5.discardGranularity()).isZero();
        // no num_write_zeroes_bios: write_zeroes_max_bytes 0 (the images have 2147483136)
        assertThat(r5.maxWriteZeroesSectors()).isZero();
        assertThat(r5.chunkSectors()).isZero();
        // the rest stacks from the images: max_sectors_kb 1280, max_segments 1022
        assertThat(r5.maxSectors()).isEqualTo(image.maxSectors());
        assertThat(r5.maxSegments()).isEqualTo(1022);
    }

    @Test
    void raid1HasNoChunkAndPassesDiscardsButNoWriteZeroes() {
        Layout l = layout();
        QueueLimits r1 = l.device("/dev/mapper/vgr-r1").limits();
        QueueLimits image = l.device("/dev/mapper/vgr-r1_rimage_0").limits();
        // raid_io_hints with chunk 0: io_min the block size 512, io_opt 0
        assertThat(r1.ioMin()).isEqualTo(512);
        assertThat(r1.ioOpt()).isZero();
        // discards stacked from the images (granularity 512, as recorded for dm-4)
        assertThat(r1.maxDiscardSectors()).isEqualTo(image.maxDiscardSectors()).isGreaterThan(0);
        assertThat(r1.discardGranularity()).isEqualTo(512);
        assertThat(r1.maxWriteZeroesSectors()).isZero();
    }
}
