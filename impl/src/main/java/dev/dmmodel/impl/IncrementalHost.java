package dev.dmmodel.impl;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A host built step by step, for a plan's dry run: each new step is replayed on the host as it stands instead of
 * replaying every step again, so a plan of n commands costs n steps, not n squared. A step the model refuses
 * leaves the host as it was (it is rebuilt from the steps kept).
 */
public final class IncrementalHost {

    private final LayoutSpec base;
    private final List<LayoutStep> steps;
    private HostBuilder builder;
    private Layout layout;

    /**
     * @param host the host's own steps
     * @throws dev.dmmodel.layout.LayoutException if they do not build
     */
    public IncrementalHost(LayoutSpec host) {
        this.base = Objects.requireNonNull(host, "host");
        this.steps = new ArrayList<>(host.steps());
        rebuild();
    }

    private void rebuild() {
        builder = new HostBuilder(base.profile());
        layout = builder.replay(steps);
    }

    /** The host as the steps so far made it ({@link Layout#spec()} is empty: see {@link #spec()}). */
    public Layout layout() {
        return layout;
    }

    /** The steps so far. */
    public LayoutSpec spec() {
        return new LayoutSpec(base.profile(), steps);
    }

    /**
     * Adds steps, or none of them.
     *
     * @return the new layout
     * @throws RuntimeException the model's refusal ({@link dev.dmmodel.layout.LayoutException} and the like); the
     *     host is then as before
     */
    public Layout add(List<LayoutStep> more) {
        try {
            for (LayoutStep s : more) {
                builder.apply(s);
            }
            layout = builder.layout();
        } catch (RuntimeException e) {
            rebuild(); // the builder may be half-way through a step
            throw e;
        }
        steps.addAll(more);
        return layout;
    }

    /**
     * Replaces every step.
     *
     * @throws RuntimeException the model's refusal; the host is then as before
     */
    public Layout replace(List<LayoutStep> all) {
        HostBuilder fresh = new HostBuilder(base.profile());
        Layout built = fresh.replay(all);
        builder = fresh;
        layout = built;
        steps.clear();
        steps.addAll(all);
        return built;
    }
}
