package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an LV segment maps onto ({@code lib/metadata/segtype.h}): extents on PVs ({@code striped}, with
 * linear as one stripe), a thin pool over its hidden data and metadata LVs ({@code thin-pool}), or a thin
 * volume whose blocks its pool provisions ({@code thin}), a classic snapshot ({@code snapshot}), a cache pool
 * ({@code cache-pool}), a cached LV ({@code cache}), an LV with a write cache ({@code writecache}) or a RAID LV
 * ({@code raid1}, {@code raid4}, {@code raid5*}, {@code raid6*}, {@code raid10}). Only {@code striped} has PV
 * areas; the others name the LVs they are made of.
 */
public sealed interface SegmentType permits SegmentType.Striped, SegmentType.ThinPool, SegmentType.Thin,
        SegmentType.Snapshot, SegmentType.CachePool, SegmentType.Cache, SegmentType.Writecache, SegmentType.Raid {

    /** The one striped (or linear) segment type. */
    Striped STRIPED = new Striped();

    /** The type as LVM metadata writes it ({@code striped}, {@code thin-pool}, {@code snapshot}, ...), without flags. */
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

    /**
     * A classic (copy-on-write) snapshot ({@code lib/snapshot/snapshot.c: _snap_text_import}): the hidden
     * {@code snapshotN} LV that ties the origin to the COW store. The COW store LV (whose name users see as the
     * snapshot's) holds the exceptions; the segment's length is the origin's.
     *
     * @param origin the origin LV ({@code origin = "lv"})
     * @param cowStore the COW store LV ({@code cow_store = "snap"})
     * @param chunkSize the exception chunk size, a power of two from 8 sectors (4 KiB) to 1024 (512 KiB)
     */
    record Snapshot(String origin, String cowStore, Sectors chunkSize) implements SegmentType {

        /** The smallest chunk {@code lvcreate -s} takes: 4 KiB. */
        public static final long MIN_CHUNK_SECTORS = 8;
        /** The largest chunk {@code lvcreate -s} takes: 512 KiB. */
        public static final long MAX_CHUNK_SECTORS = 1024;

        /** Checks what {@code _snap_text_import} and {@code lvcreate}'s chunk rules check. */
        public Snapshot {
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(cowStore, "cowStore");
            Objects.requireNonNull(chunkSize, "chunkSize");
            long c = chunkSize.count();
            // tools/lvcreate.c: _read_snapshot_params (chunk size a power of 2 from 4 KiB to 512 KiB)
            if (c < MIN_CHUNK_SECTORS || c > MAX_CHUNK_SECTORS || Long.bitCount(c) != 1) {
                throw new IllegalArgumentException("Chunk size " + c + " sectors must be a power of 2 in the range"
                        + " 4K to 512K");
            }
            if (origin.equals(cowStore)) {
                throw new IllegalArgumentException("snapshot origin and cow_store are the same LV \"" + origin + "\"");
            }
        }

        @Override
        public String typeName() {
            return "snapshot";
        }
    }

    /** dm-cache's modes ({@code cache_mode} in LVM metadata, a feature argument of the {@code cache} target). */
    enum CacheMode {
        /** Writes go to the origin and, for cached blocks, to the cache; nothing is dirty. */
        WRITETHROUGH,
        /** Writes to cached blocks go to the cache only and are written back later. */
        WRITEBACK,
        /** Every I/O goes to the origin; cached blocks are invalidated on write. */
        PASSTHROUGH;

        /** The word LVM and dm-cache use: {@code writethrough}, {@code writeback}, {@code passthrough}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A cache pool ({@code lib/cache_segtype/cache.c: _cache_pool_text_import}): its hidden data and metadata
     * sub-LVs and the settings dm-cache gets when the pool is attached to an LV.
     *
     * @param dataLv the cache data LV ({@code data = "pool_cdata"})
     * @param metadataLv the cache metadata LV ({@code metadata = "pool_cmeta"})
     * @param chunkSize the cache block size, a multiple of 64 sectors (32 KiB) from 64 to 2,097,152 (1 GiB)
     * @param cacheMode {@code cache_mode}, if set
     * @param policy {@code policy} ({@code smq}, {@code mq}, {@code cleaner}), if set
     * @param policySettings {@code policy_settings { key = value }}, in file order
     * @param metadataFormat {@code metadata_format} (1 or 2), if set; written with the segment type flag
     *     {@code +METADATA_FORMAT}
     */
    record CachePool(String dataLv, String metadataLv, Sectors chunkSize, Optional<CacheMode> cacheMode,
                     Optional<String> policy, Map<String, Long> policySettings, Optional<Integer> metadataFormat)
            implements SegmentType {

        /** {@code DM_CACHE_MIN_DATA_BLOCK_SIZE}: 32 KiB. */
        public static final long MIN_CHUNK_SECTORS = 64;
        /** {@code DM_CACHE_MAX_DATA_BLOCK_SIZE}: 1 GiB. */
        public static final long MAX_CHUNK_SECTORS = 2_097_152;

        /** Checks what the metadata importer and {@code dm-cache}'s block size rules check. */
        public CachePool {
            Objects.requireNonNull(dataLv, "dataLv");
            Objects.requireNonNull(metadataLv, "metadataLv");
            Objects.requireNonNull(chunkSize, "chunkSize");
            Objects.requireNonNull(cacheMode, "cacheMode");
            Objects.requireNonNull(policy, "policy");
            Objects.requireNonNull(metadataFormat, "metadataFormat");
            policySettings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(
                    Objects.requireNonNull(policySettings, "policySettings")));
            long c = chunkSize.count();
            // lib/metadata/cache_manip.c: cache_set_params / validate_lv_cache_chunk_size
            if (c < MIN_CHUNK_SECTORS || c > MAX_CHUNK_SECTORS || c % MIN_CHUNK_SECTORS != 0) {
                throw new IllegalArgumentException("Chunk size " + c + " sectors must be a multiple of 64 sectors"
                        + " (32KiB) from 32KiB to 1GiB");
            }
            if (metadataFormat.isPresent() && metadataFormat.get() != 1 && metadataFormat.get() != 2) {
                throw new IllegalArgumentException("Unknown cache metadata format " + metadataFormat.get()
                        + " (expected 1 or 2)");
            }
            if (dataLv.equals(metadataLv)) {
                throw new IllegalArgumentException("cache pool data and metadata are the same LV \"" + dataLv + "\"");
            }
        }

        @Override
        public String typeName() {
            return "cache-pool";
        }
    }

    /**
     * A cached LV ({@code lib/cache_segtype/cache.c: _cache_text_import}): dm-cache over the hidden origin LV
     * with an attached cache pool's data and metadata.
     *
     * @param cachePool the attached cache pool LV ({@code cache_pool = "pool_cpool"})
     * @param origin the hidden origin LV ({@code origin = "lv_corig"})
     */
    record Cache(String cachePool, String origin) implements SegmentType {

        /** Rejects nulls and a pool that is its own origin. */
        public Cache {
            Objects.requireNonNull(cachePool, "cachePool");
            Objects.requireNonNull(origin, "origin");
            if (cachePool.equals(origin)) {
                throw new IllegalArgumentException("cache_pool and origin are the same LV \"" + origin + "\"");
            }
        }

        @Override
        public String typeName() {
            return "cache";
        }
    }

    /**
     * An LV with dm-writecache ({@code lib/writecache/writecache.c: _writecache_text_import}) over its hidden
     * origin, caching on a hidden cache volume.
     *
     * @param origin the hidden origin LV ({@code origin = "lv_wcorig"})
     * @param writecache the cache volume ({@code writecache = "fast_cvol"})
     * @param blockSize {@code writecache_block_size} in bytes: 512 or 4096
     * @param settings the optional {@code writecache_*} settings LVM stores, by dm-writecache's names (
     *     {@code high_watermark}, {@code low_watermark}, {@code writeback_jobs}, {@code autocommit_blocks},
     *     {@code autocommit_time}, {@code fua}, {@code nofua}, {@code cleaner}, {@code max_age},
     *     {@code metadata_only}, {@code pause_writeback}), in file order
     */
    record Writecache(String origin, String writecache, long blockSize, Map<String, Long> settings)
            implements SegmentType {

        /** The settings LVM stores for dm-writecache, by the kernel's names. */
        public static final List<String> SETTINGS = List.of("high_watermark", "low_watermark", "writeback_jobs",
                "autocommit_blocks", "autocommit_time", "fua", "nofua", "cleaner", "max_age", "metadata_only",
                "pause_writeback");

        /** Checks what the metadata importer checks. */
        public Writecache {
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(writecache, "writecache");
            settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(
                    Objects.requireNonNull(settings, "settings")));
            // lib/writecache/writecache.c: _writecache_text_import (block size 512 or 4096)
            if (blockSize != 512 && blockSize != 4096) {
                throw new IllegalArgumentException("Invalid writecache_block_size " + blockSize
                        + " (expected 512 or 4096)");
            }
            for (Map.Entry<String, Long> e : settings.entrySet()) {
                if (!SETTINGS.contains(Objects.requireNonNull(e.getKey(), "setting"))) {
                    throw new IllegalArgumentException("Unknown writecache setting \"" + e.getKey() + "\" (expected"
                            + " one of " + SETTINGS + ")");
                }
                if (Objects.requireNonNull(e.getValue(), e.getKey()) < 0) {
                    throw new IllegalArgumentException("writecache setting " + e.getKey() + " = " + e.getValue()
                            + " must not be negative");
                }
            }
            if (origin.equals(writecache)) {
                throw new IllegalArgumentException("writecache origin and cache volume are the same LV \"" + origin
                        + "\"");
            }
        }

        @Override
        public String typeName() {
            return "writecache";
        }
    }

    /**
     * A RAID LV ({@code lib/raid/raid.c: _raid_text_import}, checked as {@code lib/metadata/merge.c:
     * _check_raid_seg} checks it): MD RAID inside device-mapper ({@code dm-raid}) over pairs of hidden sub-LVs, a
     * metadata LV ({@code <lv>_rmeta_N}, superblock and write-intent bitmap) and a data image
     * ({@code <lv>_rimage_N}) per device. The text metadata writes {@code device_count}, {@code data_copies}
     * (raid10), {@code region_size}, {@code stripe_size} (not raid1) and {@code raids = [meta, image, ...]}.
     *
     * <p>{@code raid0}/{@code raid0_meta}, RAID LVs without metadata sub-LVs, and the optional {@code writebehind},
     * {@code min_recovery_rate}, {@code max_recovery_rate} and {@code data_offset} settings are not modelled.
     *
     * @param raidType LVM's segment type name, one of {@link #TYPES}: {@code raid1}, {@code raid4}, {@code raid5}
     *     (left symmetric, as {@code raid5_ls}), {@code raid5_ls}, {@code raid5_la}, {@code raid5_rs},
     *     {@code raid5_ra}, {@code raid5_n}, {@code raid6} (zero restart, as {@code raid6_zr}), {@code raid6_zr},
     *     {@code raid6_nr}, {@code raid6_nc}, {@code raid6_n_6}, {@code raid6_ls_6}, {@code raid6_la_6},
     *     {@code raid6_rs_6}, {@code raid6_ra_6}, {@code raid10}, {@code raid10_near}
     * @param stripeSize {@code stripe_size} in sectors: 0 for raid1, else a power of two (the MD chunk)
     * @param regionSize {@code region_size} in sectors: a power of two (the bitmap's region)
     * @param metadataLvs the {@code _rmeta_N} sub-LVs, in {@code raids} order
     * @param imageLvs the {@code _rimage_N} sub-LVs, in {@code raids} order; one per device
     * @param dataCopies {@code data_copies} as written (raid10 only), or empty
     */
    record Raid(String raidType, Sectors stripeSize, Sectors regionSize, List<String> metadataLvs,
                List<String> imageLvs, java.util.OptionalInt dataCopies) implements SegmentType {

        /** LVM's RAID segment type names with metadata sub-LVs ({@code lib/raid/raid.c: _raid_types}). */
        public static final List<String> TYPES = List.of("raid1", "raid10", "raid10_near", "raid4", "raid5",
                "raid5_n", "raid5_la", "raid5_ls", "raid5_ra", "raid5_rs", "raid6", "raid6_n_6", "raid6_nc",
                "raid6_nr", "raid6_zr", "raid6_ls_6", "raid6_rs_6", "raid6_la_6", "raid6_ra_6");

        /** {@code DEFAULT_RAID_MAX_IMAGES}: at most 64 devices. */
        public static final int MAX_DEVICES = 64;

        /** Checks what {@code _raid_text_import} and {@code _check_raid_seg} check, with their words. */
        public Raid {
            Objects.requireNonNull(raidType, "raidType");
            Objects.requireNonNull(stripeSize, "stripeSize");
            Objects.requireNonNull(regionSize, "regionSize");
            Objects.requireNonNull(dataCopies, "dataCopies");
            metadataLvs = List.copyOf(Objects.requireNonNull(metadataLvs, "metadataLvs"));
            imageLvs = List.copyOf(Objects.requireNonNull(imageLvs, "imageLvs"));
            if (!TYPES.contains(raidType)) {
                throw new IllegalArgumentException("Unknown RAID segment type \"" + raidType + "\" (expected one of "
                        + TYPES + ")");
            }
            String seg = " for " + raidType + " segment";
            // lib/raid/raid.c: _raid_text_import_areas
            if (imageLvs.isEmpty()) {
                throw new IllegalArgumentException("No areas found" + seg);
            }
            if (imageLvs.size() > MAX_DEVICES) {
                throw new IllegalArgumentException("device_count " + imageLvs.size() + " is more than the "
                        + MAX_DEVICES + " devices of a RAID array" + seg);
            }
            // lib/metadata/merge.c: _check_raid1_seg / _check_raid45610_seg ("no meta areas")
            if (metadataLvs.size() != imageLvs.size()) {
                throw new IllegalArgumentException((metadataLvs.isEmpty() ? "no meta areas" : metadataLvs.size()
                        + " meta areas for " + imageLvs.size() + " images") + seg);
            }
            java.util.Set<String> names = new java.util.HashSet<>();
            for (String n : metadataLvs) {
                if (!names.add(Objects.requireNonNull(n, "metadataLv"))) {
                    throw new IllegalArgumentException("LV " + n + " is named twice in raids" + seg);
                }
            }
            for (String n : imageLvs) {
                if (!names.add(Objects.requireNonNull(n, "imageLv"))) {
                    throw new IllegalArgumentException("LV " + n + " is named twice in raids" + seg);
                }
            }
            long stripe = stripeSize.count();
            long region = regionSize.count();
            // lib/metadata/merge.c: _check_raid_region_recovery
            if (region == 0) {
                throw new IllegalArgumentException("zero region_size" + seg);
            }
            if (Long.bitCount(region) != 1 || region > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("non power of 2 region size (is " + region + ")" + seg);
            }
            int devices = imageLvs.size();
            boolean raid10 = raidType.startsWith("raid10");
            if (raidType.equals("raid1")) {
                // lib/metadata/merge.c: _check_raid1_seg
                if (stripe != 0) {
                    throw new IllegalArgumentException("non-zero stripe size (is " + stripe + ")" + seg);
                }
            } else {
                // lib/metadata/merge.c: _check_raid45610_seg
                if (stripe == 0) {
                    throw new IllegalArgumentException("zero stripe size" + seg);
                }
                if (Long.bitCount(stripe) != 1 || stripe > 0xFFFF_FFFFL) {
                    throw new IllegalArgumentException("non power of 2 stripe size (is " + stripe + ")" + seg);
                }
                int minimum = raid10 ? 4 : raidType.startsWith("raid6") ? 5 : 2;
                if (devices < minimum) {
                    throw new IllegalArgumentException("minimum " + minimum + " areas required (is " + devices + ")"
                            + seg);
                }
            }
            if (dataCopies.isPresent()) {
                // lib/raid/raid.c: _raid_text_export writes data_copies for raid10 only
                if (!raid10) {
                    throw new IllegalArgumentException("data_copies " + dataCopies.getAsInt() + seg
                            + " (only raid10 has data copies)");
                }
                // lib/metadata/raid_manip.c: lv_raid_data_copies (raid10: 2 copies) and the MD raid10 layout
                if (dataCopies.getAsInt() < 2 || dataCopies.getAsInt() > devices) {
                    throw new IllegalArgumentException("data_copies " + dataCopies.getAsInt() + " is not from 2 to "
                            + "the " + devices + " devices" + seg);
                }
            }
        }

        @Override
        public String typeName() {
            return raidType;
        }

        /** {@code device_count}: the number of data images (and metadata LVs). */
        public int deviceCount() {
            return imageLvs.size();
        }

        /** Whether this is raid1 (mirrors). */
        public boolean isRaid1() {
            return raidType.equals("raid1");
        }

        /** Whether this is raid10 (striped mirrors). */
        public boolean isRaid10() {
            return raidType.startsWith("raid10");
        }

        /** The parity devices of the type ({@code segtype->parity_devs}): 1 for raid4/5, 2 for raid6, else 0. */
        public int parityDevices() {
            if (raidType.startsWith("raid6")) {
                return 2;
            }
            return raidType.startsWith("raid4") || raidType.startsWith("raid5") ? 1 : 0;
        }

        /**
         * The data copies ({@code lib/metadata/raid_manip.c: lv_raid_data_copies}): raid10 the written
         * {@code data_copies} or 2, raid1 every device, raid4/5/6 parity devices + 1.
         */
        public int copies() {
            if (isRaid10()) {
                return dataCopies.orElse(2);
            }
            return isRaid1() ? deviceCount() : parityDevices() + 1;
        }

        /**
         * The data stripes: raid1 1, raid4/5/6 the devices without parity, raid10 the devices / data copies.
         */
        public int dataStripes() {
            if (isRaid1()) {
                return 1;
            }
            return isRaid10() ? deviceCount() / copies() : deviceCount() - parityDevices();
        }

        /**
         * The extents of each data image for a segment of {@code extentCount} extents
         * ({@code lib/metadata/raid_manip.c: raid_rimage_extents}): raid1 all of them, raid4/5/6 a share per data
         * stripe, raid10 {@code extentCount * copies / devices} (both rounded up).
         */
        public long imageExtents(long extentCount) {
            if (isRaid1()) {
                return extentCount;
            }
            long r = isRaid10() ? Math.multiplyExact(extentCount, copies()) : extentCount;
            int stripes = isRaid10() ? deviceCount() : dataStripes();
            return (r + stripes - 1) / stripes;
        }

        /**
         * The kernel's raid type for this LVM type ({@code libdm/libdm-deptree.c: _raid_emit_segment_line}):
         * {@code raid5} is {@code raid5_ls}, {@code raid6} is {@code raid6_zr}, {@code raid10_near} is
         * {@code raid10}; the others have the same name.
         */
        public String targetType() {
            return switch (raidType) {
                case "raid5" -> "raid5_ls";
                case "raid6" -> "raid6_zr";
                case "raid10_near" -> "raid10";
                default -> raidType;
            };
        }
    }
}
