package dev.dmmodel.impl.dm.linear;

import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/** dm-linear ({@code drivers/md/dm-linear.c}). */
final class LinearModel implements TargetModel {
    private final LinearTarget target;

    /** The model of one linear table target. */
    public LinearModel(LinearTarget target) {
        this.target = target;
    }

    // dm-linear.c: linear_iterate_devices — the device from lc->start for the target's length
    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of(new DeviceArea(target.device(), target.offset().count(), target.length().count()));
    }

    // dm-linear.c: no io_hints
    @Override
    public void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile) {
    }

    // dm-linear.c: linear_map_sector — the same offset on the device, from lc->start
    @Override
    public Remap map(long offset) {
        return new Remap(target.device(), target.offset().count() + offset);
    }

    // dm-linear.c: linear_map — of ≈5.16 – 6.10 every bio is moved, an empty flush to the target's offset too
    @Override
    public long emptyFlushSector(DeviceArea area, long bioSector, KernelProfile profile) {
        return profile.linearRemapsEmptyFlushes() ? area.start() : bioSector;
    }

    // dm-linear.c: linear_ctr — num_discard_bios = num_write_zeroes_bios = 1
    @Override
    public int numDiscardBios() {
        return 1;
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    @Override
    public int numWriteZeroesBios() {
        return 1;
    }
}
