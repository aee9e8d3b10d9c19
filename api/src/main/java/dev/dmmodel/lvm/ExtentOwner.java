package dev.dmmodel.lvm;

import java.util.Objects;

/**
 * Who owns a physical extent: the LV, its segment and stripe, and the logical extents the physical
 * extent carries data of. For a linear segment that is one logical extent; for a segment of n stripes
 * a physical extent holds one n-th of each of n logical extents (a "row").
 *
 * @param lv the LV name
 * @param segment the segment index (0-based)
 * @param stripe the stripe index within the segment
 * @param firstLogicalExtent the first logical extent of the row
 * @param logicalExtents how many logical extents share the row (the stripe count)
 */
public record ExtentOwner(String lv, int segment, int stripe, long firstLogicalExtent, long logicalExtents) {
    /** Rejects nulls. */
    public ExtentOwner {
        Objects.requireNonNull(lv, "lv");
    }
}
