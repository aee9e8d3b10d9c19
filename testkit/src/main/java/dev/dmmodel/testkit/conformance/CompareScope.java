package dev.dmmodel.testkit.conformance;

import dev.dmmodel.trace.EventType;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What of a stack a {@link TraceComparator} needs to know besides the {@link CompareMode}.
 *
 * @param dmDevices kernel names of the device-mapper devices (for {@link CompareMode#MULTISET_DM}, and for
 *     {@link CompareMode#MULTISET_DATA}, which compares splits on dm devices only)
 * @param thinMetadata where the thin pools' metadata devices lie, on themselves and on every device below
 *     them ({@link KernelConformance#thinPoolMetadataRanges}): {@link CompareMode#MULTISET_DATA} leaves out the
 *     events inside these ranges
 * @param requestSizes whether to compare, per device, the multiset of issued request sizes as well
 *     ({@code block_rq_issue} rwbs and nr_sectors; see {@link CompareMode}): only for recordings whose requests
 *     do not depend on timing ({@link KernelConformance#requestSizesDeterministic})
 * @param atMostModelled events of a tracepoint on a device that the recorded kernel traces for only some of the bios,
 *     depending on timing ({@link KernelConformance#timingDependentEvents}): the multiset modes compare them as a
 *     part of the modelled ones (each recorded event must be modelled; modelled ones beyond the recorded are left
 *     out and counted in the report)
 */
public record CompareScope(Set<String> dmDevices, List<DeviceRange> thinMetadata, boolean requestSizes,
                           Set<DeviceEvents> atMostModelled) {

    /** Copies the collections; rejects nulls. */
    public CompareScope {
        dmDevices = Set.copyOf(dmDevices);
        thinMetadata = List.copyOf(thinMetadata);
        atMostModelled = Set.copyOf(atMostModelled);
    }

    /** A scope in which every compared event is compared exactly (no {@link #atMostModelled} events). */
    public CompareScope(Set<String> dmDevices, List<DeviceRange> thinMetadata, boolean requestSizes) {
        this(dmDevices, thinMetadata, requestSizes, Set.of());
    }

    /**
     * One tracepoint on one device, by the recording's kernel name.
     *
     * @param device a kernel name such as {@code dm-2}
     * @param type the tracepoint
     */
    public record DeviceEvents(String device, EventType type) {
        /** Rejects nulls and a blank device. */
        public DeviceEvents {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(type, "type");
            if (device.isBlank()) {
                throw new IllegalArgumentException("device: blank; expected a kernel name such as dm-2");
            }
        }

        @Override
        public String toString() {
            return type.tracepoint() + " on " + device;
        }
    }

    /** No dm devices, no thin metadata, no request sizes: for {@link CompareMode#SEQUENCE} and plain stacks. */
    public static CompareScope none() {
        return new CompareScope(Set.of(), List.of(), false);
    }

    /** This scope with request sizes compared or not. */
    public CompareScope withRequestSizes(boolean compare) {
        return new CompareScope(dmDevices, thinMetadata, compare, atMostModelled);
    }

    /** This scope with these events compared as at most the modelled ones. */
    public CompareScope withAtMostModelled(Set<DeviceEvents> events) {
        return new CompareScope(dmDevices, thinMetadata, requestSizes, events);
    }

    /** Whether the event lies inside a thin pool's metadata ({@link DeviceRange#contains}). */
    boolean inThinMetadata(dev.dmmodel.trace.TraceEvent e) {
        Objects.requireNonNull(e, "event");
        for (DeviceRange r : thinMetadata) {
            if (r.contains(e)) {
                return true;
            }
        }
        return false;
    }
}
