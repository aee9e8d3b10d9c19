package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.RaidLvRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@code lvcreate --type raid1|raid5}: the recorded setup of kernel-traces-6.12-stacks/lvmraid-* — three 1 GiB
 * virtio disks (PVs with pe_start 2048, 255 extents of 4 MiB), {@code vgcreate vgr A B C},
 * {@code lvcreate --type raid1 -m1 --nosync -L 64M -n r1 vgr A B}, then
 * {@code lvcreate --type raid5 -i2 -I64k --nosync -L 64M -n r5 vgr A B C}.
 */
class RaidLvsTest {

    private static LayoutBuilder vg() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .disk("vdb", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .disk("vdc", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .pvcreate("vda").pvcreate("vdb").pvcreate("vdc").vgcreate("vgr", "vda", "vdb", "vdc");
    }

    private static Layout recorded() {
        return vg().lvcreateRaid("vgr", RaidLvRequest.raid1("r1", Bytes.mib(64), 1).withNosync().onPvs("vda", "vdb"))
                .lvcreateRaid("vgr", RaidLvRequest.striped("r5", "raid5", Bytes.mib(64), 2, Bytes.kib(64)).withNosync()
                        .onPvs("vda", "vdb", "vdc"))
                .build();
    }

    @Test
    void theTablesAreTheRecordedOnes() {
        // lvmraid-*/snapshot/dmsetup-table.txt. r1: 16 extents; rmeta = _raid_rmeta_extents(16 extents, 4096):
        // 16 x 8192 / 4096 = 32 regions, 8192 + 4 bytes = 17 sectors = 1 extent; so 2 areas of 1 + 16 extents,
        // rmeta_0 at PE 0 of vda (sector 2048), rimage_0 at PE 1 (2048 + 8192 = 10240), likewise on vdb.
        // r5: 16 extents over 2 data stripes = 8 per image + 1 rmeta, 3 areas of 9: vda and vdb continue at PE 17
        // (2048 + 17 x 8192 = 141312; image at PE 18 = 149504), vdc from PE 0 (2048, image 10240). The areas all
        // have 9 extents reserved, so the (stable) sort keeps PV order: image 0 on vda, 1 on vdb, 2 on vdc.
        // Devices in activation order: rmeta_0, rimage_0, rmeta_1, rimage_1, then the raid LV.
        assertThat(recorded().dmsetupTable()).isEqualTo("""
                vgr-r1: 0 131072 raid raid1 4 0 nosync region_size 4096 2 253:0 253:1 253:2 253:3
                vgr-r1_rimage_0: 0 131072 linear 254:0 10240
                vgr-r1_rimage_1: 0 131072 linear 254:16 10240
                vgr-r1_rmeta_0: 0 8192 linear 254:0 2048
                vgr-r1_rmeta_1: 0 8192 linear 254:16 2048
                vgr-r5: 0 131072 raid raid5_ls 4 128 nosync region_size 4096 3 253:5 253:6 253:7 253:8 253:9 253:10
                vgr-r5_rimage_0: 0 65536 linear 254:0 149504
                vgr-r5_rimage_1: 0 65536 linear 254:16 149504
                vgr-r5_rimage_2: 0 65536 linear 254:32 10240
                vgr-r5_rmeta_0: 0 8192 linear 254:0 141312
                vgr-r5_rmeta_1: 0 8192 linear 254:16 141312
                vgr-r5_rmeta_2: 0 8192 linear 254:32 2048
                """);
        Layout l = recorded();
        // the kernel names as recorded (block/dm-4 is vgr-r1, dm-11 vgr-r5)
        assertThat(l.device("/dev/vgr/r1").name()).isEqualTo("dm-4");
        assertThat(l.device("/dev/vgr/r5").name()).isEqualTo("dm-11");
        // LVM's read-ahead for r5: 2 x stripe_size 128 x 3 devices = 768 sectors = 384 KiB, as recorded for dm-11
        assertThat(l.device("/dev/vgr/r5").limits().readAheadKb()).isEqualTo(384);
        assertThat(l.device("/dev/vgr/r5").limits().ioOpt()).isEqualTo(131072);
    }

    @Test
    void theVolumeGroupIsTheRecordedOne() throws IOException {
        VolumeGroup built = recorded().volumeGroup("vgr").orElseThrow();
        VolumeGroup text;
        try (InputStream in = RaidLvsTest.class.getResourceAsStream("/lvmtext/lvmraid-6.12-stacks.vg")) {
            text = VgMetadataReader.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), "vgr.vg");
        }
        Map<String, LogicalVolume> a = new TreeMap<>();
        built.logicalVolumes().forEach(lv -> a.put(lv.name(), lv.withDmDevice("")));
        Map<String, LogicalVolume> b = new TreeMap<>();
        text.logicalVolumes().forEach(lv -> b.put(lv.name(), lv));
        // every LV with its segments, role and NOTSYNCED flag, as vgcfgbackup wrote them
        assertThat(a).isEqualTo(b);
        // LVM's VG order: each RAID LV, then its rimage_N and rmeta_N (the writer puts the visible LVs first)
        assertThat(built.logicalVolumes().stream().map(LogicalVolume::name).toList()).containsExactly("r1",
                "r1_rimage_0", "r1_rmeta_0", "r1_rimage_1", "r1_rmeta_1", "r5", "r5_rimage_0", "r5_rmeta_0",
                "r5_rimage_1", "r5_rmeta_1", "r5_rimage_2", "r5_rmeta_2");
    }

    @Test
    void lvcreateRefusesWhatLvmRefuses() {
        assertThatThrownBy(() -> vg().lvcreateRaid("vgr", RaidLvRequest.striped("x", "raid5", Bytes.mib(64), 1,
                null)).build()).isInstanceOf(LayoutException.class).hasMessageContaining("Minimum of 2 stripes "
                + "required for raid5.");
        assertThatThrownBy(() -> vg().lvcreateRaid("vgr", RaidLvRequest.striped("x", "raid6", Bytes.mib(64), 3,
                null).withNosync()).build()).hasMessageContaining("nosync option prohibited on RAID6.");
        assertThatThrownBy(() -> vg().lvcreateRaid("vgr", new RaidLvRequest("x", "raid1", Bytes.mib(64), 0, 1, 2,
                null, null, false, dev.dmmodel.lvm.AllocationPolicy.INHERIT, java.util.List.of())).build())
                .hasMessageContaining("Stripes argument cannot be used with segment type, raid1");
        assertThatThrownBy(() -> vg().lvcreateRaid("vgr", RaidLvRequest.raid1("x", Bytes.mib(64), 1)
                .withRegionSize(Bytes.kib(3))).build()).hasMessageContaining("Region size must be a multiple of "
                + "machine memory page size");
        // raid6 needs 3 + 2 = 5 PVs for its images: 3 PVs leave 2 images without one
        assertThatThrownBy(() -> vg().lvcreateRaid("vgr", RaidLvRequest.striped("x", "raid6", Bytes.mib(64), 3,
                null)).build()).hasMessageContaining("Insufficient suitable allocatable extents for logical volume x");
    }

    @Test
    void theRegionSizeFollowsLvmsRules() {
        // 2048 KiB default; at least the stripe size; at most the LV (64 MiB = 131072 sectors: highest power of 2);
        // at least LV / 2^21 regions
        RaidLvRequest r = RaidLvRequest.raid1("x", Bytes.mib(64), 1);
        assertThat(RaidLvs.regionSize("w", r, 0, 16, 8192)).isEqualTo(4096);
        assertThat(RaidLvs.regionSize("w", r.withRegionSize(Bytes.mib(256)), 0, 16, 8192)).isEqualTo(131072);
        assertThat(RaidLvs.regionSize("w", r.withRegionSize(Bytes.kib(4)), 8192, 16, 8192)).isEqualTo(8192);
        // 16 TiB = 2^35 sectors: at least 2^35 / 2^21 = 16384 sectors
        assertThat(RaidLvs.regionSize("w", r, 0, 1L << 22, 8192)).isEqualTo(16384);
        // _raid_rmeta_extents: a 1 TiB image (262144 extents of 4 MiB) has 2^31 / 4096 = 524288 regions =
        // 65536 bitmap bytes; 8192 + 65536 = 73728 bytes = 144 sectors: still one extent
        assertThat(RaidLvs.rmetaExtents(262144, 4096, 8192)).isEqualTo(1);
        // with 4 KiB extents (8 sectors): 17 sectors for 16 extents' 32 regions -> 3 extents
        assertThat(RaidLvs.rmetaExtents(16, 4096 / 512 * 8, 8)).isEqualTo(3);
    }
}
