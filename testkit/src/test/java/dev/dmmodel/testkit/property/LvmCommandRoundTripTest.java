package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.lvm.cmd.LvmCommandParser;
import dev.dmmodel.impl.lvm.cmd.LvmCommandWriter;
import dev.dmmodel.impl.lvm.cmd.VolumeGroupDiff;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.List;

/**
 * {@code dmmodel export --to lvm-commands} round trip on generated stacks ({@link DmGens#stacks()}: 1–3 disks,
 * partitions, a VG of linear, striped and spanning LVs, a thin pool with thin volumes), each with a thin snapshot
 * of its first thin volume when a coin says so, and half the time lv0 extended by 1–40 linear extents wherever
 * the allocator puts them (a second segment, usually): the layout's LVM is written as commands, read back, and replayed
 * on the plan's own disks and partitions; every VG of the replay equals the original ({@link VolumeGroupDiff})
 * and the writer reports nothing it could not express.
 */
class LvmCommandRoundTripTest {

    /**
     * A plan, whether a thin snapshot of its first thin volume is added, and how many extents lv0 is then
     * extended by (wherever the allocator puts them; as many as are free if fewer).
     */
    record Case(StackPlan plan, boolean snapshot, long extend) {
        LayoutBuilder builder() {
            LayoutBuilder b = plan.builder();
            if (snapshot && !plan.thinVolumes().isEmpty()) {
                b.lvcreateSnapshot("vg0", new ThinSnapshotRequest(plan.thinVolumes().get(0).name(), "snap0"));
            }
            if (extend > 0 && !plan.logicalVolumes().isEmpty()) {
                long free = b.build().volumeGroup("vg0").orElseThrow().freeCount();
                if (free > 0) {
                    b.lvextend("vg0", new LvExtendRequest(plan.logicalVolumes().get(0).name(), Math.min(extend, free),
                            1, null, AllocationPolicy.INHERIT, List.of(), List.of()));
                }
            }
            return b;
        }

        @Override
        public String toString() {
            return String.join("\n", plan.javaLines()) + (snapshot ? "\n  + lvcreate -s vg0/<first thin> -n snap0" : "")
                    + (extend > 0 ? "\n  + lvextend -l +" + extend + " -i 1 vg0/lv0" : "");
        }
    }

    Gen<Case> cases() {
        return Gen.zip(DmGens.stacks(), Gen.booleans(), Gen.frequency(Gen.weighted(1, Gen.constant(0L)),
                Gen.weighted(1, Gen.choose(1, 40)))).map(t -> new Case(t.first(), t.second(), t.third()));
    }

    @PropertyTest(tries = 1000)
    void exportedCommandsRebuildTheSameVolumeGroups(@ForAll("cases") Case c) {
        LayoutBuilder original = c.builder();
        Layout layout = original.build();
        LvmCommandWriter.Result exported = LvmCommandWriter.write(layout);
        assertThat(exported.warnings()).as("warnings of\n%s", exported.script()).isEmpty();

        LayoutBuilder replay = Layout.builder(c.plan().profile());
        for (LayoutStep s : original.steps()) {
            if (s instanceof LayoutStep.AddDisk || s instanceof LayoutStep.CreatePartitionTable) {
                replay.step(s);
            }
        }
        List<LayoutStep> parsed = LvmCommandParser.parse(exported.script(), "export");
        parsed.forEach(replay::step);
        Layout rebuilt = replay.build();
        assertThat(rebuilt.volumeGroups()).as("VGs after\n%s", exported.script())
                .hasSameSizeAs(layout.volumeGroups());
        assertThat(rebuilt.physicalVolumes()).hasSameSizeAs(layout.physicalVolumes());
        for (VolumeGroup vg : layout.volumeGroups()) {
            VolumeGroup again = rebuilt.volumeGroup(vg.name()).orElseThrow();
            assertThat(VolumeGroupDiff.differences(vg, again)).as("replaying\n%s", exported.script()).isEmpty();
        }
    }
}
