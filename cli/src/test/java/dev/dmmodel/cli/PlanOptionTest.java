package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --plan} on every command, on a host written here: seed 003's 4 GiB hardware RAID 5 volume (7+1, 64 KiB
 * chunks: io_min 65536, io_opt 7 x 64 KiB = 458752 = 896 sectors) with one partition at sector 63.
 */
class PlanOptionTest {

    @TempDir
    Path tmp;

    private Path host() {
        return Cli.write(tmp.resolve("raid5-part63.yaml"), """
                version: 1
                kernel: "6.12"
                steps:
                  - disk: sda
                    preset: hardware-raid
                    raid_level: raid5
                    raid_disks: 8
                    raid_chunk: 64KiB
                    size: 4GiB
                  - partition_table: sda
                    type: msdos
                    partitions:
                      - start: 63s
                """);
    }

    private Path plan(String name, String text) {
        return Cli.write(tmp.resolve(name), text);
    }

    // sda1 at 63: 63 x 512 = 32256 bytes into a 64 KiB chunk, so alignment_offset = 65536 - 32256 = 33280 = 65 s;
    // pvcreate aligns the 1 MiB default (2048 s) up to the 896-sector io_opt, 2688, plus the offset: 2753;
    // 4 MiB extents = 8192 s: (8388545 - 2753) / 8192 = 1023.7, so 1023 extents
    private static final String PV = "lvm.sh:1: pvcreate: /dev/sda1: pe_start 2753s, data alignment 448KiB from"
            + " optimal_io_size (2753 = a multiple of it plus alignment_offset 33280B)";
    private static final String VG = "lvm.sh:2: vgcreate: VG vg0: extent size 4MiB, 1023 extents (sda1 1023), 1023 free";

    private Path lvm() {
        return plan("lvm.sh", "pvcreate /dev/sda1\nvgcreate vg0 /dev/sda1\nlvcreate -L 1G -n lv vg0\n");
    }

    @Test
    void check_printsEachLineThenTheFindings() {
        Cli.Result r = Cli.run("check", "--layout", host().toString(), "--plan", lvm().toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.outLines()).startsWith(PV, VG,
                // 1 GiB = 256 extents of 4 MiB, from PE 0, whose first sector is pe_start
                "lvm.sh:3: lvcreate: LV vg0/lv: 256 extents (1GiB) on sda1 PE 0-255 (sector 2753 of sda1)",
                "",
                "WARNING align.partition.io-min [sda1]");
        // the data area at 63 + 2753 = 2816 = 3 x 896 + 128: 128 sectors (65536 bytes) into a full stripe
        assertThat(r.out()).contains("the data area of PV /dev/sda1 starts at sector 2816 of the disk (pe_start 2753"
                + " + partition start 63), 65536 bytes past a 448KiB full-stripe boundary")
                .endsWith("3 findings (0 errors, 2 warnings, 1 info) under linux-6.12\n");
    }

    @Test
    void check_aLineThatWouldFail_isOnStderrInTheToolsWords_exit1() {
        Path big = plan("too-big.sh", "pvcreate /dev/sda1\nvgcreate vg0 /dev/sda1\nlvcreate -L 100G -n data vg0\n");
        Cli.Result r = Cli.run("check", "--layout", host().toString(), "--plan", big.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        // 100 GiB / 4 MiB = 25600 extents wanted; 1023 free (above)
        assertThat(r.errLines()).containsExactly(
                "too-big.sh:3: lvcreate: Volume group \"vg0\" has insufficient free space (1023 extents): 25600 required.");
        assertThat(r.outLines()).startsWith(PV.replace("lvm.sh", "too-big.sh"), VG.replace("lvm.sh", "too-big.sh"), "");
    }

    @Test
    void check_json_addsTheEntriesAndTheFailure() {
        Path big = plan("too-big.sh", "pvcreate /dev/sda1\nvgcreate vg0 /dev/sda1\nlvcreate -L 100G -n data vg0\n");
        Cli.Result r = Cli.run("check", "--layout", host().toString(), "--plan", big.toString(), "--format", "json");
        assertThat(r.exitCode()).isEqualTo(1);
        Map<String, Object> top = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(top.keySet()).containsExactly("findings", "plan", "planFailure");
        List<Object> plan = MiniJson.array(top.get("plan"));
        assertThat(plan).hasSize(2);
        assertThat(MiniJson.object(plan.get(1))).containsExactly(Map.entry("source", "too-big.sh"),
                Map.entry("line", 2L), Map.entry("tool", "vgcreate"), Map.entry("command", "vgcreate vg0 /dev/sda1"),
                Map.entry("results", List.of("VG vg0: extent size 4MiB, 1023 extents (sda1 1023), 1023 free")));
        assertThat(MiniJson.object(top.get("planFailure"))).containsExactly(Map.entry("source", "too-big.sh"),
                Map.entry("line", 3L), Map.entry("tool", "lvcreate"), Map.entry("command", "lvcreate -L 100G -n data vg0"),
                Map.entry("message", "Volume group \"vg0\" has insufficient free space (1023 extents): 25600 required."));
    }

    @Test
    void check_json_withoutAFailure_hasPlanFailureNull() {
        Cli.Result r = Cli.run("check", "--layout", host().toString(), "--plan", lvm().toString(), "--format", "json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).endsWith("\n],\n\"planFailure\": null}\n");
        assertThat(MiniJson.array(MiniJson.object(MiniJson.parse(r.out())).get("plan"))).hasSize(3);
    }

