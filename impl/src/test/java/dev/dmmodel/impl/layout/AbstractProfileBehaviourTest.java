package dev.dmmodel.impl.layout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import org.junit.jupiter.api.Test;

/**
 * Behaviour every kernel profile shares, run once per preset (one subclass each), in the manner of
 * Jimfs's per-configuration integration tests.
 */
abstract class AbstractProfileBehaviourTest {

    /** The profile under test. */
    abstract KernelProfile profile();

    private Layout stack() {
        return Layout.builder(profile())
                .disk("sda", DiskPresets.ahciSata().withSize(Bytes.gib(16)))
                .disk("sdb", DiskPresets.ahciSata().withSize(Bytes.gib(16)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .dmsetupCreate("whole", t -> t.linear(Sectors.of(2048), "sdb", Sectors.ZERO))
                .pvcreate("sda1")
                .vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
    }

    @Test
    void aPartitionSharesItsDisksLimitsExceptItsAlignment() {
        Layout l = stack();
        QueueLimits disk = l.limits("sda");
        QueueLimits part = l.limits("sda1");
        assertThat(part.toBuilder().alignmentOffset(disk.alignmentOffset()).discardAlignment(disk.discardAlignment())
                .build()).isEqualTo(disk);
    }

    @Test
    void dmLinearOverAWholeDiskInheritsItsHardwareLimits() {
        Layout l = stack();
        QueueLimits disk = l.limits("sdb");
        QueueLimits dm = l.limits("whole");
        assertThat(dm.logicalBlockSize()).isEqualTo(disk.logicalBlockSize());
        assertThat(dm.physicalBlockSize()).isEqualTo(disk.physicalBlockSize());
        assertThat(dm.maxSegments()).isEqualTo(168);
        assertThat(dm.maxSegmentSize()).isEqualTo(disk.maxSegmentSize());
        assertThat(dm.maxHwSectors()).isEqualTo(disk.maxHwSectors());
        assertThat(dm.maxSectors()).isEqualTo(disk.maxSectors());
        assertThat(dm.sysfsAlignmentOffset()).isZero();
    }

    @Test
    void everyQueueHasAPageAtLeastAndNoMoreThanItsHardwareLimit() {
        for (BlockDevice d : stack().devices()) {
            assertThat(d.limits().maxSectors()).as(d.name()).isBetween(8L, d.limits().maxHwSectors());
        }
    }

    @Test
    void anAhciDiskGetsTheProfilesDefaultCap() {
        // AHCI LBA48: max_hw_sectors 65535, so max_sectors is the kernel's cap
        assertThat(stack().limits("sda").maxSectors()).isEqualTo(Math.min(65535, profile().maxSectorsCap()));
    }

    @Test
    void lvmTwoZeroThreePutsTheDataAreaAtOneMiBWithoutTopology() {
        assertThat(stack().physicalVolume("sda1").orElseThrow().peStart()).isEqualTo(Sectors.of(2048));
        assertThat(stack().dmsetupTable()).contains("vg-lv: 0 2097152 linear 8:1 2048");
    }

    @Test
    void buildingTwiceGivesEqualLayouts() {
        assertThat(stack().devices()).isEqualTo(stack().devices());
    }
}

class Linux612BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_6_12;
    }
}

class Linux61BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_6_1;
    }
}

class Linux310BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_3_10;
    }
}

class Linux2632BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_2_6_32;
    }
}

class Linux260BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_2_6_0;
    }
}
