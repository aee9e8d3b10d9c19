package dev.dmmodel.impl.finding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OverlapFindingsTest {

    private static LayoutBuilder oneDisk() {
        return Layout.builder(KernelProfile.LINUX_6_12).disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)));
    }

    private static List<Finding> of(Layout l, FindingType type) {
        return l.findings().stream().filter(f -> f.type() == type).toList();
    }

    @Test
    void twoTablesMappingTheSameSectorsAreAnError() {
        Layout l = oneDisk()
                .dmsetupCreate("a", t -> t.linear(Sectors.of(4096), "sda", Sectors.ZERO))
                .dmsetupCreate("b", t -> t.linear(Sectors.of(4096), "sda", Sectors.of(2048)))
                .build();
        List<Finding> f = of(l, FindingType.DM_TABLE_OVERLAP);
        assertThat(f).hasSize(1);
        assertThat(f.get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(f.get(0).id()).isEqualTo("dm.table.overlap");
        assertThat(f.get(0).device()).isEqualTo("dm-1");
        // a: 0-4095, b: 2048-6143; both: 2048-4095, 2048 sectors
        assertThat(f.get(0).message()).isEqualTo("dm-1 (b) maps sectors 2048-6143 of sda (table line 1), and dm-0 (a)"
                + " maps sectors 0-4095 (table line 1): writes through either overwrite the other in sectors"
                + " 2048-4095 (2048 sectors)");
        assertThat(l.findings().get(0).severity()).as("errors first").isEqualTo(Severity.ERROR);
    }

    @Test
    void adjacentTablesDoNotOverlap() {
        Layout l = oneDisk()
                .dmsetupCreate("a", t -> t.linear(Sectors.of(2048), "sda", Sectors.ZERO))
                .dmsetupCreate("b", t -> t.linear(Sectors.of(2048), "sda", Sectors.of(2048)))
                .build();
        assertThat(l.findings()).isEmpty();
    }

    @Test
    void twoLinesOfOneTableMappingTheSameSectorsAlias() {
        Layout l = oneDisk()
                .dmsetupCreate("a", t -> t.linear(Sectors.of(2048), "sda", Sectors.ZERO)
                        .linear(Sectors.of(2048), "sda", Sectors.of(1024)))
                .build();
        List<Finding> f = of(l, FindingType.DM_TABLE_OVERLAP);
        assertThat(f).hasSize(1);
        // line 1: 0-2047, line 2: 1024-3071
        assertThat(f.get(0).message()).isEqualTo("dm-0 (a) maps sectors 1024-2047 (1024 sectors) of sda twice"
                + " (table line 1 and table line 2): a write to one part of dm-0 changes another");
    }

    @Test
    void stripesOnOneDeviceOverlapWhenTheirOffsetsAreCloserThanAStripe() {
        // 2 stripes of 4096 sectors each (8192 / 2) at 0 and 2048 on the same disk
        Layout l = oneDisk()
                .dmsetupCreate("s", t -> t.striped(Sectors.of(8192), 128, List.of(
                        new StripedTarget.Stripe("sda", Sectors.ZERO), new StripedTarget.Stripe("sda", Sectors.of(2048)))))
                .build();
        List<Finding> f = of(l, FindingType.DM_TABLE_OVERLAP);
        assertThat(f).hasSize(1);
        assertThat(f.get(0).message()).contains("maps sectors 2048-4095 (2048 sectors) of sda twice"
                + " (table line 1, stripe 1 and table line 1, stripe 2)");
    }

    @Test
    void aTableOnTheDiskUnderAPhysicalVolumeIsAnError() {
        Layout l = oneDisk()
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(2048)))
                .pvcreate("sda1").vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("64M").build())
                .dmsetupCreate("raw", t -> t.linear(Sectors.of(4096), "sda", Sectors.ZERO))
                .build();
        List<Finding> f = of(l, FindingType.DM_TABLE_OVERLAP);
        // the LV maps sda1 (not the disk); the hand table covers sda1's first 2048 sectors (its PV label)
        assertThat(f).hasSize(1);
        assertThat(f.get(0).device()).isEqualTo(l.dmDevices().get(1).name());
        assertThat(f.get(0).message()).contains("maps sectors 0-4095 of sda (table line 1), and sda1, which is in use,"
                + " lies on sectors 2048-2097151 of it: writes through either overwrite the other in sectors 2048-4095"
                + " (2048 sectors)");
    }

    @Test
    void aTableOnTheDiskUnderAnUnusedPartitionIsNotReported() {
        Layout l = oneDisk()
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(2048)))
                .dmsetupCreate("raw", t -> t.linear(Sectors.of(4096), "sda", Sectors.ZERO))
                .build();
        assertThat(of(l, FindingType.DM_TABLE_OVERLAP)).isEmpty();
    }

    @Test
    void aThinPoolsDevicesAndItsThinsDoNotOverlap() {
        Layout l = oneDisk()
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sda", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(65536), "sda", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(65536), "tmeta", "tdata", 128, 0))
                .dmsetupCreate("thin1", t -> t.thin(Sectors.of(65536), "pool", 1))
                .dmsetupCreate("thin2", t -> t.thin(Sectors.of(65536), "pool", 2))
                .build();
        assertThat(of(l, FindingType.DM_TABLE_OVERLAP)).isEmpty();
    }

    @Test
    void aTableWritingIntoAPoolsDataDeviceIsAnError() {
        Layout l = oneDisk()
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sda", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(65536), "sda", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(65536), "tmeta", "tdata", 128, 0))
                .dmsetupCreate("peek", t -> t.linear(Sectors.of(128), "tdata", Sectors.of(128)))
                .build();
        List<Finding> f = of(l, FindingType.DM_TABLE_OVERLAP);
        assertThat(f).hasSize(1);
        // the pool uses all of tdata (0-65535, its data), peek 128-255 of it
        assertThat(f.get(0).message()).isEqualTo("dm-3 (peek) maps sectors 128-255 of dm-1 (table line 1), and"
                + " dm-2 (pool) maps sectors 0-65535 (table line 1, data): writes through either overwrite the other"
                + " in sectors 128-255 (128 sectors)");
    }

    @Test
    void overlappingPartitionsAsAHostListsThemAreAnError() {
        LayoutBuilder b = oneDisk();
        b.step(new LayoutStep.AddPartition("sda", 1, Sectors.of(63), Sectors.of(2048), Optional.empty(), Optional.empty()));
        b.step(new LayoutStep.AddPartition("sda", 2, Sectors.of(2048), Sectors.of(4096), Optional.empty(), Optional.empty()));
        b.step(new LayoutStep.AddPartition("sda", 3, Sectors.of(6144), Sectors.of(4096), Optional.empty(), Optional.empty()));
        // both in use: still one finding, about the partitions, not about their tables
        b.dmsetupCreate("p1", t -> t.linear(Sectors.of(2048), "sda1", Sectors.ZERO));
        b.dmsetupCreate("p2", t -> t.linear(Sectors.of(4096), "sda2", Sectors.ZERO));
        Layout l = b.build();
        assertThat(of(l, FindingType.DM_TABLE_OVERLAP)).isEmpty();
        List<Finding> f = of(l, FindingType.PARTITION_OVERLAP);
        // sda1: 63-2110, sda2: 2048-6143 -> 2048-2110 (63 sectors); sda3 starts right after sda2
        assertThat(f).hasSize(1);
        assertThat(f.get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(f.get(0).device()).isEqualTo("sda2");
        assertThat(f.get(0).message()).isEqualTo("sda2 (sectors 2048-6143 of sda) overlaps sda1 (sectors 63-2110) in"
                + " sectors 2048-2110 (63 sectors): what is written to one overwrites the other");
        assertThat(f.get(0).fix()).isEqualTo("fix the partition table of sda (fdisk -l shows it): end sda1 before"
                + " sector 2048 or start sda2 at sector 2111 or later");
    }
}
