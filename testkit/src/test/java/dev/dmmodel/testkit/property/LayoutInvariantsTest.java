package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.util.List;

/**
 * Invariants of the model checked with {@link PropertyTest} over whole generated stacks ({@link DmGens#stacks()}),
 * each against a reference written here from the kernel's and LVM's rules rather than from the model's code.
 */
class LayoutInvariantsTest {

    Gen<StackPlan> stacks() {
        return DmGens.stacks();
    }

    Gen<StackPlan> stacksOfEveryKernel() {
        return DmGens.kernelProfiles().flatMap(DmGens::stacks);
    }

    /**
     * Every linear or striped LV's dm table covers exactly the LV's extents: one target per segment, back to
     * back, each the segment's length; a one-area segment is {@code linear} onto its PV at
     * {@code pe_start + pe × extent}, a striped one is {@code striped} with the LV's stripe size and one stripe
     * per area at that same offset. The device's size is the LV's extents times the extent size.
     */
    @PropertyTest(tries = 1000)
    void everyLvsTableCoversExactlyItsExtents(@ForAll("stacksOfEveryKernel") StackPlan plan) {
        Layout layout = plan.build();
        for (VolumeGroup vg : layout.volumeGroups()) {
            long extent = vg.extentSize().count();
            for (LogicalVolume lv : vg.logicalVolumes()) {
                if (lv.dmDevice().isEmpty()) {
                    continue;
                }
                DmDevice dm = (DmDevice) layout.device(lv.dmDevice());
                assertThat(dm.size().count()).as("size of %s", lv.path()).isEqualTo(lv.extentCount() * extent);
                if (!lv.segments().stream().allMatch(s -> s.type() instanceof SegmentType.Striped)) {
                    continue;
                }
                List<DmTarget> targets = dm.table().targets();
                assertThat(targets).as("targets of %s", lv.path()).hasSameSizeAs(lv.segments());
                for (int i = 0; i < targets.size(); i++) {
                    checkSegment(layout, vg, lv.segments().get(i), targets.get(i), extent);
                }
            }
        }
    }

    private static void checkSegment(Layout layout, VolumeGroup vg, LvSegment seg, DmTarget t, long extent) {
        assertThat(t.start().count()).isEqualTo(seg.startExtent() * extent);
        assertThat(t.length().count()).isEqualTo(seg.extentCount() * extent);
        List<String> devices = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (StripeArea a : seg.areas()) {
            PhysicalVolume pv = vg.physicalVolume(a.pv()).orElseThrow();
            devices.add(layout.device(a.pv()).name());
            offsets.add(pv.peStart().count() + a.startPe() * extent);
        }
        if (seg.areas().size() == 1) {
            assertThat(t).isInstanceOf(LinearTarget.class);
            LinearTarget l = (LinearTarget) t;
            assertThat(layout.device(l.device()).name()).isEqualTo(devices.get(0));
            assertThat(l.offset().count()).isEqualTo(offsets.get(0));
        } else {
            assertThat(t).isInstanceOf(StripedTarget.class);
            StripedTarget s = (StripedTarget) t;
            assertThat(s.chunkSectors()).isEqualTo(seg.stripeSize().count());
            assertThat(s.stripes()).hasSize(devices.size());
            for (int k = 0; k < devices.size(); k++) {
                assertThat(layout.device(s.stripes().get(k).device()).name()).isEqualTo(devices.get(k));
                assertThat(s.stripes().get(k).offset().count()).isEqualTo(offsets.get(k));
            }
        }
    }

    /**
     * A partition shares its disk's queue: every limit is the disk's except {@code alignment_offset} and
     * {@code discard_alignment}, and (on kernels with I/O topology, the disk not misaligned) its
     * alignment_offset is the distance from its start to the disk's next aligned boundary
     * ({@code queue_limit_alignment_offset}). It lies inside its disk.
     */
    @PropertyTest(tries = 1000)
    void everyPartitionHasItsDisksLimitsButItsOwnAlignment(@ForAll("stacks") StackPlan plan) {
        Layout layout = plan.build();
        for (Partition p : layout.partitions()) {
            Disk disk = (Disk) layout.device(p.disk());
            QueueLimits d = disk.limits();
            QueueLimits l = p.limits();
            assertThat(l.toBuilder().alignmentOffset(d.alignmentOffset()).discardAlignment(d.discardAlignment())
                    .build())
                    .as("limits of %s but its alignments", p.name()).isEqualTo(d);
            long granularity = Math.max(d.physicalBlockSize(), d.ioMin());
            long startBytes = p.start().count() * 512;
            long expected = Math.floorMod(d.alignmentOffset() - startBytes, granularity);
            assertThat(l.alignmentOffset()).as("alignment_offset of %s at sector %d", p.name(), p.start().count())
                    .isEqualTo(expected);
            assertThat(p.end().count()).isLessThanOrEqualTo(disk.size().count());
        }
    }

    /** Every device is there once; an LV's path, dm name, mapper path and device number find the same device. */
    @PropertyTest(tries = 1000)
    void everyLvIsFoundByEachOfItsNames(@ForAll("stacks") StackPlan plan) {
        Layout layout = plan.build();
        assertThat(layout.devices().stream().map(BlockDevice::name).distinct()).hasSameSizeAs(layout.devices());
        for (String path : plan.lvPaths()) {
            BlockDevice byPath = layout.device(path);
            DmDevice dm = (DmDevice) byPath;
            assertThat(layout.device(dm.dmName())).isSameAs(byPath);
            assertThat(layout.device("/dev/mapper/" + dm.dmName())).isSameAs(byPath);
            assertThat(layout.device(dm.devNumber().toString())).isSameAs(byPath);
        }
    }
}
