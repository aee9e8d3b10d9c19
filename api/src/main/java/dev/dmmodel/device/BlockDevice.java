package dev.dmmodel.device;

import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;

/**
 * A block device of a layout: a whole disk, a partition, a device-mapper device or an md array.
 */
public sealed interface BlockDevice permits Disk, Partition, DmDevice, MdDevice {

    /** The kernel name: {@code sda}, {@code sda1}, {@code nvme0n1p2}, {@code dm-3}. */
    String name();

    /** The device number. */
    DevNumber devNumber();

    /** The size in 512-byte sectors, as {@code /sys/block/.../size} shows it. */
    Sectors size();

    /**
     * The queue limits as the kernel reports them for this device. For a partition these are the
     * disk's limits with the partition's own alignment offset.
     */
    QueueLimits limits();

    /** The path users write: {@code /dev/sda1}, {@code /dev/mapper/vg0-lv}. */
    String path();
}
