package dev.dmmodel.impl.plan.curtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanEntry;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import org.junit.jupiter.api.Test;

/** curtin storage configs placed as curtin places them; the numbers worked out by hand in the comments. */
class CurtinPlanReaderTest {

    static LayoutSpec host(DiskSpec disk) {
        return Layout.builder(KernelProfile.LINUX_6_12).disk("sda", disk).build().spec().orElseThrow();
    }

    static PlanResult run(String yaml, LayoutSpec host) {
        return Plan.parse(yaml, "storage.yaml", PlanFormat.CURTIN).applyTo(host);
    }

    static PlanEntry entry(PlanResult r, int line) {
        return r.entries().stream().filter(e -> e.line() == line).findFirst().orElseThrow();
    }

    @Test
    void version1GptOnA512eDiskWithLvm() {
        PlanResult r = run("""
                storage:
                  version: 1
                  config:
                    - {type: disk, id: d, path: /dev/sda, ptable: gpt, wipe: superblock}
                    - {type: partition, id: p1, device: d, size: 1M, flag: bios_grub, number: 1}
                    - {type: partition, id: p2, device: d, size: 1G, number: 2}
                    - {type: partition, id: p3, device: d, size: 10G, flag: lvm}
                    - {type: lvm_volgroup, id: vg, name: vg0, devices: [p3]}
                    - {type: lvm_partition, id: lv, name: root, volgroup: vg, size: 5G}
                    - {type: format, id: f, volume: lv, fstype: ext4}
                    - {type: mount, id: m, device: f, path: /}
                    - {type: format, id: f2, volume: p2, fstype: xfs, label: boot-partition}
                    - {type: mount, id: m2, device: f2, path: /boot}
                """, host(DiskPresets.ahciSata()));
        assertThat(r.failure()).isEmpty();
        // partition 1 at 1 MiB = 2048 sectors; 1 MiB / 512 = 2048 sectors, end 2048 + 2048 - 1 = 4095
        assertThat(entry(r, 5).results()).containsExactly("sgdisk --new 1:2048:4095 /dev/sda",
                "sda1: start 2048s size 2048s (1MiB); start aligned to the physical block 512B (no optimal_io_size)");
        // partition 2 right after: 2048 + 2048 = 4096 (a multiple of sgdisk's 2048: not moved); 1 GiB = 2097152
        // sectors, end 4096 + 2097152 - 1 = 2101247
        assertThat(entry(r, 6).results()).containsExactly("sgdisk --new 2:4096:2101247 /dev/sda",
                "sda2: start 4096s size 2097152s (1GiB); start aligned to the physical block 512B (no optimal_io_size)");
        // number 3 counted (third partition of d); 4096 + 2097152 = 2101248; 10 GiB = 20971520 sectors
        assertThat(entry(r, 7).results()).containsExactly("sgdisk --new 3:2101248:23072767 /dev/sda",
                "sda3: start 2101248s size 20971520s (10GiB); start aligned to the physical block 512B (no "
                        + "optimal_io_size)");
        // curtin's vgcreate; LVM: pe_start 2048, (20971520 - 2048) / 8192 = 2559 extents of 4 MiB
        assertThat(entry(r, 8).results()).anySatisfy(s -> assertThat(s).startsWith(
                "vgcreate --force --zero=y --yes vg0 /dev/sda3: VG vg0: extent size 4MiB, 2559 extents"));
        // 5G = 5368709120 bytes, curtin passes bytes with B
        assertThat(entry(r, 9).results().get(0)).startsWith(
                "lvcreate vg0 --name root --zero=y --wipesignatures=y --yes --size 5368709120B: LV vg0/root: 1280 "
                        + "extents");
        assertThat(entry(r, 10).results().get(0)).startsWith("mkfs.ext4 -F /dev/vg0/root: ");
        assertThat(entry(r, 11).results().get(0)).startsWith("mount -t ext4 -o defaults /dev/vg0/root /: ");
        // xfs labels are cut to 12 characters (curtin/block/mkfs.py label_length_limits)
        assertThat(entry(r, 12).results().get(0)).startsWith("mkfs.xfs -f -L boot-partiti /dev/sda2: ");
        assertThat(r.setup().toString()).contains("mkfs.ext4").contains("mount");
        assertThat(r.layout().logicalVolume("vg0", "root")).isPresent();
    }

