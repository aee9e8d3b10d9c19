package dev.dmmodel.lvm;

/** LVM allocation policies, in the order the allocator tries them ({@code vg.h: alloc_policy_t}). */
public enum AllocationPolicy {
    /** Every stripe's extents must be adjacent to the previous segment's, and an LV is never split. */
    CONTIGUOUS,
    /** Only PVs the LV already uses. */
    CLING,
    /** Best fit, then largest areas first; parallel stripes on distinct PVs. */
    NORMAL,
    /** Any free extents, several areas of one PV allowed. */
    ANYWHERE,
    /** The volume group's policy (LVs only). */
    INHERIT
}
