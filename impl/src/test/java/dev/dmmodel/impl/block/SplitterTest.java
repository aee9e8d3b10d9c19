package dev.dmmodel.impl.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.block.Limits;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SplitterTest {

    private static Limits limits(long maxSectors, long maxSegments, long lbs, long pbs, long chunk) {
        Limits l = new Limits();
        l.logicalBlockSize = lbs;
        l.physicalBlockSize = pbs;
        l.maxSectors = maxSectors;
        l.maxSegments = maxSegments;
        l.maxSegmentSize = 65536;
        l.segBoundaryMask = 0xFFFF_FFFFL;
        l.chunkSectors = chunk;
        return l;
    }

    @Test
    void ahciSplitsAMiBOfPagesAt168Segments() {
        Bio bio = new Bio("sdb", Op.WRITE, 0, 8192, 2048, Bvecs.regular(4096, 0, 1 << 20));
        // block/blk-merge.c: bio_split_rw — the 169th page does not fit: 168 x 8 = 1344 sectors
        Limits l = limits(2560, 168, 512, 512, 0);
        Splitter.Result r = Splitter.check(bio, l);
        assertThat(r).isEqualTo(new Splitter.Result(1344, 168, Splitter.Cut.MAX_SEGMENTS));
        assertThat(Splitter.why(r, bio.sector, l)).isEqualTo("max_segments=168 (168 segments of at most 65536 bytes)");
    }

    @Test
    void saysWhichLimitCut() {
        // 1 MiB of pages with 2560 segments allowed: max_sectors 1024 (512 KiB) cuts at 1024 sectors
        Bio bio = new Bio("sdb", Op.WRITE, 0, 0, 2048, Bvecs.regular(4096, 0, 1 << 20));
        Limits l = limits(1024, 2560, 512, 512, 0);
        Splitter.Result r = Splitter.check(bio, l);
        assertThat(r.splitSectors()).isEqualTo(1024);
        assertThat(Splitter.why(r, 0, l)).isEqualTo("max_sectors=1024 (max_sectors_kb 512)");
        // from sector 200 with chunk_sectors 256: the boundary at 256 comes first, 56 sectors
        Bio at200 = new Bio("sdb", Op.WRITE, 0, 200, 2048, Bvecs.regular(4096, 0, 1 << 20));
        Limits chunked = limits(1024, 2560, 512, 512, 256);
        Splitter.Result c = Splitter.check(at200, chunked);
        assertThat(c.splitSectors()).isEqualTo(56);
        assertThat(Splitter.why(c, 200, chunked)).isEqualTo("chunk_sectors=256: boundary at sector 256");
        // a discard of 10000 sectors with max_discard_sectors 4096, granularity 512 bytes: cut at 4096
        Limits d = limits(1024, 2560, 512, 512, 0);
        d.maxDiscardSectors = 4096;
        d.discardGranularity = 512;
        Splitter.Result dr = Splitter.check(new Bio("sdb", Op.DISCARD, 0, 0, 10000, null), d);
        assertThat(dr).isEqualTo(new Splitter.Result(4096, 1, Splitter.Cut.DISCARD));
        assertThat(Splitter.why(dr, 0, d)).isEqualTo("max_discard_sectors=4096 (discard_granularity 512)");
    }

    @Test
    void theSplitEndIsAlignedToThePhysicalBlock() {
        // get_max_io_size: from sector 3 with max 2560 and 4 KiB physical blocks: (3 + 2560) rounded down to 8
        // is 2560, so the piece is 2557 sectors, ending on a physical block
        assertThat(Splitter.maxIoSectors(3, limits(2560, 2048, 512, 4096, 0))).isEqualTo(2557);
        // chunk_sectors 256 from sector 200: 56 sectors to the boundary
        assertThat(Splitter.maxIoSectors(200, limits(2560, 2048, 512, 512, 256))).isEqualTo(56);
    }

    /** The whole-page shortcut gives exactly what walking the vectors gives. */
    @Test
    void wholePageShortcutAgreesWithTheWalk() {
        SplittableRandom r = new SplittableRandom(0x5B117L);
        for (int i = 0; i < 20_000; i++) {
            long pages = 1 + r.nextInt(300);
            long lbs = r.nextBoolean() ? 512 : 4096;
            long pbs = lbs == 4096 || r.nextBoolean() ? 4096 : 512;
            Limits l = limits(8 + r.nextInt(3000), 1 + r.nextInt(300), lbs, pbs, r.nextInt(4) == 0 ? 128 << r.nextInt(4) : 0);
            long sector = r.nextInt(1 << 20) / (lbs / 512) * (lbs / 512);
            Bio bio = new Bio("sdx", Op.WRITE, 0, sector, pages * 8, Bvecs.regular(4096, 0, pages * 4096));
            assertThat(Splitter.check(bio, l)).as("pages %d sector %d max %d segs %d lbs %d pbs %d chunk %d", pages,
                    sector, l.maxSectors, l.maxSegments, lbs, pbs, l.chunkSectors).isEqualTo(Splitter.walk(bio, l));
        }
    }
}
