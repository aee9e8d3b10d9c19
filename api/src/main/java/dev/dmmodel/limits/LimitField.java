package dev.dmmodel.limits;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * One queue limit as sysfs names and prints it ({@code /sys/block/<kname>/queue/<attr>}, and the device's own
 * {@code alignment_offset}): the unit of {@link dev.dmmodel.layout.Layout#explain(String, LimitField) explanations}.
 *
 * <p>{@link #valueOf(QueueLimits)} gives the value in sysfs units: {@code *_kb} as the kernel truncates them,
 * {@code *_bytes} as sectors × 512, {@code alignment_offset} as -1 when misaligned, {@code rotational} as 0 or 1.
 *
 * @see dev.dmmodel.layout.Layout#explain(String, LimitField)
 */
public enum LimitField {
    /** {@code logical_block_size}, bytes. */
    LOGICAL_BLOCK_SIZE("logical_block_size", QueueLimits::logicalBlockSize),
    /** {@code physical_block_size}, bytes. */
    PHYSICAL_BLOCK_SIZE("physical_block_size", QueueLimits::physicalBlockSize),
    /** {@code minimum_io_size} ({@code io_min}), bytes. */
    MINIMUM_IO_SIZE("minimum_io_size", QueueLimits::ioMin),
    /** {@code optimal_io_size} ({@code io_opt}), bytes. */
    OPTIMAL_IO_SIZE("optimal_io_size", QueueLimits::ioOpt),
    /** {@code alignment_offset}, bytes, -1 when misaligned. */
    ALIGNMENT_OFFSET("alignment_offset", QueueLimits::sysfsAlignmentOffset),
    /** {@code max_sectors_kb}: the largest I/O the queue builds. */
    MAX_SECTORS_KB("max_sectors_kb", QueueLimits::maxSectorsKb),
    /** {@code max_hw_sectors_kb}: the largest the hardware takes. */
    MAX_HW_SECTORS_KB("max_hw_sectors_kb", QueueLimits::maxHwSectorsKb),
    /** {@code max_segments}. */
    MAX_SEGMENTS("max_segments", QueueLimits::maxSegments),
    /** {@code max_segment_size}, bytes. */
    MAX_SEGMENT_SIZE("max_segment_size", QueueLimits::maxSegmentSize),
    /** {@code chunk_sectors}, sectors. */
    CHUNK_SECTORS("chunk_sectors", QueueLimits::chunkSectors),
    /** {@code discard_granularity}, bytes. */
    DISCARD_GRANULARITY("discard_granularity", QueueLimits::discardGranularity),
    /** {@code discard_max_bytes}. */
    DISCARD_MAX_BYTES("discard_max_bytes", q -> Math.multiplyExact(q.maxDiscardSectors(), 512L)),
    /** {@code discard_max_hw_bytes}. */
    DISCARD_MAX_HW_BYTES("discard_max_hw_bytes", q -> Math.multiplyExact(q.maxHwDiscardSectors(), 512L)),
    /** {@code write_zeroes_max_bytes}. */
    WRITE_ZEROES_MAX_BYTES("write_zeroes_max_bytes", q -> Math.multiplyExact(q.maxWriteZeroesSectors(), 512L)),
    /** {@code virt_boundary_mask}. */
    VIRT_BOUNDARY_MASK("virt_boundary_mask", QueueLimits::virtBoundaryMask),
    /** {@code dma_alignment} (a mask). */
    DMA_ALIGNMENT("dma_alignment", QueueLimits::dmaAlignment),
    /** {@code read_ahead_kb}. */
    READ_AHEAD_KB("read_ahead_kb", QueueLimits::readAheadKb),
    /** {@code rotational}, 0 or 1. */
    ROTATIONAL("rotational", q -> q.rotational() ? 1L : 0L);

    private final String sysfsName;
    private final ToLongFunction<QueueLimits> value;

    LimitField(String sysfsName, ToLongFunction<QueueLimits> value) {
        this.sysfsName = sysfsName;
        this.value = value;
    }

    /** The sysfs attribute name, such as {@code max_sectors_kb}. */
    public String sysfsName() {
        return sysfsName;
    }

    /** The value of this field in {@code limits}, in sysfs units. */
    public long valueOf(QueueLimits limits) {
        return value.applyAsLong(Objects.requireNonNull(limits, "limits"));
    }

    /**
     * The field of a sysfs attribute name ({@code max_sectors_kb}) or constant name ({@code MAX_SECTORS_KB}),
     * case-insensitive.
     *
     * @throws IllegalArgumentException naming the known attributes when none matches
     */
    public static LimitField of(String name) {
        Objects.requireNonNull(name, "name");
        String n = name.strip().toLowerCase(Locale.ROOT);
        for (LimitField f : values()) {
            if (f.sysfsName.equals(n) || f.name().toLowerCase(Locale.ROOT).equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown queue limit '" + name + "' (known: "
                + Arrays.stream(values()).map(LimitField::sysfsName).collect(Collectors.joining(", ")) + ")");
    }

    @Override
    public String toString() {
        return sysfsName;
    }
}
