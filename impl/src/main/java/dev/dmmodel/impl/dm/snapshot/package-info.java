/**
 * Classic device-mapper snapshots ({@code drivers/md/dm-snap.c}, {@code dm-exception-store.c},
 * {@code dm-snap-persistent.c}, {@code dm-snap-transient.c}): the {@code snapshot-origin} and {@code snapshot}
 * target types with their constructors' rules ({@link dev.dmmodel.impl.dm.snapshot.SnapshotOriginTargetType},
 * {@link dev.dmmodel.impl.dm.snapshot.SnapshotTargetType}), their {@code iterate_devices} and {@code io_hints}
 * ({@link dev.dmmodel.impl.dm.snapshot.SnapshotModel}), the exception store's layout, commit batching and usage
 * ({@link dev.dmmodel.impl.dm.snapshot.ExceptionStore}), the I/O path — copy on first write, full-chunk writes,
 * redirected reads, invalidation — ({@link dev.dmmodel.impl.dm.snapshot.SnapshotIo}) and the findings computed from
 * what a snapshot did ({@link dev.dmmodel.impl.dm.snapshot.SnapshotFindings}).
 */
package dev.dmmodel.impl.dm.snapshot;
