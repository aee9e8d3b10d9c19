package dev.dmmodel.impl.md.raid5;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.md.raid5.StripeCache.MemberIo;
import dev.dmmodel.impl.md.raid5.StripeCache.Reconstruct;
import dev.dmmodel.impl.md.raid5.StripeCache.StripeWork;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The member I/O of the recorded raid5 writes in {@code kernel-traces-6.12-stacks} (Linux 6.12.117, mdadm
 * --level=5 --layout=left-symmetric --chunk=64 --assume-clean, members vda vdb vdc vdd = disks 0..3, data offset 4096:
 * the member sectors below are the trace's minus 4096). Each case's {@code block_bio_remap} events at the members are
 * hard-coded as runs of consecutive pages (disk, R/W, first member sector, pages, first {@code from} sector; P pages
 * all show {@code from=md0:0}) and compared as a multiset, as the recordings' compare mode is. Writes are rwbs WS in
 * the recordings, reads R.
 */
class StripeCacheRecordedTest {
    private static final long PARITY = -1;

    private static Raid5Geometry fourDisks() {
        return new Raid5Geometry(5, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC, 4, 128);
    }

    private static Raid5Geometry threeDisks() {
        return new Raid5Geometry(5, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC, 3, 128);
    }

    /** {@code pages} consecutive 8-sector bios as "disk R|W memberSector 8 from"; parity pages from 0. */
    private static List<String> run(int disk, String rw, long member, int pages, long from) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < pages; k++) {
            out.add(disk + " " + rw + " " + (member + 8L * k) + " 8 " + (from == PARITY ? 0 : from + 8L * k));
        }
        return out;
    }

    @SafeVarargs
    private static List<String> runs(List<String>... parts) {
        return Stream.of(parts).flatMap(List::stream).toList();
    }

    private static List<String> io(List<StripeWork> work) {
        List<String> out = new ArrayList<>();
        for (StripeWork w : work) {
            assertThat(w.writes()).as("stripe %d writes", w.memberSector()).isNotEmpty();
            for (MemberIo m : w.reads()) {
                assertThat(m.write()).isFalse();
                out.add(m.disk() + " R " + m.memberSector() + " " + m.sectors() + " " + m.fromSector());
            }
            for (MemberIo m : w.writes()) {
                assertThat(m.write()).isTrue();
                out.add(m.disk() + " W " + m.memberSector() + " " + m.sectors() + " " + m.fromSector());
            }
        }
        return out;
    }

    @Test
    void fourDisks4kAt0() {
        // md-raid5-4x64k-w4k-at0: md0 0+8 -> row 0 "D0 D1 D2 P", one stripe head at member 0.
        // rmw = D0 (written, not cached) + P = 2, rcw = D1 + D2 = 2: a tie goes to rcw (PARITY_ENABLE_RMW):
        // read vdb (from=md0:128) and vdc (from=md0:256), then write vda (from=md0:0) and P on vdd (from=md0:0)
        StripeCache c = new StripeCache(fourDisks(), StripeCache.NR_STRIPES);
        c.addWrite(0, 8);
        List<StripeWork> work = c.handle();
        assertThat(io(work)).containsExactlyInAnyOrderElementsOf(List.of(
                "0 W 0 8 0", "1 R 0 8 128", "2 R 0 8 256", "3 W 0 8 0"));
        assertThat(work).singleElement().extracting(StripeWork::reconstruct).isEqualTo(Reconstruct.RECONSTRUCT_WRITE);
        // the recording's order: reads vdc then vdb, writes vdd then vda (ops_run_io walks the disks downwards)
        assertThat(work.get(0).reads()).extracting(MemberIo::disk).containsExactly(2, 1);
        assertThat(work.get(0).writes()).extracting(MemberIo::disk).containsExactly(3, 0);
    }

    @Test
    void threeDisks4kAt0() {
        // md-raid5-3x64k-w4k-at0: row 0 "D0 D1 P"; rmw = D0 + P = 2 > rcw = D1 = 1: read vdb (from=md0:128),
        // write vda and P on vdc
        StripeCache c = new StripeCache(threeDisks(), StripeCache.NR_STRIPES);
        c.addWrite(0, 8);
        assertThat(io(c.handle())).containsExactlyInAnyOrderElementsOf(List.of(
                "0 W 0 8 0", "1 R 0 8 128", "2 W 0 8 0"));
    }

    @Test
    void threeDisks128kAt128kIsAFullStripe() {
        // md-raid5-3x64k-w128k-at128k: md0 256+256 = chunks 2, 3 = row 1 (data stripe 256 sectors); row 1:
        // pd = 2 - 1 = 1, D0 -> disk 2 (md0 256), D1 -> disk 0 (md0 384); member 128..255 = 16 stripe heads, all
        // pages overwritten: no reads, 16 x 8 written on each member
        StripeCache c = new StripeCache(threeDisks(), StripeCache.NR_STRIPES);
        c.addWrite(256, 256);
        List<StripeWork> work = c.handle();
        assertThat(io(work)).containsExactlyInAnyOrderElementsOf(runs(
                run(0, "W", 128, 16, 384), run(1, "W", 128, 16, PARITY), run(2, "W", 128, 16, 256)));
        assertThat(work).hasSize(16).extracting(StripeWork::reconstruct).containsOnly(Reconstruct.FULL_STRIPE);
    }

    @Test
    void fourDisks8kAt444kCrossesAChunkBoundary() {
        // md-raid5-4x64k-w8k-at444k: md0 888+16; row 2 "D2 P D0 D1" (pd = 3 - 2 = 1). md0 888..895 = chunk 6 + 120
        // -> disk 2 member 376; md0 896..903 = chunk 7 + 0 -> disk 3 member 256: two stripe heads, each rmw 2 =
        // rcw 2 -> rcw. Head 376: read disk 3 (md0 1016) and disk 0 (md0 1144), write disk 2 (888) and P disk 1;
        // head 256: read disk 2 (md0 768) and disk 0 (md0 1024), write disk 3 (896) and P disk 1
        StripeCache c = new StripeCache(fourDisks(), StripeCache.NR_STRIPES);
        c.addWrite(888, 16);
        assertThat(io(c.handle())).containsExactlyInAnyOrderElementsOf(List.of(
                "0 R 256 8 1024", "0 R 376 8 1144", "1 W 256 8 0", "1 W 376 8 0",
                "2 R 256 8 768", "2 W 376 8 888", "3 W 256 8 896", "3 R 376 8 1016"));
    }

    @Test
    void fourDisks192kAt576kIsAFullStripe() {
        // md-raid5-4x64k-w192k-at576k: md0 1152+384 = row 3 (pd = 3 - 3 = 0; D0 disk 1 = md0 1152, D1 disk 2 =
        // 1280, D2 disk 3 = 1408), member 384..511: 16 full-stripe heads, 16 x 8 per member
        StripeCache c = new StripeCache(fourDisks(), StripeCache.NR_STRIPES);
        c.addWrite(1152, 384);
        assertThat(io(c.handle())).containsExactlyInAnyOrderElementsOf(runs(
                run(0, "W", 384, 16, PARITY), run(1, "W", 384, 16, 1152), run(2, "W", 384, 16, 1280),
                run(3, "W", 384, 16, 1408)));
        assertThat(c.stats().fullStripeWrites()).isEqualTo(16);
        assertThat(c.stats().totalPagesRead()).isZero();
    }

    /**
     * md-raid5-4x64k-w1M-at1M (and buf1M-at16M at another place): 1 MiB = 2048 sectors from row r's chunk 1
     * to row r+5's chunk 1 (inclusive of chunks 1-2 of row r, rows r+1..r+4 whole, chunks 0-1 of row r+5).
     */
    private static List<String> oneMegabyteFromChunk1(long row, long firstArray) {
        // rows r..r+5 have pd = 3 - row%4; the partial rows read the one chunk not written (rcw 1 < rmw 3)
        List<List<String>> parts = new ArrayList<>();
        for (long rr = row; rr <= row + 5; rr++) {
            int pd = (int) (3 - rr % 4);
            long member = rr * 128;
            for (int dd = 0; dd < 3; dd++) {
                int disk = (pd + 1 + dd) % 4;
                long array = (rr * 3 + dd) * 128;
                boolean written = array >= firstArray && array < firstArray + 2048;
                parts.add(run(disk, written ? "W" : "R", member, 16, array));
            }
            parts.add(run(pd, "W", member, 16, PARITY));
        }
        return parts.stream().flatMap(List::stream).toList();
    }

    @Test
    void fourDisks1MAt1MReadsOnlyForThePartialRows() {
        // md-raid5-4x64k-w1M-at1M: md0 2048+2048. Row 5 (md0 1920..2303, pd = 2) lacks chunk 15 (md0 1920 on
        // disk 3); row 10 (md0 3840..4223, pd = 1) lacks chunk 32 (md0 4096 on disk 0); rows 6..9 are whole.
        // The recorded runs (checked against trace.csv):
        List<String> recorded = runs(
                run(0, "R", 1280, 16, 4096), run(0, "W", 640, 16, 2048), run(0, "W", 768, 16, 2560),
                run(0, "W", 896, 16, PARITY), run(0, "W", 1024, 16, 3072), run(0, "W", 1152, 16, 3584),
                run(1, "W", 640, 16, 2176), run(1, "W", 768, 16, PARITY), run(1, "W", 896, 16, 2688),
                run(1, "W", 1024, 16, 3200), run(1, "W", 1152, 16, 3712), run(1, "W", 1280, 16, PARITY),
                run(2, "W", 640, 16, PARITY), run(2, "W", 768, 16, 2304), run(2, "W", 896, 16, 2816),
                run(2, "W", 1024, 16, 3328), run(2, "W", 1152, 16, PARITY), run(2, "W", 1280, 16, 3840),
                run(3, "R", 640, 16, 1920), run(3, "W", 768, 16, 2432), run(3, "W", 896, 16, 2944),
                run(3, "W", 1024, 16, PARITY), run(3, "W", 1152, 16, 3456), run(3, "W", 1280, 16, 3968));
        assertThat(recorded).hasSize(384).containsExactlyInAnyOrderElementsOf(oneMegabyteFromChunk1(5, 2048));
        StripeCache c = new StripeCache(fourDisks(), StripeCache.NR_STRIPES);
        c.addWrite(2048, 2048);
        assertThat(io(c.handle())).containsExactlyInAnyOrderElementsOf(recorded);
        // 16 reads on vda and vdd; 80 / 96 / 96 / 80 pages written; 6 rows x 16 heads, 4 rows full-stripe
        StripeCache.Stats s = c.stats();
        assertThat(s.pagesRead()).containsExactly(16L, 0L, 0L, 16L);
        assertThat(s.pagesWritten()).containsExactly(80L, 96L, 96L, 80L);
        assertThat(s.stripeHeadsHandled()).isEqualTo(96);
        assertThat(s.fullStripeWrites()).isEqualTo(64);
        assertThat(s.reconstructWrites()).isEqualTo(32);
        assertThat(s.readModifyWrites()).isZero();
    }

    @Test
    void buffered1MAt16MIs256PageBiosInOnePlug() {
        // md-raid5-4x64k-buf1M-at16M: writeback sends 256 x 8-sector bios (md0 32768, 32776, ...) under one plug;
        // md0 32768 = row 85 (85 x 384 = 32640) chunk 1, so the member I/O is that of one 1 MiB bio: rows 85..90,
        // reads for row 85 (chunk 255 = md0 32640 on disk 3) and row 90 (md0 34816 on disk 0). Recorded runs:
        List<String> recorded = runs(
                run(0, "R", 11520, 16, 34816), run(0, "W", 10880, 16, 32768), run(0, "W", 11008, 16, 33280),
                run(0, "W", 11136, 16, PARITY), run(0, "W", 11264, 16, 33792), run(0, "W", 11392, 16, 34304),
                run(1, "W", 10880, 16, 32896), run(1, "W", 11008, 16, PARITY), run(1, "W", 11136, 16, 33408),
                run(1, "W", 11264, 16, 33920), run(1, "W", 11392, 16, 34432), run(1, "W", 11520, 16, PARITY),
                run(2, "W", 10880, 16, PARITY), run(2, "W", 11008, 16, 33024), run(2, "W", 11136, 16, 33536),
                run(2, "W", 11264, 16, 34048), run(2, "W", 11392, 16, PARITY), run(2, "W", 11520, 16, 34560),
                run(3, "R", 10880, 16, 32640), run(3, "W", 11008, 16, 33152), run(3, "W", 11136, 16, 33664),
                run(3, "W", 11264, 16, PARITY), run(3, "W", 11392, 16, 34176), run(3, "W", 11520, 16, 34688));
        assertThat(recorded).containsExactlyInAnyOrderElementsOf(oneMegabyteFromChunk1(85, 32768));
        StripeCache c = new StripeCache(fourDisks(), StripeCache.NR_STRIPES);
        for (int k = 0; k < 256; k++) {
            c.addWrite(32768 + 8L * k, 8);
        }
        assertThat(c.pendingStripeHeads()).isEqualTo(96);
        assertThat(io(c.handle())).containsExactlyInAnyOrderElementsOf(recorded);
        assertThat(c.stats().pagesWritten()).containsExactly(80L, 96L, 96L, 80L);
    }

    @Test
    void lvm4kAt0FindsTheStripeHeadCachedFromLvmsEarlierWrite() {
        // md-raid5-4x64k-lvm-lv-w4k-at0: the LV starts at md0 2304 (pe_start); LVM wrote there before tracing
        // (modelled here by one earlier 4 KiB write at md0 2304). md0 2304 = row 6 chunk 0: pd = 3 - 6%4 = 1,
        // D0 on disk 2, member 768. The traced write finds every page of that stripe head up to date (rmw = 0,
        // rcw = 0): no reads, just vdc 4864 (from=md0:2304) and P on vdb 4864 (from=md0:0)
        StripeCache c = new StripeCache(fourDisks(), StripeCache.NR_STRIPES);
        c.addWrite(2304, 8);
        assertThat(c.handle()).singleElement().extracting(w -> w.reads().size()).isEqualTo(2);
        c.addWrite(2304, 8);
        List<StripeWork> traced = c.handle();
        assertThat(io(traced)).containsExactlyInAnyOrderElementsOf(List.of("2 W 768 8 2304", "1 W 768 8 0"));
        assertThat(traced.get(0).reads()).isEmpty();
    }

    @Test
    void lvm1MAt1MOnTheArray() {
        // md-raid5-4x64k-lvm-lv-w1M-at1M: LV 2048 = md0 4352+2048 = row 11 (4224) chunk 1 to row 16 chunk 1;
        // row 11 (pd 0) reads md0 4224 on disk 1, row 16 (pd 3) reads md0 6400 on disk 2. Recorded runs:
        List<String> recorded = runs(
                run(0, "W", 1408, 16, PARITY), run(0, "W", 1536, 16, 4608), run(0, "W", 1664, 16, 5120),
                run(0, "W", 1792, 16, 5632), run(0, "W", 1920, 16, PARITY), run(0, "W", 2048, 16, 6144),
                run(1, "R", 1408, 16, 4224), run(1, "W", 1536, 16, 4736), run(1, "W", 1664, 16, 5248),
                run(1, "W", 1792, 16, PARITY), run(1, "W", 1920, 16, 5760), run(1, "W", 2048, 16, 6272),
                run(2, "R", 2048, 16, 6400), run(2, "W", 1408, 16, 4352), run(2, "W", 1536, 16, 4864),
                run(2, "W", 1664, 16, PARITY), run(2, "W", 1792, 16, 5376), run(2, "W", 1920, 16, 5888),
                run(3, "W", 1408, 16, 4480), run(3, "W", 1536, 16, PARITY), run(3, "W", 1664, 16, 4992),
                run(3, "W", 1792, 16, 5504), run(3, "W", 1920, 16, 6016), run(3, "W", 2048, 16, PARITY));
        assertThat(recorded).containsExactlyInAnyOrderElementsOf(oneMegabyteFromChunk1(11, 4352));
        StripeCache c = new StripeCache(fourDisks(), StripeCache.NR_STRIPES);
        c.addWrite(4352, 2048);
        assertThat(io(c.handle())).containsExactlyInAnyOrderElementsOf(recorded);
    }
}
