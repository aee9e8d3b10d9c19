package dev.dmmodel.impl.md.raid5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.md.raid5.StripeCache.MemberIo;
import dev.dmmodel.impl.md.raid5.StripeCache.Reconstruct;
import dev.dmmodel.impl.md.raid5.StripeCache.StripeWork;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stripe cache's rules worked by hand from drivers/md/raid5.c (handle_stripe_fill, handle_stripe_dirtying,
 * schedule_reconstruction, raid5_get_active_stripe): cached pages, sub-page writes, raid6 and raid4, the parity
 * values, eviction per hash bucket and the unplugs a waiting write causes.
 */
class StripeCacheTest {

    private static Raid5Geometry raid5(int disks) {
        return new Raid5Geometry(5, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC, disks, 128);
    }

    private static Raid5Geometry raid6(int disks, int algorithm) {
        return new Raid5Geometry(6, algorithm, disks, 8);
    }

    /** "disk from" of each member bio, in the list's order. */
    private static List<String> disks(List<MemberIo> io) {
        return io.stream().map(m -> m.disk() + "@" + m.fromSector()).toList();
    }

    private static StripeWork one(StripeCache c) {
        List<StripeWork> work = c.handle();
        assertThat(work).hasSize(1);
        return work.get(0);
    }

    @Test
    void aSecondWriteToAJustWrittenStripeHeadNeedsNoReads() {
        // 4 disks row 0 "D0 D1 D2 P": the first 4 KiB at md0 0 reads D1, D2 (rcw); afterwards D0..D2 and P are
        // R5_UPTODATE in the inactive stripe head, so rewriting D0, or writing D1 (md0 128), reads nothing:
        // rmw = rcw = 0, schedule_reconstruction(rcw == 0) recomputes P from the cached pages
        StripeCache c = new StripeCache(raid5(4), StripeCache.NR_STRIPES);
        c.addWrite(0, 8, 11);
        assertThat(disks(one(c).reads())).containsExactly("2@256", "1@128");
        c.addWrite(0, 8, 12);
        StripeWork again = one(c);
        assertThat(again.reads()).isEmpty();
        assertThat(disks(again.writes())).containsExactly("3@0", "0@0");
        assertThat(again.reconstruct()).isEqualTo(Reconstruct.RECONSTRUCT_WRITE);
        c.addWrite(128, 8, 13);
        StripeWork other = one(c);
        assertThat(other.reads()).isEmpty();
        assertThat(disks(other.writes())).containsExactly("3@0", "1@128");
        assertThat(c.readArray(0)).isEqualTo(12);
        assertThat(c.readArray(128)).isEqualTo(13);
        assertThat(c.parityConsistent(0)).isTrue();
        // P = 12 ^ 13 ^ 0 on every sector of the page
        assertThat(c.readMember(3, 5)).isEqualTo(12 ^ 13);
    }

    @Test
    void readModifyWriteWhenItReadsLessAndTheCacheKeepsWhatItRead() {
        // 5 disks row 0 "D0 D1 D2 D3 P" (pd = 4): 4 KiB at md0 0: rmw = D0 + P = 2 < rcw = D1 + D2 + D3 = 3:
        // read D0 and P (disks 4, 0 in ops_run_io's order), prexor, write them
        StripeCache c = new StripeCache(raid5(5), StripeCache.NR_STRIPES);
        c.addWrite(0, 8, 5);
        StripeWork first = one(c);
        assertThat(first.reconstruct()).isEqualTo(Reconstruct.READ_MODIFY_WRITE);
        assertThat(disks(first.reads())).containsExactly("4@0", "0@0");
        assertThat(disks(first.writes())).containsExactly("4@0", "0@0");
        // then 4 KiB at md0 128 (D1, disk 1): P is cached, D1 is not: rmw = 1 < rcw = D2 + D3 = 2 (D0 cached):
        // read D1 only
        c.addWrite(128, 8, 6);
        StripeWork second = one(c);
        assertThat(second.reconstruct()).isEqualTo(Reconstruct.READ_MODIFY_WRITE);
        assertThat(disks(second.reads())).containsExactly("1@128");
        assertThat(c.readMember(4, 0)).isEqualTo(5 ^ 6);
        assertThat(c.parityConsistent(0)).isTrue();
        assertThat(c.stats().readModifyWrites()).isEqualTo(2);
    }

