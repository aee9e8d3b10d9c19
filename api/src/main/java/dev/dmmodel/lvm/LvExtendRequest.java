package dev.dmmodel.lvm;

import dev.dmmodel.units.Bytes;
import java.util.List;
import java.util.Objects;

/**
 * An {@code lvextend -l +N [-i N] [-I SIZE] VG/LV [PV | PV:PE-PE ...]} of a linear or striped LV: the
 * extents added, their stripes and stripe size, allocation policy and, optionally, the PVs (or exact
 * extent ranges) to allocate them from, as on the command line.
 *
 * @param name the LV to extend
 * @param extents extents to add ({@code -l +N}), positive
 * @param stripes {@code -i}, or 0 for the stripe count of the LV's last segment (as lvextend does)
 * @param stripeSize {@code -I}, or null for the last segment's stripe size (the default 64 KiB if it has one stripe)
 * @param policy {@code --alloc}
 * @param pvs whole PVs to use (device references); empty = any PV of the VG unless ranges are given
 * @param pvRanges extent ranges to use ({@code /dev/sdb:0-99})
 */
public record LvExtendRequest(String name, long extents, int stripes, Bytes stripeSize,
                              AllocationPolicy policy, List<String> pvs, List<ExtentRange> pvRanges) {

    /** Rejects nulls, a non-positive extent count and impossible stripe counts. */
    public LvExtendRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(policy, "policy");
        pvs = List.copyOf(pvs);
        pvRanges = List.copyOf(pvRanges);
        if (extents <= 0) {
            throw new IllegalArgumentException("lvextend " + name + ": extents to add (" + extents
                    + ") must be positive");
        }
        if (stripes < 0 || stripes > 128) {
            throw new IllegalArgumentException("Number of stripes (" + stripes + ") must be between 1 and 128.");
        }
    }

    /** {@code lvextend -l +EXTENTS VG/NAME RANGE...} with the last segment's stripes and the LV's policy. */
    public static LvExtendRequest onRanges(String name, long extents, List<ExtentRange> ranges) {
        return new LvExtendRequest(name, extents, 0, null, AllocationPolicy.INHERIT, List.of(), ranges);
    }
}
