package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/dmmodel-snapshot} collects what {@code dmmodel} reads: run against a fake sysfs (the recorded
 * snapshot {@code limits-sd-512e}'s {@code block/} tree) and a stand-in {@code dmsetup} that prints the
 * recorded tables, the collected snapshot gives the same {@code limits} as the recording; on a fake RHEL 7 host
 * (Linux 3.10's queue files, an LVM without {@code lvm fullreport}) it still collects what the import needs. Needs
 * bash; skipped without it.
 */
class SnapshotScriptTest {

    private static final Path SCRIPT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize()
            .resolveSibling("bin").resolve("dmmodel-snapshot");
    private static final List<String> TOOLS = List.of("cat", "mkdir", "ls", "basename", "rm", "uname", "grep");

    private static Path bash() {
        for (String b : List.of("/bin/bash", "/usr/bin/bash")) {
            if (Files.isExecutable(Path.of(b))) {
                return Path.of(b);
            }
        }
        return null;
    }

    /** A PATH holding only the tools the script needs, plus the given stand-ins (which replace a tool). */
    private static Path toolDir(Path tmp, Map<String, String> standIns) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("tools"));
        for (String tool : TOOLS) {
            if (standIns.containsKey(tool)) {
                continue; // never a link: writing the stand-in would write through it
            }
            Path found = Stream.of("/usr/bin", "/bin").map(d -> Path.of(d, tool)).filter(Files::isExecutable)
                    .findFirst().orElse(null);
            assumeTrue(found != null, "skipped: no " + tool + " in /usr/bin or /bin");
            Files.createSymbolicLink(bin.resolve(tool), found);
        }
        for (Map.Entry<String, String> e : standIns.entrySet()) {
            Path f = bin.resolve(e.getKey());
            Files.writeString(f, e.getValue());
            assertThat(f.toFile().setExecutable(true)).isTrue();
        }
        return bin;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static int run(Path tools, Path sys, Path out, StringBuilder err) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(bash().toString(), SCRIPT.toString(), out.toString());
        pb.environment().put("PATH", tools.toString());
        pb.environment().put("DMMODEL_SYSFS", sys.toString());
        Process p = pb.start();
        p.getInputStream().readAllBytes();
        err.append(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    /**
     * Runs the script against the recorded snapshot's {@code block/} tree as sysfs and a stand-in {@code dmsetup}
     * that prints its recorded tables; returns the collected snapshot's directory.
     */
    private static Path collect(Path tmp, Path recorded) throws Exception {
        Path sys = tmp.resolve("sys");
        copyTree(recorded.resolve("block"), sys.resolve("block"));
        String dmsetup = "#!/bin/sh\ncase \"$1\" in\n  table) cat '" + recorded.resolve("dmsetup-table.txt") + "' ;;\n"
                + "  status) cat '" + recorded.resolve("dmsetup-status.txt") + "' ;;\n  *) exit 1 ;;\nesac\n";
        Path tools = toolDir(tmp, Map.of("dmsetup", dmsetup));
        Path out = tmp.resolve("snap");
        StringBuilder err = new StringBuilder();
        assertThat(run(tools, sys, out, err)).as(err.toString()).isZero();
        return out;
    }

    @Test
    void aCollectedSnapshotGivesTheRecordedLimits(@TempDir Path tmp) throws Exception {
        assumeTrue(bash() != null, "skipped: no bash");
        Path recorded = Cli.snapshot("limits-sd-512e");
        Path out = collect(tmp, recorded);
        assertThat(out.resolve("dmsetup-table.txt")).hasSameTextualContentAs(recorded.resolve("dmsetup-table.txt"));
        assertThat(out.resolve("block/sdg/queue/max_sectors_kb")).exists();
        Cli.Result fromRecording = Cli.run("limits", "--snapshot", recorded.toString(), "--kernel", "6.1");
        Cli.Result fromCollected = Cli.run("limits", "--snapshot", out.toString(), "--kernel", "6.1");
        assertThat(fromCollected.exitCode()).as(fromCollected.err()).isZero();
        assertThat(fromCollected.out()).isEqualTo(fromRecording.out());
    }

    // an md host (the recorded md-raid5-lvm: raid5 over vda-vdd, LVM on md0): the script copies block/md0/md/ with
    // each member's dev-<kname>/, and the collected snapshot gives the recorded limits, md0's derived from them
    @Test
    void anMdHostIsCollectedWithItsArrayAndMembers(@TempDir Path tmp) throws Exception {
        assumeTrue(bash() != null, "skipped: no bash");
        Path recorded = Cli.snapshot("md-raid5-lvm");
        Path out = collect(tmp, recorded);
        assertThat(out.resolve("block/md0/md/level")).hasContent("raid5");
        assertThat(out.resolve("block/md0/md/chunk_size")).hasContent("65536");
        assertThat(out.resolve("block/md0/md/dev-vdc/slot")).hasContent("2");
        assertThat(out.resolve("block/md0/md/dev-vdc/offset")).hasContent("4096");
        Cli.Result fromRecording = Cli.run("limits", "--snapshot", recorded.toString());
        Cli.Result fromCollected = Cli.run("limits", "--snapshot", out.toString());
        assertThat(fromCollected.exitCode()).as(fromCollected.err()).isZero();
        assertThat(fromCollected.out()).isEqualTo(fromRecording.out()).contains("md0");
    }

    @Test
    void refusesANonEmptyDirectoryAndWorksWithoutDmsetup(@TempDir Path tmp) throws Exception {
        assumeTrue(bash() != null, "skipped: no bash");
        Path sys = tmp.resolve("sys");
        Path disk = Files.createDirectories(sys.resolve("block/sdz/queue"));
        Files.writeString(disk.resolve("logical_block_size"), "512\n");
        Files.writeString(sys.resolve("block/sdz/dev"), "8:208\n");
        Files.writeString(sys.resolve("block/sdz/size"), "2048\n");
        Path tools = toolDir(tmp, Map.of());
        Path busy = Files.createDirectories(tmp.resolve("busy"));
        Files.writeString(busy.resolve("x"), "x");
        StringBuilder err = new StringBuilder();
        assertThat(run(tools, sys, busy, err)).isEqualTo(2);
        assertThat(err.toString()).contains("exists and is not empty");
        err.setLength(0);
        Path out = tmp.resolve("snap");
        assertThat(run(tools, sys, out, err)).as(err.toString()).isZero();
        assertThat(err.toString()).contains("dmsetup not found");
        assertThat(out.resolve("block/sdz/size")).hasContent("2048");
        assertThat(out.resolve("dmsetup-table.txt")).doesNotExist();
    }

    /** The queue files Linux 3.10 does not have, newest last. */
    private static final List<String> NEWER_THAN_310 = List.of("max_discard_segments", "discard_max_hw_bytes",
            "write_zeroes_max_bytes", "chunk_sectors", "virt_boundary_mask", "dma_alignment");

    /**
     * A RHEL 7.0-era host: uname -r 3.10.0-1160.el7.x86_64, a sysfs without the newer queue files, and LVM 2.02
     * without {@code lvm fullreport} (the stand-in refuses it as an old LVM does) but with vgcfgbackup. The script
     * leaves lvm/report.json out and says so; the import reads the vgcfgbackup file and fills the queue files in.
     */
    @Test
    void onARhel7HostWithAnOldLvmTheSnapshotHasWhatTheImportNeeds(@TempDir Path tmp) throws Exception {
        assumeTrue(bash() != null, "skipped: no bash");
        Path recorded = Cli.snapshot("ss-str-1M-at32k");
        Path sys = tmp.resolve("sys");
        copyTree(recorded.resolve("block"), sys.resolve("block"));
        for (String dev : List.of("sda", "sdb", "dm-0", "dm-1")) {
            for (String attr : NEWER_THAN_310) {
                Files.delete(sys.resolve("block").resolve(dev).resolve("queue").resolve(attr));
            }
        }
        Path vg = recorded.resolve("lvm/vg.vg");
        Map<String, String> standIns = Map.of(
                "uname", "#!/bin/sh\necho 3.10.0-1160.el7.x86_64\n",
                "dmsetup", "#!/bin/sh\ncase \"$1\" in\n  table) cat '" + recorded.resolve("dmsetup-table.txt")
                        + "' ;;\n  status) cat '" + recorded.resolve("dmsetup-status.txt")
                        + "' ;;\n  *) exit 1 ;;\nesac\n",
                "vgs", "#!/bin/sh\necho '  vg'\n",
                // vgcfgbackup -f DIR/%s.vg: one file per VG, named by the VG
                "vgcfgbackup", "#!/bin/sh\n[ \"$1\" = -f ] || exit 5\ncat '" + vg + "' > \"${2%/*}/vg.vg\"\n",
                "lvm", "#!/bin/sh\necho \"  No such command '$1'.  Try 'help'.\" >&2\nexit 3\n");
        Path tools = toolDir(tmp, standIns);
        Path out = tmp.resolve("snap");
        StringBuilder err = new StringBuilder();
        assertThat(run(tools, sys, out, err)).as(err.toString()).isZero();
        assertThat(err.toString()).contains("dmmodel-snapshot: lvm fullreport --reportformat json failed (LVM before"
                + " 2.02.158 has neither, or not root?): no lvm/report.json; the lvm/*.vg files describe the volume"
                + " groups");
        assertThat(out.resolve("lvm/report.json")).doesNotExist();
        assertThat(out.resolve("lvm/vg.vg")).hasSameTextualContentAs(vg);
        assertThat(out.resolve("kernel-release")).hasContent("3.10.0-1160.el7.x86_64");
        assertThat(out.resolve("block/sda/queue/virt_boundary_mask")).doesNotExist();
        assertThat(out.resolve("block/sda/queue/max_segments")).exists();

        HostSnapshot host = HostSnapshot.read(out);
        assertThat(host.volumeGroups()).extracting(VolumeGroup::name).containsExactly("vg");
        assertThat(host.lvmProblems()).isEmpty();
        Cli.Result limits = Cli.run("limits", "--snapshot", out.toString());
        assertThat(limits.exitCode()).as(limits.err()).isZero();
        // two disks x six attributes, each said once
        assertThat(limits.errLines()).hasSize(12).allMatch(l -> l.startsWith("dmmodel: note: sd"))
                .contains("dmmodel: note: sdb: queue/chunk_sectors not in the snapshot (Linux 3.10 has no"
                        + " chunk_sectors limit before 3.16 and no such file before 4.10); using 0");
    }

    /**
     * The script runs under RHEL 7's bash 4.2: none of what later versions brought (4.3: {@code declare -n},
     * {@code local -n}, {@code wait -n}, negative array subscripts; 4.4: {@code ${var@Q}}, {@code mapfile -d}; 5:
     * {@code $EPOCHSECONDS}), and no arrays at all, since an empty one under {@code set -u} is an error before 4.4.
     */
    @Test
    void theScriptUsesNothingNewerThanBash42() throws IOException {
        List<String> lines = Files.readAllLines(SCRIPT);
        Map<String, Pattern> newer = Map.of(
                "${var@...} (4.4)", Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]*@"),
                "mapfile/readarray -d (4.4)", Pattern.compile("\\b(mapfile|readarray)\\b.*-d"),
                "declare/local -n (4.3)", Pattern.compile("\\b(declare|local|typeset)\\s+-[a-zA-Z]*n"),
                "wait -n (4.3)", Pattern.compile("\\bwait\\s+-n"),
                "EPOCHSECONDS/EPOCHREALTIME (5.0)", Pattern.compile("EPOCH(SECONDS|REALTIME)"),
                "an array", Pattern.compile("\\b[A-Za-z_][A-Za-z0-9_]*=\\("
                        + "|\\$\\{[A-Za-z_][A-Za-z0-9_]*\\[|\\b(declare|local)\\s+-[a-zA-Z]*[aA]"));
        List<String> found = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.stripLeading().startsWith("#")) {
                continue;
            }
            for (Map.Entry<String, Pattern> e : newer.entrySet()) {
                if (e.getValue().matcher(line).find()) {
                    found.add("line " + (i + 1) + ": " + e.getKey() + ": " + line.strip());
                }
            }
        }
        assertThat(lines).as("the script").hasSizeGreaterThan(50);
        assertThat(found).as("bash after 4.2 in %s", SCRIPT).isEmpty();
        // the patterns do find what they are for
        assertThat(newer.get("${var@...} (4.4)").matcher("echo ${out@Q}").find()).isTrue();
        assertThat(newer.get("an array").matcher("devs=(a b)").find()).isTrue();
        assertThat(newer.get("declare/local -n (4.3)").matcher("  local -n ref=x").find()).isTrue();
    }
}
