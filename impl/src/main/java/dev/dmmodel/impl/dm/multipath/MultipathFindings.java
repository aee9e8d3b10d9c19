package dev.dmmodel.impl.dm.multipath;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The findings of a dm-multipath device: paths whose limits differ. */
public final class MultipathFindings {

    /** The limits compared between paths, in sysfs order (their values in sysfs units). */
    private static final List<LimitField> LIMITS = List.of(LimitField.LOGICAL_BLOCK_SIZE,
            LimitField.PHYSICAL_BLOCK_SIZE, LimitField.MINIMUM_IO_SIZE, LimitField.OPTIMAL_IO_SIZE,
            LimitField.MAX_SECTORS_KB, LimitField.MAX_HW_SECTORS_KB, LimitField.MAX_SEGMENTS,
            LimitField.MAX_SEGMENT_SIZE, LimitField.VIRT_BOUNDARY_MASK, LimitField.CHUNK_SECTORS,
            LimitField.DISCARD_GRANULARITY, LimitField.DISCARD_MAX_BYTES, LimitField.WRITE_ZEROES_MAX_BYTES,
            LimitField.DMA_ALIGNMENT);

    private MultipathFindings() {
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
            for (LimitField field : LIMITS) {
                Map<String, Long> values = new LinkedHashMap<>();
                List<LimitRef> basis = new ArrayList<>();
                basis.add(new LimitRef(dm.name(), field));
                for (String p : paths) {
                    values.put(p, field.valueOf(layout.device(p).limits()));
                    basis.add(new LimitRef(p, field));
                }
                if (values.values().stream().distinct().count() < 2) {
                    continue;
                }
                long own = field.valueOf(dm.limits());
                StringBuilder list = new StringBuilder();
                values.forEach((p, v) -> list.append(list.length() == 0 ? "" : ", ").append(p).append(' ').append(v));
                FindingType type = FindingType.MULTIPATH_PATH_LIMITS_DIFFER;
                out.add(new Finding(type, type.defaultSeverity(), dm.name(), dm.name() + " (" + dm.dmName()
                        + "): its multipath paths differ in " + field.sysfsName() + ": " + list + "; the multipath device "
                        + "has " + own + ", the most restrictive, whichever path an I/O takes",
                        "use paths with the same limits (the same HBA, transport and driver settings), or size I/O to "
                                + dm.name() + "'s own limits", basis));
            }
        }
    }
}
