package dev.dmmodel.lvm;

/** Which LVM2 release's rules place the data area and metadata. */
public enum LvmVersion {
    /**
     * LVM2 2.03 (the default; recorded: 2.03.16): pe_start from the default 1 MiB alignment, sysfs
     * topology detection and alignment_offset ({@code metadata.c: set_pe_align}).
     */
    LVM2_2_03,
    /**
     * LVM2 2.00 (2003, tag {@code old-v2_00_05}): metadata after the 2 KiB label area, its end rounded up
     * to 64 KiB, so pe_start = 384 sectors by default; no topology detection.
     */
    LVM2_2_00
}
