package dev.dmmodel.impl.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.ExtentOwner;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.PhysicalExtent;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Layouts built through the public API and replayed by the implementation. */
class LayoutBuilderTest {

    private static LayoutBuilder raidOnPartition63(KernelProfile profile) {
        // the recorded lp-* disk: io_min 64 KiB, io_opt 448 KiB (a 7+1 RAID 5), 4 GiB
        return Layout.builder(profile)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)));
    }

    @Test
    void anImportedVolumeGroupMatchesItsLvsToDmDevicesByName() {
        Layout built = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("64M").build())
                .build();
        VolumeGroup vg = built.volumeGroups().get(0);
        DmDevice lv = built.dmDevices().get(0);
        // the same host rebuilt from what a snapshot holds: the disk, the dm table, the VG's metadata
        Layout imported = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1)))
                .dmsetupCreate(lv.dmName(), lv.table())
                .importVolumeGroup(vg)
                .build();
        assertThat(imported.volumeGroups()).containsExactly(vg);
        assertThat(imported.physicalVolumes()).isEqualTo(built.physicalVolumes());
        assertThat(imported.device("/dev/vg/lv").name()).isEqualTo("dm-0");
        // without the dm device the LV is inactive
        Layout inactive = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1))).importVolumeGroup(vg).build();
        assertThat(inactive.volumeGroups().get(0).logicalVolume("lv").orElseThrow().dmDevice()).isEmpty();
    }

    @Test
    void importingAVolumeGroupRefusesWhatLvmWouldRefuse() {
        VolumeGroup vg = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1)))
                .pvcreate("sda").vgcreate("vg", "sda").build().volumeGroups().get(0);
        assertThatThrownBy(() -> Layout.builder(KernelProfile.LINUX_6_1).importVolumeGroup(vg).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("no device 'sda'");
        assertThatThrownBy(() -> Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1))).importVolumeGroup(vg).importVolumeGroup(vg)
                .build()).isInstanceOf(LayoutException.class).hasMessageContaining("A volume group called vg already");
        assertThatThrownBy(() -> Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1))).pvcreate("sda").importVolumeGroup(vg)
                .build()).isInstanceOf(LayoutException.class)
                .hasMessageContaining("Physical volume '/dev/sda' is already an orphan physical volume");
        assertThatThrownBy(() -> Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.mib(512))).importVolumeGroup(vg).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("claims");
    }

    @Test
    void aPartitionStartNearLongMaxIsBeyondTheDiskNotAWrappedSum() {
        // a 1 GiB disk has 2097152 sectors; start 2^63 - 1 plus size 2048 would wrap to a negative end and pass a
        // start + size <= disk check: the start alone is past the end
        LayoutSpec spec = new LayoutSpec(KernelProfile.LINUX_6_1, List.of(
                new LayoutStep.AddDisk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1)), Optional.empty()),
                new LayoutStep.AddPartition("sda", 1, Sectors.of(Long.MAX_VALUE), Sectors.of(2048), Optional.empty(),
                        Optional.empty())));
        assertThatThrownBy(() -> Layout.of(spec)).isInstanceOf(LayoutException.class)
                .hasMessageContaining("sda partition 1: 2048 sectors from sector 9223372036854775807 lie beyond the"
                        + " end of the disk (2097152 sectors)");
    }

    @Test
    void aRecordedSpecBuildsTheSameLayoutAsItsBuilder() {
        dev.dmmodel.layout.LayoutSpec spec = new dev.dmmodel.layout.LayoutSpec(KernelProfile.LINUX_6_1, List.of(
                new dev.dmmodel.layout.LayoutStep.AddDisk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8,
                        Bytes.kib(64)).withSize(Bytes.gib(4)), java.util.Optional.empty())));
        Layout viaSpec = Layout.of(spec);
        Layout viaBuilder = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4))).build();
        assertThat(viaSpec.devices()).isEqualTo(viaBuilder.devices());
        assertThat(viaSpec.limits("sda").ioOpt()).isEqualTo(458752);
        assertThatThrownBy(() -> Layout.of((dev.dmmodel.layout.LayoutSpec) null))
                .isInstanceOf(NullPointerException.class).hasMessage("spec");
    }

    @Test
    void partitionAt63OfA4KiBPhysicalDiskReportsAlignmentOffset512() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sdg", DiskPresets.scsiDebug(512, 4096, 0).withSize(Bytes.mib(64)))
                .partitionTable("sdg", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .build();
        // 63 mod 8 = 7: 3584 bytes into a physical block -> the next boundary is 512 bytes on
        assertThat(layout.limits("sdg1").sysfsAlignmentOffset()).isEqualTo(512);
        assertThat(layout.limits("/dev/sdg1").physicalBlockSize()).isEqualTo(4096);
        assertThat(layout.limits("sdg").sysfsAlignmentOffset()).isZero();
        assertThat(layout.partitions().get(0).size()).isEqualTo(Sectors.of(131009));
    }

    @Test
    void pvcreateOnThePartitionAt63PutsPeStartAt2753AndTheLvAtDiskSector2816() {
        Layout layout = raidOnPartition63(KernelProfile.LINUX_6_1)
                .pvcreate("/dev/sda1")
                .vgcreate("vg", "/dev/sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
        // recorded in lp-pe-start-summary.txt: raid-part63-4M pe_start=2753 lv_start_on_disk=2816
        assertThat(layout.physicalVolume("sda1").orElseThrow().peStart()).isEqualTo(Sectors.of(2753));
        DmDevice lv = (DmDevice) layout.device("/dev/vg/lv");
        assertThat(layout.dmsetupTable()).isEqualTo("vg-lv: 0 2097152 linear 8:1 2753\n");
        assertThat(lv.dmName()).isEqualTo("vg-lv");
        assertThat(lv.limits().sysfsAlignmentOffset()).isZero();
        assertThat(lv.limits().ioOpt()).isEqualTo(458752);
        // pe_count = (8388545 - 2753) / 8192 = 1023 (recorded in vg.vg)
        VolumeGroup vg = layout.volumeGroup("vg").orElseThrow();
        assertThat(vg.physicalVolumes().get(0).peCount()).isEqualTo(1023);
        assertThat(vg.freeCount()).isEqualTo(1023 - 256);
    }

    @Test
    void onTheWholeDiskPeStartIs2688() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .pvcreate("sda").vgcreate("vg", "sda").build();
        assertThat(layout.physicalVolume("sda").orElseThrow().peStart()).isEqualTo(Sectors.of(2688));
    }

    @Test
    void lvNamesBecomeDmNamesWithHyphensDoubled() {
        Layout layout = Layout.builder()
                .disk("sdb", DiskPresets.sasDisk().withSize(Bytes.gib(10)))
                .pvcreate("sdb").vgcreate("my-vg", "sdb")
                .lvcreate("my-vg", LvCreateRequest.builder("my-lv").extents(10).build())
                .build();
        assertThat(((DmDevice) layout.device("/dev/my-vg/my-lv")).dmName()).isEqualTo("my--vg-my--lv");
        assertThat(layout.device("/dev/mapper/my--vg-my--lv")).isSameAs(layout.device("my-vg/my-lv"));
        assertThat(layout.device("253:0").name()).isEqualTo("dm-0");
    }

    @Test
    void stripedLvGetsAStripedTableAndChunkHints() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .pvcreate("sda").pvcreate("sdb").vgcreate("vg", "sda", "sdb")
                .lvcreate("vg", LvCreateRequest.builder("striped").size("64M").stripes(2).stripeSize(Bytes.kib(64))
                        .build())
                .build();
        // recorded (ss-*): 0 131072 striped 2 128 8:0 2048 8:16 2048; io_min 64 KiB, io_opt 128 KiB; 6.12 chunk 128
        assertThat(layout.dmsetupTable()).isEqualTo("vg-striped: 0 131072 striped 2 128 8:0 2048 8:16 2048\n");
        var l = layout.limits("/dev/vg/striped");
        assertThat(l.ioMin()).isEqualTo(65536);
        assertThat(l.ioOpt()).isEqualTo(131072);
        assertThat(l.chunkSectors()).isEqualTo(128);
        assertThat(l.readAheadKb()).isEqualTo(256);
        var table = (StripedTarget) ((DmDevice) layout.device("vg/striped")).table().targets().get(0);
        assertThat(table.stripes()).hasSize(2);
    }

    @Test
    void extentTableAnswersBothWaysAndListsFreeRanges() {
        Layout layout = Layout.builder()
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .pvcreate("sda").pvcreate("sdb").vgcreate("vg", "sda", "sdb")
                .lvcreate("vg", LvCreateRequest.builder("lin").extents(10).build())
                .lvcreate("vg", LvCreateRequest.builder("str").extents(4).stripes(2).build())
                .build();
        var table = layout.volumeGroup("vg").orElseThrow().extentTable();
        // (524288 - 2048) / 8192 = 63 extents per PV; lin on sda 0-9, str rows on sda 10-11 and sdb 0-1
        assertThat(table.physicalExtents("lin", 3)).containsExactly(new PhysicalExtent("sda", 3));
        assertThat(table.physicalExtents("str", 2)).containsExactly(new PhysicalExtent("sda", 11),
                new PhysicalExtent("sdb", 1));
        assertThat(table.owner("sdb", 1)).contains(new ExtentOwner("str", 0, 1, 2, 2));
        assertThat(table.owner("sda", 12)).isEmpty();
        assertThat(table.freeRanges()).containsExactly(new ExtentRange("sda", 12, 51), new ExtentRange("sdb", 2, 61));
    }

    @Test
    void maxSectorsKbWrittenBeforeStackingIsInherited() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sdg", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .maxSectorsKb("sdg", 124)
                .dmsetupCreate("lin", t -> t.linear(Sectors.of(131072), "sdg", Sectors.ZERO))
                .build();
        // recorded: limits-sd-maxkb124 on 6.12, every dm device 124
        assertThat(layout.limits("lin").maxSectorsKb()).isEqualTo(124);
    }

    @Test
    void structuralErrorsNameDeviceFieldValueAndRule() {
        LayoutBuilder base = Layout.builder()
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)));
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.nullBlk())
                .disk("sda", DiskPresets.nullBlk()).build())
                .isInstanceOf(LayoutException.class).hasMessage("a device named sda already exists");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .dmsetupCreate("x", t -> t.linear(Sectors.of(8), "sdz", Sectors.ZERO)).build())
                .isInstanceOf(LayoutException.class).hasMessage("x: device sdz not found (known: sda)");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .dmsetupCreate("x", t -> t.linear(Sectors.of(131072), "sda", Sectors.of(8))).build())
                .isInstanceOf(LayoutException.class)
                .hasMessage("x: sda too small for target: start=8, len=131072, dev_size=131072");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .dmsetupCreate("x", t -> t.linear(Sectors.of(8), "sda", Sectors.ZERO))
                .dmsetupCreate("x", t -> t.linear(Sectors.of(8), "sda", Sectors.of(8))).build())
                .isInstanceOf(LayoutException.class).hasMessage("device-mapper name x is already in use");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.mib(64)))
                .dmsetupCreate("x", t -> t.linear(Sectors.of(12), "sda", Sectors.ZERO)).build())
                .isInstanceOf(LayoutException.class).hasMessage("x: len=12 not aligned to h/w logical block size 4096 of sda");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .pvcreate("sda").pvcreate("sda").build())
                .isInstanceOf(LayoutException.class)
                .hasMessage("Can't initialize physical volume \"/dev/sda\": it is already a physical volume");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .pvcreate("sda").dmsetupCreate("x", t -> t.linear(Sectors.of(8), "sda", Sectors.ZERO)).build())
                .isInstanceOf(LayoutException.class)
                .hasMessage("x: sda is an LVM physical volume; map its logical volumes instead");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .vgcreate("vg", "sda").build())
                .isInstanceOf(LayoutException.class)
                .hasMessage("No physical volume label read from /dev/sda (run pvcreate first)");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .pvcreate("sda").vgcreate("vg", "sda").vgcreate("vg2", "sda").build())
                .isInstanceOf(LayoutException.class)
                .hasMessage("Physical volume '/dev/sda' is already in volume group 'vg'");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .dmsetupCreate("x", t -> t.linear(Sectors.of(8), "sda", Sectors.ZERO))
                .partitionTable("sda", PartitionTableType.GPT, PartitionSpec.atToEnd(Sectors.of(2048))).build())
                .isInstanceOf(LayoutException.class).hasMessage("cannot partition it: sda is in use by dm-0");
        assertThatThrownBy(() -> base.lvcreate("nope", LvCreateRequest.builder("lv").extents(1).build()).build())
                .isInstanceOf(LayoutException.class).hasMessage("Volume group \"nope\" not found");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreate("vg", LvCreateRequest.builder("big").extents(1000).build()).build())
                .isInstanceOf(LayoutException.class)
                .hasMessageContaining("insufficient free space");
        assertThatThrownBy(() -> Layout.builder().disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreate("vg", LvCreateRequest.builder("s").extents(2).stripes(2).stripeSize(Bytes.kib(48)).build())
                .build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("Invalid stripe size");
    }

    @Test
    void aThinPoolAndThinVolumeByHand() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sdb", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(524288), "sdb", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(524288), "tmeta", "tdata", 2048, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.of(131072), "pool", 0))
                .build();
        // recorded (thin-b2048-*, 6.1): pool and thin io_min = io_opt = 1 MiB, read_ahead 2048, thin discard 1 MiB / 16 GiB
        var thin = layout.limits("/dev/mapper/thin");
        assertThat(thin.ioMin()).isEqualTo(1048576);
        assertThat(thin.ioOpt()).isEqualTo(1048576);
        assertThat(thin.maxSegments()).isEqualTo(168);
        assertThat(thin.discardGranularity()).isEqualTo(1048576);
        assertThat(thin.maxDiscardSectors() * 512).isEqualTo(17179869184L);
        assertThat(thin.maxWriteZeroesSectors()).isZero();
        assertThat(layout.limits("pool").readAheadKb()).isEqualTo(2048);
        assertThatThrownBy(() -> Layout.builder().disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(8192), "sdb", Sectors.ZERO))
                .dmsetupCreate("thin", t -> t.thin(Sectors.of(8192), "tdata", 0)).build())
                .isInstanceOf(LayoutException.class)
                .hasMessage("thin: table line 1 (thin): dm-0 is not a thin-pool device (Couldn't get pool mapped device)");
    }

    @Test
    void layoutsAreImmutableAndDeterministic() {
        LayoutBuilder b = raidOnPartition63(KernelProfile.LINUX_6_12).pvcreate("sda1").vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build());
        Layout one = b.build();
        Layout two = b.build();
        assertThat(one.devices()).isEqualTo(two.devices());
        assertThat(one.volumeGroups()).isEqualTo(two.volumeGroups());
        List<dev.dmmodel.device.BlockDevice> devices = one.devices();
        assertThatThrownBy(() -> devices.add(devices.get(0))).isInstanceOf(UnsupportedOperationException.class);
    }
}
