package dev.dmmodel.lvm;

import java.util.Objects;

/**
 * One physical extent of a PV.
 *
 * @param pv kernel name of the PV's device
 * @param pe the extent number
 */
public record PhysicalExtent(String pv, long pe) {
    /** Rejects nulls and negative extents. */
    public PhysicalExtent {
        Objects.requireNonNull(pv, "pv");
        if (pe < 0) {
            throw new IllegalArgumentException("physical extent on " + pv + " (" + pe + ") must not be negative");
        }
    }
}
