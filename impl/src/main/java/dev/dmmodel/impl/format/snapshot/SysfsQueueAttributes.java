package dev.dmmodel.impl.format.snapshot;

import dev.dmmodel.limits.QueueLimits;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queue limits of a device as sysfs prints them: {@code /sys/block/<kname>/queue/<attr>} (and the
 * device's {@code alignment_offset}), by attribute name, in a fixed order. One place for the mapping
 * between {@link QueueLimits} and sysfs names and units, used to compare a model with a recorded host and
 * to print limits the way a user sees them.
 */
public final class SysfsQueueAttributes {

    /** The attribute names, in the order {@link #of(QueueLimits)} returns them. */
    public static final List<String> NAMES = List.of(
            "logical_block_size",
            "physical_block_size",
            "minimum_io_size",
            "optimal_io_size",
            "alignment_offset",
            "max_sectors_kb",
            "max_hw_sectors_kb",
            "max_segments",
            "max_segment_size",
            "chunk_sectors",
            "discard_granularity",
            "discard_max_bytes",
            "discard_max_hw_bytes",
            "write_zeroes_max_bytes",
            "virt_boundary_mask",
            "dma_alignment",
            "read_ahead_kb",
            "rotational",
            "hw_sector_size");

    private SysfsQueueAttributes() {
    }

    /**
     * The sysfs values of these limits, by attribute name in the order of {@link #NAMES}:
     * {@code alignment_offset} as the device's own file shows it ({@code -1} when misaligned),
     * {@code *_kb} values as the kernel truncates them, {@code *_bytes} values as sectors × 512,
     * {@code rotational} as 0 or 1, {@code hw_sector_size} as the logical block size.
     *
     * @throws ArithmeticException if a sector count × 512 does not fit in a long (no kernel value does)
     */
    public static Map<String, Long> of(QueueLimits limits) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("logical_block_size", limits.logicalBlockSize());
        m.put("physical_block_size", limits.physicalBlockSize());
        m.put("minimum_io_size", limits.ioMin());
        m.put("optimal_io_size", limits.ioOpt());
        m.put("alignment_offset", limits.sysfsAlignmentOffset());
        m.put("max_sectors_kb", limits.maxSectorsKb());
        m.put("max_hw_sectors_kb", limits.maxHwSectorsKb());
        m.put("max_segments", limits.maxSegments());
        m.put("max_segment_size", limits.maxSegmentSize());
        m.put("chunk_sectors", limits.chunkSectors());
        m.put("discard_granularity", limits.discardGranularity());
        m.put("discard_max_bytes", bytes(limits.maxDiscardSectors()));
        m.put("discard_max_hw_bytes", bytes(limits.maxHwDiscardSectors()));
        m.put("write_zeroes_max_bytes", bytes(limits.maxWriteZeroesSectors()));
        m.put("virt_boundary_mask", limits.virtBoundaryMask());
        m.put("dma_alignment", limits.dmaAlignment());
        m.put("read_ahead_kb", limits.readAheadKb());
        m.put("rotational", limits.rotational() ? 1L : 0L);
        m.put("hw_sector_size", limits.logicalBlockSize());
        return Collections.unmodifiableMap(m);
    }

    private static long bytes(long sectors) {
        return Math.multiplyExact(sectors, 512L);
    }
}
