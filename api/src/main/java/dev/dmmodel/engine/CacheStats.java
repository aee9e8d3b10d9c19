package dev.dmmodel.engine;

import java.util.Objects;

/**
 * What dm-cache did for one cache device during a simulation, as {@code dmsetup status} shows it
 * ({@code drivers/md/dm-cache-target.c: cache_status}): counters are per bio that reached the target's
 * {@code map} (one per cache block a bio covers, since dm core splits bios at block boundaries).
 *
 * @param device the cache device (kernel name)
 * @param blockSectors the cache block size in sectors
 * @param usedMetadataBlocks metadata blocks in use (4 KiB each)
 * @param totalMetadataBlocks metadata blocks of the metadata device
 * @param usedCacheBlocks cache blocks holding a mapping (the policy's residency)
 * @param totalCacheBlocks cache blocks of the cache device
 * @param readHits reads of cached blocks
 * @param readMisses reads of blocks not cached
 * @param writeHits writes to cached blocks
 * @param writeMisses writes to blocks not cached
 * @param demotions blocks dropped from the cache
 * @param promotions blocks copied into the cache
 * @param dirtyBlocks cached blocks newer than the origin
 * @param status the line {@code dmsetup status} prints after the target's start, length and type
 */
public record CacheStats(String device, long blockSectors, long usedMetadataBlocks, long totalMetadataBlocks,
                         long usedCacheBlocks, long totalCacheBlocks, long readHits, long readMisses, long writeHits,
                         long writeMisses, long demotions, long promotions, long dirtyBlocks, String status) {

    /** Rejects nulls. */
    public CacheStats {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(status, "status");
    }
}
