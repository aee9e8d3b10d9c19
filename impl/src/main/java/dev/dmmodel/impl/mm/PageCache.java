package dev.dmmodel.impl.mm;

import com.google.common.collect.Range;
import com.google.common.collect.RangeSet;
import com.google.common.collect.TreeRangeSet;
import dev.dmmodel.impl.block.Bvecs;

/**
 * One block device's page cache ({@code bdev->bd_inode->i_mapping}): which bytes are cached and which
 * are dirty, as ranges (never per page), and the soft block size that sizes its buffer heads.
 */
public final class PageCache {
    final String device;
    final long sizeBytes;
    public long blockSize;
    final RangeSet<Long> cached = TreeRangeSet.create();
    final RangeSet<Long> dirty = TreeRangeSet.create();
    public final Readahead readahead;
    /** Page index carrying the PG_readahead mark, or -1. */
    long readaheadMark = -1;

    public PageCache(String device, long sizeBytes, long blockSize, long raPages) {
        this.device = device;
        this.sizeBytes = sizeBytes;
        this.blockSize = blockSize;
        this.readahead = new Readahead(raPages);
    }

    // block/bdev.c: set_init_blocksize — the largest power of two up to a page dividing the size
    public static long initialBlockSize(long logicalBlockSize, long sizeBytes, long pageSize) {
        long bsize = logicalBlockSize;
        while (bsize < pageSize && (sizeBytes & bsize) == 0) {
            bsize <<= 1;
        }
        return bsize;
    }

    public void markDirty(long from, long to) {
        Range<Long> r = Range.closedOpen(from, to);
        dirty.add(r);
        cached.add(r);
    }

    boolean isCached(long page) {
        return cached.encloses(Range.closedOpen(page * Bvecs.PAGE, (page + 1) * Bvecs.PAGE));
    }

    /** {@code echo 1 > drop_caches} / {@code kill_bdev}: clean pages leave the cache. */
    public void dropClean() {
        RangeSet<Long> keep = TreeRangeSet.create(dirty);
        cached.clear();
        cached.addAll(keep);
        readaheadMark = -1;
    }

    /** The file_ra_state of the reading file (one reader at a time here). */
    public static final class Readahead {
        public long raPages;
        long start;
        long size;
        long asyncSize;
        long prevPos = -1;

        Readahead(long raPages) {
            this.raPages = raPages;
        }
    }
}
