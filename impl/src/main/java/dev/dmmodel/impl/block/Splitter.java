package dev.dmmodel.impl.block;

import dev.dmmodel.impl.block.KernelMath;
import dev.dmmodel.impl.block.Limits;

/**
 * Where a request-based queue splits a bio ({@code block/blk-merge.c}: {@code __bio_split_to_limits},
 * {@code bio_split_rw}, {@code get_max_io_size}, {@code bvec_split_segs}).
 */
public final class Splitter {
    private Splitter() {
    }

    /**
     * The result of checking a bio against the limits.
     *
     * @param splitSectors sectors of the first piece when the bio must be split, 0 otherwise
     * @param segments physical segments of the (first piece of the) bio
     */
    public record Result(long splitSectors, int segments) {
    }

    // block/blk-merge.c: get_max_io_size — max_sectors and the chunk boundary, the split end on a physical block
    static long maxIoSectors(long sector, Limits l) {
        long pbs = l.physicalBlockSize / 512;
        long lbs = l.logicalBlockSize / 512;
        long max = l.maxSectors;
        if (l.chunkSectors != 0) {
            max = Math.min(max, l.chunkSectors - sector % l.chunkSectors);
        }
        long start = sector % pbs;
        long end = KernelMath.roundDown(start + max, pbs);
        return end > start ? end - start : KernelMath.roundDown(max, lbs);
    }

    // block/blk-merge.c: __bio_split_to_limits / bio_split_rw — where the first piece ends, and its segments
    public static Result check(Bio bio, Limits l) {
        if (!bio.op.hasData() || bio.data == null) {
            return checkDataless(bio, l);
        }
        long maxBytes = maxIoSectors(bio.sector, l) * 512;
        if (bio.data.isWholePages() && l.virtBoundaryMask < Bvecs.PAGE && l.maxSegmentSize >= Bvecs.PAGE
                && l.segBoundaryMask >= Bvecs.PAGE - 1) {
            return wholePages(bio.data.size(), maxBytes, l);
        }
        SegmentCounter c = new SegmentCounter(l, maxBytes);
        bio.data.forEach(c);
        if (!c.split) {
            return new Result(0, c.nsegs);
        }
        long bytes = KernelMath.roundDown(c.bytes, l.logicalBlockSize);
        return new Result(bytes / 512, c.nsegs);
    }

    /**
     * The same arithmetic as the bvec walk for a bio of whole, page-aligned, physically scattered pages
     * (each one segment): the first of max_segments pages or the byte limit ends the piece.
     */
    static Result wholePages(long size, long maxBytes, Limits l) {
        long pages = size / Bvecs.PAGE;
        if (pages <= l.maxSegments && size <= maxBytes) {
            return new Result(0, (int) pages);
        }
        if (l.maxSegments * Bvecs.PAGE <= maxBytes) {
            return new Result(l.maxSegments * Bvecs.PAGE / 512, (int) l.maxSegments);
        }
        long bytes = KernelMath.roundDown(maxBytes, l.logicalBlockSize);
        return new Result(bytes / 512, (int) ((maxBytes + Bvecs.PAGE - 1) / Bvecs.PAGE));
    }

    /** The bvec walk alone, for checking {@link #wholePages}. */
    static Result walk(Bio bio, Limits l) {
        long maxBytes = maxIoSectors(bio.sector, l) * 512;
        SegmentCounter c = new SegmentCounter(l, maxBytes);
        bio.data.forEach(c);
        if (!c.split) {
            return new Result(0, c.nsegs);
        }
        return new Result(KernelMath.roundDown(c.bytes, l.logicalBlockSize) / 512, c.nsegs);
    }

    // block/blk-merge.c: bio_split_discard / bio_split_write_zeroes
    private static Result checkDataless(Bio bio, Limits l) {
        if (bio.op == Op.DISCARD) {
            long gran = Math.max(l.discardGranularity / 512, 1);
            long maxd = Math.min(l.maxDiscardSectors, KernelMath.roundDown(0xFFFF_FFFFL, l.logicalBlockSize) / 512);
            maxd -= maxd % gran;
            if (maxd == 0 || bio.sectors <= maxd) {
                return new Result(0, 1);
            }
            long split = maxd;
            long tmp = (bio.sector + split - (l.discardAlignment / 512) % gran) % gran;
            if (split > tmp) {
                split -= tmp;
            }
            return new Result(split, 1);
        }
        if (bio.op == Op.WRITE_ZEROES) {
            long max = l.maxWriteZeroesSectors;
            if (max == 0 || bio.sectors <= max) {
                return new Result(0, 0);
            }
            return new Result(max, 0);
        }
        return new Result(0, 0);
    }

    /** Counts segments bvec by bvec and finds where the limits stop the bio. */
    private static final class SegmentCounter implements Bvecs.Visitor {
        private final Limits l;
        private final long maxBytes;
        int nsegs;
        long bytes;
        boolean split;
        private boolean havePrev;
        private long prevEndOffset;

        SegmentCounter(Limits l, long maxBytes) {
            this.l = l;
            this.maxBytes = maxBytes;
        }

        @Override
        public boolean bvec(long phys, long len, long offsetInPage) {
            // block/blk.h: bvec_gap_to_prev — the virt boundary (NVMe PRP) rule
            if (havePrev && l.virtBoundaryMask != 0
                    && ((offsetInPage & l.virtBoundaryMask) != 0 || (prevEndOffset & l.virtBoundaryMask) != 0)) {
                split = true;
                return false;
            }
            if (nsegs < l.maxSegments && bytes + len <= maxBytes && offsetInPage + len <= Bvecs.PAGE) {
                nsegs++;
                bytes += len;
            } else if (splitSegments(phys, len, offsetInPage)) {
                split = true;
                return false;
            }
            havePrev = true;
            prevEndOffset = offsetInPage + len;
            return true;
        }

        // block/blk-merge.c: bvec_split_segs — a large bvec counts one segment per max_segment_size piece
        private boolean splitSegments(long phys, long bvLen, long offsetInPage) {
            long maxLen = maxBytes - bytes;
            long len = Math.min(bvLen, maxLen);
            long total = 0;
            while (len > 0 && nsegs < l.maxSegments) {
                long seg = Math.min(maxSegmentSize(phys + total), len);
                nsegs++;
                total += seg;
                len -= seg;
                if (((offsetInPage + total) & l.virtBoundaryMask) != 0) {
                    break;
                }
            }
            bytes += total;
            return len > 0 || bvLen > maxLen;
        }

        // block/blk-merge.c: get_max_segment_size — up to the segment boundary, at most max_segment_size
        private long maxSegmentSize(long phys) {
            long mask = l.segBoundaryMask;
            long offset = mask & phys;
            return KernelMath.minNotZero(mask - offset + 1, l.maxSegmentSize);
        }
    }
}
