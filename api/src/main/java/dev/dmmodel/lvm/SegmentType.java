package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.Objects;
import java.util.Optional;

/**
 * What an LV segment maps onto ({@code lib/metadata/segtype.h}): extents on PVs ({@code striped}, with
 * linear as one stripe), a thin pool over its hidden data and metadata LVs ({@code thin-pool}), or a thin
 * volume whose blocks its pool provisions ({@code thin}). The thin types have no PV areas.
 */
public sealed interface SegmentType permits SegmentType.Striped, SegmentType.ThinPool, SegmentType.Thin {

    /** The one striped (or linear) segment type. */
    Striped STRIPED = new Striped();

    /** The type as LVM metadata writes it: {@code striped}, {@code thin-pool} or {@code thin}. */
    String typeName();

    /** Extents on PVs, in one or more stripes; the areas are the segment's. */
    record Striped() implements SegmentType {
        @Override
        public String typeName() {
            return "striped";
        }
    }

    /**
     * A thin pool ({@code lib/thin/thin.c: _thin_pool_text_import}).
     *
     * @param metadataLv the metadata LV ({@code metadata = "pool_tmeta"})
     * @param dataLv the data LV ({@code pool = "pool_tdata"}), as long as the pool
     * @param transactionId the pool's transaction id: 0 for a new pool, +1 per thin LV created or deleted
     * @param chunkSize the data block size, 128 to 2,097,152 sectors
     * @param discards how discards are handled
     * @param zeroNewBlocks whether new blocks are zeroed before first use ({@code zero_new_blocks = 1})
     */
    record ThinPool(String metadataLv, String dataLv, long transactionId, Sectors chunkSize, ThinDiscards discards,
                    boolean zeroNewBlocks) implements SegmentType {

        /** {@code DM_THIN_MIN_DATA_BLOCK_SIZE}: 64 KiB. */
        public static final long MIN_CHUNK_SECTORS = 128;
        /** {@code DM_THIN_MAX_DATA_BLOCK_SIZE}: 1 GiB. */
        public static final long MAX_CHUNK_SECTORS = 2_097_152;

        /** Checks what the metadata importer checks. */
        public ThinPool {
            Objects.requireNonNull(metadataLv, "metadataLv");
            Objects.requireNonNull(dataLv, "dataLv");
            Objects.requireNonNull(chunkSize, "chunkSize");
            Objects.requireNonNull(discards, "discards");
            if (transactionId < 0) {
                throw new IllegalArgumentException("Could not read transaction_id " + transactionId
                        + " (it must not be negative)");
            }
            // lib/thin/thin.c: _thin_pool_text_import (chunk_size range)
            if (chunkSize.count() < MIN_CHUNK_SECTORS || chunkSize.count() > MAX_CHUNK_SECTORS) {
                throw new IllegalArgumentException("Unsupported value " + chunkSize.count() + " for chunk_size");
            }
        }

        @Override
        public String typeName() {
            return "thin-pool";
        }

        /** The same pool with another transaction id. */
        public ThinPool withTransactionId(long id) {
            return new ThinPool(metadataLv, dataLv, id, chunkSize, discards, zeroNewBlocks);
        }
    }

    /**
     * A thin volume ({@code lib/thin/thin.c: _thin_text_import}).
     *
     * @param pool the thin pool LV
     * @param transactionId the pool's transaction id when this volume was created
     * @param deviceId the thin device id in the pool, 0 to 2^24 - 1
     * @param origin the thin LV this one is a snapshot of, if any
     */
    record Thin(String pool, long transactionId, long deviceId, Optional<String> origin) implements SegmentType {

        /** {@code DM_THIN_MAX_DEVICE_ID}: 2^24 - 1. */
        public static final long MAX_DEVICE_ID = (1L << 24) - 1;

        /** Checks what the metadata importer checks. */
        public Thin {
            Objects.requireNonNull(pool, "pool");
            Objects.requireNonNull(origin, "origin");
            if (transactionId < 0) {
                throw new IllegalArgumentException("Could not read transaction_id " + transactionId
                        + " (it must not be negative)");
            }
            if (deviceId < 0 || deviceId > MAX_DEVICE_ID) {
                throw new IllegalArgumentException("Unsupported value " + deviceId + " for device_id");
            }
        }

        @Override
        public String typeName() {
            return "thin";
        }
    }
}