    @Test
    void version1MsdosOnA4knDisk() {
        PlanResult r = run("""
                storage:
                  config:
                    - {type: disk, id: d, path: /dev/sda, ptable: msdos}
                    - {type: partition, id: p1, device: d, size: 512M, flag: boot}
                    - {type: partition, id: p2, device: d, size: 1G}
                    - {type: format, id: f, volume: p2, fstype: xfs}
                """, host(DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.gib(4))));
        assertThat(r.failure()).isEmpty();
        assertThat(entry(r, 3).results()).containsExactly(
                "/dev/sda: msdos label (parted /dev/sda --script mklabel msdos)");
        // 4096-byte blocks: 1 MiB = 256 blocks (sector 2048); 512 MiB = 131072 blocks, end 256 + 131072 - 1 = 131327
        assertThat(entry(r, 4).results()).containsExactly(
                "parted /dev/sda --script mkpart primary 256s 131327s set 1 boot on",
                "sda1: start 2048s size 1048576s (512MiB); start aligned to the physical block 4096B (no "
                        + "optimal_io_size)");
        // 256 + 131072 = 131328 blocks = sector 1050624; 1 GiB = 262144 blocks (2097152 sectors), end 393471
        assertThat(entry(r, 5).results()).containsExactly("parted /dev/sda --script mkpart primary 131328s 393471s",
                "sda2: start 1050624s size 2097152s (1GiB); start aligned to the physical block 4096B (no "
                        + "optimal_io_size)");
        // curtin passes the logical block size to mkfs above 512 bytes
        assertThat(entry(r, 6).results().get(0)).startsWith("mkfs.xfs -s size=4096 -f /dev/sda2: /dev/sda2: xfs, "
                + "sector size 4096");
    }

    @Test
    void onAHardwareRaid5WithOptimalIo448KiBCurtinsMibStartsAreNotAligned() {
        PlanResult r = run("""
                storage:
                  config:
                    - {type: disk, id: d, path: /dev/sda, ptable: gpt}
                    - {type: partition, id: p1, device: d, size: 100M}
                    - {type: partition, id: p2, device: d, size: 1G}
                """, host(DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64))));
        assertThat(r.failure()).isEmpty();
        // io_opt = 7 data disks x 64 KiB = 458752 bytes; the start 1 MiB = 1048576 = 2 x 458752 + 131072
        assertThat(entry(r, 4).results().get(1)).isEqualTo("sda1: start 2048s size 204800s (100MiB); start not "
                + "aligned to optimal_io_size 448KiB (1048576 mod 458752 = 131072)");
        // 2048 + 204800 = 206848 sectors = 105906176 bytes = 230 x 458752 + 393216
        assertThat(entry(r, 5).results().get(1)).isEqualTo("sda2: start 206848s size 2097152s (1GiB); start not "
                + "aligned to optimal_io_size 448KiB (105906176 mod 458752 = 393216)");
    }

    @Test
    void version2PlacesByOffsetAndRoundsTheRestUpToMib() {
        PlanResult r = run("""
                storage:
                  version: 2
                  config:
                    - {type: disk, id: d, path: /dev/sda, ptable: gpt}
                    - {type: partition, id: p1, device: d, size: 1G, offset: 896K}
                    - {type: partition, id: p2, device: d, size: 1G}
                """, host(DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64))));
        assertThat(r.failure()).isEmpty();
        // offset 896 KiB = 917504 bytes = sector 1792 = 2 x 448 KiB: aligned. p2: 1792 + 2097152 = 2098944,
        // rounded up to 2048: 1025 x 2048 = 2099200; 2099200 x 512 = 1074790400 = 2342 x 458752 + 393216
        assertThat(entry(r, 4).results()).containsExactly(
                "/dev/sda: gpt table of 2 partitions (sfdisk --no-reread --no-tell-kernel /dev/sda)",
                "sda1: start 1792s size 2097152s (1GiB); start aligned to optimal_io_size 448KiB",
                "sda2: start 2099200s size 2097152s (1GiB); start not aligned to optimal_io_size 448KiB (1074790400 "
                        + "mod 458752 = 393216)");
        assertThat(entry(r, 5).results()).containsExactly("/dev/sda1: in the table the disk's entry wrote");
    }

    @Test
    void sgdiskMovesAnUnalignedStartAndRefusesWhenTheEndIsBeforeIt() {
        // 1000K = 1024000 bytes = 2000 sectors: p1 2048-4047; p2 asked at 4048, sgdisk's alignment 2048 moves it
        // to 4096 (the earlier boundary 2048 is in use); the end stays 4048 + 20480 - 1 = 24527: 20432 sectors
        PlanResult r = run("""
                storage:
                  config:
                    - {type: disk, id: d, path: /dev/sda, ptable: gpt}
                    - {type: partition, id: p1, device: d, size: 1000K}
                    - {type: partition, id: p2, device: d, size: 10M}
                """, host(DiskPresets.ahciSata()));
        assertThat(entry(r, 5).results()).containsExactly("sgdisk --new 2:4048:24527 /dev/sda",
                "Information: Moved requested sector from 4048 to 4096 in order to align on 2048-sector boundaries.",
                "sda2: start 4096s size 20432s (10216KiB); start aligned to the physical block 512B (no optimal_io_size)");
        // with 24K (48 sectors) the end is 4048 + 48 - 1 = 4095, before the moved start
        PlanResult bad = run("""
                storage:
                  config:
                    - {type: disk, id: d, path: /dev/sda, ptable: gpt}
                    - {type: partition, id: p1, device: d, size: 1000K}
                    - {type: partition, id: p2, device: d, size: 24K}
                """, host(DiskPresets.ahciSata()));
        assertThat(bad.failure()).hasValueSatisfying(f -> {
            assertThat(f.line()).isEqualTo(5);
            assertThat(f.message()).isEqualTo("sgdisk --new 2:4048:4095 /dev/sda: Could not create partition 2 from "
                    + "4096 to 4095");
        });
    }

    @Test
    void autoinstallLvmLayoutWithTheRestOfTheDiskAndTheVg() {
        // the layout subiquity writes for its "lvm" storage layout on one disk (autoinstall reference)
        PlanResult r = run("""
                #cloud-config
                autoinstall:
                  version: 1
                  storage:
                    config:
                    - {ptable: gpt, path: /dev/sda, wipe: superblock, preserve: false, name: '', grub_device: true, type: disk, id: disk-sda}
                    - {device: disk-sda, size: 1048576, flag: bios_grub, number: 1, preserve: false, grub_device: false, type: partition, id: partition-0}
                    - {device: disk-sda, size: 1073741824, wipe: superblock, flag: '', number: 2, preserve: false, grub_device: false, type: partition, id: partition-1}
                    - {fstype: ext4, volume: partition-1, preserve: false, type: format, id: format-0}
                    - {device: disk-sda, size: -1, wipe: superblock, flag: '', number: 3, preserve: false, grub_device: false, type: partition, id: partition-2}
                    - {name: ubuntu-vg, devices: [partition-2], preserve: false, type: lvm_volgroup, id: lvm_volgroup-0}
                    - {name: ubuntu-lv, volgroup: lvm_volgroup-0, size: -1, wipe: superblock, preserve: false, type: lvm_partition, id: lvm_partition-0}
                    - {fstype: ext4, volume: lvm_partition-0, preserve: false, type: format, id: format-1}
                    - {path: /, device: format-1, type: mount, id: mount-1}
                    - {path: /boot, device: format-0, type: mount, id: mount-0}
                """, host(DiskPresets.ahciSata()));
        assertThat(r.failure()).isEmpty();
        // size -1 (subiquity, find_disk_gaps_v1): used 1 MiB, + 1 MiB -> 2 MiB, + 1024 MiB -> 1026 MiB; the end
        // align_down(16384 MiB - 1 MiB) = 16383 MiB: 15357 MiB = 31451136 sectors from 2048 + 2048 + 2097152
        assertThat(entry(r, 10).results()).containsExactly("sgdisk --new 3:2101248:33552383 /dev/sda",
                "sda3: start 2101248s size 31451136s (15357MiB); start aligned to the physical block 512B (no "
                        + "optimal_io_size)");
        // the VG: align_down(15357 MiB - 1 MiB, 4 MiB) = 15356 MiB = 16101933056 bytes for the -1 LV; LVM:
        // (31451136 - 2048) / 8192 = 3839 extents = 15356 MiB: it fits exactly
        assertThat(entry(r, 12).results().get(0)).startsWith("lvcreate ubuntu-vg --name ubuntu-lv --zero=y "
                + "--wipesignatures=y --yes --size 16101933056B: LV ubuntu-vg/ubuntu-lv: 3839 extents");
        assertThat(entry(r, 15).results().get(0)).startsWith("mount -t ext4 -o defaults /dev/sda2 /boot: ");
    }

    @Test
    void anAutoinstallPercentIsOfTheDiskLessTheGptMargins() {
        // 50%: align_down((16384 MiB - 1 MiB - 1 MiB) * 50 / 100, 1 MiB) = 8191 MiB = 16775168 sectors
        PlanResult r = run("""
                autoinstall:
                  storage:
                    config:
                    - {type: disk, id: d, path: /dev/sda, ptable: gpt}
                    - {type: partition, id: p1, device: d, size: 50%}
                """, host(DiskPresets.ahciSata()));
        assertThat(entry(r, 5).results().get(0)).isEqualTo("sgdisk --new 1:2048:16777215 /dev/sda");
    }

    @Test
    void aDiskThatIsNotOnTheHostFailsWithCurtinsOpenError() {
        PlanResult r = run("""
                storage:
                  config:
                    - {type: disk, id: d, path: /dev/sdx, ptable: gpt}
                """, host(DiskPresets.ahciSata()));
        assertThat(r.failure()).hasValueSatisfying(f -> assertThat(f.message()).contains("/dev/sdx"));
    }

    @Test
    void badInputIsAPlanExceptionAtTheEntrysKey() {
        String head = "storage:\n  config:\n    - {type: disk, id: d, path: /dev/sda, ptable: gpt}\n";
        assertBad(head + "    - {type: partition, id: p, device: nope, size: 1G}\n",
                "storage.yaml:4:40: partition \"p\": device \"nope\": no entry has this id");
        assertBad("storage:\n  config:\n    - {type: partition, id: p, device: d, size: 1G}\n"
                        + "    - {type: disk, id: d, path: /dev/sda, ptable: gpt}\n",
                "storage.yaml:3:40: partition \"p\": device \"d\": the disk at line 4 comes later (curtin runs entries "
                        + "in order)");
        assertBad(head + "    - {type: lvm_volgroup, id: v, name: vg, devices: [v]}\n",
                "the entry refers to itself (a cycle)");
        assertBad(head + "    - {type: disk, id: d, path: /dev/sdb}\n",
                "storage.yaml:4:24: storage config entry: id \"d\" is already the id of the disk at line 3");
        assertBad(head + "    - {type: lvm_snapshot, id: s}\n",
                "storage.yaml:4:14: storage config entry: type \"lvm_snapshot\": a type curtin does not know");
        assertBad(head + "    - {type: dm_crypt, id: c, volume: d}\n", "type \"dm_crypt\" is not modelled yet");
        assertBad(head + "    - {type: partition, id: p, device: d, size: 10Q}\n",
                "storage.yaml:4:49: partition \"p\": size \"10Q\": expected a size such as 512M");
        // 0.3 x 1024 = 307.2 bytes; 1.5K = 1536 bytes would be whole
        assertBad(head + "    - {type: partition, id: p, device: d, size: 0.3K}\n", "resulted in non-integer");
        assertBad(head + "    - {type: partition, id: p, device: d, size: -1}\n", "cannot be negative");
        assertBad(head + "    - {type: partition, id: p, device: d, size: {a: 1}}\n",
                "size a mapping: expected a single value");
        assertBad(head + "    - {type: partition, id: p, device: d}\n", "no size (curtin: size must be specified");
        assertBad(head + "    - {type: partition, id: p, device: d, size: 1G, flag: esp}\n",
                "flag \"esp\": expected one of");
        assertBad("storage:\n  config:\n    - {type: disk, id: d, serial: QM0001}\n",
                "storage.yaml:3:35: disk \"d\": no path: expected path: /dev/...");
        assertBad("storage:\n  config:\n    - {type: disk, id: d, path: /dev/sda, ptable: msdos}\n"
                + "    - {type: partition, id: p, device: d, size: 8M, flag: prep}\n", "PReP partitions require");
        assertBad("storage:\n  version: 3\n  config: []\n", "storage.yaml:2:12: storage: version \"3\"");
        assertBad("autoinstall:\n  storage:\n    config:\n    - {type: disk, id: d, path: /dev/sda, ptable: gpt}\n"
                + "    - {type: partition, id: a, device: d, size: -1}\n"
                + "    - {type: partition, id: b, device: d, size: 1G}\n", "NotFinalPartitionError");
        assertBad(head + "    - {type: partition, id: p, device: d, size: 1G, flag: logical}\n",
                "logical partitions are not modelled yet");
        assertBad(head + "    - {type: partition, id: p, device: d, size: 1G, colour: red}\n",
                "key \"colour\": expected one of");
        assertBad("storage:\n  config:\n    - &a {type: disk, id: d}\n", "an anchor &a");
        assertBad("[", "storage.yaml:1:2: YAML that does not parse");
        assertBad("", "an empty plan");
        assertBad(head + "    - {type: format, id: f, volume: d, fstype: zfs}\n", "fstype \"zfs\": expected one of");
        assertBad(head + "    - {type: format, id: f, volume: d, fstype: ext4}\n"
                + "    - {type: mount, id: m, device: f, path: srv}\n", "path \"srv\": expected an absolute");
        assertBad(head + "    - {type: raid, id: r, name: md0, raidlevel: raid7, devices: [d]}\n",
                "raidlevel \"raid7\": expected one of");
    }

    private static void assertBad(String yaml, String message) {
        assertThatThrownBy(() -> new CurtinPlanReader().read(yaml, "storage.yaml"))
                .isInstanceOf(PlanException.class).hasMessageContaining(message);
    }

    @Test
    void raidRunsMdadmAsCurtinBuildsIt() {
        PlanResult r = run("""
                storage:
                  config:
                    - {type: disk, id: a, path: /dev/sda}
                    - {type: disk, id: b, path: /dev/sdb}
                    - {type: raid, id: md, name: md0, raidlevel: raid1, devices: [a, b]}
                """, Layout.builder(KernelProfile.LINUX_6_12).disk("sda", DiskPresets.ahciSata())
                .disk("sdb", DiskPresets.ahciSata()).build().spec().orElseThrow());
        assertThat(r.failure()).isEmpty();
        // curtin/block/mdadm.py: mdadm_create's words
        assertThat(entry(r, 5).results().get(0)).startsWith("mdadm --create /dev/md0 --run --homehost=localhost "
                + "--raid-devices=2 --metadata=default --level=raid1 /dev/sda /dev/sdb: array /dev/md0 started");
    }

    @Test
    void flowStyleConfigsAreDetectedAsCurtin() {
        assertThat(Plan.parse("storage:\n  config:\n    - {type: disk, id: d, path: /dev/sda, ptable: gpt}\n",
                "storage.yaml").format()).isEqualTo(PlanFormat.CURTIN);
        assertThat(Plan.parse("autoinstall:\n  storage:\n    config:\n    - {ptable: gpt, path: /dev/sda, type: disk, "
                + "id: disk-sda}\n", "user-data").format()).isEqualTo(PlanFormat.CURTIN);
    }
}
