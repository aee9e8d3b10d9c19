package dev.dmmodel.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Seed003RaidPartitionLvmTest {

    @Test
    void the2003StackPutsTheLvAtDiskSector447AndKnowsNothingOfTheStripe() {
        var layout = Seed003RaidPartitionLvm.as2003();
        // LVM2 2.00: metadata after the 2 KiB label, end rounded up to 64 KiB -> pe_start 384 sectors
        assertThat(layout.physicalVolume("sda1").orElseThrow().peStart().count()).isEqualTo(384);
        assertThat(layout.dmsetupTable()).isEqualTo("vg0-test: 0 209715200 linear 8:1 384\n");
        // 3w-xxxx: 62 scatter-gather entries, 256 sectors per request
        assertThat(layout.limits("/dev/vg0/test").maxSegments()).isEqualTo(62);
        assertThat(layout.limits("/dev/vg0/test").maxSectors()).isEqualTo(256);
        assertThat(layout.findings()).isEmpty();
    }

    @Test
    void todaysKernelSeesTheChunkAndTheStripe() {
        var layout = Seed003RaidPartitionLvm.asToday();
        assertThat(layout.limits("sda1").sysfsAlignmentOffset()).isEqualTo(33280);
        assertThat(layout.physicalVolume("sda1").orElseThrow().peStart().count()).isEqualTo(2753);
        assertThat(layout.findings()).extracting(f -> f.id()).containsExactly("align.partition.io-min",
                "align.pv.full-stripe", "lvm.vg.extent-size-full-stripe");
    }

    @Test
    void theExamplePrintsTheLayoutLimitsAndFindings() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Seed003RaidPartitionLvm.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        // 1400 GB = 1.4e12 bytes = 2,734,375,000 sectors; sda1 from sector 63 to the end: 2,734,374,937 sectors.
        // LVM2 2.00 put pe_start at 384 (seed 000, the same 3ware + LVM2 on sda1: the partition's sequential write
        // starts at disk sector 63, the LV's at 447 = 63 + 384). pe_count = (2,734,374,937 - 384) / 8192-sector
        // (4 MiB) extents = 333,785 (remainder 7833).
        // 447 is 447 mod 128 = 63 sectors into a 64 KiB chunk and 447 mod 896 = 447 into the 448 KiB full stripe.
        // Today: with io_min 64 KiB and io_opt 448 KiB, the partition at 63 makes LVM put pe_start at 2753 so that
        // the LV starts at disk sector 2816 (kernel-traces/lp-pe-start-summary.txt, raid-part63: pe_start=2753,
        // lv_start_on_disk=2816); (2,734,374,937 - 2753) / 8192 is still 333,785 extents. 2816 = 22 x 128 is on a
        // chunk, but 2816 mod 896 = 128: not on a full stripe, so align.pv.full-stripe warns.
        assertThat(out).contains("PV sda1     pe_start 384, pe_count 333785")
                .contains("The LV's first sector is disk sector 447 (63 + 384): 63 sectors into a 64 KiB chunk,"
                        + " 447 sectors into the 448 KiB full stripe.")
                .contains("PV sda1     pe_start 2753, pe_count 333785")
                .contains("WARNING align.pv.full-stripe [sda1]")
                .contains("Findings: none");
    }
}
