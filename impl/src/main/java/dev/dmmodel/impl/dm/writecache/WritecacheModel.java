package dev.dmmodel.impl.dm.writecache;

import dev.dmmodel.dm.WritecacheTarget;
import dev.dmmodel.engine.WritecacheStats;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * dm-writecache in SSD mode ({@code drivers/md/dm-writecache.c}): limits, where each bio goes, the metadata
 * commits, and the counters {@code dmsetup status} prints. One instance per loaded table, holding the cache's
 * entries.
 *
 * <p>The cache device holds the metadata (a 64-byte superblock and a 16-byte entry per block, rounded up to whole
 * blocks: {@code calculate_memory_size}) and then the data blocks. A write takes the free blocks from the current
 * one on as long as they are consecutive ({@code writecache_bio_copy_ssd}) and goes whole to the cache device at
 * their place; the rest of the bio, if any, is resubmitted ({@code dm_accept_partial_bio}). A write to a cached
 * block overwrites it in place. A read of a cached block is served from the cache device one block at a time; a
 * read of data not cached goes whole to the origin, up to the next cached block ({@code writecache_map_read}).
 *
 * <p>When the metadata is committed ({@code writecache_flush}): {@code autocommit_time} (1 s) after the first
 * write since the last commit ({@code writecache_schedule_autocommit}, the autocommit timer), when
 * {@code autocommit_blocks} (65536) blocks are uncommitted, or at a flush (bio 0 of an empty flush). A commit
 * writes the 64 KiB regions of the metadata that changed ({@code ssd_commit_flushed}: 128 sectors at cache sector 0
 * for the first 4092 entries), flushes the cache device, and writes the superblock's first 4 KiB with FUA
 * ({@code ssd_commit_superblock}). {@code sync} does not flush a block device, so a buffered write written back by
 * the phase's final {@code sync} is committed only after the phase.
 *
 * <p>Writeback to the origin starts when the free blocks (plus those being written back) fall to the high
 * watermark, {@code n_blocks * (100 - high_watermark) / 100} (8160 of 16320 at the default 50 %), or with
 * {@code max_age} / {@code cleaner}: not modelled, and never reached in the recordings (at most 513 blocks used).
 */
public final class WritecacheModel implements TargetModel {

    /** {@code sizeof(struct wc_memory_superblock)}: the header before the entries. */
    static final long SUPERBLOCK_BYTES = 64;
    /** {@code sizeof(struct wc_memory_entry)}: original sector and sequence count. */
    static final long ENTRY_BYTES = 16;
    /** {@code BITMAP_GRANULARITY}: the metadata is written in regions of 64 KiB. */
    static final long REGION_BYTES = 65_536;
    /** {@code AUTOCOMMIT_BLOCKS_SSD}. */
    static final long AUTOCOMMIT_BLOCKS = 65_536;
    /** {@code AUTOCOMMIT_MSEC}. */
    static final long AUTOCOMMIT_MS = 1000;
    /** {@code HIGH_WATERMARK}, {@code LOW_WATERMARK}: percent. */
    static final long HIGH_WATERMARK = 50;
    static final long LOW_WATERMARK = 45;

    private static final class Entry {
        final long index;
        final long original;
        long seq;

        Entry(long index, long original, long seq) {
            this.index = index;
            this.original = original;
            this.seq = seq;
        }
    }

    private final WritecacheTarget target;
    private final long cacheBytes;
    private final long blockSectors;
    /** Data blocks and metadata sectors ({@code calculate_memory_size}); -1 if the device is too small. */
    private final long nBlocks;
    private final long metadataSectors;
    private final long startSector;
    private final long autocommitBlocks;
    private final long autocommitNanos;

