package dev.dmmodel.device;

import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * An md array ({@code /dev/mdN}): a bio-based device over its members whose size and limits the personality
 * set ({@code raid0_set_limits}, {@code raid5_set_limits}, ...).
 *
 * @param name the kernel name ({@code md0}, {@code md127})
 * @param devNumber the device number (major 9)
 * @param size the array size, {@code /sys/block/mdN/size}
 * @param spec the array's configuration
 * @param limits the limits the personality set and stacked from the members
 */
public record MdDevice(String name, DevNumber devNumber, Sectors size, MdArraySpec spec, QueueLimits limits)
        implements BlockDevice {

    /** The block major of md arrays ({@code MD_MAJOR}). */
    public static final int MD_MAJOR = 9;

    /** Rejects nulls. */
    public MdDevice {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(devNumber, "devNumber");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(limits, "limits");
    }

    @Override
    public String path() {
        return "/dev/" + name;
    }
}
