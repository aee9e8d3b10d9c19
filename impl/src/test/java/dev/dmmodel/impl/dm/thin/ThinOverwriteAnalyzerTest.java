package dev.dmmodel.impl.dm.thin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.analysis.ThinOverwriteAnalysis;
import dev.dmmodel.analysis.ThinOverwriteReport;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 004's story in numbers: what reaches the pool, what is zeroed, and which fixes work. */
class ThinOverwriteAnalyzerTest {

    private static LayoutSpec seed004(KernelProfile p, long blockSectors) {
        return new LayoutSpec(p, Layout.builder(p)
                .disk("sdg", DiskPresets.ahciSata().withSize(Bytes.parse("3TB")))
                .disk("sdh", DiskPresets.ahciSataSsd().withSize(Bytes.parse("128GB")))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.parse("2TiB"), "sdh", "sdg", blockSectors, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.parse("100GiB"), "pool", 0))
                .steps());
    }

    private static ThinOverwriteReport analyze(LayoutSpec spec, String script) {
        List<ThinOverwriteReport> r = ThinOverwriteAnalysis.analyze(spec, Script.parse(script), EngineOptions.DEFAULTS);
        assertThat(r).hasSize(1);
        return r.get(0);
    }

    @Test
    void oneMiBBlocksOn310AreAllZeroedBecauseOf168Segments() {
        ThinOverwriteReport r = analyze(seed004(KernelProfile.LINUX_3_10, 2048),
                "echo 2048 > /sys/block/dm-1/queue/max_sectors_kb\n"
                        + "dd if=/dev/zero of=/dev/mapper/thin oflag=direct bs=1M count=256");
        assertThat(r.stats().largestBioSectors()).isEqualTo(1344);
        assertThat(r.stats().blocksZeroed()).isEqualTo(256);
        assertThat(r.stats().extraBytesWritten()).isEqualTo(256L << 20);
        assertThat(r.causes()).containsExactly(
                "bios at dm-1 are at most 1344 sectors because its max_segments = 168 (stacked from sdg, SD) limits"
                        + " a direct-I/O bio to 168 pages when it is built (bio_get_nr_vecs)",
                "pool block = 2048 sectors; 256 of 256 provisioned blocks were first written partially",
                "256 blocks zeroed before write",
                "256MiB extra written");
        assertThat(r.finding()).hasValueSatisfying(f -> assertThat(f.id()).isEqualTo("thin.block.partial-first-write"));
        // the largest power-of-two multiple of 64 KiB not above 1344 sectors is 1024: with 512 KiB blocks
        // dm_merge_bvec ends each bio at the block boundary, 128 pages fit in 168, every bio covers a block
        assertThat(r.fixes()).extracting(ThinOverwriteReport.FixOutcome::description).containsExactly(
                "recreate the pool with 512KiB blocks (1024 sectors)",
                "reload the pool with skip_block_zeroing (lvcreate/lvchange -Zn)",
                "write whole blocks from a block-aligned buffer (dd bs=1MiB)");
        assertThat(r.fixes().get(0).works()).isTrue();
        assertThat(r.fixes().get(0).partialFirstWrites()).isZero();
        assertThat(r.fixes().get(1).works()).isTrue();
        assertThat(r.fixes().get(1).caveat()).contains("stale data");
        // writing whole MiBs does not help on 3.10: the bios are still built as 1344 + 704
        assertThat(r.fixes().get(2).works()).isFalse();
        assertThat(r.fixes().get(2).blocksZeroed()).isEqualTo(256);
    }

    @Test
    void halfMiBBlocksOn310AreNeverZeroed() {
        ThinOverwriteReport r = analyze(seed004(KernelProfile.LINUX_3_10, 1024),
                "echo 2048 > /sys/block/dm-1/queue/max_sectors_kb\n"
                        + "dd if=/dev/zero of=/dev/mapper/thin oflag=direct bs=1M count=64");
        // dm_merge_bvec stops each bio at the 1024-sector block boundary: 128 pages fit in 168
        assertThat(r.stats().largestBioSectors()).isEqualTo(1024);
        assertThat(r.stats().blocksZeroed()).isZero();
        assertThat(r.finding()).isEmpty();
    }

    @Test
    void theStockMaxSectorsGives1024Plus1024AndRaisingItDoesNotHelp() {
        ThinOverwriteReport r = analyze(seed004(KernelProfile.LINUX_3_10, 2048),
                "dd if=/dev/zero of=/dev/mapper/thin oflag=direct bs=1M count=16");
        assertThat(r.stats().largestBioSectors()).isEqualTo(1024);
        assertThat(r.causes().get(0)).isEqualTo("bios at dm-1 are at most 1024 sectors because its max_sectors = 1024"
                + " (max_sectors_kb 512)");
        ThinOverwriteReport.FixOutcome raise = r.fixes().stream()
                .filter(f -> f.description().startsWith("echo 1024 > /sys/block/dm-1")).findFirst().orElseThrow();
        // the reporter's experience: with max_sectors_kb 1024 the bios become 1344 + 704, still partial
        assertThat(raise.works()).isFalse();
        assertThat(raise.blocksZeroed()).isEqualTo(16);
    }

    @Test
    void bufferedWritesZeroEveryBlock() {
        ThinOverwriteReport r = analyze(seed004(KernelProfile.LINUX_3_10, 2048),
                "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=16\nsync");
        // writeback: one 8-sector bio per 4 KiB buffer
        assertThat(r.stats().largestBioSectors()).isEqualTo(8);
        assertThat(r.stats().blocksZeroed()).isEqualTo(16);
        assertThat(r.causes().get(0)).startsWith("writes to dm-1 go through the page cache");
    }

    @Test
    void onLinux61TheWholeMiBReachesThinAndNothingIsZeroed() {
        ThinOverwriteReport r = analyze(seed004(KernelProfile.LINUX_6_1, 2048),
                "dd if=/dev/zero of=/dev/mapper/thin oflag=direct bs=1M count=16");
        assertThat(r.stats().largestBioSectors()).isEqualTo(2048);
        assertThat(r.stats().blocksZeroed()).isZero();
        assertThat(r.finding()).isEmpty();
    }
}
