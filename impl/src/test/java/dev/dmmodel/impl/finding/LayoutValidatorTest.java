package dev.dmmodel.impl.finding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutValidatorTest {

    private static List<FindingType> types(List<Finding> findings) {
        return findings.stream().map(Finding::type).toList();
    }

    @Test
    void sector63OnA4KiBPhysicalDisk() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(8)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .build();
        List<Finding> f = layout.findings();
        assertThat(types(f)).containsExactly(FindingType.PARTITION_MISALIGNED_PHYSICAL_BLOCK);
        // 63 x 512 = 32256 = 7 x 4096 + 3584
        assertThat(f.get(0).message()).isEqualTo("sda1 starts at sector 63, 3584 bytes past a 4096-byte physical block"
                + " boundary of sda: every 4KiB write to it straddles two physical blocks (read-modify-write in the"
                + " drive)");
        assertThat(f.get(0).fix()).isEqualTo("recreate sda1 at sector 2048 (a multiple of 1MiB; parted -a optimal does this)");
        assertThat(f.get(0).severity()).isEqualTo(Severity.WARNING);
        assertThat(f.get(0).id()).isEqualTo("align.partition.physical-block");
    }

    @Test
    void theRecordedRaidStackIsAlignedToTheChunkButNotToTheFullStripe() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .pvcreate("sda1").vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
        List<Finding> f = layout.findings();
        assertThat(types(f)).containsExactly(FindingType.PARTITION_MISALIGNED_IO_MIN,
                FindingType.PV_DATA_MISALIGNED_FULL_STRIPE, FindingType.EXTENT_SIZE_NOT_FULL_STRIPE_MULTIPLE);
        // the LV itself starts on a 64 KiB boundary (2816 = 22 x 128), so it reports alignment_offset 0 (recorded)
        // data at 63 + 2753 = 2816 = 3 x 896 + 128 sectors: 65536 bytes into the 448 KiB stripe
        assertThat(f.get(1).message()).contains("starts at sector 2816 of the disk (pe_start 2753 + partition start 63), "
                + "65536 bytes past a 448KiB full-stripe boundary (896 sectors)");
        // pe_start = 2688 + X with (63 + 2688 + X) mod 896 = 0 -> X = 833, pe_start 3521
        assertThat(f.get(1).fix()).startsWith("pvcreate --dataalignment 448k --dataalignmentoffset 833s /dev/sda1 "
                + "(pe_start 3521)");
        // the partition itself reports alignment_offset 33280 on 6.1 (recorded)
        assertThat(f.get(0).message()).contains("32256 bytes past a 64KiB minimum_io_size");
        // 4 MiB = 4194304 is not a multiple of 458752; lcm(448 KiB, 1 MiB) = 7 MiB
        assertThat(f.get(2).fix()).isEqualTo("vgcreate -s with a multiple of 448KiB (e.g. 7MiB)");
        assertThat(f.get(2).severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void theSameStackOnTheWholeDiskWithStripeSizedExtentsIsClean() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .pvcreate("sda").vgcreate("vg", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.parse("7MiB")), "sda")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
        assertThat(layout.findings()).isEmpty();
    }

    @Test
    void stripesOverPartitionsAt63And2048AreMisalignedOn61() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sdg", DiskPresets.scsiDebug(512, 4096, 0).withSize(Bytes.mib(64)))
                .disk("sdh", DiskPresets.scsiDebug(512, 4096, 0).withSize(Bytes.mib(64)))
                .partitionTable("sdg", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .partitionTable("sdh", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(2048)))
                .dmsetupCreate("strparts", t -> t.striped(Sectors.of(258048), 128,
                        List.of(new StripedTarget.Stripe("sdg1", Sectors.ZERO),
                                new StripedTarget.Stripe("sdh1", Sectors.ZERO))))
                .build();
        assertThat(types(layout.findings())).containsExactly(FindingType.PARTITION_MISALIGNED_PHYSICAL_BLOCK,
                FindingType.DEVICE_MISALIGNED);
        assertThat(layout.limits("strparts").sysfsAlignmentOffset()).isEqualTo(-1);
    }

    @Test
    void mixedLogicalBlockSizesInATableAndAVolumeGroup() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.mib(256)))
                .disk("sdc", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(64)))
                .disk("sdd", DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.mib(64)))
                .pvcreate("sda").pvcreate("sdb").vgcreate("vg", "sda", "sdb")
                .dmsetupCreate("mixed", t -> t.linear(Sectors.of(8192), "sdc", Sectors.ZERO)
                        .linear(Sectors.of(8192), "sdd", Sectors.ZERO))
                .build();
        List<Finding> f = layout.findings();
        assertThat(types(f)).containsExactlyInAnyOrder(FindingType.VG_MIXED_LOGICAL_BLOCK_SIZES,
                FindingType.TABLE_MIXED_LOGICAL_BLOCK_SIZES);
        assertThat(layout.limits("mixed").logicalBlockSize()).isEqualTo(4096);
        assertThat(f).anySatisfy(x -> assertThat(x.message()).contains("mixes logical block sizes {512=[sda], 4096=[sdb]}"));
    }
}
