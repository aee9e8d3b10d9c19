package dev.dmmodel.testkit.conformance;

import dev.dmmodel.trace.TraceEvent;
import java.util.Objects;

/**
 * A range of sectors of one device, in that device's own sectors (a partition's relative to the partition's
 * start, as {@code trace.csv} prints a partition's rows).
 *
 * @param device the kernel name ({@code sdb}, {@code sda1}, {@code dm-0})
 * @param start the first sector
 * @param length sectors in the range (at least 1)
 */
public record DeviceRange(String device, long start, long length) {

    /** Rejects nulls, negative starts and empty ranges. */
    public DeviceRange {
        Objects.requireNonNull(device, "device");
        if (start < 0 || length < 1) {
            throw new IllegalArgumentException("range " + device + " " + start + "+" + length
                    + ": start must be 0 or more and length 1 or more");
        }
    }

    /** The sector after the last one. */
    public long end() {
        return start + length;
    }

    /**
     * Whether the event is on this device and lies inside the range: its sectors {@code [sector, sector +
     * nr_sectors)}, or its sector alone for an event without a size ({@code block_split}) or of size 0.
     */
    public boolean contains(TraceEvent e) {
        long n = Math.max(e.nrSectors(), 1);
        return e.device().equals(device) && e.sector() >= start && e.sector() + n <= end();
    }

    @Override
    public String toString() {
        return device + " " + start + "+" + length;
    }
}