    @Test
    void aSubPageWriteReadsItsPageFirstAndThenCountsWithoutIt() {
        // 512 B at md0 0 on 4 disks: the page is not R5_OVERWRITE, so need_this_block has handle_stripe_fill read
        // it (towrite && !OVERWRITE) before handle_stripe_dirtying, which then skips it as R5_LOCKED:
        // rmw = P = 1 < rcw = D1 + D2 = 2 -> also read P; reads D0 and P, prexor, write D0 and P
        StripeCache c = new StripeCache(raid5(4), StripeCache.NR_STRIPES);
        c.addWrite(0, 1, 7);
        StripeWork w = one(c);
        assertThat(w.reconstruct()).isEqualTo(Reconstruct.READ_MODIFY_WRITE);
        assertThat(disks(w.reads())).containsExactly("3@0", "0@0");
        assertThat(disks(w.writes())).containsExactly("3@0", "0@0");
        assertThat(c.readArray(0)).isEqualTo(7);
        assertThat(c.readArray(1)).isZero();
        assertThat(c.parityConsistent(0)).isTrue();

        // 2 sectors at md0 3 on 3 disks: the fill read of D0, then rmw = P = 1, rcw = D1 = 1: a tie -> rcw,
        // read D1 (md0 128)
        StripeCache three = new StripeCache(raid5(3), StripeCache.NR_STRIPES);
        three.addWrite(3, 2, 9);
        StripeWork t = one(three);
        assertThat(t.reconstruct()).isEqualTo(Reconstruct.RECONSTRUCT_WRITE);
        assertThat(disks(t.reads())).containsExactly("1@128", "0@0");
        assertThat(disks(t.writes())).containsExactly("2@0", "0@0");
        assertThat(List.of(three.readArray(2), three.readArray(3), three.readArray(4), three.readArray(5)))
                .containsExactly(0L, 9L, 9L, 0L);
    }

    @Test
    void subPageBiosThatTogetherCoverThePageOverwriteIt() {
        // md0 0+4 and 4+4 in one plug: __add_stripe_bio finds the page covered -> R5_OVERWRITE, no fill read;
        // as a 4 KiB write: rmw 2 = rcw 2 -> rcw reads D1, D2
        StripeCache c = new StripeCache(raid5(4), StripeCache.NR_STRIPES);
        c.addWrite(0, 4, 1);
        c.addWrite(4, 4, 2);
        StripeWork w = one(c);
        assertThat(disks(w.reads())).containsExactly("2@256", "1@128");
        assertThat(List.of(c.readArray(3), c.readArray(4))).containsExactly(1L, 2L);
    }

    @Test
    void raid6ChoosesAsHandleStripeDirtyingCounts() {
        // raid6 left-symmetric, row 0: pd = n-1, qd = 0, D0 on disk 1. A 4 KiB write to D0:
        // 5 disks: rmw = D0 + P + Q = 3 > rcw = D1 + D2 = 2 -> rcw, read disks 3 (md0 16) and 2 (md0 8)
        StripeCache five = new StripeCache(raid6(5, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC), StripeCache.NR_STRIPES);
        five.addWrite(0, 8);
        StripeWork w5 = one(five);
        assertThat(w5.reconstruct()).isEqualTo(Reconstruct.RECONSTRUCT_WRITE);
        assertThat(disks(w5.reads())).containsExactly("3@16", "2@8");
        assertThat(disks(w5.writes())).containsExactly("4@0", "1@0", "0@0");
        // 6 disks: rmw 3 = rcw 3 (D1..D3) -> rcw
        StripeCache six = new StripeCache(raid6(6, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC), StripeCache.NR_STRIPES);
        six.addWrite(0, 8);
        assertThat(disks(one(six).reads())).containsExactly("4@24", "3@16", "2@8");
        // 7 disks: rmw 3 < rcw 4 -> rmw (raid6 rmw is enabled where raid6_call.xor_syndrome exists, as on x86):
        // read P (disk 6), D0 (disk 1), Q (disk 0)
        StripeCache seven = new StripeCache(raid6(7, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC), StripeCache.NR_STRIPES);
        seven.addWrite(0, 8);
        StripeWork w7 = one(seven);
        assertThat(w7.reconstruct()).isEqualTo(Reconstruct.READ_MODIFY_WRITE);
        assertThat(disks(w7.reads())).containsExactly("6@0", "1@0", "0@0");
        assertThat(disks(w7.writes())).containsExactly("6@0", "1@0", "0@0");
    }

