package dev.dmmodel.impl.lvm.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.RaidLvRequest;
import dev.dmmodel.units.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lvcreate --type raid*} in LVM command scripts: the setup commands of kernel-traces-6.12-stacks/lvmraid-*
 * (README.txt) read into steps, and a layout with RAID LVs written back as commands that rebuild it.
 */
class RaidCommandsTest {

    private static final String SETUP = """
            pvcreate /dev/vda /dev/vdb /dev/vdc
            vgcreate vgr /dev/vda /dev/vdb /dev/vdc
            lvcreate --type raid1 -m1 --nosync -L 64M -n r1 vgr /dev/vda /dev/vdb
            lvcreate --type raid5 -i 2 -I 64k -L 64M -n r5 --nosync vgr /dev/vda /dev/vdb /dev/vdc
            """;

    private static LayoutBuilder disks() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .disk("vdb", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .disk("vdc", DiskPresets.virtioBlk().withSize(Bytes.gib(1)));
    }

    @Test
    void theRecordedSetupReadsIntoRaidSteps() {
        List<LayoutStep> steps = LvmCommandParser.parse(SETUP, "setup.sh");
        // -m1: one more copy; -L 64M; -I 64k (KiB by default); --nosync; the PVs in command-line order
        assertThat(steps.get(4)).isEqualTo(new LayoutStep.RaidLvCreate("vgr", new RaidLvRequest("r1", "raid1",
                Bytes.mib(64), 0, 1, 0, null, null, true, AllocationPolicy.INHERIT, List.of("/dev/vda", "/dev/vdb"))));
        assertThat(steps.get(5)).isEqualTo(new LayoutStep.RaidLvCreate("vgr", new RaidLvRequest("r5", "raid5",
                Bytes.mib(64), 0, 0, 2, Bytes.kib(64), null, true, AllocationPolicy.INHERIT,
                List.of("/dev/vda", "/dev/vdb", "/dev/vdc"))));
        LayoutBuilder b = disks();
        steps.forEach(b::step);
        // the raid5 LV as recorded: its third image on vdc from PE 1 (sector 2048 + 8192 = 10240)
        assertThat(b.build().dmsetupTable()).contains("vgr-r5_rimage_2: 0 65536 linear 254:32 10240\n");
    }

    @Test
    void aLayoutWithRaidLvsIsWrittenAsCommandsThatRebuildIt() {
        LayoutBuilder b = disks();
        LvmCommandParser.parse(SETUP, "setup.sh").forEach(b::step);
        Layout original = b.build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(original);
        assertThat(r.warnings()).isEmpty();
        // 16 extents, region 4096 sectors = 2m, stripe 128 sectors = 64k, the images' PVs in image order
        assertThat(r.script()).contains("lvcreate --yes --type raid1 -m 1 -R 2m --nosync -l 16 -n r1 vgr /dev/vda "
                + "/dev/vdb\n");
        assertThat(r.script()).contains("lvcreate --yes --type raid5 -i 2 -I 64k -R 2m --nosync -l 16 -n r5 vgr "
                + "/dev/vda /dev/vdb /dev/vdc\n");
        LayoutBuilder again = disks();
        LvmCommandParser.parse(r.script(), "written.sh").forEach(again::step);
        assertThat(again.build().dmsetupTable()).isEqualTo(original.dmsetupTable());
    }

    @Test
    void optionsOtherLvTypesDoNotTakeAreRefused() {
        assertThatThrownBy(() -> LvmCommandParser.parse("lvcreate -m 1 -L 64M -n x vgr\n", "s"))
                .isInstanceOf(LvmCommandException.class);
        assertThatThrownBy(() -> LvmCommandParser.parse("lvcreate --type raid1 -m 1 -L 64M -n x vgr /dev/vda:0-9\n",
                "s")).hasMessageContaining("PE ranges for RAID LVs are not modelled");
    }
}
