package dev.dmmodel.lvm;

/**
 * LV flags LVM writes in an LV's {@code flags = [...]} list ({@code lib/format_text/flags.c}) that this
 * model uses.
 */
public enum LvFlag {
    /** Not activated unless activation skip is ignored ({@code lvcreate -K}); set on new thin snapshots. */
    ACTIVATION_SKIP,
    /** A thin pool that fails writes at once when full ({@code --errorwhenfull y}). */
    ERROR_WHEN_FULL
}
