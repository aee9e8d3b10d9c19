package dev.dmmodel.limits;

/**
 * A block device's request-queue limits, field for field as the kernel keeps them in
 * {@code struct queue_limits} ({@code include/linux/blkdev.h}), plus the queue's readahead.
 *
 * <p>Units follow the kernel: fields named {@code ...Sectors} are in 512-byte sectors; sizes,
 * {@code ioMin}, {@code ioOpt}, {@code alignmentOffset} and the discard granularity/alignment are in
 * bytes. Values are exact {@code long}s; {@code UINT_MAX}-style "unlimited" values are kept as the
 * kernel's numbers ({@link #UINT_MAX}).
 *
 * <p>Instances are immutable; derive variants with {@link #toBuilder()}. The kernel's rules that
 * produce them (defaults, driver settings, stacking) live in the implementation, one place per rule.

 * @param logicalBlockSize {@code logical_block_size}, bytes: the smallest addressable unit.
 * @param physicalBlockSize {@code physical_block_size}, bytes: smallest unit written without read-modify-write.
 * @param ioMin {@code minimum_io_size} ({@code io_min}), bytes: preferred minimum I/O; a RAID's chunk.
 * @param ioOpt {@code optimal_io_size} ({@code io_opt}), bytes: preferred streaming size; 0 = unknown.
 * @param alignmentOffset {@code alignment_offset}, bytes from the start of the device to its first naturally aligned sector.
 * @param misaligned Set by stacking when top and bottom alignments cannot be reconciled; sysfs then shows {@code alignment_offset = -1}.
 * @param maxSectors {@code max_sectors}, 512-byte sectors: the soft limit used to build and split I/O ({@code max_sectors_kb} × 2).
 * @param maxHwSectors {@code max_hw_sectors}, sectors: the controller's hard limit.
 * @param maxDevSectors {@code max_dev_sectors}, sectors: the device's own hard limit (0 = none).
 * @param maxUserSectors {@code max_user_sectors}, sectors: a value written to {@code max_sectors_kb} (0 = none; kept apart since 6.9).
 * @param maxSegments {@code max_segments}: scatter-gather entries per request.
 * @param maxSegmentSize {@code max_segment_size}, bytes per scatter-gather entry.
 * @param segBoundaryMask {@code seg_boundary_mask}: a segment must not cross a multiple of mask + 1.
 * @param virtBoundaryMask {@code virt_boundary_mask}: the NVMe-style no-gaps rule; 0 = none.
 * @param chunkSectors {@code chunk_sectors}: I/O must not cross a multiple of this (0 = none).
 * @param discardGranularity {@code discard_granularity}, bytes; 0 with no discard support.
 * @param discardAlignment {@code discard_alignment}, bytes.
 * @param maxDiscardSectors {@code max_discard_sectors} (sysfs {@code discard_max_bytes} / 512).
 * @param maxHwDiscardSectors {@code max_hw_discard_sectors} (sysfs {@code discard_max_hw_bytes} / 512).
 * @param maxDiscardSegments {@code max_discard_segments}.
 * @param maxWriteZeroesSectors {@code max_write_zeroes_sectors} (sysfs {@code write_zeroes_max_bytes} / 512); 0 = unsupported.
 * @param dmaAlignment {@code dma_alignment}: memory alignment mask for direct I/O buffers.
 * @param rotational {@code rotational}: whether the device seeks.
 * @param readAheadKb {@code read_ahead_kb}: the block device's readahead window in KiB.
 */
