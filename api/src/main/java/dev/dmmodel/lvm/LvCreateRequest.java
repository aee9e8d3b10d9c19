package dev.dmmodel.lvm;

import dev.dmmodel.units.Bytes;
import java.util.List;
import java.util.Objects;

/**
 * An {@code lvcreate} of a linear or striped LV: a size ({@code -L}, rounded up to extents) or an extent
 * count ({@code -l}), stripes ({@code -i}) and stripe size ({@code -I}), allocation policy, and
 * optionally the PVs (or exact extent ranges) to allocate from, as on the command line.
 *
 * @param name the LV name
 * @param size {@code -L}, or null when {@code extents} is given
 * @param extents {@code -l}, or 0 when {@code size} is given
 * @param stripes {@code -i}, 1 for linear
 * @param stripeSize {@code -I}, or null for the default 64 KiB
 * @param policy {@code --alloc}
 * @param pvs whole PVs to use (kernel names); empty = any PV of the VG unless ranges are given
 * @param pvRanges extent ranges to use ({@code /dev/sdb:0-99})
 */
public record LvCreateRequest(String name, Bytes size, long extents, int stripes, Bytes stripeSize,
                              AllocationPolicy policy, List<String> pvs, List<ExtentRange> pvRanges) {

    /** Rejects a request with neither or both of size and extents. */
    public LvCreateRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(policy, "policy");
        pvs = List.copyOf(pvs);
        pvRanges = List.copyOf(pvRanges);
        if ((size == null) == (extents == 0)) {
            throw new IllegalArgumentException("lvcreate " + name + ": give exactly one of a size (-L) and an extent count (-l)");
        }
        if (extents < 0) {
            throw new IllegalArgumentException("lvcreate " + name + ": extent count (" + extents + ") may not be negative");
        }
        if (stripes < 1 || stripes > 128) {
            throw new IllegalArgumentException("Number of stripes (" + stripes + ") must be between 1 and 128.");
        }
    }

    /** A builder for an LV of that name. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builder; size or extents must be set once. */
    public static final class Builder {
        private final String name;
        private Bytes size;
        private long extents;
        private int stripes = 1;
        private Bytes stripeSize;
        private AllocationPolicy policy = AllocationPolicy.INHERIT;
        private List<String> pvs = List.of();
        private List<ExtentRange> pvRanges = List.of();

        Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** {@code -L}. */
        public Builder size(Bytes v) {
            if (size != null) {
                throw new IllegalStateException("size was already set to " + size);
            }
            this.size = Objects.requireNonNull(v, "size");
            return this;
        }

        /** {@code -L} from text such as {@code 100G} (a bare number is MiB, as lvcreate reads it). */
        public Builder size(String v) {
            return size(Bytes.parse(v, dev.dmmodel.units.SizeUnit.MIB));
        }

        /** {@code -l}. */
        public Builder extents(long v) {
            if (extents != 0) {
                throw new IllegalStateException("extent count was already set to " + extents);
            }
            this.extents = v;
            return this;
        }

        /** {@code -i}. */
        public Builder stripes(int v) {
            this.stripes = v;
            return this;
        }

        /** {@code -I}. */
        public Builder stripeSize(Bytes v) {
            this.stripeSize = Objects.requireNonNull(v, "stripeSize");
            return this;
        }

        /** {@code --alloc}. */
        public Builder policy(AllocationPolicy v) {
            this.policy = Objects.requireNonNull(v, "policy");
            return this;
        }

        /** Whole PVs to allocate from, as {@code lvcreate ... vg PV...} lists them. */
        public Builder onPvs(String... v) {
            this.pvs = List.of(v);
            return this;
        }

        /** Extent ranges to allocate from, as {@code lvcreate ... vg PV:PE-PE...} lists them. */
        public Builder onRanges(List<ExtentRange> v) {
            this.pvRanges = List.copyOf(v);
            return this;
        }

        /** Builds the request. */
        public LvCreateRequest build() {
            return new LvCreateRequest(name, size, extents, stripes, stripeSize, policy, pvs, pvRanges);
        }
    }
}
