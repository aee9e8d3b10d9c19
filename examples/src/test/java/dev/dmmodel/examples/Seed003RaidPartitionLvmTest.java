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
        assertThat(out).contains("PV sda1     pe_start 384, pe_count 333785")
                .contains("The LV's first sector is disk sector 447 (63 + 384)")
                .contains("PV sda1     pe_start 2753")
                .contains("WARNING align.pv.full-stripe [sda1]")
                .contains("Findings: none");
    }
}
