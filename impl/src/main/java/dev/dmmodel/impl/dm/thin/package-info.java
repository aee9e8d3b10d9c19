/**
 * dm-thin ({@code drivers/md/dm-thin.c}, {@code dm-thin-metadata.c}, {@code persistent-data/}): the pool and
 * thin targets' {@code iterate_devices} and {@code io_hints} ({@link dev.dmmodel.impl.dm.thin.ThinPoolModel},
 * {@link dev.dmmodel.impl.dm.thin.ThinModel}), the pool's metadata with its mappings, reference counts and
 * allocator ({@link dev.dmmodel.impl.dm.thin.ThinPoolMetadata}), the findings about pools
 * ({@link dev.dmmodel.impl.dm.thin.ThinFindings}) and the full-block overwrite analysis of seed 004
 * ({@link dev.dmmodel.impl.dm.thin.ThinOverwriteAnalyzer}). Still elsewhere, to move here with the engine's
 * split: the I/O path ({@code thin_map}, provisioning, zeroing, copies: {@code impl.engine.ThinIo}) and the
 * constructors' argument rules ({@code pool_ctr}, {@code thin_ctr}: {@code impl.dmtext.DmTargets}). LVM's sizing
 * of thin pools stays with LVM ({@code impl.lvm.ThinPools}).
 */
package dev.dmmodel.impl.dm.thin;
