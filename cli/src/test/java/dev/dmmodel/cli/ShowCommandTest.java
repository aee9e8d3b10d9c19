package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
    void svg_isNotAvailableYet() {
        Cli.Result r = Cli.run("show", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--format", "svg");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly("dmmodel: --format svg: not available yet");
    }
}
