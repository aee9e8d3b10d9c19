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

    /** Which limit ended the first piece of a split bio. */
    public enum Cut {
        /** Not split. */
        NONE,
        /** {@code max_sectors} (rounded down to a physical block by {@code get_max_io_size}). */
        MAX_SECTORS,
        /** The {@code chunk_sectors} boundary. */
        CHUNK,
        /** {@code max_segments}: the bio has more physical segments than the queue takes. */
        MAX_SEGMENTS,
        /** {@code virt_boundary_mask}: a gap between two bvecs (NVMe PRP lists). */
        VIRT_BOUNDARY,
        /** {@code max_discard_sectors} and the discard granularity. */
        DISCARD,
        /** {@code max_write_zeroes_sectors}. */
        WRITE_ZEROES
    }

    /**
     * The result of checking a bio against the limits.
     *
     * @param splitSectors sectors of the first piece when the bio must be split, 0 otherwise
     * @param segments physical segments of the (first piece of the) bio
     * @param cut the limit that ended the first piece, {@link Cut#NONE} when not split
     */
    public record Result(long splitSectors, int segments, Cut cut) {
        Result(long splitSectors, int segments) {
            this(splitSectors, segments, Cut.NONE);
        }
    }

    /**
     * What cut a bio at {@code sector}, in words with the limit and its value, for {@code trace --why}
     * ({@link dev.dmmodel.trace.TraceEvent#why()}).
     */
    public static String why(Result r, long sector, Limits l) {
        return switch (r.cut()) {
            case NONE -> "";
            case MAX_SECTORS -> "max_sectors=" + l.maxSectors + " (max_sectors_kb " + l.maxSectors / 2 + ")"
                    + (l.physicalBlockSize > 512 && l.maxSectors % (l.physicalBlockSize / 512) != 0
                            ? ", ends on a " + l.physicalBlockSize + "-byte physical block" : "");
            case CHUNK -> "chunk_sectors=" + l.chunkSectors + ": boundary at sector "
                    + (sector / l.chunkSectors + 1) * l.chunkSectors;
            case MAX_SEGMENTS -> "max_segments=" + l.maxSegments + " (" + r.segments() + " segments of at most "
                    + l.maxSegmentSize + " bytes)";
            case VIRT_BOUNDARY -> "virt_boundary_mask=0x" + Long.toHexString(l.virtBoundaryMask)
                    + ": gap between bvecs";
            case DISCARD -> "max_discard_sectors=" + l.maxDiscardSectors + " (discard_granularity "
                    + l.discardGranularity + ")";
            case WRITE_ZEROES -> "max_write_zeroes_sectors=" + l.maxWriteZeroesSectors;
        };
    }

    // block/blk-merge.c: get_max_io_size — whether the chunk boundary, not max_sectors, bounds the bio at sector
    private static Cut byteCut(long sector, Limits l) {
        return l.chunkSectors != 0 && l.chunkSectors - sector % l.chunkSectors < l.maxSectors
                ? Cut.CHUNK : Cut.MAX_SECTORS;
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
            Result r = wholePages(bio.data.size(), maxBytes, l);
            return r.cut() == Cut.MAX_SECTORS ? new Result(r.splitSectors(), r.segments(), byteCut(bio.sector, l)) : r;
        }
        SegmentCounter c = new SegmentCounter(l, maxBytes);
        bio.data.forEach(c);
        if (!c.split) {
            return new Result(0, c.nsegs);
        }
        long bytes = KernelMath.roundDown(c.bytes, l.logicalBlockSize);
        return new Result(bytes / 512, c.nsegs, c.cut(bio.sector));
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
            // both limits end the piece at the same byte when they are equal: the walk names the byte limit
            return new Result(l.maxSegments * Bvecs.PAGE / 512, (int) l.maxSegments,
                    l.maxSegments * Bvecs.PAGE < maxBytes ? Cut.MAX_SEGMENTS : Cut.MAX_SECTORS);
        }
        long bytes = KernelMath.roundDown(maxBytes, l.logicalBlockSize);
        return new Result(bytes / 512, (int) ((maxBytes + Bvecs.PAGE - 1) / Bvecs.PAGE), Cut.MAX_SECTORS);
    }

    /** The bvec walk alone, for checking {@link #wholePages}. */
    static Result walk(Bio bio, Limits l) {
        long maxBytes = maxIoSectors(bio.sector, l) * 512;
        SegmentCounter c = new SegmentCounter(l, maxBytes);
        bio.data.forEach(c);
        if (!c.split) {
            return new Result(0, c.nsegs);
        }
        return new Result(KernelMath.roundDown(c.bytes, l.logicalBlockSize) / 512, c.nsegs, c.cut(bio.sector));
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
            return new Result(split, 1, Cut.DISCARD);
        }
        if (bio.op == Op.WRITE_ZEROES) {
            long max = l.maxWriteZeroesSectors;
            if (max == 0 || bio.sectors <= max) {
                return new Result(0, 0);
            }
            return new Result(max, 0, Cut.WRITE_ZEROES);
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
        /** The gap rule, not a count or byte limit, ended the piece. */
        boolean gap;
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
                gap = true;
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

        // which limit stopped the walk: the gap rule, the segment count, else the byte limit
        Cut cut(long sector) {
            if (gap) {
                return Cut.VIRT_BOUNDARY;
            }
            return nsegs >= l.maxSegments && bytes < maxBytes ? Cut.MAX_SEGMENTS : byteCut(sector, l);
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
