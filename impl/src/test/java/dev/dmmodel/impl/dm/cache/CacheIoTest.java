package dev.dmmodel.impl.dm.cache;

import static dev.dmmodel.impl.dm.cache.CacheStacks.of;
import static dev.dmmodel.impl.dm.cache.CacheStacks.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.CacheStats;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * dm-cache's I/O path on the recorded writethrough stack (64 KiB blocks, 1024 of them, smq): the block split, misses
 * to the origin, smq's promotions as copies, hits to the cache, the writethrough double write, writeback's fast
 * promotion, and the counters of dmsetup status.
 */
class CacheIoTest {
    private static final String W1M_AT0 = "dd if=/dev/zero of=/dev/mapper/vgk-origin bs=1M count=1 seek=0 "
            + "oflag=direct,seek_bytes\n";
    private static final String R1M_AT0 = "dd if=/dev/mapper/vgk-origin of=/dev/null bs=1M count=1 skip=0 "
            + "iflag=direct,skip_bytes\n";
    private static final String R1M_AT4M = "dd if=/dev/mapper/vgk-origin of=/dev/null bs=1M count=1 skip=4194304 "
            + "iflag=direct,skip_bytes\n";

    private final Layout layout = CacheStacks.cache("2 metadata2 writethrough");
    private final String cache = CacheStacks.dm(layout, "vgk-origin");
    private final String cdata = CacheStacks.dm(layout, "vgk-cpool_cpool_cdata");
    private final String corig = CacheStacks.dm(layout, "vgk-origin_corig");

    /** "rwbs sector+128" for the 16 blocks from {@code first} sector on. */
    private static List<String> blocks(String rwbs, long first) {
        return LongStream.range(0, 16).mapToObj(i -> rwbs + " " + (first + 128 * i) + "+128").toList();
    }

    private static CacheStats stats(Simulation sim) {
        return sim.cacheStats().get(0);
    }

    @Test
    void aWriteIsSplitAtBlocksAndMissesGoToTheOrigin() {
        // max_io_len = 128 sectors: 1 MiB (2048 sectors) at 0 = 16 clones, 15 block_split at 128, 256, ... 1920;
        // never-cached blocks: each clone remapped to the origin at its own sector, nothing on the cache device
        Simulation sim = Simulation.of(layout);
        List<TraceEvent> ev = run(sim, W1M_AT0);
        assertThat(of(ev, cache, EventType.SPLIT)).hasSize(15);
        assertThat(of(ev, corig, EventType.BIO_REMAP)).isEqualTo(blocks("WS", 0));
        assertThat(of(ev, cdata, EventType.BIO_QUEUE)).isEmpty();
        assertThat(stats(sim).writeMisses()).isEqualTo(16);
        assertThat(stats(sim).promotions()).isZero();
    }

    @Test
    void theFirstReadAfterATickPromotesEveryBlockTheWriteTouched() {
        // the write creates 4 hotspot blocks (256 KiB each: calc_hotspot_params halves 16 blocks to 4 for a 256 MiB
        // origin) at level 0; the ticks of sleep 2 set the promote level to 48 (Q_POOR) and lift the 4 entries to
        // levels 56..57 (16 in the top 8 levels); so every miss of the read is promoted: kcopyd reads the block
        // from the origin (R 128) and writes it to cache blocks 0..15 (W 128 at cdata 0, 128, ...)
        Simulation sim = Simulation.of(layout);
        run(sim, W1M_AT0 + "sleep 2\n");
        List<TraceEvent> ev = run(sim, R1M_AT0);
        assertThat(of(ev, corig, EventType.BIO_REMAP)).isEqualTo(blocks("RS", 0));
        assertThat(of(ev, corig, EventType.BIO_QUEUE)).containsAll(blocks("R", 0));
        assertThat(of(ev, cdata, EventType.BIO_QUEUE)).isEqualTo(blocks("W", 0));
        assertThat(stats(sim).promotions()).isEqualTo(16);
        assertThat(stats(sim).readMisses()).isEqualTo(16);
        assertThat(stats(sim).usedCacheBlocks()).isEqualTo(16);
    }

    @Test
    void aBlockReadForTheFirstTimeIsPromotedOnlyOnItsNextReadAfterATick() {
        // cache-wt-r1M-at4M and -again: the first read creates the hotspot entries at level 0 (< 48): no promotion;
        // the second read, after sleep 2, finds them at 56+: 16 promotions into cache blocks 0..15
        Simulation sim = Simulation.of(layout);
        List<TraceEvent> first = run(sim, R1M_AT4M + "sleep 2\n");
        assertThat(of(first, cdata, EventType.BIO_QUEUE)).isEmpty();
        assertThat(stats(sim).promotions()).isZero();
        List<TraceEvent> second = run(sim, R1M_AT4M);
        assertThat(of(second, cdata, EventType.BIO_QUEUE)).isEqualTo(blocks("W", 0));
        assertThat(of(second, corig, EventType.BIO_QUEUE)).containsAll(blocks("R", 8192));
        assertThat(stats(sim).promotions()).isEqualTo(16);
        assertThat(stats(sim).readMisses()).isEqualTo(32);
    }

    @Test
    void withoutATickNothingIsPromoted() {
        // until the first tick the promote level is NR_HOTSPOT_LEVELS (64): no level reaches it
        Simulation sim = Simulation.of(layout);
        run(sim, R1M_AT4M + R1M_AT4M + R1M_AT4M);
        assertThat(stats(sim).promotions()).isZero();
        assertThat(stats(sim).readMisses()).isEqualTo(48);
    }

