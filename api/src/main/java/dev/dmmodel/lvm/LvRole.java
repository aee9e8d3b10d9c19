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
    POOL_METADATA_SPARE(false);

    private final boolean visible;

    LvRole(boolean visible) {
        this.visible = visible;
    }

    /** Whether LVs of this role carry the {@code VISIBLE} status (and a {@code /dev/vg/lv} link). */
    public boolean visible() {
        return visible;
    }
}
