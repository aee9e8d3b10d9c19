/**
 * Device-mapper core ({@code drivers/md/dm.c}, {@code dm-table.c}, {@code dm-ioctl.c}): cloning and splitting bios
 * by target and {@code max_io_len} ({@link dev.dmmodel.impl.dm.DmCore}), a table's stacked limits ({@link
 * dev.dmmodel.impl.dm.DmTableLimits}), minors, and the {@link dev.dmmodel.impl.dm.TargetModel} every target
 * implements in its own package ({@code linear}, {@code striped}, {@code thin}, {@code zero}, {@code error}, {@code crypt}, {@code snapshot};
 * {@code table} reads and writes table lines).
 */
package dev.dmmodel.impl.dm;
