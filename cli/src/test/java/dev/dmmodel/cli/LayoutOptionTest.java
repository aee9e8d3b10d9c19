package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --layout FILE} on every command, and {@code export --to layout}. */
class LayoutOptionTest {

    /** docs/examples of the repository, from the module directory. */
    private static Path example(String name) {
        return Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("examples").resolve(name);
    }

    private static List<String> withoutFirstLine(String text) {
        List<String> lines = text.lines().toList();
        return lines.subList(1, lines.size());
    }

    /**
     * A snapshot exported as a layout file and read back with --layout gives the limits --snapshot gives, device
     * for device (the first line says why the kernel: kernel-release for the snapshot, kernel: for the file).
     */
    @ParameterizedTest
    @ValueSource(strings = {"ss-str-1M-at32k", "limits-sd-512e"})
    void aSnapshotExportedAsALayoutGivesTheSameLimits(String name, @TempDir Path tmp) {
        String snap = Cli.snapshot(name).toString();
        Cli.Result exported = Cli.run("export", "--snapshot", snap, "--to", "layout");
        assertThat(exported.exitCode()).as(exported.err()).isZero();
        assertThat(exported.out()).startsWith("# dmmodel layout file (docs/layout-format.md)\nversion: 1\n");
        Path file = Cli.write(tmp.resolve(name + ".yaml"), exported.out());
        Cli.Result fromSnapshot = Cli.run("limits", "--format", "text", "--snapshot", snap);
        Cli.Result fromFile = Cli.run("limits", "--format", "text", "--layout", file.toString());
        assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
        assertThat(withoutFirstLine(fromFile.out())).isEqualTo(withoutFirstLine(fromSnapshot.out()));
        assertThat(fromFile.outLines().get(0)).startsWith("# kernel linux-")
                .contains("(kernel: ").contains(" in " + file + ")");
        // and the same dm tables
        assertThat(Cli.run("export", "--layout", file.toString(), "--to", "dm-tables").out())
                .isEqualTo(Cli.run("export", "--snapshot", snap, "--to", "dm-tables").out());
        // exporting the file again writes the same file
        assertThat(Cli.run("export", "--layout", file.toString(), "--to", "layout").out()).isEqualTo(exported.out());
    }

    @Test
    void theKernelComesFromTheFileUnlessKernelOverridesIt() {
        String file = example("striped-lv.yaml").toString();
        Cli.Result r = Cli.run("limits", "--format", "text", "--layout", file);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.outLines().get(0)).isEqualTo("# kernel linux-6.1 (kernel: 6.1 in " + file
                + "); partitions and dm devices computed");
        Cli.Result o = Cli.run("limits", "--format", "text", "--layout", file, "--kernel", "6.12");
        assertThat(o.exitCode()).as(o.err()).isZero();
        assertThat(o.outLines().get(0)).isEqualTo("# kernel linux-6.12 (--kernel 6.12, overriding kernel: 6.1 of "
                + file + "); partitions and dm devices computed");
    }

    @Test
    void aFileWithoutKernelTakesTheDefault(@TempDir Path tmp) {
        Path file = Cli.write(tmp.resolve("s.yaml"), "version: 1\nsteps:\n  - {disk: sda, preset: loop, size: 1GiB}\n");
        Cli.Result r = Cli.run("limits", "--format", "text", "--layout", file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.outLines().get(0)).isEqualTo("# kernel linux-6.12 (default; " + file
                + " has no kernel:); partitions and dm devices computed");
        // loop preset: 255-sector hardware limit, 128 segments of 64 KiB
        assertThat(r.out()).contains("sda (disk, 7:0, 2097152 sectors)").containsPattern("max_hw_sectors_kb +127\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"show", "check", "limits"})
    void everyCommandTakesALayoutFile(String command) {
        Cli.Result r = Cli.run(command, "--layout", example("thin-pool.yaml").toString());
        assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
        assertThat(r.out()).isNotEmpty();
    }

    @Test
    void traceTakesALayoutFile() {
        Cli.Result r = Cli.run("trace", "--layout", example("raid-partition-lvm.yaml").toString(), "--workload",
                "dd if=/dev/vg0/test of=/dev/null bs=1M count=1 iflag=direct");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isNotEmpty();
    }

    @Test
    void lvmMetadataOfALayoutFile(@TempDir Path tmp) {
        Cli.Result r = Cli.run("export", "--layout", example("raid-partition-lvm.yaml").toString(), "--to",
                "lvm-metadata");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // sda1 is 1400 GB less the 63 sectors before it; whole 4 MiB extents after pe_start; 100 GiB = 25600 extents
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("pe_start = (\\d+)").matcher(r.out());
        assertThat(m.find()).isTrue();
        long peStart = Long.parseLong(m.group(1));
        assertThat(r.out()).contains("vg0 {", "dev_size = 2734374937", "pe_count = " + (2_734_374_937L - peStart) / 8192,
                "extent_count = 25600");
        Path noVg = Cli.write(tmp.resolve("disk.yaml"), "version: 1\nsteps: [{disk: sda, preset: loop, size: 1GiB}]\n");
        Cli.Result none = Cli.run("export", "--layout", noVg.toString(), "--to", "lvm-metadata");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.errLines()).containsExactly(
                "dmmodel: the layout file has no LVM volume group (no vgcreate or import_vg step)");
    }

    @Test
    void aBadFileIsExit2WithFileLineAndColumn(@TempDir Path tmp) {
        Path file = Cli.write(tmp.resolve("bad.yaml"), "version: 1\nsteps:\n  - disk: sda\n    preset: ahci-sata\n"
                + "    size: 1GiB\n    rotatinal: true\n");
        Cli.Result r = Cli.run("limits", "--format", "text", "--layout", file.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).hasSize(1);
        assertThat(r.errLines().get(0)).startsWith("dmmodel: " + file + ":6:5: unknown key 'rotatinal' in a disk step; "
                + "expected one of disk, preset, size, dev, logical_block_size,").contains("rotational");
    }

    @Test
    void aStepTheModelRefusesIsExit2AtThatStep(@TempDir Path tmp) {
        Path file = Cli.write(tmp.resolve("big.yaml"), "version: 1\nsteps:\n  - disk: sda\n    preset: ahci-sata\n"
                + "    size: 1GiB\n  - partition_table: sda\n    type: gpt\n    partitions: [{start: 2048s, size: 2GiB}]\n");
        Cli.Result r = Cli.run("show", "--layout", file.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).hasSize(1);
        assertThat(r.errLines().get(0)).startsWith("dmmodel: " + file + ":6:5: a step the model refuses (");
    }
}
