package dev.dmmodel.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.Objects;

/**
 * Everything needed to build a layout: the kernel profile and the steps in order.
 *
 * @param profile the kernel whose rules apply
 * @param steps the steps
 */
public record LayoutSpec(KernelProfile profile, List<LayoutStep> steps) {
    /** Rejects nulls. */
    public LayoutSpec {
        Objects.requireNonNull(profile, "profile");
        steps = List.copyOf(steps);
    }
}
