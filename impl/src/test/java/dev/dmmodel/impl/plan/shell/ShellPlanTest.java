package dev.dmmodel.impl.plan.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import org.junit.jupiter.api.Test;

/** Shell plans of LVM commands on seed 003's host: what LVM decides, line by line. */
class ShellPlanTest {

    /** Seed 003's host: a 4 GiB hardware RAID 5 (7+1, 64 KiB chunks) with an msdos partition at sector 63. */
    static LayoutSpec raidHostWithPartition63() {
        return Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .build().spec().orElseThrow();
    }

    @Test
    void lvmCommandsOnTheRaidHostSayWhatLvmDecided() {
        Plan plan = Plan.parse("""
                #!/bin/sh
                set -e
                VG=vg
                pvcreate /dev/sda1
                vgcreate $VG /dev/sda1
                lvcreate -L 1G -n lv $VG
                lvcreate -l 100%FREE -n rest "${VG}"
                """, "seed003.sh");
        assertThat(plan.format()).isEqualTo(PlanFormat.SHELL);
        // set and the assignment line: set is a command, the assignment is not
        assertThat(plan.commands()).extracting(c -> c.tool()).containsExactly("set", "pvcreate", "vgcreate",
                "lvcreate", "lvcreate");
        PlanResult r = plan.applyTo(raidHostWithPartition63());
        assertThat(r.failure()).isEmpty();
        // io_opt 448 KiB = 896 sectors: LVM's 2048-sector default is no multiple of it, so the alignment becomes
        // 896; the kernel's alignment_offset of a partition at 63 on a disk with io_min 64 KiB (128 sectors) is
        // (128 - 63) * 512 = 33280 bytes = 65 sectors (recorded on 6.1); pe_start = 3 * 896 + 65 = 2753
        // (lp-pe-start-summary.txt: raid-part63-4M pe_start=2753)
        assertThat(r.entries().get(1).results()).containsExactly(
                "/dev/sda1: pe_start 2753s, data alignment 448KiB from optimal_io_size (2753 = a multiple of it plus "
                        + "alignment_offset 33280B)");
        // sda1 = 8388608 - 63 = 8388545 sectors; (8388545 - 2753) / 8192 = 1023 extents of 4 MiB
        assertThat(r.entries().get(2).results()).containsExactly(
                "VG vg: extent size 4MiB, 1023 extents (sda1 1023), 1023 free");
        // 1 GiB = 256 extents from PE 0; the data starts at sector 2753 of sda1
        assertThat(r.entries().get(3).results()).containsExactly(
                "LV vg/lv: 256 extents (1GiB) on sda1 PE 0-255 (sector 2753 of sda1)");
        // 100%FREE: floor(767 * 100 / 100) = 767 extents from PE 256: sector 2753 + 256 * 8192 = 2099905
        assertThat(r.entries().get(4).results()).containsExactly(
                "LV vg/rest: 767 extents (<3GiB) on sda1 PE 256-1022 (sector 2099905 of sda1)");
        assertThat(r.layout().logicalVolume("vg", "rest")).isPresent();
    }

    @Test
    void anOversizedLvcreateFailsAtItsLineInLvmsWords() {
        Plan plan = Plan.parse("""
                pvcreate /dev/sda1
                vgcreate vg0 /dev/sda1
                lvcreate -L 1G -n a vg0

                lvcreate -L 100G -n big vg0
                lvcreate -L 1G -n never vg0
                """, "too-big.sh");
        PlanResult r = plan.applyTo(raidHostWithPartition63());
        // 100 GiB = 25600 extents; 1023 - 256 = 767 are free
        assertThat(r.failure()).hasValueSatisfying(f -> assertThat(f.toString()).isEqualTo(
                "too-big.sh:5: lvcreate: Volume group \"vg0\" has insufficient free space (767 extents): 25600 "
                        + "required."));
        assertThat(r.entries()).hasSize(3);
        assertThat(r.layout().logicalVolume("vg0", "big")).isEmpty();
        assertThat(r.layout().logicalVolume("vg0", "a")).isPresent();
    }

