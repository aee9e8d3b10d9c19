package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.spi.ModelProviders;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A layout file as read ({@link LayoutFileReader}): the kernel it names, its steps and where each step is in the
 * file, so that a step the model refuses when the layout is built is reported at its line and column.
 */
public final class LayoutFile {

    /**
     * Where a step starts in the file.
     *
     * @param line the 1-based line
     * @param column the 1-based column
     */
    public record Location(int line, int column) {
    }

    private final String source;
    private final Optional<KernelProfile> kernel;
    private final List<LayoutStep> steps;
    private final List<Location> locations;

    LayoutFile(String source, Optional<KernelProfile> kernel, List<LayoutStep> steps, List<Location> locations) {
        this.source = Objects.requireNonNull(source, "source");
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.steps = List.copyOf(steps);
        this.locations = List.copyOf(locations);
        if (this.steps.size() != this.locations.size()) {
            throw new IllegalArgumentException("one location per step");
        }
    }

    /** The file name as given, or {@code <input>}. */
    public String source() {
        return source;
    }

    /** The kernel profile the file names ({@code kernel: 6.12}), if any. */
    public Optional<KernelProfile> kernel() {
        return kernel;
    }

    /** The steps in file order. */
    public List<LayoutStep> steps() {
        return steps;
    }

    /** Where the {@code index}th step starts. */
    public Location location(int index) {
        return locations.get(index);
    }

    /** The spec under the file's kernel, or {@link KernelProfile#defaultProfile()} when it names none. */
    public LayoutSpec spec() {
        return spec(kernel.orElse(KernelProfile.defaultProfile()));
    }

    /** The spec under another kernel profile (a {@code --kernel} that overrides the file's). */
    public LayoutSpec spec(KernelProfile profile) {
        return new LayoutSpec(Objects.requireNonNull(profile, "profile"), steps);
    }

    /** {@link #build(KernelProfile)} under the file's kernel or the default one. */
    public Layout build() {
        return build(kernel.orElse(KernelProfile.defaultProfile()));
    }

    /**
     * Builds the layout under {@code profile}.
     *
     * @throws LayoutFileException when the model refuses a step ({@link dev.dmmodel.layout.LayoutException} and
     *     other refusals), at the line and column of the first step whose layout cannot be built, with the model's
     *     message
     */
    public Layout build(KernelProfile profile) {
        LayoutSpec spec = spec(profile);
        try {
            return Layout.of(spec);
        } catch (IllegalArgumentException e) {
            int step = firstFailingStep(profile);
            Location at = step < 0 ? new Location(1, 1) : locations.get(step);
            throw new LayoutFileException(source, at.line(), at.column(),
                    "a step the model refuses (" + e.getMessage() + ")",
                    "a layout that can be built under " + profile.name(), e);
        }
    }

    /** The first step such that the steps up to it cannot be built (a binary search over prefixes). */
    private int firstFailingStep(KernelProfile profile) {
        int lo = 0;
        int hi = steps.size() - 1; // the whole list fails
        if (hi < 0) {
            return -1;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (fails(profile, mid + 1)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    private boolean fails(KernelProfile profile, int count) {
        try {
            ModelProviders.get().build(new LayoutSpec(profile, steps.subList(0, count)));
            return false;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    @Override
    public String toString() {
        return "LayoutFile[" + source + ", " + steps.size() + " steps]";
    }
}
