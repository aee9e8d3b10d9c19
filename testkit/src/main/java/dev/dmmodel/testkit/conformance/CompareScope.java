package dev.dmmodel.testkit.conformance;

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
 */
public record CompareScope(Set<String> dmDevices, List<DeviceRange> thinMetadata, boolean requestSizes) {

    /** Copies the collections; rejects nulls. */
    public CompareScope {
        dmDevices = Set.copyOf(dmDevices);
        thinMetadata = List.copyOf(thinMetadata);
    }

    /** No dm devices, no thin metadata, no request sizes: for {@link CompareMode#SEQUENCE} and plain stacks. */
    public static CompareScope none() {
        return new CompareScope(Set.of(), List.of(), false);
    }

    /** This scope with request sizes compared or not. */
    public CompareScope withRequestSizes(boolean compare) {
        return new CompareScope(dmDevices, thinMetadata, compare);
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
