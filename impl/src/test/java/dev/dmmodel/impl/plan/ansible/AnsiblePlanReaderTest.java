package dev.dmmodel.impl.plan.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.yaml.YamlFields;
import dev.dmmodel.impl.plan.yaml.YamlNode;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ansible tasks of community.general's storage modules: the exact words each module runs (from plugins/modules
 * parted.py, lvg.py, lvol.py, filesystem.py, on the modules' documented EXAMPLES), and what they do on a host.
 */
class AnsiblePlanReaderTest {

    /** sda with two msdos partitions of 4 GiB at 1 MiB and after; sdb blank. */
    static LayoutSpec host() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.ahciSata())
                .partitionTable("sda", PartitionTableType.MSDOS,
                        PartitionSpec.at(Sectors.of(2048), Sectors.of(8388608)),
                        PartitionSpec.at(Sectors.of(8390656), Sectors.of(8388608)))
                .disk("sdb", DiskPresets.ahciSata().withSize(Bytes.gib(1)))
                .build().spec().orElseThrow();
    }

    private static YamlFields args(String yaml) {
        return new YamlFields("t.yml", (YamlNode.Mapping) dev.dmmodel.impl.plan.yaml.PlanYaml.parse(yaml, "t.yml"),
                "task");
    }

    @Test
    void partedExamplesRunTheModulesScripts() {
        // EXAMPLES "Create a new primary partition with a size of 1GiB" on a blank disk (parted prints unknown):
        // the default label msdos is written first, in the default unit KiB and alignment optimal
        AnsibleModules.Parted t = AnsiblePlanReader.partedTask(args("{device: /dev/sdb, number: 1, state: present, "
                + "part_end: 1GiB}"));
        assertThat(AnsibleModules.partedPresent(t, "unknown", false)).containsExactly(List.of("parted", "-s", "-f",
                "-m", "-a", "optimal", "/dev/sdb", "--", "unit", "KiB", "mklabel", "msdos", "mkpart", "primary", "0%",
                "1GiB"));
        // "Create a new primary partition for LVM" on a disk that has its msdos label: no mklabel; the flag in a
        // second run once the partition exists
        AnsibleModules.Parted lvm = AnsiblePlanReader.partedTask(args("{device: /dev/sdb, number: 2, flags: [lvm], "
                + "state: present, part_start: 1GiB}"));
        assertThat(AnsibleModules.partedPresent(lvm, "msdos", false)).containsExactly(
                List.of("parted", "-s", "-f", "-m", "-a", "optimal", "/dev/sdb", "--", "unit", "KiB", "mkpart",
                        "primary", "1GiB", "100%"),
                List.of("parted", "-s", "-f", "-m", "-a", "optimal", "/dev/sdb", "--", "unit", "KiB", "set", "2",
                        "lvm", "on"));
        // "Create a new primary partition with a size of 1GiB" with gpt, a name and esp (boot added with it)
        AnsibleModules.Parted esp = AnsiblePlanReader.partedTask(args("{device: /dev/sdb, label: gpt, number: 1, "
                + "state: present, name: EFI, flags: [esp], part_end: 512MiB, align: undefined, unit: MiB}"));
        assertThat(AnsibleModules.partedPresent(esp, "gpt", true)).containsExactly(
                List.of("parted", "-s", "-f", "-m", "/dev/sdb", "--", "unit", "MiB", "name", "1", "\"EFI\"", "set",
                        "1", "esp", "on", "set", "1", "boot", "on"));
        // "Remove partition number 1"
        AnsibleModules.Parted rm = AnsiblePlanReader.partedTask(args("{device: /dev/sdb, number: 1, state: absent}"));
        assertThat(AnsibleModules.partedAbsent(rm)).containsExactly("parted", "-s", "-f", "-m", "-a", "optimal",
                "/dev/sdb", "--", "rm", "1");
    }

    @Test
    void lvgAndLvolExamplesBuildTheModulesCommands() {
        // lvg EXAMPLES: "Create a volume group on top of /dev/sda1 with physical extent size = 32MB"
        AnsibleModules.Lvg vg = AnsiblePlanReader.lvgTask(args("{vg: vg.services, pvs: /dev/sda1, pesize: 32}"));
        assertThat(AnsibleModules.pvcreate(vg, "/dev/sda1")).containsExactly("pvcreate", "-f", "/dev/sda1");
        assertThat(AnsibleModules.vgcreate(vg)).containsExactly("vgcreate", "-s", "32", "vg.services", "/dev/sda1");
        // "Create or resize a volume group on top of /dev/sdb1 and /dev/sdc5": a comma string is a list;
        // pesize defaults to "4"
        AnsibleModules.Lvg two = AnsiblePlanReader.lvgTask(args("{vg: vg.services, pvs: '/dev/sdb1,/dev/sdc5', "
                + "pv_options: '--dataalignment 448k'}"));
        assertThat(AnsibleModules.vgcreate(two)).containsExactly("vgcreate", "-s", "4", "vg.services", "/dev/sdb1",
                "/dev/sdc5");
        assertThat(AnsibleModules.pvcreate(two, "/dev/sdb1")).containsExactly("pvcreate", "--dataalignment", "448k",
                "-f", "/dev/sdb1");
        // lvol EXAMPLES: 512 (unit m by default), 512g, 100%FREE, pvs, opts, a thin pool, a thin LV, a snapshot
        assertThat(AnsibleModules.lvcreate(AnsiblePlanReader.lvolTask(args("{vg: firefly, lv: test, size: 512}"))))
                .containsExactly("lvcreate", "--yes", "-n", "test", "-L", "512m", "firefly");
        assertThat(AnsibleModules.lvcreate(AnsiblePlanReader.lvolTask(args("{vg: firefly, lv: test, size: 512g}"))))
                .containsExactly("lvcreate", "--yes", "-n", "test", "-L", "512g", "firefly");
        assertThat(AnsibleModules.lvcreate(AnsiblePlanReader.lvolTask(args(
                "{vg: firefly, lv: test, size: 100%FREE, pvs: [/dev/sda, /dev/sdb]}"))))
                .containsExactly("lvcreate", "--yes", "-n", "test", "-l", "100%FREE", "firefly", "/dev/sda", "/dev/sdb");
        assertThat(AnsibleModules.lvcreate(AnsiblePlanReader.lvolTask(args(
                "{vg: firefly, lv: test, size: 512, opts: -r 16}"))))
                .containsExactly("lvcreate", "--yes", "-n", "test", "-L", "512m", "-r", "16", "firefly");
        assertThat(AnsibleModules.lvcreate(AnsiblePlanReader.lvolTask(args(
                "{vg: firefly, thinpool: testpool, size: 512g}"))))
                .containsExactly("lvcreate", "--yes", "-L", "512g", "-T", "firefly/testpool");
        assertThat(AnsibleModules.lvcreate(AnsiblePlanReader.lvolTask(args(
                "{vg: firefly, lv: test, thinpool: testpool, size: 128g}"))))
                .containsExactly("lvcreate", "--yes", "-n", "test", "-V", "128g", "-T", "firefly/testpool");
        assertThat(AnsibleModules.lvcreate(AnsiblePlanReader.lvolTask(args(
                "{vg: firefly, lv: test, snapshot: snap1, size: 100m}"))))
                .containsExactly("lvcreate", "--yes", "-L", "100m", "-s", "-n", "snap1", "firefly/test");
        // "+" is dropped when creating (size_operator is not written)
        assertThat(AnsibleModules.sizeValue("+100%FREE")).isEqualTo("100%FREE");
        assertThat(AnsibleModules.sizeValue("1.5G")).isEqualTo("1.5G");
    }

    @Test
    void filesystemExamplesRunMkfsWithTheForceFlag() {
        // "Create a ext2 filesystem on /dev/sdb1": [mkfs] + MKFS_FORCE_FLAGS + opts + [dev]
        assertThat(AnsibleModules.mkfs("ext2", List.of(), "/dev/sdb1").orElseThrow())
                .containsExactly("mkfs.ext2", "-F", "/dev/sdb1");
        // "Create a ext4 filesystem on /dev/sdb1 and check disk blocks"
        assertThat(AnsibleModules.mkfs("ext4", List.of("-cc"), "/dev/sdb1").orElseThrow())
                .containsExactly("mkfs.ext4", "-F", "-cc", "/dev/sdb1");
        assertThat(AnsibleModules.mkfs("xfs", List.of(), "/dev/vg/lv").orElseThrow())
                .containsExactly("mkfs.xfs", "-f", "/dev/vg/lv");
        assertThat(AnsibleModules.mkfs("lvm", List.of(), "/dev/sdc").orElseThrow())
                .containsExactly("pvcreate", "-f", "/dev/sdc");
        assertThat(AnsibleModules.mkfs("zfs", List.of(), "/dev/sdc")).isEmpty();
    }

    @Test
    void aPlayRunsOnTheHost() {
        PlanResult r = Plan.parse("""
                - hosts: storage
                  become: true
                  tasks:
                    - name: Install LVM
                      ansible.builtin.package:
                        name: lvm2
                    - name: Create the VG
                      community.general.lvg:
                        vg: vg.services
                        pvs: /dev/sda1,/dev/sda2
                        pesize: 32
                    - name: Create the LV
                      community.general.lvol:
                        vg: vg.services
                        lv: data
                        size: 512
                    - name: Make the filesystem
                      community.general.filesystem:
                        fstype: xfs
                        dev: /dev/vg.services/data
                    - name: Mount it
                      ansible.posix.mount:
                        path: /srv
                        src: /dev/vg.services/data
                        fstype: xfs
                        state: mounted
                    - name: Again (no change)
                      lvol: vg=vg.services lv=data
                """, "play.yml", PlanFormat.ANSIBLE).applyTo(host());
        assertThat(r.failure()).isEmpty();
        assertThat(r.entries().get(0).results()).containsExactly("module ansible.builtin.package: skipped (no effect "
                + "on the block stack as modelled)");
        // lvg: pvcreate -f for each PV, then vgcreate -s 32; LVM: (8388608 - 2048) / 65536 = 127 extents of 32 MiB
        // on each
        assertThat(r.entries().get(1).results()).anySatisfy(s -> assertThat(s).startsWith("pvcreate -f /dev/sda1: "));
        assertThat(r.entries().get(1).results()).anySatisfy(s -> assertThat(s).startsWith(
                "vgcreate -s 32 vg.services /dev/sda1 /dev/sda2: VG vg.services: extent size 32MiB, 254 extents"));
        // 512m = 16 extents of 32 MiB
        assertThat(r.entries().get(2).results().get(0)).startsWith(
                "lvcreate --yes -n data -L 512m vg.services: LV vg.services/data: 16 extents");
        assertThat(r.entries().get(3).results().get(0)).startsWith("mkfs.xfs -f /dev/vg.services/data: ");
        assertThat(r.entries().get(4).results().get(0)).startsWith("mount -t xfs -o defaults /dev/vg.services/data "
                + "/srv: ");
        assertThat(r.entries().get(5).results()).containsExactly("LV vg.services/data exists: no change");
        assertThat(r.entries().get(5).line()).isEqualTo(27);
    }

    @Test
    void whatTheModulesRefuseOnTheHostIsAFailureInTheirWords() {
        PlanResult r = Plan.parse("""
                - community.general.lvol: {vg: nope, lv: x, size: 1g}
                """, "t.yml", PlanFormat.ANSIBLE).applyTo(host());
        assertThat(r.failure()).hasValueSatisfying(f -> assertThat(f.message())
                .isEqualTo("Volume group nope does not exist."));
        PlanResult twice = Plan.parse("""
                - community.general.lvg: {vg: first, pvs: /dev/sda1}
                - community.general.lvg: {vg: second, pvs: /dev/sda1}
                """, "t.yml", PlanFormat.ANSIBLE).applyTo(host());
        assertThat(twice.failure()).hasValueSatisfying(f -> {
            assertThat(f.line()).isEqualTo(2);
            assertThat(f.message()).isEqualTo("Device /dev/sda1 is already in first volume group.");
        });
        PlanResult fs = Plan.parse("""
                - community.general.filesystem: {fstype: ext4, dev: /dev/sda1}
                - community.general.filesystem: {fstype: xfs, dev: /dev/sda1}
                """, "t.yml", PlanFormat.ANSIBLE).applyTo(host());
        assertThat(fs.failure()).hasValueSatisfying(f -> assertThat(f.message())
                .isEqualTo("'/dev/sda1' is already used as ext4, use force=true to overwrite"));
    }

    @Test
    void aPartedTaskRunsTheModulesPartedOnTheHost() {
        PlanResult r = Plan.parse("""
                - name: Create a new primary partition for LVM
                  community.general.parted:
                    device: /dev/sdb
                    label: gpt
                    number: 1
                    flags: [lvm]
                    state: present
                    part_end: 512MiB
                """, "t.yml", PlanFormat.ANSIBLE).applyTo(host());
        assertThat(r.failure()).isEmpty();
        assertThat(r.entries().get(0).results().get(0)).startsWith(
                "parted -s -f -m -a optimal /dev/sdb -- unit KiB mklabel gpt mkpart primary 0% 512MiB: ");
        // 0% rounded up to the optimal grain 1 MiB = sector 2048; 512MiB ends at sector 1048576 - 1 = 1048575:
        // 1048575 - 2048 + 1 = 1046528 sectors (parted's own reading, impl.parted)
        assertThat(r.entries().get(0).results()).anySatisfy(s -> assertThat(s).contains(
                "partition 1: start 2048, end 1048575, size 1046528"));
        // the flag in the module's second run
        assertThat(r.entries().get(0).results()).anySatisfy(s -> assertThat(s).startsWith(
                "parted -s -f -m -a optimal /dev/sdb -- unit KiB set 1 lvm on"));
        // state info (the default) changes nothing
        assertThat(new AnsiblePlanReader().read("- parted: {device: /dev/sdb}\n", "t.yml")).hasSize(1);
    }

    @Test
    void badInputIsAPlanExceptionNamingTheTaskAndKey() {
        assertBad("- name: make it\n  community.general.lvg:\n    vg: '{{ vg_name }}'\n    pvs: /dev/sdb\n",
                "t.yml:3:9: task \"make it\" (community.general.lvg): a templated value \"{{ vg_name }}\"");
        assertBad("- name: each\n  community.general.lvol: {vg: v, lv: a, size: 1g}\n  loop: [1, 2]\n",
                "t.yml:3:3: task \"each\": loop: a dry run does not evaluate loops");
        assertBad("- community.general.lvg: {vg: v, pvs: /dev/sdb}\n  when: ansible_os_family == 'Debian'\n",
                "t.yml:2:3: task at line 1: when:");
        assertBad("- community.general.lvg: {vg: v, pvs: /dev/sdb}\n  with_items: [a]\n", "with_items:");
        assertBad("- community.general.lvg: {vg: v, pv: /dev/sdb}\n", "key \"pv\": expected one of");
        assertBad("- community.general.lvg: {pvs: /dev/sdb}\n", "no vg: expected vg:");
        assertBad("- community.general.lvg: {vg: v, pvs: {a: b}}\n", "pvs a mapping: expected a list or comma");
        assertBad("- community.general.lvol: {vg: v, lv: a, size: 101%VG}\n", "cannot be larger than 100%");
        assertBad("- community.general.lvol: {vg: v, lv: a, size: 10%SOME}\n", "VG|PVS|FREE|ORIGIN");
        assertBad("- community.general.lvol: {vg: v, lv: a, size: 1x}\n", "Bad size specification");
        assertBad("- community.general.lvol: {vg: v, lv: a, size: -1g}\n", "for creating LV");
        assertBad("- community.general.lvol: {vg: v, size: 1g}\n", "neither lv nor thinpool");
        assertBad("- community.general.lvol: {vg: v, lv: a, state: absent}\n", "is not modelled yet");
        assertBad("- community.general.lvol: {vg: v, lv: a, size: 1g, resizefs: maybe}\n",
                "resizefs \"maybe\": expected a boolean");
        assertBad("- community.general.parted: {device: /dev/sdb, state: present}\n", "no number");
        assertBad("- community.general.parted: {device: /dev/sdb, number: 1, state: present, part_end: 10}\n",
                "part_end \"10\" (parted module");
        assertBad("- community.general.parted: {device: /dev/sdb, number: 0}\n", "number \"0\": expected a whole");
        assertBad("- community.general.filesystem: {fstype: zfs, dev: /dev/sdb}\n", "fstype \"zfs\": expected one of");
        assertBad("- name: x\n", "no module");
        assertBad("- community.general.lvg: {vg: v, pvs: /dev/sdb}\n  community.general.lvol: {vg: v, lv: a}\n",
                "a second module");
        assertBad("- hosts: all\n  roles: [storage]\n", "roles: is not read by a dry run");
        assertBad("- community.general.lvg:\n    vg: !vault |\n      $ANSIBLE_VAULT\n", "an explicit tag !vault");
        assertBad("- lvg: vg=v pvs='/dev/sdb'\n", "without quotes");
        assertBad("hosts: all\n", "expected a list of plays");
        assertBad("- [a]\n", "a play or task that is a list: expected a mapping");
    }

    private static void assertBad(String yaml, String message) {
        assertThatThrownBy(() -> new AnsiblePlanReader().read(yaml, "t.yml"))
                .isInstanceOf(PlanException.class).hasMessageContaining(message);
    }
}
