package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShowCommandTest {

    @Test
    void tree_partitionsWithStartSizeAlignment_misalignedMarked() {
        Cli.Result r = Cli.run("show", "--snapshot", Cli.snapshot("limits-sd-512e").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith("""
                NAME                    MAJ:MIN  START  SECTORS  ALIGN  DETAILS
                sdg                     8:96         -   131072      0  disk: lbs 512, pbs 4096, io_min 4096, io_opt 0
                `-sdg1                  8:97        63   131009  ! 512  partition 1 of sdg
                  |-dm-0 (lin63)        253:0        -   131009  ! 512  linear sdg1 0
                  `-dm-2 (strparts)     253:2        -   258048   ! -1  striped 2 128 sdg1 0 sdh1 0
                sdh                     8:112        -   131072      0  disk: lbs 512, pbs 4096, io_min 4096, io_opt 0
                `-sdh1                  8:113     2048   129024      0  partition 1 of sdh
                  |-dm-1 (lin2048)      253:1        -   129024      0  linear sdh1 0
                  `-dm-2 (strparts)     253:2        -   258048   ! -1  striped 2 128 sdg1 0 sdh1 0
                """);
        assertThat(r.out()).contains("""
                |-dm-4 (tmeta64k)       253:4        -     8192      0  linear sdk 0
                | `-dm-6 (pool64k)      253:6        -    32768      0  thin-pool dm-4 dm-5 128 0 0
                |   `-dm-7 (thin64k)    253:7        -    65536      0  thin dm-6 0
                """);
        assertThat(r.out()).endsWith("kernel linux-6.1 (kernel-release 6.1.0-57-amd64); ! = not aligned:"
                + " alignment_offset is not 0 (-1: the kernel could not reconcile the alignments below)\n");
    }

    @Test
    void underKernel612_strpartsIsOffsetNotMisaligned() {
        Cli.Result r = Cli.run("show", "--snapshot", Cli.snapshot("limits-sd-512e").toString(), "--kernel", "6.12");
        assertThat(r.out()).contains("`-dm-2 (strparts)     253:2        -   258048  ! 512  striped 2 128 sdg1 0 sdh1 0");
    }

    @Test
    void multiTargetTable() {
        Cli.Result r = Cli.run("show", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("`-dm-1 (vg-span)     253:1        -    32768      0  linear sda 165888; linear sdb 247808\n");
        assertThat(r.out()).doesNotContain("!");
    }

    @Test
    void svg_toAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path out = tmp.resolve("stack.svg");
        Cli.Result r = Cli.run("show", "--snapshot", Cli.snapshot("limits-sd-512e").toString(), "--format", "svg",
                "-o", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEmpty();
        org.w3c.dom.Document d = PictureRendererTest.parse(java.nio.file.Files.readString(out));
        // 5 disks, 2 partitions, 16 dm devices: strparts on 2 partitions, strdisks on 2 disks, 3 pools on 2
        // devices each: 5 + 2 + 16 + 1 + 1 + 3 = 28 boxes
        assertThat(PictureRendererTest.elements(d, "rect")).hasSize(28);
        assertThat(PictureRendererTest.elements(d, "line")).extracting(e -> e.getTextContent().replaceAll(".*\\(", ""))
                .containsExactlyInAnyOrder("align.partition.physical-block)", "align.device.offset)",
                        "align.device.misaligned)");
    }

    @Test
    void svg_toStandardOutput() throws Exception {
        Cli.Result r = Cli.run("show", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--format", "svg");
        assertThat(r.exitCode()).as(r.err()).isZero();
        org.w3c.dom.Document d = PictureRendererTest.parse(r.out());
        // sda, sdb; vg-striped once on each; vg-span on sda and on sdb
        assertThat(PictureRendererTest.elements(d, "rect")).hasSize(6);
        assertThat(PictureRendererTest.elements(d, "line")).isEmpty();
    }

    @Test
    void output_unwritable(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        java.nio.file.Path out = tmp.resolve("no-such-dir").resolve("x.svg");
        Cli.Result r = Cli.run("show", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--format", "svg",
                "--output", out.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).singleElement().asString().startsWith("dmmodel: --output " + out
                + ": cannot write the file: ");
    }

    @Test
    void aRhel7SnapshotIsShownWithItsImportNotesOnStderr(@TempDir Path tmp) throws IOException {
        Cli.Result r = Cli.run("show", "--snapshot", LimitsCommandTest.asRhel7(tmp).toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("NAME ").endsWith("kernel linux-3.10 (kernel-release 3.10.0-1160.el7.x86_64);"
                + " ! = not aligned: alignment_offset is not 0 (-1: the kernel could not reconcile the alignments"
                + " below)\n");
        assertThat(r.errLines()).hasSize(30).contains("dmmodel: note: sdh: queue/write_zeroes_max_bytes not in the"
                + " snapshot (Linux 3.10 has no REQ_OP_WRITE_ZEROES and no such file before 4.10); using 0");
    }
}
