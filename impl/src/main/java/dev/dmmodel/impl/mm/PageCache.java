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
    /** First page of the folio carrying the PG_readahead mark, or -1. */
    long readaheadMark = -1;
    /** Order of that folio (0: a single page). */
    int readaheadMarkOrder;

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

    /** Whether any of {@code pages} pages from {@code page} is cached (a folio there would collide). */
    boolean anyCached(long page, long pages) {
        return !cached.subRangeSet(Range.closedOpen(Math.multiplyExact(page, Bvecs.PAGE),
                Math.multiplyExact(Math.addExact(page, pages), Bvecs.PAGE))).isEmpty();
    }

    /** Puts the PG_readahead mark on the folio of {@code 2^order} pages at {@code page}. */
    void markReadahead(long page, int order) {
        readaheadMark = page;
        readaheadMarkOrder = order;
    }

    /** Whether {@code page} lies in the readahead-marked folio. */
    boolean isInReadaheadMark(long page) {
        return readaheadMark >= 0 && page >= readaheadMark && page - readaheadMark < (1L << readaheadMarkOrder);
    }

    void clearReadaheadMark() {
        readaheadMark = -1;
        readaheadMarkOrder = 0;
    }

    /** {@code echo 1 > drop_caches} / {@code kill_bdev}: clean pages leave the cache. */
    public void dropClean() {
        RangeSet<Long> keep = TreeRangeSet.create(dirty);
        cached.clear();
        cached.addAll(keep);
        clearReadaheadMark();
    }

    /** The file_ra_state of the reading file (one reader at a time here). */
    public static final class Readahead {
        public long raPages;
        long start;
        long size;
        long asyncSize;
        /** The folio order of the last window ({@code file_ra_state.order}, 6.17+). */
        int order;
        long prevPos = -1;

        Readahead(long raPages) {
            this.raPages = raPages;
        }
    }
}