    @Test
    void raid6QIsTheGf256SyndromeInSlotOrder() {
        // raid6 4 disks left-symmetric row 0 "Q D0 D1 P": slots from the disk after Q: disk 1 slot 0, disk 2
        // slot 1. D0 = 0x01 in byte 0, D1 = 0x80 in bytes 0 and 7 (token 0x8000000000000080):
        // P = 0x8000000000000081; Q byte 0 = 0x01 ^ 2*0x80 = 0x01 ^ 0x1d (0x100 reduced by 0x11d) = 0x1c,
        // byte 7 = 0 ^ 2*0x80 = 0x1d
        StripeCache c = new StripeCache(raid6(4, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC), StripeCache.NR_STRIPES);
        c.addWrite(0, 8, 0x01);
        c.addWrite(8, 8, 0x8000000000000080L);
        StripeWork w = one(c);
        assertThat(w.reconstruct()).isEqualTo(Reconstruct.FULL_STRIPE);
        assertThat(c.readMember(3, 4)).isEqualTo(0x8000000000000081L);
        assertThat(c.readMember(0, 4)).isEqualTo(0x1d0000000000001cL);
        assertThat(c.parityConsistent(0)).isTrue();

        // DDF ROTATING_ZERO_RESTART row 0 "P Q D0 D1": slots are disk indices, D0 disk 2, D1 disk 3:
        // Q = 4*0x01 ^ 8*0x80; 8*0x80 = 2*(2*(0x1d)) = 2*0x3a = 0x74 -> Q = 0x04 ^ 0x74 = 0x70, P = 0x81
        StripeCache ddf = new StripeCache(raid6(4, Raid5Geometry.ALGORITHM_ROTATING_ZERO_RESTART),
                StripeCache.NR_STRIPES);
        ddf.addWrite(0, 8, 0x01);
        ddf.addWrite(8, 8, 0x80);
        ddf.handle();
        assertThat(ddf.readMember(0, 0)).isEqualTo(0x81);
        assertThat(ddf.readMember(1, 0)).isEqualTo(0x70);
        assertThat(ddf.parityConsistent(0)).isTrue();
    }

    @Test
    void raid6ReadModifyWriteUpdatesQByXorSyndrome() {
        // 7 disks left-symmetric row 0 "Q D0 D1 D2 D3 D4 P", slots = data index (d0 = disk 1).
        // 4 KiB 0x80 to D2 (md0 16, disk 3, slot 2): rmw 3 < rcw 4, old D2 = P = Q = 0:
        // P = 0x80, Q = g^2 * 0x80 = 2*0x1d = 0x3a
        StripeCache c = new StripeCache(raid6(7, Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC), StripeCache.NR_STRIPES);
        c.addWrite(16, 8, 0x80);
        assertThat(one(c).reconstruct()).isEqualTo(Reconstruct.READ_MODIFY_WRITE);
        assertThat(c.readMember(6, 0)).isEqualTo(0x80);
        assertThat(c.readMember(0, 0)).isEqualTo(0x3a);
        // then 0x01 to D4 (md0 32, disk 5, slot 4): P, Q cached, D4 not: rmw 1 < rcw 3 (D0, D1, D3): read D4;
        // P = 0x81, Q = 0x3a ^ g^4 * 0x01 = 0x3a ^ 0x10 = 0x2a
        c.addWrite(32, 8, 0x01);
        StripeWork w = one(c);
        assertThat(disks(w.reads())).containsExactly("5@32");
        assertThat(c.readMember(6, 7)).isEqualTo(0x81);
        assertThat(c.readMember(0, 7)).isEqualTo(0x2a);
        assertThat(c.parityConsistent(0)).isTrue();
    }

