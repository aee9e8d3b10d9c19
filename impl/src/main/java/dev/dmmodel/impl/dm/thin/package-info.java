/**
 * dm-thin ({@code drivers/md/dm-thin.c}, {@code dm-thin-metadata.c}, {@code persistent-data/}), everything
 * about it in one place:
 * <ul>
 *   <li>the target types with their constructors' argument rules: {@link
 * dev.dmmodel.impl.dm.thin.ThinPoolTargetType}
 *       ({@code pool_ctr}, {@code parse_pool_features}) and {@link dev.dmmodel.impl.dm.thin.ThinTargetType}
 *       ({@code thin_ctr});</li>
 *   <li>{@code iterate_devices} and {@code io_hints}: {@link dev.dmmodel.impl.dm.thin.ThinPoolModel}
 *       ({@code pool_io_hints}) and {@link dev.dmmodel.impl.dm.thin.ThinModel};</li>
 *   <li>the I/O path, {@link dev.dmmodel.impl.dm.thin.ThinIo}: {@code thin_map}, provisioning with zeroing,
 *       breaking sharing with copies (kcopyd), discards with passdown, pool messages, {@code dmsetup status};</li>
 *   <li>the pool's metadata, {@link dev.dmmodel.impl.dm.thin.ThinPoolMetadata}: mappings, reference counts, the
 *       allocator ({@code sm_disk_new_block}), transaction id;</li>
 *   <li>findings, {@link dev.dmmodel.impl.dm.thin.ThinFindings}, and the full-block overwrite analysis of seed
 *       004, {@link dev.dmmodel.impl.dm.thin.ThinOverwriteAnalyzer}.</li>
 * </ul>
 * LVM's sizing of thin pools stays with LVM ({@code impl.lvm.ThinPools}).
 */
package dev.dmmodel.impl.dm.thin;
