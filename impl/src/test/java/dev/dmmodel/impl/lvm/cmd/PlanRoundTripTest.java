package dev.dmmodel.impl.lvm.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.io.LvmCommands;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.CowSnapshotRequest;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.RaidLvRequest;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code export --to lvm-commands} read back as a provisioning plan: on the same blank disks, every line applies
 * and every VG comes out the same (PVs' pe_start and pe_count, every LV's segments and areas, pools, thin ids).
 */
class PlanRoundTripTest {

    @Test
    void everyKindOfLvSurvivesExportAndADryRun() {
        Layout built = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(2)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(2)))
                .pvcreate("/dev/sda").pvcreate("/dev/sdb")
                .vgcreate("vg", "/dev/sda", "/dev/sdb")
                .lvcreate("vg", LvCreateRequest.builder("striped").size("256M").stripes(2).stripeSize(Bytes.kib(64))
                        .build())
                .lvcreate("vg", LvCreateRequest.builder("linear").size("100M").build())
                .lvcreate("vg", LvCreateRequest.builder("grow").size("100M").build())
                .lvcreateThinPool("vg", ThinPoolRequest.builder("pool").size(Bytes.mib(512)).chunkSize("256k").build())
                .lvcreateThin("vg", ThinLvRequest.of("thin", "1G", "pool"))
                .lvcreateSnapshot("vg", new ThinSnapshotRequest("thin", "thinsnap"))
                .lvcreateRaid("vg", RaidLvRequest.raid1("mirror", Bytes.mib(64), 1))
                .lvcreateCowSnapshot("vg", new CowSnapshotRequest("linear", "snap", Bytes.mib(32),
                        CowSnapshotRequest.DEFAULT_CHUNK, List.of(), List.of()))
                .lvextend("vg", new LvExtendRequest("grow", 10, 0, null, dev.dmmodel.lvm.AllocationPolicy.INHERIT,
                        List.of(), List.of()))
                .build();
        String script = LvmCommands.write(built).script();
        LayoutSpec blank = new LayoutSpec(built.profile(), built.spec().orElseThrow().steps().stream()
                .filter(s -> s instanceof LayoutStep.AddDisk).toList());
        PlanResult r = Plan.parse(script, "export.sh", PlanFormat.SHELL).applyTo(blank);
        assertThat(r.failure()).as(script).isEmpty();
        VolumeGroup expected = built.volumeGroup("vg").orElseThrow();
        assertThat(VolumeGroupDiff.differences(expected, r.layout().volumeGroup("vg").orElseThrow())).as(script)
                .isEmpty();
        // grow: 100 MiB = 25 extents of 4 MiB, extended by 10 = 35
        assertThat(r.layout().logicalVolume("vg", "grow").orElseThrow().extentCount()).isEqualTo(35);
    }
}
