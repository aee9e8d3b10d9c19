package dev.dmmodel.device;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * A device-mapper device with its live table.
 *
 * @param name the kernel name ({@code dm-3})
 * @param devNumber the device number (major 253 by default)
 * @param dmName the device-mapper name ({@code vg0-lv}, the node {@code /dev/mapper/vg0-lv})
 * @param uuid the dm uuid ({@code LVM-...} for LVM devices), empty if none
 * @param table the table
 * @param limits the limits the kernel stacked for it ({@code dm_calculate_queue_limits})
 */
public record DmDevice(String name, DevNumber devNumber, String dmName, String uuid, DmTable table,
                       QueueLimits limits) implements BlockDevice {

    /** Rejects nulls. */
    public DmDevice {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(devNumber, "devNumber");
        Objects.requireNonNull(dmName, "dmName");
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Sectors size() {
        return table.size();
    }

    @Override
    public String path() {
        return "/dev/mapper/" + dmName;
    }
}
