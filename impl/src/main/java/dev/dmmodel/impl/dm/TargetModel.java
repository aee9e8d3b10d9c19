package dev.dmmodel.impl.dm;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/**
 * What the kernel's {@code struct target_type} of one dm target contributes: the devices it stacks on
 * ({@code iterate_devices}), its {@code io_hints}, and which special operations it passes down. One
 * implementation per target type.
 */
public interface TargetModel {

    /**
     * A device area a target uses: {@code length} sectors from {@code start} of {@code device}.
     *
     * @param device kernel name
     * @param start first sector on the device
     * @param length sectors used
     */
    record DeviceArea(String device, long start, long length) {
    }

    /** The areas passed to {@code iterate_devices} callbacks, in order. */
    List<DeviceArea> iterateDevices();

    /**
     * The target's {@code io_hints}, applied to the stacked limits of its devices.
     *
     * @param limits the target's stacked limits, updated in place
     * @param deviceLimits limits of the devices by kernel name (for targets that look below)
     * @param profile the kernel's rules
     */
    void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile);

    /** {@code ti->num_discard_bios}: 0 when the target cannot pass discards. */
    int numDiscardBios();

    /** {@code ti->discards_supported}: discards work even if the devices below lack them. */
    boolean discardsSupported();

    /** {@code ti->num_write_zeroes_bios}: 0 when the target cannot pass write-zeroes. */
    int numWriteZeroesBios();

    /**
     * Where a clone goes: a device and a sector on it.
     *
     * @param device kernel name
     * @param sector sector on the device
     */
    record Remap(String device, long sector) {
    }

    /** {@code ti->max_io_len}: no clone crosses a multiple of it, counted from the target's start (0 = none). */
    default long maxIoLen() {
        return 0;
    }

    /**
     * The target's {@code map} for a clone starting {@code offset} sectors into the target.
     *
     * @throws UnsupportedOperationException for targets whose I/O is not modelled yet
     */
    default Remap map(long offset) {
        throw new UnsupportedOperationException(getClass().getSimpleName().replace("Model", "")
                + " target I/O is not modelled yet");
    }

    /** The model of a table target, from its type ({@link TargetTypes}). */
    static TargetModel of(DmTarget target, Function<String, Long> deviceSize) {
        return TargetTypes.of(target).model(target, deviceSize);
    }
}
