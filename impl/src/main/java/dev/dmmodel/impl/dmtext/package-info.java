/**
 * Device-mapper table text: {@code dmsetup table} output (every device, or one device's with
 * {@code dmsetup table NAME}) and table files written for {@code dmsetup create}.
 *
 * <ul>
 *   <li>{@link dev.dmmodel.impl.dmtext.DmTableParser} reads text to {@link dev.dmmodel.impl.dmtext.DmTables}
 *       (each device's {@link dev.dmmodel.dm.DmTable}, in creation order), checking each target as the kernel's
 *       constructor does ({@link dev.dmmodel.impl.dmtext.DmTargets}, also used by the snapshot reader) and each
 *       table as {@code dm_table_add_target} does;</li>
 *   <li>{@link dev.dmmodel.impl.dmtext.DmTableFormatter} writes tables exactly as {@code dmsetup table} prints
 *       them ({@code dmmodel export --to dm-tables});</li>
 *   <li>{@link dev.dmmodel.impl.dmtext.DmTableImport} adds parsed tables to a layout as
 *       {@link dev.dmmodel.layout.LayoutStep.DmCreate} steps.</li>
 * </ul>
 *
 * Bad text is a {@link dev.dmmodel.impl.dmtext.DmTableException} naming source, line and column.
 */
package dev.dmmodel.impl.dmtext;