    @Test
    void readsOfCachedBlocksGoToTheCache() {
        // after the promotion, the 16 pieces are remapped to cache blocks 0..15 (cdata 0, 128, ...): read hits
        Simulation sim = Simulation.of(layout);
        run(sim, W1M_AT0 + "sleep 2\n" + R1M_AT0 + "sleep 2\n");
        List<TraceEvent> ev = run(sim, R1M_AT0);
        assertThat(of(ev, cdata, EventType.BIO_REMAP)).isEqualTo(blocks("RS", 0));
        assertThat(of(ev, corig, EventType.BIO_QUEUE)).isEmpty();
        assertThat(stats(sim).readHits()).isEqualTo(16);
    }

    @Test
    void aWritethroughWriteToACachedBlockGoesToTheOriginAndTheCache() {
        // remap_to_origin_and_cache: a clone to the origin at the same sector (submit_bio: queued, not remapped)
        // and the bio itself remapped to its cache block; the README: "A 4 KiB write to a cached block goes to both"
        Simulation sim = Simulation.of(layout);
        run(sim, W1M_AT0 + "sleep 2\n" + R1M_AT0 + "sleep 2\n");
        List<TraceEvent> ev = run(sim, "dd if=/dev/zero of=/dev/mapper/vgk-origin bs=4k count=1 seek=0 "
                + "oflag=direct,seek_bytes\n");
        assertThat(of(ev, corig, EventType.BIO_QUEUE)).containsExactly("WS 0+8");
        assertThat(of(ev, corig, EventType.BIO_REMAP)).isEmpty();
        assertThat(of(ev, cdata, EventType.BIO_REMAP)).containsExactly("WS 0+8");
        assertThat(stats(sim).writeHits()).isEqualTo(1);
        assertThat(stats(sim).dirtyBlocks()).isZero();
    }

    @Test
    void writebackPromotesAWholeBlockWriteAtOnceAndMarksItDirty() {
        // optimisable_bio: in writeback mode a write of a whole block not cached is written to a new cache block
        // (no copy), which is dirty; 1 MiB = 16 blocks into cache blocks 0..15, nothing to the origin
        Layout wb = CacheStacks.cache("1 metadata2");
        Simulation sim = Simulation.of(wb);
        List<TraceEvent> ev = run(sim, W1M_AT0.replace("vgk-origin", "vgk-origin"));
        assertThat(of(ev, CacheStacks.dm(wb, "vgk-cpool_cpool_cdata"), EventType.BIO_REMAP))
                .isEqualTo(blocks("WS", 0));
        assertThat(of(ev, CacheStacks.dm(wb, "vgk-origin_corig"), EventType.BIO_QUEUE)).isEmpty();
        assertThat(stats(sim).dirtyBlocks()).isEqualTo(16);
        assertThat(stats(sim).promotions()).isEqualTo(16);
        assertThat(stats(sim).writeMisses()).isZero();
    }

    @Test
    void statusAsCacheStatusPrintsIt() {
        // the recorded snapshot's line: 8 = metadata block sectors, 11/2048 metadata blocks (16384 / 8), 128,
        // 0/1024 cache blocks (131072 / 128), 7 counters, 2 features, the core's migration_threshold, smq 0, rw -
        Simulation sim = Simulation.of(layout);
        assertThat(stats(sim).status()).isEqualTo("8 11/2048 128 0/1024 0 0 0 0 0 0 0 2 metadata2 writethrough "
                + "2 migration_threshold 2048 smq 0 rw - ");
        // cache-wt-r1M-at4M's setup and workload: 16 + 1 write misses, 16 + 16 read misses, 16 promotions
        run(sim, W1M_AT0 + "sleep 2\nsync\n" + "dd if=/dev/zero of=/dev/mapper/vgk-origin bs=4k count=1 seek=2097152 "
                + "oflag=direct,seek_bytes\nsleep 2\nsync\n" + R1M_AT0 + "sleep 2\nsync\n" + R1M_AT4M + "sleep 2\n");
        assertThat(stats(sim).status()).isEqualTo("8 11/2048 128 16/1024 0 32 0 17 0 16 0 2 metadata2 writethrough "
                + "2 migration_threshold 2048 smq 0 rw - ");
    }

    @Test
    void theBlocksPromotedLaterTakeTheNextFreeCacheBlocks() {
        // alloc_entry pops the free list's head: the second set of 16 promotions goes to cache blocks 16..31
        // (cdata 2048, 2176, ...), as cache-wt-r1M-at4M-again recorded (dm-1 W 2048 + 128 first)
        Simulation sim = Simulation.of(layout);
        run(sim, W1M_AT0 + "sleep 2\n" + R1M_AT0 + R1M_AT4M + "sleep 2\n");
        List<TraceEvent> ev = new ArrayList<>(run(sim, R1M_AT4M));
        assertThat(of(ev, cdata, EventType.BIO_QUEUE)).isEqualTo(blocks("W", 2048));
    }

    @Test
    void aDiscardGoesWholeToTheOrigin() {
        // process_discard_bio with passdown (the origin takes discards of at least a block): remapped whole
        Simulation sim = Simulation.of(layout);
        List<TraceEvent> ev = run(sim, "blkdiscard -o 0 -l 1048576 /dev/mapper/vgk-origin\n");
        assertThat(of(ev, corig, EventType.BIO_REMAP)).containsExactly("DS 0+2048");
        assertThat(of(ev, cdata, EventType.BIO_QUEUE)).isEmpty();
    }
}
