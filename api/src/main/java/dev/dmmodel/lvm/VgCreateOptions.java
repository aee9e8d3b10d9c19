package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * {@code vgcreate} options.
 *
 * @param extentSize {@code -s}, default 4 MiB (8192 sectors)
 * @param allocationPolicy {@code --alloc}, default normal
 */
public record VgCreateOptions(Sectors extentSize, AllocationPolicy allocationPolicy) {

    /** {@code vgcreate VG PV...} with the defaults. */
    public static final VgCreateOptions DEFAULTS = new VgCreateOptions(Sectors.of(8192), AllocationPolicy.NORMAL);

    /** Rejects nulls; the extent size rules are LVM's and are checked when the VG is created. */
    public VgCreateOptions {
        Objects.requireNonNull(extentSize, "extentSize");
        Objects.requireNonNull(allocationPolicy, "allocationPolicy");
    }

    /** With {@code -s}. */
    public VgCreateOptions withExtentSize(Sectors v) {
        return new VgCreateOptions(v, allocationPolicy);
    }

    /** With {@code --alloc}. */
    public VgCreateOptions withAllocationPolicy(AllocationPolicy v) {
        return new VgCreateOptions(extentSize, v);
    }
}