    @Test
    void plansApplyInOrder_eachToTheStackTheOneBeforeLeft() {
        Path pv = plan("pv.sh", "pvcreate /dev/sda1\nvgcreate vg0 /dev/sda1\n");
        Path lv = plan("lv.sh", "lvcreate -l 100%FREE -n all vg0\n");
        Cli.Result r = Cli.run("check", "--layout", host().toString(), "--plan", pv.toString(), "--plan", lv.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        // 100%FREE of the 1023 extents pv.sh's VG has
        assertThat(r.outLines()).startsWith(PV.replace("lvm.sh", "pv.sh"), VG.replace("lvm.sh", "pv.sh"),
                // 1023 x 4 MiB = 4092 MiB, which LVM writes as less than 4 GiB
                "lv.sh:1: lvcreate: LV vg0/all: 1023 extents (<4GiB) on sda1 PE 0-1022 (sector 2753 of sda1)");
    }

    @Test
    void aPlanThatCannotBeRead_isBadInput_namingLineAndColumn_beforeAnythingIsPrinted() {
        Path bad = plan("bad.sh", "pvcreate /dev/sda1\nfor d in a b; do echo; done\n");
        Cli.Result r = Cli.run("check", "--layout", host().toString(), "--plan", bad.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly("dmmodel: bad.sh:2:1: shell construct \"for\" (a loop): expected plain"
                + " commands, literal assignments, && or ; lists");
    }

    @Test
    void aPlanFileThatIsNotThere_isBadInput() {
        Cli.Result r = Cli.run("check", "--layout", host().toString(), "--plan", tmp.resolve("nope.sh").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly("dmmodel: --plan " + tmp.resolve("nope.sh") + ": no such file");
    }

    @Test
    void planFormat_overridesDetection_andAnUnknownOneIsBadInput() {
        // a shell script named .yaml: detection by name would not take it as shell
        Path p = plan("lvm.yaml", "pvcreate /dev/sda1\n");
        Cli.Result ok = Cli.run("check", "--layout", host().toString(), "--plan", p.toString(), "--plan-format", "shell");
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.outLines().get(0)).startsWith("lvm.yaml:1: pvcreate: /dev/sda1: pe_start 2753s");
        Cli.Result bad = Cli.run("check", "--layout", host().toString(), "--plan", p.toString(), "--plan-format", "yaml");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.errLines()).containsExactly(
                "dmmodel: --plan-format: plan format \"yaml\": expected shell, kickstart, curtin or ansible");
    }

    @ParameterizedTest
    @ValueSource(strings = {"show", "limits", "export"})
    void otherCommands_aFailingPlan_printsItsFailureAndNothingElse_exit1(String command) {
        Path big = plan("too-big.sh", "pvcreate /dev/sda1\nvgcreate vg0 /dev/sda1\nlvcreate -L 100G -n data vg0\n");
        Cli.Result r = command.equals("export")
                ? Cli.run(command, "--layout", host().toString(), "--plan", big.toString(), "--to", "dm-tables")
                : Cli.run(command, "--layout", host().toString(), "--plan", big.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly(
                "too-big.sh:3: lvcreate: Volume group \"vg0\" has insufficient free space (1023 extents): 25600 required.");
    }

    @Test
    void export_usesTheStackThePlanBuilt() {
        Cli.Result r = Cli.run("export", "--layout", host().toString(), "--plan", lvm().toString(), "--to", "dm-tables");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // 256 extents x 8192 sectors = 2097152 sectors, at pe_start 2753 of sda1 (8:1)
        assertThat(r.out()).isEqualTo("vg0-lv: 0 2097152 linear 8:1 2753\n");
    }

    @Test
    void limits_andShow_haveThePlansLv() {
        Cli.Result limits = Cli.run("limits", "--layout", host().toString(), "--plan", lvm().toString());
        assertThat(limits.exitCode()).as(limits.err()).isZero();
        // dm-0 (linear at 2753 of sda1) has sda's io_min and io_opt; its data starts at 63 + 2753 = 2816 of the
        // disk = 22 x 128, on a 64 KiB chunk boundary, so its alignment_offset is 0
        assertThat(limits.out()).contains("\n  \"dm-0\": {\"alignment_offset\": 0, \"logical_block_size\": 512, "
                + "\"physical_block_size\": 512, \"minimum_io_size\": 65536, \"optimal_io_size\": 458752, ");
        Cli.Result show = Cli.run("show", "--layout", host().toString(), "--plan", lvm().toString());
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.outLines()).contains("  `-dm-0 (vg0-lv)  253:0        -  2097152        0  linear sda1 2753");
    }

    @Test
    void trace_runsThePlansMkfsAndMountFirst() {
        // the LV on the whole volume; XFS of 512-byte sectors mounted sets the LV's soft block size to 512
        String lv = "pvcreate /dev/sda\nvgcreate vg /dev/sda\nlvcreate -L 1g -n lv vg\n";
        Path disk = Cli.write(tmp.resolve("disk.yaml"), """
                version: 1
                kernel: "6.12"
                steps:
                  - disk: sda
                    preset: hardware-raid
                    raid_level: raid5
                    raid_disks: 8
                    raid_chunk: 64KiB
                    size: 4GiB
                """);
        Path raw = plan("raw.sh", lv);
        Path xfs = plan("xfs.sh", lv + "mkfs.xfs -s size=512 /dev/vg/lv\nmount /dev/vg/lv /mnt\n");
        String[] workload = {"--format", "text", "--workload", "dd if=/dev/zero of=/dev/vg/lv bs=512 count=1 seek=1",
            "--workload", "sync"};
        Cli.Result before = Cli.run(concat(new String[] {"trace", "--layout", disk.toString(), "--plan", raw.toString()},
                workload));
        Cli.Result after = Cli.run(concat(new String[] {"trace", "--layout", disk.toString(), "--plan", xfs.toString()},
                workload));
        assertThat(before.exitCode()).as(before.err()).isZero();
        assertThat(after.exitCode()).as(after.err()).isZero();
        // without a filesystem the LV's block size is 4096: writeback writes the whole page, sectors 0-7;
        // with the 512-byte XFS mounted only the dirty 512-byte buffer, sector 1
        assertThat(before.outLines().get(0)).isEqualTo("      0 dm-0     block_bio_queue      WS   0 + 8");
        assertThat(after.outLines().get(0)).isEqualTo("      0 dm-0     block_bio_queue      WS   1 + 1");
    }

    @Test
    void lsblk_isAHost() {
        Path lsblk = Cli.write(tmp.resolve("lsblk.json"), """
                {"blockdevices": [
                  {"name": "sda", "kname": "sda", "maj:min": "8:0", "type": "disk", "size": 4294967296,
                   "log-sec": 512, "phy-sec": 512, "min-io": 65536, "opt-io": 458752, "alignment": 0,
                   "disc-gran": 0, "disc-max": 0, "rota": true, "ra": 128,
                   "children": [
                     {"name": "sda1", "kname": "sda1", "maj:min": "8:1", "type": "part", "start": 63,
                      "size": 4294934016, "log-sec": 512, "phy-sec": 512, "min-io": 65536, "opt-io": 458752,
                      "alignment": 33280, "disc-gran": 0, "disc-max": 0, "rota": true, "ra": 128,
                      "children": [
                        {"name": "vg-lv", "kname": "dm-0", "maj:min": "253:0", "type": "lvm", "size": 1073741824,
                         "log-sec": 512, "phy-sec": 512, "min-io": 65536, "opt-io": 458752, "alignment": 0,
                         "disc-gran": 0, "disc-max": 0, "rota": true, "ra": 128}
                      ]}
                  ]}
                ]}
                """);
        Cli.Result r = Cli.run("check", "--lsblk", lsblk.toString(), "--plan", lvm().toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        // the same disk as the layout file's: the same pvcreate
        assertThat(r.outLines().get(0)).isEqualTo(PV);
        assertThat(r.errLines()).containsExactly("dmmodel: note: " + lsblk + ": dm-0 (vg-lv, lvm) left out: lsblk"
                + " shows no dm table (a snapshot has it: bin/dmmodel-snapshot)");
        assertThat(r.out()).endsWith("under linux-6.12\n");
    }

    @Test
    void lsblk_withAnotherHost_isAUsageError() {
        Cli.Result r = Cli.run("show", "--lsblk", "a.json", "--layout", host().toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).hasSize(1);
        assertThat(r.errLines().get(0)).contains("mutually exclusive");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
