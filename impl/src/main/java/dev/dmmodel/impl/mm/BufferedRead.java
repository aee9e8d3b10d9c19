package dev.dmmodel.impl.mm;

import com.google.common.collect.Range;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Bios;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Bvecs;
import dev.dmmodel.impl.block.Op;

/**
 * A {@code read(2)} through the page cache with the kernel's on-demand readahead
 * ({@code mm/filemap.c: filemap_read}, {@code mm/readahead.c: ondemand_readahead}); readahead reads go
 * out as multi-page bios ({@code mpage_readahead}, 3.18+).
 */
public final class BufferedRead {
    private final BlockLayer block;
    private final UserBuffer buffer;
    private final PageCache cache;

    /** A read of {@code cache}'s device through the block layer into the reader's {@code buffer}. */
    public BufferedRead(BlockLayer block, UserBuffer buffer, PageCache cache) {
        this.block = block;
        this.buffer = buffer;
        this.cache = cache;
    }

    /** {@code read(2)} of {@code bytes} at {@code pos}. */
    public void read(long pos, long bytes) {
        long first = pos / Bvecs.PAGE;
        long last = (pos + bytes - 1) / Bvecs.PAGE;
        for (long p = first; p <= last; p++) {
            if (!cache.isCached(p)) {
                ondemand(p, last + 1 - p, false);
            }
            if (p == cache.readaheadMark) {
                cache.readaheadMark = -1;
                ondemand(p, last + 1 - p, true);
            }
        }
        cache.readahead.prevPos = pos + bytes - 1;
    }

    // mm/readahead.c: get_init_ra_size
    static long initSize(long size, long max) {
        long n = Long.highestOneBit(size);
        if (n < size) {
            n <<= 1;
        }
        if (n <= max / 32) {
            return n * 4;
        }
        if (n <= max / 4) {
            return n * 2;
        }
        return max;
    }

    // mm/readahead.c: get_next_ra_size
    static long nextSize(long cur, long max) {
        if (cur < max / 16) {
            return 4 * cur;
        }
        if (cur <= max / 2) {
            return 2 * cur;
        }
        return max;
    }

    // mm/readahead.c: ondemand_readahead
    private void ondemand(long index, long reqSize, boolean hitMarker) {
        PageCache.Readahead ra = cache.readahead;
        long maxPages = ra.raPages;
        long ioPages = block.ioPages(cache.device);
        if (reqSize > maxPages && ioPages > maxPages) {
            maxPages = Math.min(reqSize, ioPages);
        }
        boolean initial;
        if (index == 0) {
            initial = true;
        } else if (index == ra.start + ra.size - ra.asyncSize || index == ra.start + ra.size) {
            ra.start += ra.size;
            ra.size = nextSize(ra.size, maxPages);
            ra.asyncSize = ra.size;
            initial = false;
        } else if (reqSize > maxPages) {
            initial = true;
        } else if (index - Math.max(ra.prevPos, 0) / Bvecs.PAGE <= 1) {
            initial = true;
        } else {
            // a standalone random read: just the requested pages, no readahead state
            readPages(index, reqSize, 0);
            return;
        }
        if (initial) {
            ra.start = index;
            ra.size = initSize(reqSize, maxPages);
            ra.asyncSize = ra.size > reqSize ? ra.size - reqSize : ra.size;
        }
        if (index == ra.start && ra.size == ra.asyncSize) {
            long add = nextSize(ra.size, maxPages);
            if (ra.size + add <= maxPages) {
                ra.asyncSize = add;
                ra.size += add;
            } else {
                ra.size = maxPages;
                ra.asyncSize = maxPages >> 1;
            }
        }
        readPages(ra.start, ra.size, ra.asyncSize);
    }

    // mm/readahead.c: page_cache_ra_unbounded + read_pages — uncached pages, PG_readahead at nr - lookahead
    private void readPages(long index, long nr, long lookahead) {
        long endIndex = (cache.sizeBytes - 1) / Bvecs.PAGE;
        if (index > endIndex) {
            return;
        }
        nr = Math.min(nr, endIndex - index + 1);
        BlockLayer k = block;
        k.startPlug();
        long runStart = -1;
        for (long p = index; p <= index + nr; p++) {
            boolean need = p < index + nr && !cache.isCached(p);
            if (need && runStart < 0) {
                runStart = p;
            }
            if ((!need || p - runStart == Bios.BIO_MAX_VECS) && runStart >= 0) {
                submit(runStart, p - runStart);
                runStart = need ? p : -1;
            }
        }
        k.finishPlug();
        k.completeAll();
        cache.cached.add(Range.closedOpen(index * Bvecs.PAGE, (index + nr) * Bvecs.PAGE));
        if (lookahead > 0 && lookahead <= nr) {
            cache.readaheadMark = index + nr - lookahead;
        }
    }

    // fs/mpage.c: mpage_readahead — one bio over contiguous pages, at most BIO_MAX_VECS of them;
    // until 3.17 block_read_full_page — one bio per buffer of each page
    private void submit(long page, long pages) {
        if (block.profile.readaheadPerBuffer()) {
            long bs = cache.blockSize;
            long end = Math.min((page + pages) * Bvecs.PAGE, cache.sizeBytes);
            for (long off = page * Bvecs.PAGE; off < end; off += bs) {
                block.submitBioNoacct(new Bio(cache.device, Op.READ, 0, off / 512, bs / 512,
                        buffer.vectors(off % Bvecs.PAGE, bs)));
            }
            return;
        }
        long bytes = Math.min(pages * Bvecs.PAGE, cache.sizeBytes - page * Bvecs.PAGE);
        Bio bio = new Bio(cache.device, Op.READ, Bio.RAHEAD, page * Bvecs.PAGE / 512, bytes / 512,
                buffer.vectors(0, bytes));
        block.submitBioNoacct(bio);
    }
}
