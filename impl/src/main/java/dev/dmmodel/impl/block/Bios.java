package dev.dmmodel.impl.block;

/** How big a bio can be built ({@code block/bio.c}). */
public final class Bios {

    /** {@code BIO_MAX_VECS} (formerly {@code BIO_MAX_PAGES}): bio_vecs one bio holds. */
    public static final int BIO_MAX_VECS = 256;
    /** Sectors in a 4 KiB page. */
    public static final long PAGE_SECTORS = 8;

    private Bios() {
    }

    /**
     * The vectors a bio is allocated with for a queue before 4.3, when bios were built to fit it: one page per
     * vector, no more than the queue's segments, its max_sectors in pages plus one, and {@link #BIO_MAX_VECS}.
     */
    // fs/bio.c: bio_get_nr_vecs (removed in 4.3, when bios came to be split on entry instead)
    public static long bioGetNrVecs(long maxSegments, long maxSectors) {
        return Math.min(maxSegments, Math.min(maxSectors / PAGE_SECTORS + 1, BIO_MAX_VECS));
    }

    /**
     * The largest direct-I/O bio a device with these limits is sent before 4.3: its vectors' pages, within
     * max_sectors.
     */
    public static long largestBuiltBioSectors(long maxSegments, long maxSectors) {
        return Math.min(bioGetNrVecs(maxSegments, maxSectors) * PAGE_SECTORS, maxSectors);
    }

    /** The largest direct-I/O bio since 4.3: {@link #BIO_MAX_VECS} pages, split on entry after. */
    // block/fops.c: __blkdev_direct_IO (bio_iov_vecs_to_alloc: at most BIO_MAX_VECS)
    public static long largestDirectBioSectors() {
        return BIO_MAX_VECS * PAGE_SECTORS;
    }
}
