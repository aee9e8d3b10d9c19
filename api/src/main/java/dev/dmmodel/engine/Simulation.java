package dev.dmmodel.engine;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.spi.ModelProviders;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;

/**
 * A running host: a layout plus the state the kernel keeps while I/O happens (soft block sizes,
 * tunables written to sysfs, the page cache's dirty data, thin-pool mappings). Commands run in order
 * and report the kernel's block events to a listener. A simulation is not thread-safe.
 */
public interface Simulation {

    /** A simulation of the layout under its kernel profile, with {@link EngineOptions#DEFAULTS}. */
    static Simulation of(Layout layout) {
        return of(layout, EngineOptions.DEFAULTS);
    }

    /** A simulation of the layout under its kernel profile. */
    static Simulation of(Layout layout, EngineOptions options) {
        return ModelProviders.get().simulate(layout, options);
    }

    /** The layout as it is now (tunables such as max_sectors_kb applied). */
    Layout layout();

    /** What dm-thin did for each thin device so far, in layout order. */
    java.util.List<ThinStats> thinStats();

    /** What each classic snapshot ({@code snapshot} target) did so far and its COW fill level, in layout order. */
    java.util.List<SnapshotStats> snapshotStats();

    /**
     * What the commands run so far showed, as findings of stable ids (the layout's own are
     * {@link dev.dmmodel.layout.Layout#findings()}): a classic snapshot's write amplification, chunks much smaller
     * than the origin's writes, a COW device the workload filled. Most severe first, then in device order.
     */
    java.util.List<dev.dmmodel.finding.Finding> findings();

    /** What dm-cache did for each cache device so far ({@code dmsetup status}), in layout order. */
    java.util.List<CacheStats> cacheStats();

    /** What dm-writecache did for each writecache device so far ({@code dmsetup status}), in layout order. */
    java.util.List<WritecacheStats> writecacheStats();

    /** Every device's cumulative I/O counters, in layout order. */
    java.util.List<DeviceStats> stats();

    /** Runs one command; its block events go to {@code listener}. */
    CommandResult execute(Command command, TraceListener listener);

    /**
     * Runs an fio-style job; operations stream from the job, so its length costs no memory.
     */
    JobResult run(dev.dmmodel.workload.IoJob job, TraceListener listener);

    /** Runs a script in order; a refused command is reported and the script goes on, as in a shell. */
    default List<CommandResult> run(Script script, TraceListener listener) {
        List<CommandResult> results = new ArrayList<>();
        for (Command c : script.commands()) {
            results.add(execute(c, listener));
        }
        return List.copyOf(results);
    }
}
