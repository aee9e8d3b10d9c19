package dev.dmmodel.lvm;

import java.util.Objects;

/**
 * A run of physical extents on one PV: {@code [start, start + count)}.
 *
 * @param pv kernel name of the PV's device
 * @param start first extent
 * @param count number of extents, positive
 */
public record ExtentRange(String pv, long start, long count) {
    /** Rejects nulls and empty or negative runs. */
    public ExtentRange {
        Objects.requireNonNull(pv, "pv");
        if (start < 0 || count <= 0) {
            throw new IllegalArgumentException("extent range on " + pv + ": start " + start + ", count " + count
                    + " (start must not be negative, count must be positive)");
        }
    }

    /** The extent after the last one. */
    public long end() {
        return start + count;
    }

    @Override
    public String toString() {
        return pv + ":" + start + "-" + (end() - 1);
    }
}
