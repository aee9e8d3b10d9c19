/**
 * Device-mapper table text: {@code dmsetup table} output (every device, or one device's with
 * {@code dmsetup table NAME}) and table files written for {@code dmsetup create}.
 *
 * <ul>
 *   <li>{@link dev.dmmodel.impl.dm.table.DmTableParser} reads text to {@link dev.dmmodel.impl.dm.table.DmTables}
 *       (each device's {@link dev.dmmodel.dm.DmTable}, in creation order), checking each target as the kernel's
 *       constructor does ({@link dev.dmmodel.impl.dm.table.DmTargets}, also used by the snapshot reader) and each
 *       table as {@code dm_table_add_target} does;</li>
 *   <li>{@link dev.dmmodel.impl.dm.table.DmTableFormatter} writes tables exactly as {@code dmsetup table} prints
 *       them ({@code dmmodel export --to dm-tables});</li>
 *   <li>{@link dev.dmmodel.impl.dm.table.DmTableImport} adds parsed tables to a layout as
 *       {@link dev.dmmodel.layout.LayoutStep.DmCreate} steps.</li>
 * </ul>
 *
 * Bad text is a {@link dev.dmmodel.impl.dm.table.DmTableException} naming source, line and column.
 */
package dev.dmmodel.impl.dm.table;
