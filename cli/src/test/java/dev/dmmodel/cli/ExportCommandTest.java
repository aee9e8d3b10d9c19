package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ExportCommandTest {

    /** The tables dmmodel writes are the host's own {@code dmsetup table} (trailing blanks aside). */
    @ParameterizedTest
    @ValueSource(strings = {"ss-str-1M-at32k", "limits-sd-512e"})
    void dmTables_areTheRecordedDmsetupTable(String name) throws IOException {
        Path snap = Cli.snapshot(name);
        Cli.Result r = Cli.run("export", "--snapshot", snap.toString(), "--to", "dm-tables");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().toList()).containsExactlyElementsOf(
                Files.readString(snap.resolve("dmsetup-table.txt")).lines().map(String::stripTrailing).toList());
    }

    @Test
    void dmTables_striped() {
        Cli.Result r = Cli.run("export", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--to", "dm-tables");
        assertThat(r.out()).isEqualTo("""
                vg-span: 0 16384 linear 8:0 165888
                vg-span: 16384 16384 linear 8:16 247808
                vg-striped: 0 131072 striped 2 128 8:0 2048 8:16 2048
                """);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lvm-commands", "lvm-metadata"})
    void lvmTargets_areNotAvailableYet(String target) {
        Cli.Result r = Cli.run("export", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--to", target);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly("dmmodel: --to " + target + ": not available yet");
    }

    @Test
    void unknownTarget() {
        Cli.Result r = Cli.run("export", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--to", "fstab");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly(
                "dmmodel: --to: expected one of dm-tables, lvm-commands, lvm-metadata, found 'fstab'");
    }

    @Test
    void missingTo() {
        Cli.Result r = Cli.run("export", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly(
                "dmmodel: Missing required option: '--to=TARGET' (see 'dmmodel export --help')");
    }
}
