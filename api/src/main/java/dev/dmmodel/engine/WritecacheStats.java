package dev.dmmodel.engine;

import java.util.Objects;

/**
 * What dm-writecache did for one writecache device during a simulation, as {@code dmsetup status} shows it
 * ({@code drivers/md/dm-writecache.c: writecache_status}); the read and write counters count cache blocks.
 *
 * @param device the writecache device (kernel name)
 * @param error whether the cache has failed (an I/O error)
 * @param blocks cache blocks for data
 * @param freeBlocks cache blocks free
 * @param writebackBlocks blocks being written back to the origin
 * @param reads blocks read
 * @param readHits blocks read from the cache
 * @param writes blocks written
 * @param writeHitsUncommitted writes to cached blocks not yet committed
 * @param writeHitsCommitted writes to cached blocks already committed
 * @param writesAround blocks written to the origin directly (cache full, or {@code cleaner})
 * @param writesAllocate blocks newly allocated in the cache
 * @param writesBlockedOnFreelist writes that waited for a free block
 * @param flushes flushes received
 * @param discards blocks discarded
 * @param status the line {@code dmsetup status} prints after the target's start, length and type
 */
public record WritecacheStats(String device, boolean error, long blocks, long freeBlocks, long writebackBlocks,
                              long reads, long readHits, long writes, long writeHitsUncommitted,
                              long writeHitsCommitted, long writesAround, long writesAllocate,
                              long writesBlockedOnFreelist, long flushes, long discards, String status) {

    /** Rejects nulls. */
    public WritecacheStats {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(status, "status");
    }
}
