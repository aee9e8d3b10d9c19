package dev.dmmodel.device;

import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * A partition of a disk or an md array. It shares the whole device's queue; only its alignment offset is its own
 * ({@code bdev_alignment_offset}).
 *
 * @param name the kernel name ({@code sda1}, {@code nvme0n1p1})
 * @param devNumber the device number
 * @param disk the kernel name of the whole disk (or md array)
 * @param number the partition number (1-based)
 * @param start the first sector, relative to the start of the disk
 * @param size the size in sectors
 * @param limits the disk's limits with this partition's alignment offset
 */
public record Partition(String name, DevNumber devNumber, String disk, int number, Sectors start, Sectors size,
                        QueueLimits limits) implements BlockDevice {

    /** Rejects nulls and non-positive partition numbers. */
    public Partition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(devNumber, "devNumber");
        Objects.requireNonNull(disk, "disk");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(limits, "limits");
        if (number < 1) {
            throw new IllegalArgumentException("partition " + name + ": number (" + number + ") must be at least 1");
        }
    }

    /** The sector after the last one of the partition, relative to the disk. */
    public Sectors end() {
        return start.plus(size);
    }

    @Override
    public String path() {
        return "/dev/" + name;
    }
}
