/**
 * LVM2 ({@code lib/metadata/}, {@code tools/}): {@code pvcreate}'s pe_start ({@link dev.dmmodel.impl.lvm.PvCreate}),
 * {@code vgcreate}, the extent allocator ({@code lv_manip.c}), lvcreate's LVs and their dm tables, thin pool sizing
 * and thin LVs ({@code thin_manip.c}, {@code pool_manip.c}), the command line's sizes and names, and what the thin
 * commands of a workload do to a running host ({@link dev.dmmodel.impl.lvm.ThinLvCommands}: {@code lvcreate -V -T},
 * {@code lvcreate -s}, {@code lvremove}, each change a pool message and a transaction id step).
 */
package dev.dmmodel.impl.lvm;
