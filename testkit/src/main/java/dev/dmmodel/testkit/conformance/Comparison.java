package dev.dmmodel.testkit.conformance;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of comparing a modelled trace with a recorded one ({@link TraceComparator#compare}).
 *
 * @param mode how the traces were compared
 * @param devices per device that had a compared event in either trace, in device-name order
 * @param requestSizesCompared whether the issued requests' sizes were compared ({@link CompareScope#requestSizes})
 * @param requests when they were, per device that issued a compared request in either trace, in device-name
 *     order: the multisets of (rwbs, nr_sectors) of {@code block_rq_issue} ({@link CompareMode}); else empty
 * @param report a human-readable account (at most about 40 lines): a summary line, then per differing
 *     device its first differences
 */
public record Comparison(CompareMode mode, List<DeviceCounts> devices, boolean requestSizesCompared,
                         List<DeviceCounts> requests, String report) {

    /** Copies the lists; rejects nulls and request counts where request sizes were not compared. */
    public Comparison {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(report, "report");
        devices = List.copyOf(devices);
        requests = List.copyOf(requests);
        if (!requestSizesCompared && !requests.isEmpty()) {
            throw new IllegalArgumentException("request counts given, but request sizes were not compared");
        }
    }

    /** Whether every device's compared events agree, and where request sizes were compared, its requests. */
    public boolean matches() {
        return devices.stream().allMatch(DeviceCounts::matches) && requests.stream().allMatch(DeviceCounts::matches);
    }

    /** The request counts of one device, if request sizes were compared and it issued a compared request. */
    public Optional<DeviceCounts> requests(String name) {
        return requests.stream().filter(d -> d.device().equals(name)).findFirst();
    }

    /** The counts of one device, if it had compared events in either trace. */
    public Optional<DeviceCounts> device(String name) {
        return devices.stream().filter(d -> d.device().equals(name)).findFirst();
    }

    /** The devices whose events differ (not counting their requests: {@link #requestsDiffering()}). */
    public List<DeviceCounts> differing() {
        return devices.stream().filter(d -> !d.matches()).toList();
    }

    /** The devices whose request sizes differ (empty where they were not compared). */
    public List<DeviceCounts> requestsDiffering() {
        return requests.stream().filter(d -> !d.matches()).toList();
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
     * @param compared the recorded events (or requests) compared (after the mode's filter)
     * @param modelled the modelled events (or requests) compared (after the same filter)
     * @param matched events that matched: for a sequence, positions where recorded and modelled events are
     *     equal; for a multiset (and for requests), the size of the two bags' intersection
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
