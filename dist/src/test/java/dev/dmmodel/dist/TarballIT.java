package dev.dmmodel.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dmmodel.limits.KernelProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball as an operator installs it: unpacked with {@code tar} into a temporary directory, then
 * {@code bin/dmmodel} run from there (so it must find {@code lib/dmmodel-cli.jar}, not a clone's
 * {@code cli/target}), the completion scripts and the man pages read.
 */
class TarballIT {
    private static final Path TARBALL = Path.of(System.getProperty("dmmodel.tarball", "target/missing.tar.gz"));
    private static final String NAME = System.getProperty("dmmodel.dist.name", "dmmodel");
    private static final String VERSION = System.getProperty("dmmodel.version", "");
    private static final List<String> COMMANDS = List.of("limits", "trace", "check", "export", "show");

    @TempDir
    static Path unpacked;
    private static Path root;

    record Run(int exitCode, String out, String err) {
    }

    @BeforeAll
    static void unpack() throws Exception {
        assertThat(TARBALL).isRegularFile();
        Run tar = run(unpacked, "tar", "-xzf", TARBALL.toString(), "-C", unpacked.toString());
        assertThat(tar.exitCode()).as(tar.err()).isZero();
        root = unpacked.resolve(NAME);
    }

    private static Run run(Path dir, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        Path out = Files.createTempFile("dist-out", ".txt");
        Path err = Files.createTempFile("dist-err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(
                new java.io.File("/dev/null")));
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s finished", List.of(command)).isTrue();
        try {
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }

    @Test
    void layout() throws IOException {
        assertThat(root.resolve("bin/dmmodel")).isRegularFile();
        assertThat(root.resolve("lib/dmmodel-cli.jar")).isRegularFile();
        assertThat(root.resolve("share/bash-completion/completions/dmmodel")).isRegularFile();
        assertThat(root.resolve("share/zsh/site-functions/_dmmodel")).isRegularFile();
        assertThat(root.resolve("share/man/man1/dmmodel.1")).isRegularFile();
        for (String c : COMMANDS) {
            assertThat(root.resolve("share/man/man1/dmmodel-" + c + ".1")).isRegularFile();
        }
        assertThat(root.resolve("LICENSE")).content(StandardCharsets.UTF_8).contains("Apache License",
                "Version 2.0, January 2004", "APPENDIX: How to apply the Apache License to your work.");
        assertThat(root.resolve("README.md")).isRegularFile();
        assertThat(root.resolve("CHANGELOG.md")).isRegularFile();
        // everything under one top directory, dmmodel-VERSION
        try (Stream<Path> top = Files.list(unpacked)) {
            assertThat(top.map(p -> p.getFileName().toString())).containsExactly(NAME);
        }
    }

    @Test
    void launcherIsExecutable() throws IOException {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(root.resolve("bin/dmmodel"));
        assertThat(perms).contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE,
                PosixFilePermission.OTHERS_EXECUTE);
        assertThat(Files.isExecutable(root.resolve("bin/dmmodel"))).isTrue();
    }

    @Test
    void versionNamesTheReleaseAndEveryKernelProfile() throws Exception {
        Run r = run(unpacked, "bash", root.resolve("bin/dmmodel").toString(), "--version");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("dmmodel " + VERSION + "\n").contains("kernel profiles: ");
        for (KernelProfile p : KernelProfile.presets()) {
            assertThat(r.out()).contains(p.name());
        }
    }

    @Test
    void runsACommandFromTheUnpackedTree() throws Exception {
        Run r = run(unpacked, root.resolve("bin/dmmodel").toString(), "limits", "--help");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("\nUsage: dmmodel limits ");
    }

    @Test
    void bashCompletionCompletesDmmodel() throws Exception {
        String script = Files.readString(root.resolve("share/bash-completion/completions/dmmodel"));
        assertThat(script).containsPattern("(?m)^complete -F \\S+ .*\\bdmmodel\\b");
        for (String c : COMMANDS) {
            assertThat(script).contains(c);
        }
        // the script is valid bash, and once sourced the completion is registered
        Run bash = run(unpacked, "bash", "-c", "source \"$1\" && complete -p dmmodel", "bash",
                root.resolve("share/bash-completion/completions/dmmodel").toString());
        assertThat(bash.exitCode()).as(bash.err()).isZero();
        assertThat(bash.out()).contains("dmmodel");
    }

    @Test
    void zshCompletionWrapsTheBashOne() throws Exception {
        String zsh = Files.readString(root.resolve("share/zsh/site-functions/_dmmodel"));
        assertThat(zsh).startsWith("#compdef dmmodel\n").contains("bashcompinit")
                .contains(Files.readString(root.resolve("share/bash-completion/completions/dmmodel")));
    }

    @Test
    void manPagesAreTroffAndNameTheCommands() throws Exception {
        String page = Files.readString(root.resolve("share/man/man1/dmmodel.1"));
        assertThat(page.startsWith(".TH") || page.startsWith("'\\\" t")).as(page.substring(0, 80)).isTrue();
        assertThat(page).contains(".TH \"DMMODEL\" \"1\" \"" + System.getProperty("dmmodel.dist.date", "") + "\"");
        for (String c : COMMANDS) {
            assertThat(page).contains(c);
            String sub = Files.readString(root.resolve("share/man/man1/dmmodel-" + c + ".1"));
            assertThat(sub).contains(".TH \"DMMODEL\\-" + c.toUpperCase(java.util.Locale.ROOT) + "\" \"1\"");
        }
    }

    @Test
    void manRendersThePages() throws Exception {
        assumeTrue(run(unpacked, "sh", "-c", "command -v man").exitCode() == 0, "no man on this machine");
        for (String page : Stream.concat(Stream.of("dmmodel"), COMMANDS.stream().map(c -> "dmmodel-" + c)).toList()) {
            Run man = run(unpacked, "env", "MANWIDTH=80", "MAN_KEEP_FORMATTING=0", "man", "-l",
                    root.resolve("share/man/man1/" + page + ".1").toString());
            assertThat(man.exitCode()).as(page + ": " + man.err()).isZero();
            assertThat(man.err()).as(page).doesNotContainIgnoringCase("warning").doesNotContainIgnoringCase("error");
            // man writes bold as "N\bN" (overstrike) when not on a terminal
            String text = man.out().replaceAll(".\b", "");
            assertThat(text).as(page).contains("NAME", "SYNOPSIS", "DESCRIPTION");
        }
    }
}
