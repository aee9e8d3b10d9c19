package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {

    /** Each command's arguments besides the snapshot, so that only the snapshot or kernel can be wrong. */
    private static List<String> argsOf(String command) {
        return switch (command) {
            case "trace" -> List.of("--workload", "sync");
            case "export" -> List.of("--to", "dm-tables");
            default -> List.of();
        };
    }

    private static String[] args(String command, String... more) {
        List<String> a = new ArrayList<>();
        a.add(command);
        a.addAll(List.of(more));
        a.addAll(argsOf(command));
        return a.toArray(String[]::new);
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void everyCommandHasHelpWithAnExample(String command) {
        Cli.Result r = Cli.run(command, "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("\nUsage: dmmodel " + command + " [-hV]").contains("\nExample:\n  dmmodel " + command + " ");
        assertThat(r.out().lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        // the example is not wrapped: every line after "Example:" is indented
        String example = r.out().substring(r.out().indexOf("\nExample:\n") + "\nExample:\n".length());
        assertThat(example.lines()).allSatisfy(l -> assertThat(l).as("wrapped example line").matches("(  .*)?"));
        assertThat(Cli.run("help", command).out()).isEqualTo(r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void malformedSnapshot_isExit2WithTheSnapshotMessage(String command, @TempDir Path tmp) {
        Path copy = Cli.copyOf("ss-str-1M-at32k", tmp);
        Path table = Cli.write(copy.resolve("dmsetup-table.txt"), "vg-striped: 0 131072 striped 2 128 8:0 2048 9:9 2048\n");
        Cli.Result r = Cli.run(args(command, "--snapshot", copy.toString()));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).singleElement().asString()
                .startsWith("dmmodel: " + table + " line 1: found device 9:9, which no block/ dev file records");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void missingFile_namesIt(String command, @TempDir Path tmp) throws Exception {
        Path copy = Cli.copyOf("ss-str-1M-at32k", tmp);
        java.nio.file.Files.delete(copy.resolve("block/sda/dev"));
        Cli.Result r = Cli.run(args(command, "--snapshot", copy.toString()));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).singleElement().asString()
                .startsWith("dmmodel: " + copy.resolve("block/sda/dev") + ": found no file; expected");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void unknownKernel(String command) {
        // --kernel takes a preset's name or any release (4.19 is one); text that is neither is refused
        Cli.Result r = Cli.run(args(command, "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--kernel",
                "bullseye"));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly("dmmodel: unknown kernel 'bullseye': neither a profile (7.2, 6.12,"
                + " 6.1, 5.10, 3.10, 2.6.32, 2.6.0) nor a release such as 6.1.0-57-amd64 (as uname -r prints it)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void aReleaseStringIsAKernelAndEveryCommandNotesTheComposedProfile(String command) {
        Cli.Result r = Cli.run(args(command, "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--kernel",
                "4.18.0-553.el8_10.x86_64"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.errLines()).contains("dmmodel: note: kernel linux-4.18: Linux 4.18 (uname -r"
                + " 4.18.0-553.el8_10.x86_64; RHEL 8: upstream 4.18's rules, but RHEL backports block-layer changes"
                + " (RHEL 8 runs blk-mq only, as upstream does from 5.0, and takes later block and device-mapper"
                + " changes), so a RHEL 8 host can behave like a newer kernel in places): upstream 4.18's rules, each"
                + " as of its latest change at or before 4.18");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void aPresetNeedsNoNote(String command) {
        Cli.Result r = Cli.run(args(command, "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--kernel",
                "6.1.0-57-amd64"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.errLines()).noneMatch(l -> l.startsWith("dmmodel: note: kernel "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void missingSnapshotDirectory(String command, @TempDir Path tmp) {
        Path missing = tmp.resolve("nope");
        Cli.Result r = Cli.run(args(command, "--snapshot", missing.toString()));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly(
                "dmmodel: " + missing + ": found nothing; expected a snapshot directory holding block/");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void aLayoutFileThatDoesNotExist_isBadInput(String command) {
        Cli.Result r = Cli.run(args(command, "--layout", "no-such-stack.yaml"));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly("dmmodel: no-such-stack.yaml:1:1: no such file; expected a layout file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limits", "trace", "check", "export", "show", "report"})
    void noSnapshot_isAUsageError(String command) {
        Cli.Result r = Cli.run(args(command));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly("dmmodel: Missing required argument (specify one of these):"
                + " (--snapshot=DIR [--snapshot=DIR]... | --snapshots=DIR | --layout=FILE | --lsblk=FILE) (see 'dmmodel "
                + command + " --help')");
    }

    @Test
    void noCommand() {
        Cli.Result r = Cli.run();
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly(
                "dmmodel: missing a command: one of limits, trace, check, export, show, report (see 'dmmodel --help')");
    }

    @Test
    void unknownCommand() {
        Cli.Result r = Cli.run("lsblk");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly(
                "dmmodel: unknown command 'lsblk' (known: limits, trace, check, export, show, report, help) (see 'dmmodel --help')");
    }

    @Test
    void unknownOption() {
        Cli.Result r = Cli.run("limits", "--snapshot", "x", "--colour");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly("dmmodel: Unknown option: '--colour' (see 'dmmodel limits --help')");
    }

    @Test
    void topLevelHelpAndVersion() {
        Cli.Result help = Cli.run("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).startsWith("Usage: dmmodel").contains("Commands:", "limits", "trace", "check",
                "export", "show", "Exit codes:");
        Cli.Result version = Cli.run("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("dmmodel ");
    }
}