    /** Entries by original sector ({@code wc->tree}). */
    private final TreeMap<Long, Entry> entries = new TreeMap<>();
    private final BitSet used = new BitSet();
    /** {@code wc->current_free}: the next block to allocate, or -1 when none is free. */
    private long currentFree;
    private long freeBlocks;
    private long seqCount = 1;
    /** Entries written since the last commit ({@code seq_count} not yet committed). */
    private final List<Entry> uncommitted = new ArrayList<>();
    private boolean overwroteCommitted;
    private long uncommittedBlocks;
    /** When the autocommit timer fires (nanoseconds of the host's clock), or -1. */
    private long autocommitAt = -1;
    /** The host's clock as this target last heard of it. */
    private long now;
    private final TreeSet<Long> dirtyRegions = new TreeSet<>();
    private long reads;
    private long readHits;
    private long writes;
    private long writeHitsUncommitted;
    private long writeHitsCommitted;
    private long writesAround;
    private long writesAllocate;
    private long flushes;
    private long discards;

    WritecacheModel(WritecacheTarget target, Function<String, Long> deviceSize) {
        this.target = target;
        WritecacheTarget.Options o = target.options();
        this.startSector = o.startSector().orElse(0);
        this.cacheBytes = Math.multiplyExact(deviceSize.apply(target.cacheDevice()) - Math.min(startSector,
                deviceSize.apply(target.cacheDevice())), 512L);
        this.blockSectors = target.blockSize() / 512;
        long[] size = memorySize(cacheBytes, target.blockSize());
        this.nBlocks = size[0];
        this.metadataSectors = size[1] * blockSectors;
        this.freeBlocks = Math.max(nBlocks, 0);
        this.currentFree = nBlocks > 0 ? 0 : -1;
        this.autocommitBlocks = o.autocommitBlocks().orElse(AUTOCOMMIT_BLOCKS);
        this.autocommitNanos = Math.multiplyExact(o.autocommitTime().orElse(AUTOCOMMIT_MS), 1_000_000L);
    }

    /**
     * {@code calculate_memory_size}: the data blocks and metadata blocks of a cache of {@code bytes}: as many blocks
     * as fit with their 16-byte entries, fewer while the metadata (64 + 16 per block, rounded up to a block) and
     * the data do not fit. {@code {-1, -1}} if not even one block fits.
     */
    static long[] memorySize(long bytes, long blockSize) {
        long n = bytes / (blockSize + ENTRY_BYTES);
        while (n > 0) {
            long offset = SUPERBLOCK_BYTES + n * ENTRY_BYTES;
            offset = (offset + blockSize - 1) / blockSize * blockSize;
            if (offset + n * blockSize <= bytes) {
                return new long[] {n, offset / blockSize};
            }
            n--;
        }
        return new long[] {-1, -1};
    }

    long blocks() {
        return nBlocks;
    }

    long metadataSectors() {
        return metadataSectors;
    }

    /** {@code freelist_high_watermark}: writeback starts when free blocks fall to this. */
    long highWatermarkBlocks() {
        return (nBlocks * (100 - target.options().highWatermark().orElse(HIGH_WATERMARK)) + 50) / 100;
    }

    // dm-writecache.c: writecache_ctr — block size vs the devices' logical block sizes, start_sector, the cache
    // device's size
    @Override
    public void checkDevices(Function<String, Long> size, Function<String, Limits> limits) {
        for (String d : List.of(target.originDevice(), target.cacheDevice())) {
            Limits l = limits.apply(d);
            if (l != null && target.blockSize() < l.logicalBlockSize) {
                throw new IllegalArgumentException("block size " + target.blockSize() + " is below the logical block "
                        + "size " + l.logicalBlockSize + " of " + d + " (writecache_ctr: Block size is smaller than "
                        + "device logical block size)");
            }
        }
        if (startSector >= size.apply(target.cacheDevice())) {
            throw new IllegalArgumentException("start_sector " + startSector + " is not inside cache device "
                    + target.cacheDevice() + " (writecache_ctr: Invalid optional argument)");
        }
        if (nBlocks <= 0) {
            throw new IllegalArgumentException("cache device " + target.cacheDevice() + " holds no block of "
                    + target.blockSize() + " bytes with its metadata (writecache_ctr: Invalid device size)");
        }
        if (nBlocks > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("cache device " + target.cacheDevice() + " holds " + nBlocks
                    + " blocks, more than the model's " + Integer.MAX_VALUE);
        }
    }