public record QueueLimits(
        long logicalBlockSize,
        long physicalBlockSize,
        long ioMin,
        long ioOpt,
        long alignmentOffset,
        boolean misaligned,
        long maxSectors,
        long maxHwSectors,
        long maxDevSectors,
        long maxUserSectors,
        long maxSegments,
        long maxSegmentSize,
        long segBoundaryMask,
        long virtBoundaryMask,
        long chunkSectors,
        long discardGranularity,
        long discardAlignment,
        long maxDiscardSectors,
        long maxHwDiscardSectors,
        long maxDiscardSegments,
        long maxWriteZeroesSectors,
        long dmaAlignment,
        boolean rotational,
        long readAheadKb) {

    /** The kernel's {@code UINT_MAX}, used as "no limit" by stacking defaults. */
    public static final long UINT_MAX = 0xFFFF_FFFFL;
    /** The kernel's {@code USHRT_MAX}, the stacking default for segment counts. */
    public static final long USHRT_MAX = 0xFFFFL;

    /** Validates ranges; the kernel's semantic rules are applied by the implementation. */
    public QueueLimits {
        positivePowerOfTwo("logicalBlockSize", logicalBlockSize);
        positivePowerOfTwo("physicalBlockSize", physicalBlockSize);
        nonNegative("ioMin", ioMin);
        nonNegative("ioOpt", ioOpt);
        nonNegative("alignmentOffset", alignmentOffset);
        nonNegative("maxSectors", maxSectors);
        nonNegative("maxHwSectors", maxHwSectors);
        nonNegative("maxDevSectors", maxDevSectors);
        nonNegative("maxUserSectors", maxUserSectors);
        nonNegative("maxSegments", maxSegments);
        nonNegative("maxSegmentSize", maxSegmentSize);
        nonNegative("segBoundaryMask", segBoundaryMask);
        nonNegative("virtBoundaryMask", virtBoundaryMask);
        nonNegative("chunkSectors", chunkSectors);
        nonNegative("discardGranularity", discardGranularity);
        nonNegative("discardAlignment", discardAlignment);
        nonNegative("maxDiscardSectors", maxDiscardSectors);
        nonNegative("maxHwDiscardSectors", maxHwDiscardSectors);
        nonNegative("maxDiscardSegments", maxDiscardSegments);
        nonNegative("maxWriteZeroesSectors", maxWriteZeroesSectors);
        nonNegative("dmaAlignment", dmaAlignment);
        nonNegative("readAheadKb", readAheadKb);
    }

    private static void nonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("queue limit " + field + " (" + value + ") must not be negative");
        }
    }

    private static void positivePowerOfTwo(String field, long value) {
        if (value < 512 || Long.bitCount(value) != 1) {
            throw new IllegalArgumentException("queue limit " + field + " (" + value
                    + ") must be a power of two of at least 512 bytes");
        }
    }

    /** {@code max_sectors_kb} as sysfs prints it. */
    public long maxSectorsKb() {
        return maxSectors / 2;
    }

    /** {@code max_hw_sectors_kb} as sysfs prints it. */
    public long maxHwSectorsKb() {
        return maxHwSectors / 2;
    }

    /** {@code alignment_offset} as sysfs prints it: -1 when {@link #misaligned()}. */
    public long sysfsAlignmentOffset() {
        return misaligned ? -1 : alignmentOffset;
    }

    /**
     * The granularity alignment is judged by, in bytes: the larger of the physical block size and {@code io_min}
     * ({@link #alignmentGranularity(long, long)} of these limits' two values).
     */
    public long alignmentGranularity() {
        return alignmentGranularity(physicalBlockSize, ioMin);
    }

    /**
     * The granularity alignment is judged by for a physical block size and an {@code io_min} in bytes: the larger
     * of the two, as the kernel's {@code queue_limit_alignment_offset} and {@code blk_stack_limits} take it. The one
     * place of this rule, for these limits and for the implementation's stacking, which works on mutable copies.
     *
     * @param physicalBlockSize {@code physical_block_size}, bytes
     * @param ioMin {@code io_min} ({@code minimum_io_size}), bytes
     * @return {@code max(physicalBlockSize, ioMin)}
     */
    public static long alignmentGranularity(long physicalBlockSize, long ioMin) {
        // block/blk-settings.c: max(lim->physical_block_size, lim->io_min) in queue_limit_alignment_offset
        return Math.max(physicalBlockSize, ioMin);
    }

    /** The boundaries alignment is judged against, finest first. */
    public enum Grain {
        /** {@code physical_block_size}: a write off it is a read-modify-write in the device. */
        PHYSICAL_BLOCK,
        /** {@code io_min} where larger than the physical block: a RAID's chunk, a thin pool's block. */
        IO_MIN,
        /** {@code io_opt} where larger than both: a RAID's full stripe. */
        IO_OPT
    }

    /**
     * How far a byte of the device lies past the last boundary of a grain it misses.
     *
     * @param grain which boundary
     * @param grainBytes the grain's size in bytes
     * @param offsetBytes bytes past the last boundary (between 1 and {@code grainBytes - 1})
     */
    public record Misalignment(Grain grain, long grainBytes, long offsetBytes) {
        /** Rejects a null grain and an offset outside the grain. */
        public Misalignment {
            java.util.Objects.requireNonNull(grain, "grain");
            if (offsetBytes <= 0 || offsetBytes >= grainBytes) {
                throw new IllegalArgumentException("offsetBytes: " + offsetBytes + " is not inside a grain of "
                        + grainBytes + " bytes");
            }
        }
    }

    /**
     * Whether I/O starting {@code byteOffset} bytes into this device starts on its boundaries, counted from its
     * first naturally aligned byte ({@code alignment_offset}; 0 when stacking found it {@link #misaligned()}):
     * the first grain it misses of the physical block, then {@code io_min} if larger, then {@code io_opt} if
     * larger than both — the order the {@code align.*} findings judge a partition's or a PV's start in, the
     * one place of that rule.
     *
     * @param byteOffset a byte offset on this device, non-negative
     * @return the first grain missed, or empty when the offset is on every boundary
     * @throws IllegalArgumentException for a negative offset
     */
    public java.util.Optional<Misalignment> misalignmentAt(long byteOffset) {
        if (byteOffset < 0) {
            throw new IllegalArgumentException("byteOffset: " + byteOffset + " is negative");
        }
        long from = misaligned ? 0 : alignmentOffset;
        java.util.Optional<Misalignment> m = offGrain(Grain.PHYSICAL_BLOCK, physicalBlockSize, byteOffset, from);
        if (m.isEmpty() && ioMin > physicalBlockSize) {
            m = offGrain(Grain.IO_MIN, ioMin, byteOffset, from);
        }
        if (m.isEmpty() && ioOpt > alignmentGranularity()) {
            m = offGrain(Grain.IO_OPT, ioOpt, byteOffset, from);
        }
        return m;
    }

    private static java.util.Optional<Misalignment> offGrain(Grain grain, long grainBytes, long byteOffset,
                                                             long from) {
        long off = Math.floorMod(byteOffset - from, grainBytes);
        return off == 0 ? java.util.Optional.empty() : java.util.Optional.of(new Misalignment(grain, grainBytes, off));
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * A builder starting from the defaults of a new queue before any driver sets it
     * ({@code blk_set_default_limits} with a 2560-sector soft cap; profiles adjust it).
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder for {@link QueueLimits}; every setter returns this builder. */
    public static final class Builder {
        private long logicalBlockSize = 512;
        private long physicalBlockSize = 512;
        private long ioMin = 512;
        private long ioOpt = 0;
        private long alignmentOffset = 0;
        private boolean misaligned = false;
        private long maxSectors = 2560;
        private long maxHwSectors = 2560;
        private long maxDevSectors = 0;
        private long maxUserSectors = 0;
        private long maxSegments = 128;
        private long maxSegmentSize = 65536;
        private long segBoundaryMask = 0xFFFFFFFFL;
        private long virtBoundaryMask = 0;
        private long chunkSectors = 0;
        private long discardGranularity = 0;
        private long discardAlignment = 0;
        private long maxDiscardSectors = 0;
        private long maxHwDiscardSectors = 0;
        private long maxDiscardSegments = 1;
        private long maxWriteZeroesSectors = 0;
        private long dmaAlignment = 511;
        private boolean rotational = false;
        private long readAheadKb = 128;

        Builder() {
        }

        Builder(QueueLimits l) {
            this.logicalBlockSize = l.logicalBlockSize;
            this.physicalBlockSize = l.physicalBlockSize;
            this.ioMin = l.ioMin;
            this.ioOpt = l.ioOpt;
            this.alignmentOffset = l.alignmentOffset;
            this.misaligned = l.misaligned;
            this.maxSectors = l.maxSectors;
            this.maxHwSectors = l.maxHwSectors;
            this.maxDevSectors = l.maxDevSectors;
            this.maxUserSectors = l.maxUserSectors;
            this.maxSegments = l.maxSegments;
            this.maxSegmentSize = l.maxSegmentSize;
            this.segBoundaryMask = l.segBoundaryMask;
            this.virtBoundaryMask = l.virtBoundaryMask;
            this.chunkSectors = l.chunkSectors;
            this.discardGranularity = l.discardGranularity;
            this.discardAlignment = l.discardAlignment;
            this.maxDiscardSectors = l.maxDiscardSectors;
            this.maxHwDiscardSectors = l.maxHwDiscardSectors;
            this.maxDiscardSegments = l.maxDiscardSegments;
            this.maxWriteZeroesSectors = l.maxWriteZeroesSectors;
            this.dmaAlignment = l.dmaAlignment;
            this.rotational = l.rotational;
            this.readAheadKb = l.readAheadKb;
        }

        /** Sets {@code logical_block_size}, bytes: the smallest addressable unit */
        public Builder logicalBlockSize(long value) {
            this.logicalBlockSize = value;
            return this;
        }

        /** The current logicalBlockSize value. */
        public long logicalBlockSize() {
            return logicalBlockSize;
        }

        /** Sets {@code physical_block_size}, bytes: smallest unit written without read-modify-write */
        public Builder physicalBlockSize(long value) {
            this.physicalBlockSize = value;
            return this;
        }

        /** The current physicalBlockSize value. */
        public long physicalBlockSize() {
            return physicalBlockSize;
        }

        /** Sets {@code minimum_io_size} ({@code io_min}), bytes: preferred minimum I/O; a RAID's chunk */
        public Builder ioMin(long value) {
            this.ioMin = value;
            return this;
        }

        /** The current ioMin value. */
        public long ioMin() {
            return ioMin;
        }

        /** Sets {@code optimal_io_size} ({@code io_opt}), bytes: preferred streaming size; 0 = unknown */
        public Builder ioOpt(long value) {
            this.ioOpt = value;
            return this;
        }

        /** The current ioOpt value. */
        public long ioOpt() {
            return ioOpt;
        }

        /** Sets {@code alignment_offset}, bytes from the start of the device to its first naturally aligned sector */
        public Builder alignmentOffset(long value) {
            this.alignmentOffset = value;
            return this;
        }

        /** The current alignmentOffset value. */
        public long alignmentOffset() {
            return alignmentOffset;
        }

        /** Sets Set by stacking when top and bottom alignments cannot be reconciled; sysfs then shows {@code alignment_offset = -1} */
        public Builder misaligned(boolean value) {
            this.misaligned = value;
            return this;
        }

        /** The current misaligned value. */
        public boolean misaligned() {
            return misaligned;
        }

        /** Sets {@code max_sectors}, 512-byte sectors: the soft limit used to build and split I/O ({@code max_sectors_kb} × 2) */
        public Builder maxSectors(long value) {
            this.maxSectors = value;
            return this;
        }

        /** The current maxSectors value. */
        public long maxSectors() {
            return maxSectors;
        }

        /** Sets {@code max_hw_sectors}, sectors: the controller's hard limit */
        public Builder maxHwSectors(long value) {
            this.maxHwSectors = value;
            return this;
        }

        /** The current maxHwSectors value. */
        public long maxHwSectors() {
            return maxHwSectors;
        }

        /** Sets {@code max_dev_sectors}, sectors: the device's own hard limit (0 = none) */
        public Builder maxDevSectors(long value) {
            this.maxDevSectors = value;
            return this;
        }

        /** The current maxDevSectors value. */
        public long maxDevSectors() {
            return maxDevSectors;
        }

        /** Sets {@code max_user_sectors}, sectors: a value written to {@code max_sectors_kb} (0 = none; kept apart since 6.9) */
        public Builder maxUserSectors(long value) {
            this.maxUserSectors = value;
            return this;
        }

        /** The current maxUserSectors value. */
        public long maxUserSectors() {
            return maxUserSectors;
        }

        /** Sets {@code max_segments}: scatter-gather entries per request */
        public Builder maxSegments(long value) {
            this.maxSegments = value;
            return this;
        }

        /** The current maxSegments value. */
        public long maxSegments() {
            return maxSegments;
        }

        /** Sets {@code max_segment_size}, bytes per scatter-gather entry */
        public Builder maxSegmentSize(long value) {
            this.maxSegmentSize = value;
            return this;
        }

        /** The current maxSegmentSize value. */
        public long maxSegmentSize() {
            return maxSegmentSize;
        }

        /** Sets {@code seg_boundary_mask}: a segment must not cross a multiple of mask + 1 */
        public Builder segBoundaryMask(long value) {
            this.segBoundaryMask = value;
            return this;
        }

        /** The current segBoundaryMask value. */
        public long segBoundaryMask() {
            return segBoundaryMask;
        }

        /** Sets {@code virt_boundary_mask}: the NVMe-style no-gaps rule; 0 = none */
        public Builder virtBoundaryMask(long value) {
            this.virtBoundaryMask = value;
            return this;
        }

        /** The current virtBoundaryMask value. */
        public long virtBoundaryMask() {
            return virtBoundaryMask;
        }

        /** Sets {@code chunk_sectors}: I/O must not cross a multiple of this (0 = none) */
        public Builder chunkSectors(long value) {
            this.chunkSectors = value;
            return this;
        }

        /** The current chunkSectors value. */
        public long chunkSectors() {
            return chunkSectors;
        }

        /** Sets {@code discard_granularity}, bytes; 0 with no discard support */
        public Builder discardGranularity(long value) {
            this.discardGranularity = value;
            return this;
        }

        /** The current discardGranularity value. */
        public long discardGranularity() {
            return discardGranularity;
        }

        /** Sets {@code discard_alignment}, bytes */
        public Builder discardAlignment(long value) {
            this.discardAlignment = value;
            return this;
        }

        /** The current discardAlignment value. */
        public long discardAlignment() {
            return discardAlignment;
        }

        /** Sets {@code max_discard_sectors} (sysfs {@code discard_max_bytes} / 512) */
        public Builder maxDiscardSectors(long value) {
            this.maxDiscardSectors = value;
            return this;
        }

        /** The current maxDiscardSectors value. */
        public long maxDiscardSectors() {
            return maxDiscardSectors;
        }

        /** Sets {@code max_hw_discard_sectors} (sysfs {@code discard_max_hw_bytes} / 512) */
        public Builder maxHwDiscardSectors(long value) {
            this.maxHwDiscardSectors = value;
            return this;
        }

        /** The current maxHwDiscardSectors value. */
        public long maxHwDiscardSectors() {
            return maxHwDiscardSectors;
        }

        /** Sets {@code max_discard_segments} */
        public Builder maxDiscardSegments(long value) {
            this.maxDiscardSegments = value;
            return this;
        }

        /** The current maxDiscardSegments value. */
        public long maxDiscardSegments() {
            return maxDiscardSegments;
        }

        /** Sets {@code max_write_zeroes_sectors} (sysfs {@code write_zeroes_max_bytes} / 512); 0 = unsupported */
        public Builder maxWriteZeroesSectors(long value) {
            this.maxWriteZeroesSectors = value;
            return this;
        }

        /** The current maxWriteZeroesSectors value. */
        public long maxWriteZeroesSectors() {
            return maxWriteZeroesSectors;
        }

        /** Sets {@code dma_alignment}: memory alignment mask for direct I/O buffers */
        public Builder dmaAlignment(long value) {
            this.dmaAlignment = value;
            return this;
        }

        /** The current dmaAlignment value. */
        public long dmaAlignment() {
            return dmaAlignment;
        }

        /** Sets {@code rotational}: whether the device seeks */
        public Builder rotational(boolean value) {
            this.rotational = value;
            return this;
        }

        /** The current rotational value. */
        public boolean rotational() {
            return rotational;
        }

        /** Sets {@code read_ahead_kb}: the block device's readahead window in KiB */
        public Builder readAheadKb(long value) {
            this.readAheadKb = value;
            return this;
        }

        /** The current readAheadKb value. */
        public long readAheadKb() {
            return readAheadKb;
        }

        /** Builds the limits; rejects negative values and block sizes that are not powers of two. */
        public QueueLimits build() {
            return new QueueLimits(logicalBlockSize, physicalBlockSize, ioMin, ioOpt, alignmentOffset, misaligned, maxSectors, maxHwSectors, maxDevSectors, maxUserSectors, maxSegments, maxSegmentSize, segBoundaryMask, virtBoundaryMask, chunkSectors, discardGranularity, discardAlignment, maxDiscardSectors, maxHwDiscardSectors, maxDiscardSegments, maxWriteZeroesSectors, dmaAlignment, rotational, readAheadKb);
        }
    }
}
