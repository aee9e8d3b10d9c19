package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code bin/dmmodel} (bash, {@code java -jar cli/target/dmmodel-cli.jar}): an integration test, run by
 * failsafe in {@code verify} after {@code package} has built the shaded jar, so a missing or stale jar fails.
 */
class LauncherIT {

    private static final Path MODULE = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    private static final Path LAUNCHER = MODULE.resolveSibling("bin").resolve("dmmodel");
    private static final Path JAR = MODULE.resolve("target").resolve("dmmodel-cli.jar");

    private record Run(int exitCode, String out, String err) {
    }

    private static void assumeLauncherRuns() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
                "skipped: no bash");
        assertThat(LAUNCHER).as("the launcher").isRegularFile();
        assertThat(JAR).as("the shaded jar that package builds").isRegularFile();
        Path main = MODULE.resolve("target/classes/dev/dmmodel/cli/Main.class");
        assertThat(Files.getLastModifiedTime(JAR).toInstant())
                .as("%s is not older than target/classes", JAR)
                .isAfterOrEqualTo(Files.getLastModifiedTime(main).toInstant());
    }

    private static Run run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("bash");
        command.add(LAUNCHER.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void launcherRunsTheShadedJar() throws Exception {
        assumeLauncherRuns();
        Run r = run("limits", "--snapshot", Cli.snapshot("limits-sd-512e").toString(), "--kernel", "6.1");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("{\"devices\": {").contains("\n  \"dm-2\": {\"alignment_offset\": -1, ");
        // the shaded jar finds dmmodel-impl through META-INF/services and logs nothing (slf4j-nop)
        assertThat(r.err()).isEmpty();
    }

    @Test
    void launcherPassesTheExitCode() throws Exception {
        assumeLauncherRuns();
        Run r = run("limits", "--snapshot", "/no/such/snapshot");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("dmmodel: /no/such/snapshot: found nothing; expected a snapshot directory holding block/\n");
    }
}
