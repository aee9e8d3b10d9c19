package dev.dmmodel.impl.mm;

import com.google.common.collect.Range;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Bios;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Bvecs;
import dev.dmmodel.impl.block.KernelMath;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.limits.KernelProfile.ReadAheadFolios;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code read(2)} through the page cache with the kernel's on-demand readahead
 * ({@code mm/filemap.c: filemap_read}, {@code mm/readahead.c: ondemand_readahead}); readahead reads go
 * out as multi-page bios ({@code mpage_readahead}, 3.18+). From 6.15 a block device's page cache takes large
 * folios and the windows are read in them ({@code page_cache_sync_ra}, {@code page_cache_async_ra},
 * {@code page_cache_ra_order}; {@link dev.dmmodel.limits.KernelProfile#readAheadFolios()}).
 */
public final class BufferedRead {
    private static final Logger LOG = LoggerFactory.getLogger(BufferedRead.class);

    /**
     * {@code MAX_PAGECACHE_ORDER} with 4 KiB pages on x86-64: {@code HPAGE_PMD_ORDER}, 2 MiB folios
     * ({@code include/linux/pagemap.h}); the block device's mapping allows every order up to it.
     */
    static final int MAX_PAGECACHE_ORDER = 9;

    /**
     * Before 6.17 {@code page_cache_ra_order} reads a window of fewer pages than this in single pages
     * ({@code min_ra_size}: 4, or the mapping's smallest folio, which is a page for a block no larger than a page).
     */
    static final long MIN_FOLIO_WINDOW_PAGES = 4;

    private final BlockLayer block;
    private final UserBuffer buffer;
    private final PageCache cache;

    /** A read of {@code cache}'s device through the block layer into the reader's {@code buffer}. */
    public BufferedRead(BlockLayer block, UserBuffer buffer, PageCache cache) {
        this.block = block;
        this.buffer = buffer;
        this.cache = cache;
    }

    private ReadAheadFolios folios() {
        return block.profile.readAheadFolios();
    }

    /** {@code read(2)} of {@code bytes} at {@code pos}. */
    public void read(long pos, long bytes) {
        long first = pos / Bvecs.PAGE;
        long last = (pos + bytes - 1) / Bvecs.PAGE;
        boolean largeFolios = folios() != ReadAheadFolios.SINGLE_PAGES;
        for (long p = first; p <= last; p++) {
            if (!cache.isCached(p)) {
                if (largeFolios) {
                    syncReadahead(p, last + 1 - p);
                } else {
                    ondemand(p, last + 1 - p, false);
                }
            }
            if (cache.isInReadaheadMark(p)) {
                long folio = cache.readaheadMark;
                int order = cache.readaheadMarkOrder;
                cache.clearReadaheadMark();
                if (largeFolios) {
                    // filemap_readahead: the marked folio's index and the pages the read still wants from it
                    asyncReadahead(folio, order, last + 1 - folio);
                } else {
                    ondemand(p, last + 1 - p, true);
                }
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

    // mm/readahead.c: ractl_max_pages — a read larger than the window may read up to the device's io_pages
    private long maxPages(long reqSize) {
        long maxPages = cache.readahead.raPages;
        long ioPages = block.ioPages(cache.device);
        if (reqSize > maxPages && ioPages > maxPages) {
            maxPages = Math.min(reqSize, ioPages);
        }
        return maxPages;
    }

    // mm/readahead.c: ondemand_readahead
    private void ondemand(long index, long reqSize, boolean hitMarker) {
        PageCache.Readahead ra = cache.readahead;
        long maxPages = maxPages(reqSize);
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

    // mm/readahead.c: page_cache_sync_ra (6.10+) — a cache miss opens a window at the missing page
    private void syncReadahead(long index, long reqCount) {
        PageCache.Readahead ra = cache.readahead;
        if (ra.raPages == 0) {
            // force_page_cache_ra of the one page the reader needs
            readPages(index, 1, 0);
            return;
        }
        long maxPages = maxPages(reqCount);
        // prev_pos is where the previous read ended (filemap_read's last_pos); the model keeps its last byte
        long prevIndex = (ra.prevPos + 1) / Bvecs.PAGE;
        boolean sequential = ra.prevPos >= 0 && index >= prevIndex && index - prevIndex <= 1;
        if (index == 0 || reqCount > maxPages || sequential) {
            // the start of the device, an oversized read or a sequential miss
            ra.start = index;
            ra.size = initSize(reqCount, maxPages);
            ra.asyncSize = ra.size > reqCount ? ra.size - reqCount : ra.size >> 1;
        } else {
            // page_cache_prev_miss: the cached run a sequential reader leaves just before the miss
            long q = index - 1;
            long scanned = 0;
            long miss = -1;
            boolean fromStart = false;
            while (true) {
                if (scanned == maxPages) {
                    miss = q + 1;
                    break;
                }
                scanned++;
                if (q < 0) {
                    fromStart = true;
                    break;
                }
                if (!cache.isCached(q)) {
                    miss = q;
                    break;
                }
                q--;
            }
            long contig = fromStart ? index : index - miss - 1;
            if (contig <= reqCount) {
                // a standalone small random read: as is, the readahead state left alone
                readPages(index, reqCount, 0);
                return;
            }
            if (fromStart) {
                // cached from the first page: a long stream
                contig = Math.multiplyExact(contig, 2L);
            }
            ra.start = index;
            ra.size = Math.min(Math.addExact(contig, reqCount), maxPages);
            ra.asyncSize = 1;
        }
        ra.order = 0;
        readFolios(0);
    }

    // mm/readahead.c: page_cache_async_ra — the reader reached the readahead-marked folio at index
    private void asyncReadahead(long index, int folioOrder, long reqCount) {
        PageCache.Readahead ra = cache.readahead;
        if (ra.raPages == 0) {
            return;
        }
        long maxPages = maxPages(reqCount);
        long expected = KernelMath.roundDown(ra.start + ra.size - ra.asyncSize, 1L << folioOrder);
        if (index == expected) {
            // the expected marker: a sequential stream, the next window ramped up
            ra.start = Math.addExact(ra.start, ra.size);
            ra.size = Math.max(ra.size, nextSize(ra.size, maxPages));
        } else {
            // a marker without the state to match (interleaved readers): the old async part is the run of
            // cached pages from the marker to the next hole (page_cache_next_miss)
            long start = index + 1;
            while (start - index <= maxPages && cache.isCached(start)) {
                start++;
            }
            if (start - index > maxPages) {
                return;
            }
            ra.start = start;
            ra.size = nextSize(Math.addExact(start - index, reqCount), maxPages);
        }
        if (folios() == ReadAheadFolios.ALIGNED_ORDER_RAMP) {
            ra.order += 2;
            // 6.17: the window ends on a boundary of its folios (no larger than the limit's lowest set bit)
            long align = 1L << Math.min(ra.order, Long.numberOfTrailingZeros(maxPages));
            long end = Math.addExact(ra.start, ra.size);
            long alignedEnd = KernelMath.roundDown(end, align);
            if (alignedEnd > ra.start) {
                ra.size -= end - alignedEnd;
            }
            ra.asyncSize = ra.size;
            readFolios(ra.order);
        } else {
            ra.asyncSize = ra.size;
            readFolios(folioOrder);
        }
    }

    // mm/readahead.c: page_cache_ra_order — the window in folios of one order (smaller where the index is not
    // aligned to it or the device ends), PG_readahead on the folio holding start + size - async_size; from the
    // first folio that would overlap cached pages on, the rest in single pages (do_page_cache_ra)
    private void readFolios(int order) {
        PageCache.Readahead ra = cache.readahead;
        ReadAheadFolios kind = folios();
        long start = ra.start;
        if (ra.size <= 0) {
            return;
        }
        if (kind == ReadAheadFolios.MARKER_ORDER_PLUS_TWO && ra.size < MIN_FOLIO_WINDOW_PAGES) {
            readPages(start, ra.size, ra.asyncSize);
            return;
        }
        long lastPage = (cache.sizeBytes - 1) / Bvecs.PAGE;
        long limit = Math.min(lastPage, Math.addExact(start, ra.size) - 1);
        long mark = Math.addExact(start, ra.size) - ra.asyncSize;
        int newOrder = order;
        if (kind == ReadAheadFolios.MARKER_ORDER_PLUS_TWO && newOrder < MAX_PAGECACHE_ORDER) {
            // before 6.17 page_cache_ra_order itself reads two orders above the one it is given
            newOrder += 2;
        }
        newOrder = Math.min(newOrder, MAX_PAGECACHE_ORDER);
        newOrder = Math.min(newOrder, 63 - Long.numberOfLeadingZeros(ra.size));
        if (kind == ReadAheadFolios.ALIGNED_ORDER_RAMP) {
            ra.order = newOrder;
        }
        LOG.debug("{}: readahead window {} + {} (async {}) in folios of order {}", cache.device, start, ra.size,
                ra.asyncSize, newOrder);
        List<Long> folioPages = new ArrayList<>();
        long index = start;
        boolean collided = false;
        while (index <= limit) {
            int o = newOrder;
            if ((index & ((1L << o) - 1)) != 0) {
                o = Long.numberOfTrailingZeros(index);
            }
            while (o > 0 && index + (1L << o) - 1 > limit) {
                o--;
            }
            long pages = 1L << o;
            if (cache.anyCached(index, pages)) {
                // filemap_add_folio: -EEXIST
                collided = true;
                break;
            }
            if (KernelMath.roundDown(mark, pages) == index) {
                cache.markReadahead(index, o);
            }
            folioPages.add(pages);
            index += pages;
        }
        if (!folioPages.isEmpty()) {
            block.startPlug();
            submitFolios(start, folioPages);
            block.finishPlug();
            block.completeAll();
            cache.cached.add(Range.closedOpen(start * Bvecs.PAGE, index * Bvecs.PAGE));
        }
        if (collided && ra.size > index - start) {
            readPages(index, ra.size - (index - start), ra.asyncSize);
        }
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
            cache.markReadahead(index + nr - lookahead, 0);
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
        if (folios() != ReadAheadFolios.SINGLE_PAGES) {
            List<Long> single = new ArrayList<>();
            for (long i = 0; i < pages; i++) {
                single.add(1L);
            }
            submitFolios(page, single);
            return;
        }
        long bytes = Math.min(pages * Bvecs.PAGE, cache.sizeBytes - page * Bvecs.PAGE);
        Bio bio = new Bio(cache.device, Op.READ, Bio.RAHEAD, page * Bvecs.PAGE / 512, bytes / 512,
                buffer.vectors(0, bytes));
        block.submitBioNoacct(bio);
    }

    // fs/mpage.c: mpage_readahead — consecutive folios from page, one bvec each (bio_add_folio), at most
    // BIO_MAX_VECS folios per bio; the device's last page only as far as the device goes
    private void submitFolios(long page, List<Long> folioPages) {
        int i = 0;
        long at = page;
        while (i < folioPages.size()) {
            int n = Math.min(folioPages.size() - i, Bios.BIO_MAX_VECS);
            long[] lengths = new long[n];
            long bytes = 0;
            for (int j = 0; j < n; j++) {
                lengths[j] = Math.multiplyExact(folioPages.get(i + j), Bvecs.PAGE);
                bytes = Math.addExact(bytes, lengths[j]);
            }
            long room = cache.sizeBytes - at * Bvecs.PAGE;
            if (bytes > room) {
                lengths[n - 1] -= bytes - room;
                bytes = room;
            }
            block.submitBioNoacct(new Bio(cache.device, Op.READ, Bio.RAHEAD, at * Bvecs.PAGE / 512, bytes / 512,
                    Bvecs.folios(lengths)));
            at += bytes / Bvecs.PAGE;
            i += n;
        }
    }
}
