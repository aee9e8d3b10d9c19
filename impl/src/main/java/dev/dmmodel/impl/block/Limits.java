package dev.dmmodel.impl.block;

import dev.dmmodel.limits.QueueLimits;

/**
 * A mutable {@code struct queue_limits} for the stacking code, which (like the kernel's) updates
 * fields in place. Converted from and to the immutable {@link QueueLimits} at the edges.
 */
public final class Limits {
    public long logicalBlockSize;
    public long physicalBlockSize;
    public long ioMin;
    public long ioOpt;
    public long alignmentOffset;
    public boolean misaligned;
    public long maxSectors;
    public long maxHwSectors;
    public long maxDevSectors;
    public long maxUserSectors;
    public long maxSegments;
    public long maxSegmentSize;
    public long segBoundaryMask;
    public long virtBoundaryMask;
    public long chunkSectors;
    public long discardGranularity;
    public long discardAlignment;
    public long maxDiscardSectors;
    public long maxHwDiscardSectors;
    public long maxUserDiscardSectors;
    public long maxDiscardSegments;
    public long maxWriteZeroesSectors;
    public long dmaAlignment;
    public boolean rotational;
    public long readAheadKb;

    public Limits() {
    }

    /** A copy of immutable limits. */
    public static Limits of(QueueLimits q) {
        Limits l = new Limits();
        l.logicalBlockSize = q.logicalBlockSize();
        l.physicalBlockSize = q.physicalBlockSize();
        l.ioMin = q.ioMin();
        l.ioOpt = q.ioOpt();
        l.alignmentOffset = q.alignmentOffset();
        l.misaligned = q.misaligned();
        l.maxSectors = q.maxSectors();
        l.maxHwSectors = q.maxHwSectors();
        l.maxDevSectors = q.maxDevSectors();
        l.maxUserSectors = q.maxUserSectors();
        l.maxSegments = q.maxSegments();
        l.maxSegmentSize = q.maxSegmentSize();
        l.segBoundaryMask = q.segBoundaryMask();
        l.virtBoundaryMask = q.virtBoundaryMask();
        l.chunkSectors = q.chunkSectors();
        l.discardGranularity = q.discardGranularity();
        l.discardAlignment = q.discardAlignment();
        l.maxDiscardSectors = q.maxDiscardSectors();
        l.maxHwDiscardSectors = q.maxHwDiscardSectors();
        l.maxUserDiscardSectors = q.maxDiscardSectors();
        l.maxDiscardSegments = q.maxDiscardSegments();
        l.maxWriteZeroesSectors = q.maxWriteZeroesSectors();
        l.dmaAlignment = q.dmaAlignment();
        l.rotational = q.rotational();
        l.readAheadKb = q.readAheadKb();
        return l;
    }

    /** The granularity alignment is judged by ({@link QueueLimits#alignmentGranularity(long, long)}). */
    public long alignmentGranularity() {
        return QueueLimits.alignmentGranularity(physicalBlockSize, ioMin);
    }

    /** A copy of this. */
    public Limits copy() {
        return of(toQueueLimits());
    }

    /** The immutable form. */
    public QueueLimits toQueueLimits() {
        return new QueueLimits(logicalBlockSize, physicalBlockSize, ioMin, ioOpt, alignmentOffset, misaligned,
                maxSectors, maxHwSectors, maxDevSectors, maxUserSectors, maxSegments, maxSegmentSize, segBoundaryMask,
                virtBoundaryMask, chunkSectors, discardGranularity, discardAlignment, maxDiscardSectors,
                maxHwDiscardSectors, maxDiscardSegments, maxWriteZeroesSectors, dmaAlignment, rotational, readAheadKb);
    }
}
