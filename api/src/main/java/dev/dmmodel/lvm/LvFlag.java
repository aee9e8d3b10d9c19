package dev.dmmodel.lvm;

/**
 * LV flags LVM writes in an LV's {@code flags = [...]} list ({@code lib/format_text/flags.c}) that this
 * model uses, and {@link #NOTSYNCED}, which LVM keeps among the LV's {@code status} words.
 */
public enum LvFlag {
    /** Not activated unless activation skip is ignored ({@code lvcreate -K}); set on new thin snapshots. */
    ACTIVATION_SKIP,
    /** A thin pool that fails writes at once when full ({@code --errorwhenfull y}). */
    ERROR_WHEN_FULL,
    /**
     * A RAID LV created without its initial synchronisation ({@code lvcreate --nosync}: the {@code LV_NOTSYNCED}
     * status word {@code NOTSYNCED}, {@code R} as the first {@code lv_attr} character); its dm table says
     * {@code nosync}.
     */
    NOTSYNCED
}
