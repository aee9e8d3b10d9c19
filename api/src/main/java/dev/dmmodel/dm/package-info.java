/**
 * Device-mapper tables as {@code dmsetup table} prints them ({@code drivers/md/dm-table.c}): {@link
 * dev.dmmodel.dm.DmTable} and one target type per record (linear, striped, thin-pool, thin, zero, error).
 */
package dev.dmmodel.dm;
