package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's and docs/cli.md's command-line examples run on the snapshots the project ships in
 * {@code docs/examples/snapshots} (a user's clone has no {@code ../shared}) and print what the README shows.
 */
class ShippedExamplesTest {

    /** The project's docs/examples folder (tests run in the cli module's directory). */
    private static Path examples(String rest) {
        Path p = Path.of("..", "docs", "examples").resolve(rest).toAbsolutePath().normalize();
        assertThat(Files.isDirectory(p) || Files.isRegularFile(p)).as(p.toString()).isTrue();
        return p;
    }

    @Test
    void readmeCheckOfTheRaidPartitionAtSector63() {
        Cli.Result r = Cli.run("check", "--snapshot", examples("snapshots/lp-raid-part63-4M-lv-direct64k").toString());
        // README: seed 003's story — sda1 at 63 on a 7+1 RAID 5 with 64 KiB chunks (full stripe 448 KiB = 896 s);
        // the data area at 63 + 2753 = 2816 lies 2816 - 3 x 896 = 128 sectors (65536 bytes) into a stripe
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("WARNING align.partition.io-min [sda1]",
                "fix: recreate sda1 at sector 2688 (a multiple of 448KiB)",
                "starts at sector 2816 of the disk (pe_start 2753 + partition start 63), 65536 bytes past a 448KiB",
                "fix: pvcreate --dataalignment 448k --dataalignmentoffset 833s /dev/sda1 (pe_start 3521)",
                "INFO lvm.vg.extent-size-full-stripe [vg]",
                "3 findings (0 errors, 2 warnings, 1 info) under linux-6.1");
    }

    @Test
    void readmeTraceOfAStripedWriteAt32k() {
        Cli.Result r = Cli.run("trace", "--snapshot", examples("snapshots/ss-str-1M-at32k").toString(), "--format",
                "text", "--workload",
                "dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 seek=32768 oflag=direct,seek_bytes");
        // 32 KiB = LV sector 64; the first 64 sectors go to the first stripe (chunk 128 sectors) before the split
        assertThat(r.exitCode()).isZero();
        assertThat(r.outLines()).startsWith(
                "      0 dm-0     block_bio_queue      WS   64 + 2048",
                "      1 sda      block_bio_remap      WS   2112 + 64  from=dm-0:64",
                "      2 sda      block_bio_queue      WS   2112 + 64",
                "      3 dm-0     block_split          WS   128  new_sector=128");
    }

    @Test
    void everyShippedSnapshotGivesItsLimits() {
        for (String name : new String[] {"limits-sd-512e", "lp-raid-part63-4M-lv-direct64k", "ss-str-1M-at32k",
                "thin-lvm-zy-direct1M"}) {
            Cli.Result r = Cli.run("limits", "--snapshot", examples("snapshots/" + name).toString());
            assertThat(r.exitCode()).as(name + ": " + r.err()).isZero();
        }
        assertThat(examples("workloads/ss-str-1M-at32k-setup.txt")).isRegularFile();
        assertThat(examples("workloads/ss-str-1M-at32k-workload.txt")).isRegularFile();
    }

    @Test
    void everyShippedHostBuilds() throws java.io.IOException {
        Path hosts = Path.of("..", "examples", "hosts").toAbsolutePath().normalize();
        int n = 0;
        try (java.util.stream.Stream<Path> files = Files.list(hosts)) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                String option = Files.isDirectory(p.resolve("block")) ? "--snapshot"
                        : name.endsWith(".yaml") ? "--layout" : name.endsWith(".json") ? "--lsblk" : null;
                if (option != null) {
                    Cli.Result r = Cli.run("show", option, p.toString());
                    assertThat(r.exitCode()).as(name + ": " + r.err()).isZero();
                    n++;
                }
            }
        }
        // blank-nvme, blank-raid5, blank-sata, nvme-lvm512, raid5-part63, seed-004-thin, seed003-lsblk
        assertThat(n).isEqualTo(7);
    }
}
