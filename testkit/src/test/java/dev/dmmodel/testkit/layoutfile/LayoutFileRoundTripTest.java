package dev.dmmodel.testkit.layoutfile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.impl.format.layoutfile.LayoutFile;
import dev.dmmodel.impl.format.layoutfile.LayoutFileReader;
import dev.dmmodel.impl.format.layoutfile.LayoutFileWriter;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.testkit.property.DmGens;
import dev.dmmodel.testkit.property.ForAll;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.PropertyTest;
import dev.dmmodel.testkit.property.StackPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The layout file format round trip on generated stacks of every kernel: a spec written as a layout file
 * ({@link LayoutFileWriter}) and read back ({@link LayoutFileReader}) builds the same layout as the spec itself:
 * the same devices (names, numbers, sizes, queue limits, dm tables), PVs, VGs with every extent, findings.
 */
class LayoutFileRoundTripTest {

    /** A stack as its builder calls, plus a thin snapshot of each thin volume now and then. */
    Gen<LayoutSpec> plannedStacks() {
        return DmGens.kernelProfiles().flatMap(DmGens::stacks).flatMap(plan -> src -> {
            List<LayoutStep> steps = new ArrayList<>(plan.builder().steps());
            for (StackPlan.ThinVolume t : plan.thinVolumes()) {
                if (src.bool(0.3)) {
                    steps.add(new LayoutStep.ThinSnapshotCreate("vg0", new ThinSnapshotRequest(t.name(),
                            src.bool(0.5) ? "" : t.name() + "-snap")));
                }
            }
            return new LayoutSpec(plan.profile(), steps);
        });
    }

    /**
     * A built stack as an imported host looks: disks with their numbers, partitions as the kernel lists them,
     * dm devices with their names, uuids, kernel names and tables, the VGs as LVM metadata.
     */
    Gen<LayoutSpec> importedStacks() {
        return DmGens.kernelProfiles().flatMap(DmGens::stacks).map(plan -> {
            Layout layout = plan.build();
            List<LayoutStep> steps = new ArrayList<>();
            for (StackPlan.Disk d : plan.disks()) {
                Disk disk = (Disk) layout.device(d.name());
                steps.add(new LayoutStep.AddDisk(d.name(), d.spec(), Optional.of(disk.devNumber())));
                for (Partition p : layout.partitions()) {
                    if (p.disk().equals(d.name())) {
                        steps.add(new LayoutStep.AddPartition(d.name(), p.number(), p.start(), p.size(),
                                Optional.of(p.name()), Optional.of(p.devNumber())));
                    }
                }
            }
            for (DmDevice dm : layout.dmDevices()) {
                steps.add(new LayoutStep.DmCreate(dm.dmName(), dm.uuid(), dm.table(), Optional.of(dm.name()),
                        Optional.of(dm.devNumber())));
            }
            for (VolumeGroup vg : layout.volumeGroups()) {
                steps.add(new LayoutStep.ImportVolumeGroup(vg));
            }
            return new LayoutSpec(plan.profile(), steps);
        });
    }

    private static void assertRoundTrip(LayoutSpec spec) {
        String text = LayoutFileWriter.write(spec);
        LayoutFile back = LayoutFileReader.read(text, "generated.yaml");
        assertThat(back.kernel()).contains(spec.profile());
        assertThat(back.steps()).hasSameSizeAs(spec.steps());
        Layout expected = Layout.of(spec);
        Layout actual = back.build();
        assertThat(actual.devices()).as(text).isEqualTo(expected.devices());
        assertThat(actual.physicalVolumes()).as(text).isEqualTo(expected.physicalVolumes());
        // LVM metadata lists a VG's LVs in its own order (vgcfgbackup's), which an imported VG keeps
        assertThat(byName(actual.volumeGroups())).as(text).isEqualTo(byName(expected.volumeGroups()));
        for (VolumeGroup vg : expected.volumeGroups()) {
            for (LogicalVolume lv : vg.logicalVolumes()) {
                assertThat(actual.logicalVolume(vg.name(), lv.name())).as(text).contains(lv);
            }
        }
        assertThat(actual.dmsetupTable()).as(text).isEqualTo(expected.dmsetupTable());
        assertThat(actual.findings()).as(text).isEqualTo(expected.findings());
        // every step comes back equal but a disk's (its spec up to the limits DiskSpec ignores) and an imported VG's
        // (its LVs' dm devices are not in LVM metadata: the import finds them again, as the VGs above show)
        for (int i = 0; i < spec.steps().size(); i++) {
            LayoutStep step = spec.steps().get(i);
            if (!(step instanceof LayoutStep.AddDisk) && !(step instanceof LayoutStep.ImportVolumeGroup)) {
                assertThat(back.steps().get(i)).as(text).isEqualTo(spec.steps().get(i));
            }
        }
    }

    private static List<VolumeGroup> byName(List<VolumeGroup> vgs) {
        return vgs.stream().map(vg -> new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(),
                vg.logicalVolumes().stream().sorted(java.util.Comparator.comparing(LogicalVolume::name)).toList(),
                vg.allocationPolicy())).toList();
    }

    @PropertyTest(tries = 1000)
    void aPlannedStackWrittenAndReadBackBuildsTheSameLayout(@ForAll("plannedStacks") LayoutSpec spec) {
        assertRoundTrip(spec);
    }

    @PropertyTest(tries = 1000)
    void anImportedStackWrittenAndReadBackBuildsTheSameLayout(@ForAll("importedStacks") LayoutSpec spec) {
        assertRoundTrip(spec);
    }
}