    // dm-writecache.c: writecache_iterate_devices — the origin only
    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of(new DeviceArea(target.originDevice(), 0, target.length().count()));
    }

    // dm-writecache.c: writecache_io_hints — logical and physical block size and io_min at least the block size
    @Override
    public void ioHints(Limits l, Function<String, Limits> deviceLimits, KernelProfile profile) {
        l.logicalBlockSize = Math.max(l.logicalBlockSize, target.blockSize());
        l.physicalBlockSize = Math.max(l.physicalBlockSize, target.blockSize());
        l.ioMin = Math.max(l.ioMin, target.blockSize());
    }

    // dm-writecache.c: writecache_ctr — num_discard_bios = 1; discards_supported and num_write_zeroes_bios unset
    @Override
    public int numDiscardBios() {
        return 1;
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    @Override
    public int numWriteZeroesBios() {
        return 0;
    }

    private long cacheSector(Entry e) {
        return startSector + metadataSectors + e.index * blockSectors;
    }

    private boolean committed(Entry e) {
        return e.seq < seqCount;
    }

    // dm_accept_partial_bio in writecache_map_read / writecache_bio_copy_ssd / writecache_map_remap_origin
    @Override
    public long acceptedLen(MapContext ctx, Bio clone) {
        if (clone.sectors == 0 || clone.op == Op.DISCARD || misaligned(ctx, clone)) {
            return clone.sectors;
        }
        return plan(clone.sector - targetStart(ctx, clone), clone.sectors, clone.op != Op.READ).sectors;
    }

    private long targetStart(MapContext ctx, Bio clone) {
        return target.start().count();
    }

    private boolean misaligned(MapContext ctx, Bio clone) {
        long offset = clone.sector - target.start().count();
        return ((offset | clone.sectors) & (blockSectors - 1)) != 0;
    }

    /** What a read or write at {@code offset} does: where, how far, and whether it is cached. */
    private record Plan(boolean toCache, long sectors, Entry first, boolean searchUsed) {
    }

    private Plan plan(long offset, long sectors, boolean write) {
        Entry e = entries.get(offset);
        if (!write) {
            if (e != null) {
                return new Plan(true, blockSectors, e, false);
            }
            return new Plan(false, toNextEntry(offset, sectors), null, false);
        }
        if (e != null) {
            // the following cached blocks, consecutive in the cache and in the origin
            long len = blockSectors;
            Entry cur = e;
            while (len < sectors) {
                Map.Entry<Long, Entry> next = entries.higherEntry(cur.original);
                if (next == null || next.getValue().index != cur.index + 1
                        || next.getKey() != cur.original + blockSectors) {
                    break;
                }
                cur = next.getValue();
                len += blockSectors;
            }
            return new Plan(true, len, e, true);
        }
        if (target.options().cleaner() || target.options().metadataOnly() || currentFree < 0) {
            return new Plan(false, toNextEntry(offset, sectors), null, false);
        }
        // writecache_pop_from_freelist(expected_sector): the next free block must follow the previous one
        long len = blockSectors;
        long idx = currentFree;
        while (len < sectors && idx + 1 < nBlocks && !used.get((int) (idx + 1))) {
            idx++;
            len += blockSectors;
        }
        return new Plan(true, len, null, false);
    }

    // writecache_map_remap_origin: up to the next cached block
    private long toNextEntry(long offset, long sectors) {
        Long next = entries.higherKey(offset);
        return next == null ? sectors : Math.min(sectors, next - offset);
    }

    // dm-writecache.c: writecache_map
    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        if (clone.sectors == 0 && clone.has(Bio.PREFLUSH)) {
            clone.device = target.originDevice();
            return MapResult.REMAPPED;
        }
        if (misaligned(ctx, clone)) {
            ctx.block().fail(clone, ctx.device() + ": I/O is not aligned, sector " + offset + ", size "
                    + clone.sectors * 512 + ", block size " + target.blockSize());
            return MapResult.SUBMITTED;
        }
        if (clone.op == Op.DISCARD) {
            discards += clone.sectors / blockSectors;
            // writecache_offload_bio: the flush thread drops the blocks and passes the discard to the origin
            ctx.block().defer(() -> discard(ctx, clone, offset));
            return MapResult.SUBMITTED;
        }
        boolean write = clone.op != Op.READ;
        Plan p = plan(offset, clone.sectors, write);
        long blocks = p.sectors / blockSectors;
        if (!write) {
            if (p.toCache) {
                // writecache_map_read: a hit is served from the cache one block at a time
                reads++;
                readHits++;
                clone.device = target.cacheDevice();
                clone.sector = cacheSector(p.first);
            } else {
                reads += blocks;
                clone.device = target.originDevice();
                clone.sector = offset;
            }
            return MapResult.REMAPPED;
        }
        if (!p.toCache) {
            // writecache_map_write: direct_write — cleaner, metadata_only or no free block
            writesAround += blocks;
            writes += blocks;
            clone.device = target.originDevice();
            clone.sector = offset;
            return MapResult.REMAPPED;
        }
        Entry first;
        if (p.searchUsed) {
            first = p.first;
            Entry cur = first;
            for (long k = 0; k < blocks; k++) {
                cur = k == 0 ? first : entries.get(first.original + k * blockSectors);
                if (committed(cur)) {
                    overwroteCommitted = true;
                }
            }
            if (committed(first)) {
                writeHitsCommitted++;
            } else {
                writeHitsUncommitted++;
            }
        } else {
            first = null;
            for (long k = 0; k < blocks; k++) {
                Entry e = new Entry(popFree(), offset + k * blockSectors, seqCount);
                entries.put(e.original, e);
                uncommitted.add(e);
                uncommittedBlocks++;
                if (first == null) {
                    first = e;
                }
            }
            writesAllocate++;
        }
        // writecache_bio_copy_ssd: the whole run goes to the cache at the first block's place
        clone.device = target.cacheDevice();
        clone.sector = cacheSector(first);
        writes += blocks;
        writesAllocate += blocks - 1;
        if (uncommittedBlocks >= autocommitBlocks) {
            uncommittedBlocks = 0;
            // queue_work(flush_work): the commit runs in the writeback workqueue
            ctx.block().defer(() -> commit(ctx));
        } else if (autocommitAt < 0) {
            // writecache_schedule_autocommit: the timer is armed by the first write after a commit
            autocommitAt = Math.addExact(now, autocommitNanos);
        }
        return MapResult.REMAPPED;
    }

    // writecache_pop_from_freelist (sorted freelist): the current free block; the next one after it, wrapping
    private long popFree() {
        long e = currentFree;
        used.set((int) e);
        freeBlocks--;
        int next = used.nextClearBit((int) e + 1);
        if (next >= nBlocks) {
            next = used.nextClearBit(0);
        }
        currentFree = next >= nBlocks ? -1 : next;
        return e;
    }

    // dm-writecache.c: writecache_discard (blocks leave the cache; their entries change, so the changed metadata
    // regions are written and the device flushed) and the discard passed to the origin by the flush thread
    private void discard(MapContext ctx, Bio clone, long offset) {
        boolean any = false;
        for (Entry e : new ArrayList<>(entries.subMap(offset, offset + clone.sectors).values())) {
            entries.remove(e.original);
            uncommitted.remove(e);
            used.clear((int) e.index);
            freeBlocks++;
            // writecache_add_to_freelist: a freed block becomes current if none was
            if (currentFree < 0) {
                currentFree = e.index;
            }
            dirtyRegions.add(region(e));
            any = true;
        }
        if (any) {
            commitFlushed(ctx);
        }
        clone.device = target.originDevice();
        clone.sector = offset;
        ctx.block().submitBioNoacct(clone);
    }

    private long region(Entry e) {
        return (SUPERBLOCK_BYTES + e.index * ENTRY_BYTES) / REGION_BYTES;
    }

    // dm-writecache.c: writecache_map (REQ_PREFLUSH, SSD) — bio 0 goes to the flush thread, which commits
    @Override
    public void flushWork(MapContext ctx) {
        flushes++;
        ctx.block().defer(() -> commit(ctx));
    }

    // dm-writecache.c: writecache_flush (SSD)
    void commit(MapContext ctx) {
        uncommittedBlocks = 0;
        autocommitAt = -1;
        if (entries.isEmpty()) {
            return;
        }
        if (uncommitted.isEmpty()) {
            // the newest entry is committed: only an overwrite in place needs the device flushed
            if (overwroteCommitted) {
                diskFlush(ctx.block());
                overwroteCommitted = false;
            }
            return;
        }
        for (Entry e : uncommitted) {
            // writecache_flush_entry -> writecache_flush_region: the entry's 64 KiB region is dirty
            dirtyRegions.add(region(e));
        }
        uncommitted.clear();
        commitFlushed(ctx);
        seqCount++;
        ssdCommitSuperblock(ctx.block());
        overwroteCommitted = false;
    }

    // dm-writecache.c: ssd_commit_flushed — each run of dirty regions as one write (REQ_SYNC), then a flush
    private void commitFlushed(MapContext ctx) {
        BlockLayer block = ctx.block();
        long regionSectors = REGION_BYTES / 512;
        Long first = dirtyRegions.isEmpty() ? null : dirtyRegions.first();
        while (first != null) {
            long end = first;
            while (dirtyRegions.contains(end + 1)) {
                end++;
            }
            long sector = first * regionSectors;
            if (sector >= metadataSectors) {
                break;
            }
            long count = Math.min((end - first + 1) * regionSectors, metadataSectors - sector);
            block.submitRegion(target.cacheDevice(), Op.WRITE, Bio.SYNC, startSector + sector, count);
            first = dirtyRegions.higher(end);
        }
        dirtyRegions.clear();
        diskFlush(block);
    }

    // dm-writecache.c: writecache_disk_flush — an empty REQ_PREFLUSH write through dm-io (synchronous: REQ_SYNC)
    private void diskFlush(BlockLayer block) {
        block.submitBioNoacct(new Bio(target.cacheDevice(), Op.WRITE, Bio.PREFLUSH | Bio.SYNC, 0, 0, null));
    }

    // dm-writecache.c: ssd_commit_superblock — the first max(4 KiB, block) of the metadata with REQ_FUA
    private void ssdCommitSuperblock(BlockLayer block) {
        long count = Math.min(Math.max(4096, target.blockSize()) / 512, metadataSectors);
        block.submitRegion(target.cacheDevice(), Op.WRITE, Bio.FUA | Bio.SYNC, startSector, count);
    }

    // dm-writecache.c: writecache_autocommit_timer -> flush_work -> writecache_flush
    @Override
    public void clockAdvanced(MapContext ctx, long fromNanos, long toNanos) {
        if (autocommitAt >= 0 && autocommitAt <= toNanos) {
            now = Math.max(fromNanos, autocommitAt);
            commit(ctx);
        }
        now = toNanos;
    }

    /** What {@code dmsetup status} shows of this writecache now. */
    public WritecacheStats stats(String device) {
        return new WritecacheStats(device, false, nBlocks, freeBlocks, 0, reads, readHits, writes, writeHitsUncommitted,
                writeHitsCommitted, writesAround, writesAllocate, 0, flushes, discards, status());
    }

    // dm-writecache.c: writecache_status (STATUSTYPE_INFO)
    String status() {
        StringBuilder sb = new StringBuilder("0");
        for (long v : new long[] {nBlocks, freeBlocks, 0, reads, readHits, writes, writeHitsUncommitted,
                writeHitsCommitted, writesAround, writesAllocate, 0, flushes, discards}) {
            sb.append(' ').append(v);
        }
        return sb.toString();
    }
}
