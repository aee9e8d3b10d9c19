package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.dm.SnapshotTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/** dm-snapshot's {@code snapshot} target ({@code drivers/md/dm-snap.c}: the snapshot methods). */
final class SnapshotModel implements TargetModel {
    private final SnapshotTarget target;
    private final long cowSectors;

    SnapshotModel(SnapshotTarget target, long cowSectors) {
        this.target = target;
        this.cowSectors = cowSectors;
    }

    // dm-snap.c: snapshot_iterate_devices — the origin for the target's length, then the whole COW device
    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of(new DeviceArea(target.originDevice(), 0, target.length().count()),
                new DeviceArea(target.cowDevice(), 0, cowSectors));
    }

    // dm-snap.c: snapshot_ctr sets num_flush_bios = 1 and snapshot_map sends that flush to the COW device
    @Override
    public List<DeviceArea> flushAreas() {
        return List.of(new DeviceArea(target.cowDevice(), 0, cowSectors));
    }

    /**
     * The chunk size against the devices' logical block sizes, as {@code dm_exception_store_set_chunk_size} checks
     * it when the table is loaded: a multiple of both (in sectors).
     *
     * @throws IllegalArgumentException naming the target, the chunk size and the device, with the kernel's text
     */
    // dm-exception-store.c: dm_exception_store_set_chunk_size — "Chunk size is not a multiple of device blocksize"
    static void checkChunkAgainstBlockSizes(SnapshotTarget t, long cowLogicalBlock, long originLogicalBlock) {
        long chunkBytes = Math.multiplyExact(t.chunkSectors(), 512L);
        String[] names = {t.cowDevice(), t.originDevice()};
        long[] sizes = {cowLogicalBlock, originLogicalBlock};
        for (int i = 0; i < 2; i++) {
            if (chunkBytes % sizes[i] != 0) {
                throw new IllegalArgumentException("snapshot target of " + t.originDevice() + " with COW device "
                        + t.cowDevice() + ": chunk size " + t.chunkSectors() + " sectors (" + chunkBytes + " bytes) is"
                        + " not a multiple of the " + sizes[i] + "-byte logical block size of " + names[i]
                        + " (dm_exception_store_set_chunk_size: Chunk size is not a multiple of device blocksize;"
                        + " snapshot_ctr: Couldn't create exception store)");
            }
        }
    }

    // dm-snap.c: snapshot_io_hints — only with discard_zeroes_cow: discards split at every chunk
    @Override
    public void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile) {
        checkChunkAgainstBlockSizes(target, deviceLimits.apply(target.cowDevice()).logicalBlockSize,
                deviceLimits.apply(target.originDevice()).logicalBlockSize);
        if (target.discardZeroesCow()) {
            limits.discardGranularity = target.chunkSectors() * 512;
            limits.maxDiscardSectors = target.chunkSectors();
        }
    }

    // dm-snap.c: snapshot_ctr — num_discard_bios 1 with discard_zeroes_cow, 2 with discard_passdown_origin too
    @Override
    public int numDiscardBios() {
        return target.discardZeroesCow() ? (target.discardPassdownOrigin() ? 2 : 1) : 0;
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    // dm-snap.c: snapshot_ctr leaves num_write_zeroes_bios 0
    @Override
    public int numWriteZeroesBios() {
        return 0;
    }

    // dm-snap.c: snapshot_ctr — dm_set_target_max_io_len(ti, chunk_size): no clone crosses a chunk
    @Override
    public long maxIoLen() {
        return target.chunkSectors();
    }

    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        if (ctx.snapshots() == null) {
            throw new UnsupportedOperationException("snapshot I/O needs dm-snapshot's state");
        }
        return ctx.snapshots().snapshotMap(ctx, target, clone);
    }
}