    @Test
    void vgextendMakesAPvOfAPlainDeviceFirst() {
        LayoutSpec host = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sdb", DiskPresets.ahciSata().withSize(Bytes.gib(1)))
                .disk("sdc", DiskPresets.ahciSata().withSize(Bytes.gib(1)))
                .build().spec().orElseThrow();
        PlanResult r = Plan.parse("vgcreate vg /dev/sdb\nvgextend vg /dev/sdc\nlvcreate -l 100%VG -n all vg\n",
                "x.sh").applyTo(host);
        assertThat(r.failure()).isEmpty();
        // 1 GiB = 2097152 sectors, pe_start 2048 (no hints: the 1 MiB default): (2097152 - 2048) / 8192 = 255
        assertThat(r.entries().get(1).results()).containsExactly(
                "/dev/sdc: pe_start 2048s, data alignment 1MiB from default 1MiB",
                "VG vg: extended; extent size 4MiB, 510 extents (sdb 255, sdc 255), 510 free");
        // 100%VG of 510 = 510 extents, linear over both PVs
        assertThat(r.layout().logicalVolume("vg", "all").orElseThrow().extentCount()).isEqualTo(510);
    }

    @Test
    void constructsADryRunCannotEvaluateAreNamedWithTheirPlace() {
        assertThatThrownBy(() -> Plan.parse("set -e\nfor d in sda sdb; do pvcreate /dev/$d; done\n", "loop.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessage("loop.sh:2:1: shell construct \"for\" (a loop): expected plain commands, literal "
                        + "assignments, && or ; lists");
        assertThatThrownBy(() -> Plan.parse("pvcreate $(ls /dev/sd*)\n", "sub.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessage("sub.sh:1:10: command substitution $(...): expected literal words");
        assertThatThrownBy(() -> Plan.parse("pvcreate $DISK\n", "var.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("var.sh:1:10: variable \"DISK\" is not set by the script");
        assertThatThrownBy(() -> Plan.parse("pvcreate /dev/sda1\nreboot\n", "x.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("x.sh:2:1: command \"reboot\": expected one of the storage tools");
        assertThatThrownBy(() -> Plan.parse("lvcreate -L 1G -n lv vg --bogus\n", "x.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("x.sh:1:25: option: found '--bogus'");
    }

    @Test
    void failuresAreInTheToolsWords() {
        String[][] cases = {
                // a device the host does not have: LVM's dev-cache message
                {"pvcreate /dev/sdx\n", "x.sh:1: pvcreate: No device found for /dev/sdx."},
                {"vgcreate vg /dev/sdx\n", "x.sh:1: vgcreate: No device found for /dev/sdx."},
                {"lvcreate -L 1G -n lv nosuchvg\n", "x.sh:1: lvcreate: Volume group \"nosuchvg\" not found"},
                {"pvcreate /dev/sda1\npvcreate /dev/sda1\n", "x.sh:2: pvcreate: Can't initialize physical volume "
                        + "\"/dev/sda1\": it is already a physical volume"},
                // the disk holds the PV's partition
                {"pvcreate /dev/sda1\nvgcreate vg /dev/sda1\nwipefs -a /dev/sda\n", "x.sh:3: wipefs: error: /dev/sda: "
                        + "probing initialization failed: Device or resource busy (in use: /dev/sda1, held by an LVM "
                        + "physical volume of volume group vg)"},
                {"mkfs.xfs /dev/nope\n", "x.sh:1: mkfs.xfs: cannot open /dev/nope: No such file or directory"},
        };
        for (String[] c : cases) {
            PlanResult r = Plan.parse(c[0], "x.sh").applyTo(raidHostWithPartition63());
            assertThat(r.failure()).as(c[0]).hasValueSatisfying(f -> assertThat(f.toString()).isEqualTo(c[1]));
        }
        // 0% is refused when read: a percentage from 1
        assertThatThrownBy(() -> Plan.parse("lvcreate -l 0%FREE -n lv vg\n", "x.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("x.sh:1:13: -l: found '0%FREE', expected a percentage from 1 to 100");
    }
}
