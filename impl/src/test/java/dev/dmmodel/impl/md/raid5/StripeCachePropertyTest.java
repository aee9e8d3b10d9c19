package dev.dmmodel.impl.md.raid5;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.md.raid5.StripeCache.MemberIo;
import dev.dmmodel.impl.md.raid5.StripeCache.StripeWork;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded random write sequences on small raid4/5/6 arrays (3..6 disks, chunks 8..128 sectors, several layouts, small
 * stripe caches so that heads are evicted and waiting writes unplug): after every {@code handle()} every stripe head's
 * parity matches its data and every sector reads back as its last write; every member bio is one page inside the
 * member; the same seed gives the same work.
 */
class StripeCachePropertyTest {
    private static final int SEQUENCES = 200;
    private static final int[] RAID6_ALGORITHMS = {0, 1, 2, 3, 4, 5, 8, 9, 10, 16, 17, 18, 19, 20};

    /** What one sequence produced: the work of each handle() and the final counters. */
    private record Outcome(List<List<StripeWork>> work, StripeCache.Stats stats) {
    }

    @Test
    void randomWriteSequencesKeepParityAndData() {
        for (int i = 0; i < SEQUENCES; i++) {
            long seed = 0x5712E5L * 1000 + i;
            Outcome first = runSequence(seed);
            Outcome again = runSequence(seed);
            assertThat(again).as("seed %d: deterministic", seed).isEqualTo(first);
        }
    }

    private static Outcome runSequence(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int level = 4 + r.nextInt(3);
        int disks = level == 6 ? 4 + r.nextInt(3) : 3 + r.nextInt(4);
        int algorithm = level == 6 ? RAID6_ALGORITHMS[r.nextInt(RAID6_ALGORITHMS.length)] : r.nextInt(6);
        long chunk = 8L << r.nextInt(5);
        Raid5Geometry g = new Raid5Geometry(level, algorithm, disks, chunk);
        long component = chunk * (2 + r.nextInt(6)) + r.nextInt((int) chunk);
        int cacheSize = StripeCache.MIN_STRIPE_CACHE_SIZE + r.nextInt(24);
        StripeCache c = new StripeCache(g, cacheSize, component);
        long array = c.arraySectors();
        long rows = component / chunk;
        String what = "seed " + seed + " (" + g + ", component " + component + ", cache " + cacheSize + ")";
        Map<Long, Long> expected = new HashMap<>();
        List<List<StripeWork>> all = new ArrayList<>();
        int rounds = 1 + r.nextInt(10);
        for (int round = 0; round < rounds; round++) {
            int writes = 1 + r.nextInt(5);
            for (int w = 0; w < writes; w++) {
                long len = 1 + r.nextLong(Math.min(array, 2 * g.stripeDataSectors()));
                long start = r.nextBoolean() ? r.nextLong(array - len + 1)
                        : Math.min(array - len, r.nextLong(array / 8 + 1) * 8); // often page-aligned
                long token = r.nextLong();
                c.addWrite(start, len, token);
                for (long s = start; s < start + len; s++) {
                    expected.put(s, token);
                }
            }
            List<StripeWork> work = c.handle();
            all.add(work);
            checkWork(g, component, work, what + " round " + round);
            assertThat(c.pendingStripeHeads()).as(what).isZero();
            assertThat(c.cachedStripeHeads()).as(what).isLessThanOrEqualTo(cacheSize);
            for (long s = 0; s < array; s++) {
                assertThat(c.readArray(s)).as("%s round %d: md0 sector %d", what, round, s)
                        .isEqualTo(expected.getOrDefault(s, 0L));
            }
            for (long m = 0; m < rows * chunk; m += 8) {
                assertThat(c.parityConsistent(m)).as("%s round %d: stripe head %d", what, round, m).isTrue();
            }
        }
        return new Outcome(all, c.stats());
    }

    private static void checkWork(Raid5Geometry g, long component, List<StripeWork> work, String what) {
        for (StripeWork w : work) {
            int pd = g.parityDisk(w.memberSector());
            int qd = g.qDisk(w.memberSector());
            Set<Integer> readDisks = new HashSet<>();
            Set<Integer> writeDisks = new HashSet<>();
            List<MemberIo> io = new ArrayList<>(w.reads());
            io.addAll(w.writes());
            for (MemberIo m : io) {
                assertThat(m.sectors()).as(what).isEqualTo(8);
                assertThat(m.memberSector()).as(what).isEqualTo(w.memberSector());
                assertThat(m.memberSector() % 8).as(what).isZero();
                assertThat(m.memberSector() + m.sectors()).as("%s: %s inside the member", what, m)
                        .isLessThanOrEqualTo(component);
                assertThat(m.disk()).as(what).isBetween(0, g.raidDisks() - 1);
                if (m.disk() == pd || m.disk() == qd) {
                    assertThat(m.fromSector()).as("%s: parity from", what).isZero();
                } else {
                    // a data page's from sector is an array sector mapping back to that page
                    Raid5Geometry.Location back = g.computeSector(m.fromSector());
                    assertThat(back.dataDisk()).as("%s: %s", what, m).isEqualTo(m.disk());
                    assertThat(back.memberSector()).as("%s: %s", what, m).isEqualTo(m.memberSector());
                }
                assertThat((m.write() ? writeDisks : readDisks).add(m.disk())).as("%s: one bio per disk", what)
                        .isTrue();
            }
            // every handled head writes its parity; raid6 its Q too
            assertThat(writeDisks).as(what).contains(pd);
            if (qd >= 0) {
                assertThat(writeDisks).as(what).contains(qd);
            }
            assertThat(w.reads()).as("%s: reads in ops_run_io order", what)
                    .isSortedAccordingTo((a, b) -> Integer.compare(b.disk(), a.disk()));
        }
    }
}