    @Test
    void raid4WritesParityOnTheLastDisk() {
        // raid4, 4 disks, chunk 128: md0 128 = chunk 1 = row 0 data 1 -> disk 1, P disk 3; rmw 2 = rcw 2 -> rcw:
        // read disk 2 (md0 256) and disk 0 (md0 0). md0 512 = chunk 4 = row 1 data 1 -> disk 1 member 128, P
        // again disk 3; reads disk 2 (md0 640 = chunk 5) and disk 0 (md0 384 = chunk 3)
        StripeCache c = new StripeCache(new Raid5Geometry(4, Raid5Geometry.ALGORITHM_PARITY_N, 4, 128),
                StripeCache.NR_STRIPES);
        c.addWrite(128, 8);
        StripeWork row0 = one(c);
        assertThat(disks(row0.reads())).containsExactly("2@256", "0@0");
        assertThat(disks(row0.writes())).containsExactly("3@0", "1@128");
        c.addWrite(512, 8);
        StripeWork row1 = one(c);
        assertThat(row1.memberSector()).isEqualTo(128);
        assertThat(disks(row1.reads())).containsExactly("2@640", "0@384");
        assertThat(disks(row1.writes())).containsExactly("3@0", "1@512");
    }

    /** md0 sector of data index 0 for the stripe head at member {@code m} on 4-disk left-symmetric, chunk 128. */
    private static long d0Sector(long m) {
        return m / 128 * 384 + m % 128;
    }

    @Test
    void theLeastRecentlyReleasedHeadOfTheBucketIsReused() {
        // stripe_cache_size 256 = 32 stripe heads per hash bucket (grow_one_stripe: head k in bucket k % 8);
        // bucket = (sector / 8) % 8, so member sectors 0, 64, 128, ... share bucket 0. Head 8 is in bucket 1.
        StripeCache c = new StripeCache(raid5(4), StripeCache.NR_STRIPES);
        c.addWrite(d0Sector(8), 8);
        c.handle();
        for (long j = 0; j <= 32; j++) {
            c.addWrite(d0Sector(64 * j), 8);
            assertThat(c.handle()).singleElement().extracting(w -> w.reads().size()).isEqualTo(2);
        }
        // the 33rd head of bucket 0 took the least recently released one, head 0; bucket 1 untouched
        assertThat(c.isCached(0)).isFalse();
        assertThat(c.isCached(64)).isTrue();
        assertThat(c.isCached(8)).isTrue();
        assertThat(c.cachedStripeHeads()).isEqualTo(33);
        // so head 0 must read again, while head 2048 (the last written) and head 8 need not
        c.addWrite(d0Sector(2048), 8);
        assertThat(one(c).reads()).isEmpty();
        c.addWrite(d0Sector(8), 8);
        assertThat(one(c).reads()).isEmpty();
        c.addWrite(d0Sector(0), 8);
        assertThat(one(c).reads()).hasSize(2);
        // taking head 0 back evicted the then least recent: head 64
        assertThat(c.isCached(64)).isFalse();
    }

    @Test
    void bucketsShareTheCacheSizeAsGrowOneStripeDealsIt() {
        // stripe_cache_size 17: bucket 0 gets heads 0, 8, 16 (3), buckets 1..7 two each
        StripeCache c = new StripeCache(raid5(4), StripeCache.MIN_STRIPE_CACHE_SIZE);
        for (long m : new long[] {0, 64, 128, 8, 72}) {
            c.addWrite(d0Sector(m), 8);
            c.handle();
        }
        assertThat(List.of(c.isCached(0), c.isCached(64), c.isCached(128), c.isCached(8), c.isCached(72)))
                .containsOnly(true);
        c.addWrite(d0Sector(136), 8); // bucket 1's third head: evicts 8
        c.handle();
        assertThat(c.isCached(8)).isFalse();
        assertThat(c.isCached(0)).isTrue();
        c.addWrite(d0Sector(192), 8); // bucket 0's fourth: evicts 0
        c.handle();
        assertThat(c.isCached(0)).isFalse();
        assertThat(c.cachedStripeHeads()).isEqualTo(5);
    }

