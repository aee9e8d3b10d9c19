package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/dmmodel-snapshot} collects what {@code dmmodel} reads: run against a fake sysfs (the recorded
 * snapshot {@code limits-sd-512e}'s {@code block/} tree) and a stand-in {@code dmsetup} that prints the
 * recorded tables, the collected snapshot gives the same {@code limits} as the recording. Needs bash; skipped
 * without it.
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

    /** A PATH holding only the tools the script needs, plus the given stand-ins. */
    private static Path toolDir(Path tmp, Map<String, String> standIns) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("tools"));
        for (String tool : TOOLS) {
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

    @Test
    void aCollectedSnapshotGivesTheRecordedLimits(@TempDir Path tmp) throws Exception {
        assumeTrue(bash() != null, "skipped: no bash");
        Path recorded = Cli.snapshot("limits-sd-512e");
        Path sys = tmp.resolve("sys");
        copyTree(recorded.resolve("block"), sys.resolve("block"));
        String dmsetup = "#!/bin/sh\ncase \"$1\" in\n  table) cat '" + recorded.resolve("dmsetup-table.txt") + "' ;;\n"
                + "  status) cat '" + recorded.resolve("dmsetup-status.txt") + "' ;;\n  *) exit 1 ;;\nesac\n";
        Path tools = toolDir(tmp, Map.of("dmsetup", dmsetup));
        Path out = tmp.resolve("snap");
        StringBuilder err = new StringBuilder();
        assertThat(run(tools, sys, out, err)).as(err.toString()).isZero();
        assertThat(out.resolve("dmsetup-table.txt")).hasSameTextualContentAs(recorded.resolve("dmsetup-table.txt"));
        assertThat(out.resolve("block/sdg/queue/max_sectors_kb")).exists();
        Cli.Result fromRecording = Cli.run("limits", "--snapshot", recorded.toString(), "--kernel", "6.1");
        Cli.Result fromCollected = Cli.run("limits", "--snapshot", out.toString(), "--kernel", "6.1");
        assertThat(fromCollected.exitCode()).as(fromCollected.err()).isZero();
        assertThat(fromCollected.out()).isEqualTo(fromRecording.out());
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
}
