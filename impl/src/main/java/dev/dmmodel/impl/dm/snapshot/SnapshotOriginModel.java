package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.dm.SnapshotOriginTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/** dm-snapshot's {@code snapshot-origin} target ({@code drivers/md/dm-snap.c}: the origin methods). */
final class SnapshotOriginModel implements TargetModel {
    private final SnapshotOriginTarget target;

    SnapshotOriginModel(SnapshotOriginTarget target) {
        this.target = target;
    }

    // dm-snap.c: origin_iterate_devices — the device from sector 0 for the target's length
    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of(new DeviceArea(target.device(), 0, target.length().count()));
    }

    // dm-snap.c: origin_target has no io_hints
    @Override
    public void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile) {
    }

    // dm-snap.c: origin_ctr sets num_flush_bios = 1 only: no discards, no write-zeroes
    @Override
    public int numDiscardBios() {
        return 0;
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    @Override
    public int numWriteZeroesBios() {
        return 0;
    }

    @Override
    public long acceptedLen(MapContext ctx, Bio clone) {
        return ctx.snapshots() == null ? clone.sectors : ctx.snapshots().originAcceptedLen(target, clone);
    }

    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        if (ctx.snapshots() == null) {
            throw new UnsupportedOperationException("snapshot-origin I/O needs dm-snapshot's state");
        }
        return ctx.snapshots().originMap(ctx, target, clone);
    }
}
