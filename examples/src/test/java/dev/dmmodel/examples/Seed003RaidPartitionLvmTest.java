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

    // md raid5 over 8 disks, 64 KiB (128-sector) chunks: a row holds 7 data chunks = 896 sectors = 112 data pages,
    // plus 16 parity pages. dd bs=4k count=4096 writes 4096 pages (32768 sectors) through the page cache.
    // md0 from sector 0: rows 0-35 full (36 x 112 = 4032 pages), row 36 has 64 pages = 4 chunks: a reconstruct-write
    // reads the 3 other chunks (48 pages; read-modify-write would read 4 x 16 + 16 = 80). Written: 36 x 128 + 64 + 16 =
    // 4688. md0p1 at 2048 = row 2 + 256 sectors (2 chunks): row 2 writes chunks 2-6 and reads chunks 0-1 (32 pages),
    // rows 3-37 are full, row 38 (from 34048) writes 768 sectors = 6 chunks and reads 1 (16): 48 reads again, writes
    // 35 x 128 + (80 + 16) + (96 + 16) = 4688. The LV starts at 2048 + pe_start 2688 = 4736 = row 5 + 256: the same.
    // mdadm's metadata 1.2 on a 200 GB member (390625000 sectors): bitmap space 64 KiB (over 8 GiB), headroom 128 MiB
    // (1024 x 262144 does not exceed the member), 24 + 128 + 262144 = 262296 rounded up to 1 MiB = 264192; the data
    // (390625000 - 264192 = 390360808) rounded down to the 128-sector chunk: 390360704
    @Test
    void mdadmPlacesTheDataAsItWould() {
        var md = Seed003RaidPartitionLvm.softwareRaid(false, false).mdDevices().get(0);
        assertThat(md.spec().members()).allMatch(m -> m.dataOffset().count() == 264_192
                && m.dataSize().count() == 390_360_704L);
        assertThat(md.size().count()).isEqualTo(7 * 390_360_704L);
    }

    @Test
    void softwareRaidWritesTheSameWhateverTheStack() {
        for (boolean[] stack : new boolean[][] {{false, false}, {true, false}, {true, true}}) {
            var layout = Seed003RaidPartitionLvm.softwareRaid(stack[0], stack[1]);
            String device = stack[1] ? "/dev/vg0/test" : stack[0] ? "/dev/md0p1" : "/dev/md0";
            var io = Seed003RaidPartitionLvm.write16MiB(layout, device);
            assertThat(io.pagesRead()).as(device).isEqualTo(48);
            assertThat(io.pagesWritten()).as(device).isEqualTo(4688);
        }
    }

    // dd bs=448k count=8 oflag=direct: each bio is one row's worth (896 sectors). On md0 each is a full stripe: no
    // reads, 8 x 128 pages written. From md0p1 (2 chunks into row 2) each bio covers chunks 2-6 of one row and 0-1 of
    // the next. The first: row 2 reads chunks 0-1 (32 pages, reconstruct-write), row 3 reads its 2 written chunks'
    // old data + parity (read-modify-write: 2 x 16 + 16 = 48 < 80). Each later bio completes the row the last one
    // began, whose other 2 chunks are still cached: no reads there, and rmw-reads 48 pages in the next row:
    // 32 + 8 x 48 = 416. Written: 8 x 112 data pages, and each bio's two rows each write their 16 parity pages:
    // 896 + 16 x 16 = 1152.
    @Test
    void directFullStripeWritesNeedTheStackOnAStripe() {
        var md0 = Seed003RaidPartitionLvm.directStripes(Seed003RaidPartitionLvm.softwareRaid(false, false),
                "/dev/md0");
        assertThat(md0.pagesRead()).isZero();
        assertThat(md0.pagesWritten()).isEqualTo(1024);
        var part = Seed003RaidPartitionLvm.directStripes(Seed003RaidPartitionLvm.softwareRaid(true, false),
                "/dev/md0p1");
        assertThat(part.pagesRead()).isEqualTo(416);
        assertThat(part.pagesWritten()).isEqualTo(1152);
        assertThat(Seed003RaidPartitionLvm.softwareRaid(true, true).findings()).extracting(f -> f.id())
                .contains("align.pv.full-stripe", "align.partition.io-opt");
    }
}
