package dev.dmmodel.impl.dm.opaque;

import dev.dmmodel.dm.OpaqueTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What is known of a target the model does not implement: the devices it names, each stacked whole (where on
 * them it maps is the target's own), no {@code io_hints} of its own, and no I/O.
 */
final class OpaqueModel implements TargetModel {
    private final OpaqueTarget target;
    private final Function<String, Long> deviceSize;

    OpaqueModel(OpaqueTarget target, Function<String, Long> deviceSize) {
        this.target = target;
        this.deviceSize = deviceSize;
    }

    @Override
    public List<DeviceArea> iterateDevices() {
        List<DeviceArea> out = new ArrayList<>();
        for (String d : target.devices()) {
            out.add(new DeviceArea(d, 0, deviceSize.apply(d)));
        }
        return out;
    }

    // unknown: the device's recorded limits replace the stack (DmTableLimits), or the devices' limits stand
    @Override
    public void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile) {
    }

    // unknown, so none: a discard or write-zeroes is not passed down
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
    public List<DeviceArea> flushAreas() {
        return List.of();
    }

    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        throw new UnmodelledTargetException(ctx.device(), target.type());
    }
}
