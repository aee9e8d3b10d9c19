package dev.dmmodel.device;

import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * A whole disk with the limits its driver set, as the kernel reports them.
 *
 * @param name the kernel name ({@code sda})
 * @param devNumber the device number
 * @param size the size in sectors
 * @param driver the driver
 * @param limits the effective queue limits under the layout's kernel profile
 */
public record Disk(String name, DevNumber devNumber, Sectors size, DiskDriver driver, QueueLimits limits)
        implements BlockDevice {

    /** Rejects nulls. */
    public Disk {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(devNumber, "devNumber");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(limits, "limits");
    }

    @Override
    public String path() {
        return "/dev/" + name;
    }
}
