package dev.dmmodel.impl.dm;

import dev.dmmodel.impl.limits.Limits;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/** dm-zero ({@code drivers/md/dm-zero.c}): no devices, no hints. */
final class ZeroModel implements TargetModel, ZeroLike {
    @Override
    public boolean fails() {
        return false;
    }

    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of();
    }

    @Override
    public void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile) {
    }

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
}
