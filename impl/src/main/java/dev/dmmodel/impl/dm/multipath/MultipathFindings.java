package dev.dmmodel.impl.dm.multipath;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/** The findings of a dm-multipath device: paths whose limits differ. */
public final class MultipathFindings {

    /** The limits compared between paths, by their sysfs names, in sysfs order. */
    private static final Map<String, ToLongFunction<QueueLimits>> LIMITS = limits();

    private MultipathFindings() {
    }

    private static Map<String, ToLongFunction<QueueLimits>> limits() {
        Map<String, ToLongFunction<QueueLimits>> m = new LinkedHashMap<>();
        m.put("logical_block_size", QueueLimits::logicalBlockSize);
        m.put("physical_block_size", QueueLimits::physicalBlockSize);
        m.put("minimum_io_size", QueueLimits::ioMin);
        m.put("optimal_io_size", QueueLimits::ioOpt);
        m.put("max_sectors_kb", QueueLimits::maxSectorsKb);
        m.put("max_hw_sectors_kb", QueueLimits::maxHwSectorsKb);
        m.put("max_segments", QueueLimits::maxSegments);
        m.put("max_segment_size", QueueLimits::maxSegmentSize);
        m.put("virt_boundary_mask", QueueLimits::virtBoundaryMask);
        m.put("chunk_sectors", QueueLimits::chunkSectors);
        m.put("discard_granularity", QueueLimits::discardGranularity);
        m.put("max_discard_sectors", QueueLimits::maxDiscardSectors);
        m.put("max_write_zeroes_sectors", QueueLimits::maxWriteZeroesSectors);
        m.put("dma_alignment", QueueLimits::dmaAlignment);
        return m;
    }

    /**
     * {@link FindingType#MULTIPATH_PATH_LIMITS_DIFFER} once per limit in which the paths of a multipath target
     * differ, naming every path with its value and the value the multipath device has.
     */
    // drivers/md/dm-table.c: dm_calculate_queue_limits stacks every path (multipath_iterate_devices) with
    // blk_stack_limits: the most restrictive value of each limit wins
    public static void check(Layout layout, DmDevice dm, List<Finding> out) {
        for (DmTarget t : dm.table().targets()) {
            if (!(t instanceof MultipathTarget m)) {
                continue;
            }
            List<String> paths = new ArrayList<>(new java.util.LinkedHashSet<>(m.devices()));
            if (paths.size() < 2) {
                continue;
            }
            for (Map.Entry<String, ToLongFunction<QueueLimits>> e : LIMITS.entrySet()) {
                Map<String, Long> values = new LinkedHashMap<>();
                for (String p : paths) {
                    values.put(p, e.getValue().applyAsLong(layout.device(p).limits()));
                }
                if (values.values().stream().distinct().count() < 2) {
                    continue;
                }
                long own = e.getValue().applyAsLong(dm.limits());
                StringBuilder list = new StringBuilder();
                values.forEach((p, v) -> list.append(list.length() == 0 ? "" : ", ").append(p).append(' ').append(v));
                FindingType type = FindingType.MULTIPATH_PATH_LIMITS_DIFFER;
                out.add(new Finding(type, type.defaultSeverity(), dm.name(), dm.name() + " (" + dm.dmName()
                        + "): its multipath paths differ in " + e.getKey() + ": " + list + "; the multipath device "
                        + "has " + own + ", the most restrictive, whichever path an I/O takes",
                        "use paths with the same limits (the same HBA, transport and driver settings), or size I/O to "
                                + dm.name() + "'s own limits"));
            }
        }
    }
}
