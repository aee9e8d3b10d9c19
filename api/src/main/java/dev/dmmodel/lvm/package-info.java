/**
 * LVM2's objects as its metadata holds them ({@code lib/metadata/}): physical volumes with {@code pe_start},
 * volume groups, logical volumes and their segments and extents, and the requests {@code pvcreate}, {@code
 * vgcreate} and {@code lvcreate} take.
 */
package dev.dmmodel.lvm;
