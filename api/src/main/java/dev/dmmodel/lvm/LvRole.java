package dev.dmmodel.lvm;

/**
 * What an LV is for. LVM does not store roles: it derives them from segment types, the references
 * between LVs and, for the spare, the {@code _pmspare} name ({@code lib/metadata/lv.c}). Here the role is
 * kept with the LV and checked against its segments and name.
 */
public enum LvRole {
    /** A visible linear or striped LV. */
    PUBLIC(true),
    /** A visible thin pool: one {@code thin-pool} segment over its data and metadata sub-LVs. */
    THIN_POOL(true),
    /** A visible thin volume (or thin snapshot): one {@code thin} segment in a pool. */
    THIN_VOLUME(true),
    /** The hidden data sub-LV of a thin pool, {@code <pool>_tdata}. */
    THIN_POOL_DATA(false),
    /** The hidden metadata sub-LV of a thin pool, {@code <pool>_tmeta}. */
    THIN_POOL_METADATA(false),
    /** The VG's hidden pool metadata spare, {@code lvolN_pmspare}, never activated. */
    POOL_METADATA_SPARE(false),
    /**
     * A classic snapshot's {@code snapshotN} LV: one {@code snapshot} segment tying the origin to the COW store.
     * LVM keeps it {@code VISIBLE} in the metadata and shows it under its COW store's name.
     */
    SNAPSHOT(true),
    /** The COW store of a classic snapshot: a hidden striped LV whose name users see as the snapshot's. */
    SNAPSHOT_COW(false),
    /** A visible cache pool not attached to any LV: one {@code cache-pool} segment. */
    CACHE_POOL(true),
    /** A cache pool attached to a cached LV, renamed {@code <pool>_cpool} and hidden. */
    CACHE_POOL_IN_USE(false),
    /** The hidden data sub-LV of a cache pool, {@code <pool>_cdata}. */
    CACHE_POOL_DATA(false),
    /** The hidden metadata sub-LV of a cache pool, {@code <pool>_cmeta}. */
    CACHE_POOL_METADATA(false),
    /** A visible cached LV: one {@code cache} segment over its origin with a cache pool. */
    CACHED(true),
    /** The hidden origin of a cached LV, {@code <lv>_corig}. */
    CACHE_ORIGIN(false),
    /** A visible LV with a write cache: one {@code writecache} segment over its origin and a cache volume. */
    WRITECACHED(true),
    /** The hidden origin of a write-cached LV, {@code <lv>_wcorig}. */
    WRITECACHE_ORIGIN(false),
    /** A hidden cache volume attached with {@code --cachevol}, {@code <lv>_cvol}. */
    CACHE_VOLUME(false),
    /** A visible RAID LV: one {@code raid1}/{@code raid4}/{@code raid5*}/{@code raid6*}/{@code raid10} segment. */
    RAID(true),
    /** A hidden data image of a RAID LV, {@code <lv>_rimage_N} ({@code lv_is_raid_image}). */
    RAID_IMAGE(false),
    /** A hidden metadata LV of a RAID LV (superblock and bitmap), {@code <lv>_rmeta_N} ({@code lv_is_raid_metadata}). */
    RAID_METADATA(false);

    private final boolean visible;

    LvRole(boolean visible) {
        this.visible = visible;
    }

    /** Whether LVs of this role carry the {@code VISIBLE} status (and a {@code /dev/vg/lv} link). */
    public boolean visible() {
        return visible;
    }
}