    @Test
    void aWriteWaitingForAStripeHeadUnplugsThePendingOnes() {
        // size 17: bucket 0 holds 3 heads. Four 4 KiB writes to heads 0, 64, 128, 192 in one plug: the fourth
        // finds all three pending (raid5_get_active_stripe waits; sleeping flushes the plug), so those three are
        // handled first, head 0 (least recently released) is reused for 192
        StripeCache c = new StripeCache(raid5(4), StripeCache.MIN_STRIPE_CACHE_SIZE);
        for (long m : new long[] {0, 64, 128, 192}) {
            c.addWrite(d0Sector(m), 8);
        }
        assertThat(c.pendingStripeHeads()).isEqualTo(1);
        List<StripeWork> work = c.handle();
        assertThat(work).extracting(StripeWork::memberSector).containsExactly(0L, 64L, 128L, 192L);
        assertThat(work).allSatisfy(w -> assertThat(w.reads()).hasSize(2));
        assertThat(c.isCached(0)).isFalse();
        for (long m : new long[] {0, 64, 128, 192}) {
            assertThat(c.parityConsistent(m)).isTrue();
        }
    }

    @Test
    void anOverlappingWriteInThePlugWaitsForTheFirst() {
        // stripe_bio_overlaps: the second bio shares sectors with the pending first, the submitter waits (and
        // unplugs); the first is handled (rcw, 2 reads), the second then finds the stripe head cached: no reads
        StripeCache c = new StripeCache(raid5(4), StripeCache.NR_STRIPES);
        c.addWrite(0, 8, 5);
        c.addWrite(4, 8, 6);
        List<StripeWork> work = c.handle();
        assertThat(work).hasSize(3);
        assertThat(work.get(0).reads()).hasSize(2);
        // the second bio covers md0 4..11: the rest of page 0 (cached now) and half of page 8 (D0 page at member
        // 8, never read): head 0 no reads; head 8: fill read of D0, then rmw = P = 1 < rcw = D1 + D2 = 2
        assertThat(work.get(1).memberSector()).isZero();
        assertThat(work.get(1).reads()).isEmpty();
        assertThat(work.get(2).memberSector()).isEqualTo(8);
        assertThat(disks(work.get(2).reads())).containsExactly("3@0", "0@8");
        assertThat(List.of(c.readArray(3), c.readArray(4), c.readArray(11), c.readArray(12)))
                .containsExactly(5L, 6L, 6L, 0L);
    }

    @Test
    void pendingWritesAreNotOnTheMembersUntilHandled() {
        StripeCache c = new StripeCache(raid5(4), StripeCache.NR_STRIPES, 1024);
        c.addWrite(0, 8, 3);
        assertThat(c.readArray(0)).isZero();
        assertThat(c.pendingStripeHeads()).isEqualTo(1);
        c.handle();
        assertThat(c.readArray(0)).isEqualTo(3);
        assertThat(c.handle()).isEmpty();
    }

    @Test
    void rejectsWhatMdRejects() {
        assertThatThrownBy(() -> new StripeCache(raid5(4), 16)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stripeCacheSize (16)").hasMessageContaining("raid5_set_cache_size");
        assertThatThrownBy(() -> new StripeCache(raid5(4), 32769)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stripeCacheSize (32769)");
        assertThatThrownBy(() -> new StripeCache(null, 256)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("geometry");
        assertThatThrownBy(() -> new StripeCache(raid5(4), 256, 100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("componentSectors (100)");
        // members of 1024 sectors: array 3 x 1024 = 3072 sectors
        StripeCache c = new StripeCache(raid5(4), 256, 1024);
        assertThat(c.arraySectors()).isEqualTo(3072);
        assertThatThrownBy(() -> c.addWrite(0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sectors (0)");
        assertThatThrownBy(() -> c.addWrite(-8, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arraySector (-8)");
        assertThatThrownBy(() -> c.addWrite(3068, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends past the array's end (3072");
        assertThatThrownBy(() -> c.addWrite(8, Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends past");
        assertThatThrownBy(() -> c.readArray(3072)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arraySector (3072)");
        assertThatThrownBy(() -> c.parityConsistent(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memberSector (3)");
        assertThatThrownBy(() -> c.readMember(4, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("disk (4)");
        assertThatThrownBy(() -> c.readMember(0, 1024)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memberSector (1024)");
        assertThatThrownBy(() -> new MemberIo(0, true, -8, 8, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memberSector (-8)");
        // nothing was added by the rejected calls
        assertThat(c.pendingStripeHeads()).isZero();
    }
}
