package dev.dmmodel.impl.dm.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The smq policy's promotion decisions ({@code drivers/md/dm-cache-policy-smq.c}), deterministic.
 *
 * <p>The rule: a lookup that misses the cache updates the <em>hotspot queue</em>, 64 levels of LRU lists of hotspot
 * blocks (each {@link #blocksPerHotspotBlock()} cache blocks; {@code calc_hotspot_params}). A hotspot block seen
 * for the first time enters at level 0; a later miss in it moves it up by the level jump once per tick
 * ({@code update_hotspot_queue}, {@code q_requeue}). The miss is promoted when its hotspot block's level is at
 * least the promote level ({@code should_promote}): 64 (never) until the first tick, then, at every tick,
 * {@code 64 - 64/4 = 48} while fewer than 1/16 of the hotspot lookups since the last tick were in levels 48 and
 * above ({@code update_promote_levels}, {@code stats_assess}: Q_POOR), 32 below 1/8 and 0 above. Each tick then
 * redistributes the queue ({@code q_redistribute}) over per-level targets: the top 8 levels hold
 * {@code nr_in_top_levels} entries (16 for 1024 cache blocks), the rest the others — so while a cache has few
 * hotspot blocks, a tick lifts every one of them to level 56 or above. Hence the recordings: the misses of a
 * block's first accesses are not promoted, a read after the next tick is (a 1 MiB read at 0, written before:
 * all 16 blocks), and a block read for the first time is promoted on its next read after a tick.
 *
 * <p>The tick is dm-cache's waker ({@code do_waker}, every {@code COMMIT_PERIOD} = 1 s, {@code smq_tick}); the
 * model ticks at each whole second of the host's clock and redistributes at every tick, since the waker re-arms
 * itself one second after it ran and so always finds {@code next_hotspot_period} past.
 *
 * <p>Cache blocks are allocated lowest free first ({@code alloc_entry} pops the free list's head; freed blocks go
 * to its tail). When every cache block is in use the model neither promotes nor demotes (smq would queue a
 * demotion of the oldest clean block, {@code queue_demotion}); the recordings never fill a cache.
 */
final class SmqPolicy {
    /** {@code NR_HOTSPOT_LEVELS} and {@code NR_CACHE_LEVELS}. */
    static final int LEVELS = 64;
    /** {@code stats_init}: lookups in levels at or above 3/4 of the levels count as hits. */
    static final int HIT_THRESHOLD = LEVELS * 3 / 4;
    /** {@code __smq_create}: {@code hotspot.nr_top_levels}. */
    static final int TOP_LEVELS = 8;
    /** {@code end_cache_period}: cache statistics are reset every {@code CACHE_UPDATE_PERIOD} (10 s). */
    static final int CACHE_PERIOD_TICKS = 10;

    private static final class HotspotEntry {
        final int index;
        long hblock;
        int level;

        HotspotEntry(int index) {
            this.index = index;
        }
    }

    private final long cacheBlocks;
    private final long hotspotBlockSectors;
    private final long blocksPerHotspotBlock;
    private final int nrHotspotBlocks;
    private final int nrInTopLevels;
    private final boolean promotes;

    private final Map<Long, HotspotEntry> hotspotTable = new HashMap<>();
    private final List<List<HotspotEntry>> levels = new ArrayList<>();
    private int hotspotAllocated;
    private int hotspotSize;
    private final Set<Integer> hotspotHitBits = new HashSet<>();
    private long hotspotHits;
    private long hotspotMisses;
    private long cacheHits;
    private long cacheMisses;
    private int readPromoteLevel = LEVELS;
    private int writePromoteLevel = LEVELS;
    private int levelJump = 1;
    private long ticks;

    /** Mappings: origin block to cache block. */
    private final Map<Long, Long> mappings = new HashMap<>();
    /** Cache blocks reserved for promotions under way, by origin block. */
    private final Map<Long, Long> pending = new HashMap<>();
    private long nextFresh;
    private final ArrayDeque<Long> freed = new ArrayDeque<>();

    /**
     * A policy for a cache of {@code cacheBlocks} blocks of {@code blockSectors} over {@code originSectors}.
     *
     * @param promotes false for the {@code cleaner} policy, which never promotes
     */
    SmqPolicy(long cacheBlocks, long originSectors, long blockSectors, boolean promotes) {
        this.cacheBlocks = cacheBlocks;
        this.promotes = promotes;
        // dm-cache-policy-smq.c: calc_hotspot_params — 16 cache blocks, halved while the hotspot blocks would
        // cover more than the origin
        long hbs = Math.multiplyExact(blockSectors, 16);
        long nr = Math.max(cacheBlocks / 4, 1024);
        while (hbs > blockSectors && hbs * nr > originSectors) {
            hbs /= 2;
        }
        this.hotspotBlockSectors = hbs;
        this.nrHotspotBlocks = (int) Math.min(nr, Integer.MAX_VALUE);
        this.blocksPerHotspotBlock = hbs / blockSectors;
        // __smq_create: hotspot.nr_in_top_levels
        this.nrInTopLevels = (int) Math.min(nrHotspotBlocks / LEVELS, cacheBlocks / blocksPerHotspotBlock);
        for (int i = 0; i < LEVELS; i++) {
            levels.add(new ArrayList<>());
        }
    }

    long hotspotBlockSectors() {
        return hotspotBlockSectors;
    }

    long blocksPerHotspotBlock() {
        return blocksPerHotspotBlock;
    }

    int readPromoteLevel() {
        return readPromoteLevel;
    }

    int writePromoteLevel() {
        return writePromoteLevel;
    }

    /** The hotspot level of the hotspot block holding origin block {@code oblock}, or -1 if it has none. */
    int hotspotLevel(long oblock) {
        HotspotEntry e = hotspotTable.get(oblock / blocksPerHotspotBlock);
        return e == null ? -1 : e.level;
    }

    /** The cache block holding {@code oblock}, if it is mapped. */
    OptionalLong mapping(long oblock) {
        Long c = mappings.get(oblock);
        return c == null ? OptionalLong.empty() : OptionalLong.of(c);
    }

    /** Cache blocks in use, promotions under way included ({@code smq_residency}). */
    long residency() {
        return nextFresh - freed.size();
    }

    /** What a lookup found. */
    record Lookup(boolean hit, long cblock, boolean promote) {
    }

    // dm-cache-policy-smq.c: __lookup — a hit requeues the cache entry; a miss updates the hotspot queue and may
    // queue a promotion into a newly allocated cache block (queue_promotion)
    Lookup lookup(long oblock, boolean write) {
        Long c = mappings.get(oblock);
        if (c != null) {
            // promoted entries sit at level NR_CACHE_LEVELS - 1 (a hit of the cache statistics)
            cacheHits++;
            return new Lookup(true, c, false);
        }
        cacheMisses++;
        HotspotEntry hs = updateHotspotQueue(oblock);
        int level = hs == null ? 0 : hs.level;
        // should_promote: fast promotion is the caller's (writeback whole-block writes)
        boolean promote = promotes && level >= (write ? writePromoteLevel : readPromoteLevel);
        if (!promote || pending.containsKey(oblock) || residency() >= cacheBlocks) {
            return new Lookup(false, -1, false);
        }
        long cblock = allocate();
        pending.put(oblock, cblock);
        return new Lookup(false, cblock, true);
    }

    /**
     * {@code should_promote}'s fast path for a writeback cache: a write covering a whole block not cached is
     * promoted at once if a cache block is free (PROMOTE_TEMPORARY); the hotspot queue is updated as for any miss.
     * Returns the cache block, or -1.
     */
    long fastPromote(long oblock) {
        cacheMisses++;
        updateHotspotQueue(oblock);
        if (!promotes || pending.containsKey(oblock) || residency() >= cacheBlocks) {
            return -1;
        }
        long cblock = allocate();
        pending.put(oblock, cblock);
        return cblock;
    }

    // alloc_entry: the free list's head (initially in index order), freed blocks went to its tail
    private long allocate() {
        if (nextFresh < cacheBlocks) {
            return nextFresh++;
        }
        return freed.pollFirst();
    }

    /** {@code __complete_background_work} (POLICY_PROMOTE, success): the mapping exists now. */
    void promoted(long oblock) {
        Long c = pending.remove(oblock);
        if (c != null) {
            mappings.put(oblock, c);
        }
    }

    /** {@code smq_invalidate_mapping}: the block is no longer cached; its cache block goes to the free list's tail. */
    void invalidate(long oblock) {
        Long c = mappings.remove(oblock);
        if (c != null) {
            freed.addLast(c);
        }
    }

    // dm-cache-policy-smq.c: update_hotspot_queue
    private HotspotEntry updateHotspotQueue(long oblock) {
        long hb = oblock / blocksPerHotspotBlock;
        HotspotEntry e = hotspotTable.get(hb);
        if (e != null) {
            // stats_level_accessed
            if (e.level >= HIT_THRESHOLD) {
                hotspotHits++;
            } else {
                hotspotMisses++;
            }
            requeue(e, hotspotHitBits.add(e.index) ? levelJump : 0);
            return e;
        }
        hotspotMisses++;
        if (hotspotAllocated < nrHotspotBlocks) {
            e = new HotspotEntry(hotspotAllocated++);
        } else {
            // q_pop: the oldest entry of the lowest level is reused
            e = pop();
            if (e == null) {
                return null;
            }
            hotspotTable.remove(e.hblock);
            hotspotHitBits.remove(e.index);
        }
        e.hblock = hb;
        e.level = 0;
        push(e);
        hotspotTable.put(hb, e);
        return e;
    }

    private void push(HotspotEntry e) {
        levels.get(e.level).add(e);
        hotspotSize++;
    }

    private void delete(HotspotEntry e) {
        levels.get(e.level).remove(e);
        hotspotSize--;
    }

    private HotspotEntry pop() {
        for (List<HotspotEntry> l : levels) {
            if (!l.isEmpty()) {
                HotspotEntry e = l.remove(0);
                hotspotSize--;
                return e;
            }
        }
        return null;
    }

    // dm-cache-policy-smq.c: q_requeue — up by extra levels, swapping with the oldest entry of the level it enters
    private void requeue(HotspotEntry e, int extra) {
        delete(e);
        if (extra > 0 && e.level < LEVELS - 1) {
            int newLevel = Math.min(LEVELS - 1, e.level + extra);
            List<HotspotEntry> dest = levels.get(newLevel);
            if (!dest.isEmpty()) {
                HotspotEntry de = dest.get(0);
                delete(de);
                de.level = e.level;
                push(de);
            }
            e.level = newLevel;
        }
        push(e);
    }

    /** {@code smq_tick}: the end of a hotspot period (and every 10th, of a cache period). */
    // dm-cache-policy-smq.c: smq_tick -> end_hotspot_period, end_cache_period
    void tick() {
        ticks++;
        hotspotHitBits.clear();
        updatePromoteLevels();
        // time_after(jiffies, next_hotspot_period): true at every waker run (see the class comment)
        levelJump = switch (assess(hotspotHits, hotspotMisses)) {
            case 0 -> 4;
            case 1 -> 2;
            default -> 1;
        };
        redistribute();
        hotspotHits = 0;
        hotspotMisses = 0;
        if ((ticks - 1) % CACHE_PERIOD_TICKS == 0) {
            cacheHits = 0;
            cacheMisses = 0;
        }
    }

    // dm-cache-policy-smq.c: stats_assess — 0 Q_POOR (< 1/16 hits), 1 Q_FAIR (< 1/8), 2 Q_WELL
    static int assess(long hits, long misses) {
        long total = hits + misses;
        long confidence = total == 0 ? 0 : (hits << 8) / total;
        if (confidence < 16) {
            return 0;
        }
        return confidence < 32 ? 1 : 2;
    }

    // dm-cache-policy-smq.c: update_promote_levels — max(threshold, NR_HOTSPOT_LEVELS) makes the threshold 64 before
    // the hotspot statistics cut it
    private void updatePromoteLevels() {
        int threshold = residency() >= cacheBlocks ? defaultPromoteLevel() : LEVELS / 2;
        threshold = Math.max(threshold, LEVELS);
        switch (assess(hotspotHits, hotspotMisses)) {
            case 0:
                threshold /= 4;
                break;
            case 1:
                threshold /= 2;
                break;
            default:
                break;
        }
        readPromoteLevel = LEVELS - threshold;
        writePromoteLevel = LEVELS - threshold;
    }

    // dm-cache-policy-smq.c: default_promote_level
    private int defaultPromoteLevel() {
        int[] table = {1, 1, 1, 2, 4, 6, 7, 8, 7, 6, 4, 4, 3, 3, 2, 2, 1};
        long total = cacheHits + cacheMisses;
        return table[(int) (total == 0 ? 0 : (cacheHits << 4) / total)];
    }

    // dm-cache-policy-smq.c: q_set_targets + q_redistribute
    private void redistribute() {
        int[] target = new int[LEVELS];
        int topFrom = LEVELS - TOP_LEVELS;
        subrange(target, nrInTopLevels, topFrom, LEVELS);
        subrange(target, nrInTopLevels < hotspotSize ? hotspotSize - nrInTopLevels : 0, 0, topFrom);
        for (int level = 0; level < LEVELS - 1; level++) {
            List<HotspotEntry> l = levels.get(level);
            while (l.size() < target[level]) {
                HotspotEntry e = firstFrom(level + 1);
                if (e == null) {
                    break;
                }
                levels.get(e.level).remove(e);
                e.level = level;
                l.add(e);
            }
            List<HotspotEntry> above = levels.get(level + 1);
            while (l.size() > target[level]) {
                HotspotEntry e = l.remove(l.size() - 1);
                e.level = level + 1;
                above.add(0, e);
            }
        }
    }

    // q_set_targets_subrange_: n entries spread over [from, to), the remainder to the lowest levels
    private static void subrange(int[] target, int n, int from, int to) {
        int count = to - from;
        int per = n / count;
        int rem = n % count;
        for (int level = from; level < to; level++) {
            target[level] = level < from + rem ? per + 1 : per;
        }
    }

    // __redist_pop_from: the oldest entry of the lowest level from `level` up
    private HotspotEntry firstFrom(int level) {
        for (int i = level; i < LEVELS; i++) {
            if (!levels.get(i).isEmpty()) {
                return levels.get(i).get(0);
            }
        }
        return null;
    }
}
