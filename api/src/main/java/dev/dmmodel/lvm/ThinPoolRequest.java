package dev.dmmodel.lvm;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.SizeUnit;
import java.util.List;
import java.util.Objects;

/**
 * An {@code lvcreate --type thin-pool}: the pool's data size ({@code -L}) or extents ({@code -l}), chunk
 * size, metadata size, zeroing, discards, when-full behaviour, data stripes and the metadata spare, as on
 * the command line. Unset values ({@code null}) take LVM's defaults and selection policies.
 *
 * @param name the pool LV name
 * @param size {@code -L} (data size), or null when {@code extents} is given
 * @param extents {@code -l}, or 0 when {@code size} is given
 * @param chunkSize {@code --chunksize}, or null for LVM's selection ({@code chunkPolicy}, metadata size)
 * @param poolMetadataSize {@code --poolmetadatasize}, or null to estimate it from data size and chunk size
 * @param zero {@code --zero y|n}, or null for the default (zeroing on)
 * @param discards {@code --discards}, or null for the default ({@link ThinDiscards#PASSDOWN})
 * @param errorWhenFull {@code --errorwhenfull y}
 * @param stripes {@code -i} for the data LV, 1 for linear
 * @param stripeSize {@code -I} for the data LV, or null for the default 64 KiB
 * @param chunkPolicy {@code allocation/thin_pool_chunk_size_policy}, used when neither chunk size nor
 *     metadata size is given
 * @param poolMetadataSpare {@code --poolmetadataspare y|n}
 * @param policy {@code --alloc}
 * @param pvs PVs to allocate from (device references); empty = any PV of the VG
 */
public record ThinPoolRequest(String name, Bytes size, long extents, Bytes chunkSize, Bytes poolMetadataSize,
                              Boolean zero, ThinDiscards discards, boolean errorWhenFull, int stripes,
                              Bytes stripeSize, ChunkPolicy chunkPolicy, boolean poolMetadataSpare,
                              AllocationPolicy policy, List<String> pvs) {

    /** {@code allocation/thin_pool_chunk_size_policy}. */
    public enum ChunkPolicy {
        /** Start from 64 KiB chunks; hint from the PVs' {@code minimum_io_size}. */
        GENERIC,
        /** Start from 512 KiB chunks; hint from the PVs' {@code optimal_io_size}. */
        PERFORMANCE
    }

    /** Rejects a request with neither or both of size and extents, and impossible stripe counts. */
    public ThinPoolRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(chunkPolicy, "chunkPolicy");
        Objects.requireNonNull(policy, "policy");
        pvs = List.copyOf(pvs);
        if ((size == null) == (extents == 0)) {
            throw new IllegalArgumentException("lvcreate --type thin-pool " + name
                    + ": give exactly one of a size (-L) and an extent count (-l)");
        }
        if (extents < 0) {
            throw new IllegalArgumentException("lvcreate --type thin-pool " + name + ": extent count (" + extents
                    + ") may not be negative");
        }
        if (stripes < 1 || stripes > 128) {
            throw new IllegalArgumentException("Number of stripes (" + stripes + ") must be between 1 and 128.");
        }
    }

    /** The discards mode, the default when unset. */
    public ThinDiscards discardsOrDefault() {
        return discards == null ? ThinDiscards.PASSDOWN : discards;
    }

    /** Whether new blocks are zeroed, the default (yes) when unset. */
    public boolean zeroOrDefault() {
        return zero == null || zero;
    }

    /** A builder for a pool of that name. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builder; size or extents must be set once. */
    public static final class Builder {
        private final String name;
        private Bytes size;
        private long extents;
        private Bytes chunkSize;
        private Bytes poolMetadataSize;
        private Boolean zero;
        private ThinDiscards discards;
        private boolean errorWhenFull;
        private int stripes = 1;
        private Bytes stripeSize;
        private ChunkPolicy chunkPolicy = ChunkPolicy.GENERIC;
        private boolean poolMetadataSpare = true;
        private AllocationPolicy policy = AllocationPolicy.INHERIT;
        private List<String> pvs = List.of();

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

        /** {@code -L} from text such as {@code 256M} (a bare number is MiB, as lvcreate reads it). */
        public Builder size(String v) {
            return size(Bytes.parse(v, SizeUnit.MIB));
        }

        /** {@code -l}. */
        public Builder extents(long v) {
            if (extents != 0) {
                throw new IllegalStateException("extent count was already set to " + extents);
            }
            this.extents = v;
            return this;
        }

        /** {@code --chunksize}. */
        public Builder chunkSize(Bytes v) {
            this.chunkSize = Objects.requireNonNull(v, "chunkSize");
            return this;
        }

        /** {@code --chunksize} from text such as {@code 1M} (a bare number is KiB, as lvcreate reads it). */
        public Builder chunkSize(String v) {
            return chunkSize(Bytes.parse(v, SizeUnit.KIB));
        }

        /** {@code --poolmetadatasize}. */
        public Builder poolMetadataSize(Bytes v) {
            this.poolMetadataSize = Objects.requireNonNull(v, "poolMetadataSize");
            return this;
        }

        /** {@code --poolmetadatasize} from text such as {@code 4M} (a bare number is MiB). */
        public Builder poolMetadataSize(String v) {
            return poolMetadataSize(Bytes.parse(v, SizeUnit.MIB));
        }

        /** {@code --zero y|n}. */
        public Builder zero(boolean v) {
            this.zero = v;
            return this;
        }

        /** {@code --discards}. */
        public Builder discards(ThinDiscards v) {
            this.discards = Objects.requireNonNull(v, "discards");
            return this;
        }

        /** {@code --errorwhenfull y|n}. */
        public Builder errorWhenFull(boolean v) {
            this.errorWhenFull = v;
            return this;
        }

        /** {@code -i} for the data LV. */
        public Builder stripes(int v) {
            this.stripes = v;
            return this;
        }

        /** {@code -I} for the data LV. */
        public Builder stripeSize(Bytes v) {
            this.stripeSize = Objects.requireNonNull(v, "stripeSize");
            return this;
        }

        /** {@code allocation/thin_pool_chunk_size_policy}. */
        public Builder chunkPolicy(ChunkPolicy v) {
            this.chunkPolicy = Objects.requireNonNull(v, "chunkPolicy");
            return this;
        }

        /** {@code --poolmetadataspare y|n}. */
        public Builder poolMetadataSpare(boolean v) {
            this.poolMetadataSpare = v;
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

        /** Builds the request. */
        public ThinPoolRequest build() {
            return new ThinPoolRequest(name, size, extents, chunkSize, poolMetadataSize, zero, discards, errorWhenFull,
                    stripes, stripeSize, chunkPolicy, poolMetadataSpare, policy, pvs);
        }
    }
}
