package dev.dmmodel.testkit.conformance;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of comparing a modelled trace with a recorded one ({@link TraceComparator#compare}).
 *
 * @param mode how the traces were compared
 * @param devices per device that had a compared event in either trace, in device-name order
 * @param report a human-readable account (at most about 40 lines): a summary line, then per differing
 *     device its first differences
 */
public record Comparison(CompareMode mode, List<DeviceCounts> devices, String report) {

    /** Copies the list; rejects nulls. */
    public Comparison {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(report, "report");
        devices = List.copyOf(devices);
    }

    /** Whether every device's compared events agree. */
    public boolean matches() {
        return devices.stream().allMatch(DeviceCounts::matches);
    }

    /** The counts of one device, if it had compared events in either trace. */
    public Optional<DeviceCounts> device(String name) {
        return devices.stream().filter(d -> d.device().equals(name)).findFirst();
    }

    /** The devices whose events differ. */
    public List<DeviceCounts> differing() {
        return devices.stream().filter(d -> !d.matches()).toList();
    }

    /** Recorded events compared, over all devices. */
    public long compared() {
        return devices.stream().mapToLong(DeviceCounts::compared).sum();
    }

    /** Compared events that matched, over all devices. */
    public long matched() {
        return devices.stream().mapToLong(DeviceCounts::matched).sum();
    }

    @Override
    public String toString() {
        return report;
    }

    /**
     * What was compared on one device.
     *
     * @param device the kernel name
     * @param compared the recorded events compared (after the mode's filter)
     * @param modelled the modelled events compared (after the same filter)
     * @param matched events that matched: for a sequence, positions where recorded and modelled events are
     *     equal; for a multiset, the size of the two bags' intersection
     */
    public record DeviceCounts(String device, long compared, long modelled, long matched) {
        /** Rejects nulls. */
        public DeviceCounts {
            Objects.requireNonNull(device, "device");
        }

        /** Whether the device's events agree. */
        public boolean matches() {
            return matched == compared && matched == modelled;
        }
    }
}
