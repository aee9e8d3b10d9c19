package dev.dmmodel.lvm;

import java.util.Objects;

/**
 * One stripe of an LV segment: a run of physical extents on one PV.
 *
 * @param pv kernel name of the PV's device
 * @param startPe first physical extent
 */
public record StripeArea(String pv, long startPe) {
    /** Rejects nulls and negative extents. */
    public StripeArea {
        Objects.requireNonNull(pv, "pv");
        if (startPe < 0) {
            throw new IllegalArgumentException("stripe area on " + pv + ": first extent (" + startPe + ") must not be negative");
        }
    }
}
