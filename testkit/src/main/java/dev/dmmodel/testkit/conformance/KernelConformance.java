package dev.dmmodel.testkit.conformance;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.spi.ModelProviders;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Runs a recorded case through the model and compares the traces: the layout is built from the case's
 * snapshot under a kernel profile, {@code setup.txt} runs without tracing, {@code workload.txt} runs with
 * every event collected as the engine emits it (sequence numbers as emitted), and the result is compared
 * with {@code trace.csv} in the case's {@link CompareMode}. The dm devices and the thin-pool metadata devices
 * the comparison needs come from the built layout.
 *
 * <p>A command the model refuses (a {@link dev.dmmodel.engine.CommandResult} that is not
 * {@linkplain dev.dmmodel.engine.CommandResult#ok() ok}, e.g. dd's "Invalid argument") is not a failure: the
 * kernel refuses such commands too and the script goes on. A command the model cannot run at all (an
 * exception while parsing or executing it) is: it ends the check with a {@link CaseFailure}.
 */
public final class KernelConformance {

    private KernelConformance() {
    }

    /**
     * Runs the case under the profile and compares its trace.
     *
     * @throws CaseFailure naming the case, the stage (building the layout, or the file, line and command that
     *     failed) and the exception, which is its cause
     * @throws IllegalArgumentException if the case has no trace to compare (no {@code compare.txt})
     */
    public static Comparison check(TraceCase c, KernelProfile profile) {
        Objects.requireNonNull(c, "case");
        Objects.requireNonNull(profile, "profile");
        CompareMode mode = c.compareMode().orElseThrow(() -> new IllegalArgumentException("case " + c.name()
                + " has no compare.txt: there is no trace to compare (" + c.directory() + ")"));
        List<TraceEvent> modelled = new ArrayList<>();
        Simulation simulation = simulate(c, profile, modelled::add);
        Layout layout = simulation.layout();
        return TraceComparator.compare(attributePartitionRemaps(c.trace(), layout), modelled, mode,
                dmDevices(layout), thinPoolMetadataDevices(layout));
    }

    /**
     * Builds the case's snapshot under the profile, runs its setup (untraced) and its workload (events to
     * {@code listener}), and returns the simulation in the state the workload left it: for statistics such as
     * {@link Simulation#thinStats()} to compare with what the recorder saw afterwards.
     *
     * @throws CaseFailure naming the case, the stage and the exception, as {@link #check} does
     */
    public static Simulation simulate(TraceCase c, KernelProfile profile, TraceListener listener) {
        Objects.requireNonNull(c, "case");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(listener, "listener");
        String id = c.name() + " (" + profile.name() + ")";
        Layout layout;
        try {
            layout = ModelProviders.get().build(c.snapshot().toLayoutSpec(profile));
        } catch (RuntimeException e) {
            throw new CaseFailure(id + ": building the layout from snapshot/ failed: " + describe(e), e);
        }
        Simulation simulation;
        try {
            simulation = Simulation.of(layout);
        } catch (RuntimeException e) {
            throw new CaseFailure(id + ": creating the simulation failed: " + describe(e), e);
        }
        run(id, simulation, "setup.txt", c.setupLines(), TraceListener.NONE);
        run(id, simulation, "workload.txt", c.workloadLines(), listener);
        return simulation;
    }

    /** Kernel names of the layout's device-mapper devices. */
    /**
     * Applies the recording's own normalization where the recorder missed it: a dm remap onto a partition
     * that the kernel printed with the whole disk's number and a partition-relative sector is attributed
     * to the partition (the snapshot format's rule). The recorder attributes such a row by the partition
     * remap that follows it; when an interrupt's events came between the two it left the row on the disk
     * (6 of 25,000 rows in {@code lp-raid-part63-4M-lv-buffered4k}). A {@code block_bio_remap} on a whole
     * disk whose {@code from=} device is a dm device mapping only partitions of that disk is moved to the
     * partition it maps.
     */
    public static List<TraceEvent> attributePartitionRemaps(List<TraceEvent> recorded, Layout layout) {
        java.util.Map<String, String> partitionOf = new java.util.HashMap<>();
        for (dev.dmmodel.device.DmDevice dm : layout.dmDevices()) {
            Set<String> disks = new java.util.HashSet<>();
            Set<String> parts = new java.util.HashSet<>();
            for (String d : dm.table().devices()) {
                if (layout.device(d) instanceof dev.dmmodel.device.Partition p) {
                    parts.add(p.name());
                    disks.add(p.disk());
                } else {
                    disks.add(d);
                    parts.add(d);
                }
            }
            if (parts.size() == 1 && disks.size() == 1 && !parts.equals(disks)) {
                partitionOf.put(dm.name() + ">" + disks.iterator().next(), parts.iterator().next());
            }
        }
        if (partitionOf.isEmpty()) {
            return recorded;
        }
        List<TraceEvent> out = new java.util.ArrayList<>(recorded.size());
        for (TraceEvent e : recorded) {
            if (e.type() == dev.dmmodel.trace.EventType.BIO_REMAP && e.extra().startsWith("from=")) {
                String from = e.extra().substring(5, e.extra().indexOf(':') > 0 ? e.extra().indexOf(':') : e.extra().length());
                String part = partitionOf.get(from + ">" + e.device());
                if (part != null) {
                    out.add(new TraceEvent(e.seq(), part, e.type(), e.rwbs(), e.sector(), e.nrSectors(), e.extra()));
                    continue;
                }
            }
            out.add(e);
        }
        return out;
    }

    public static Set<String> dmDevices(Layout layout) {
        Set<String> out = new LinkedHashSet<>();
        for (DmDevice d : layout.dmDevices()) {
            out.add(d.name());
        }
        return Set.copyOf(out);
    }

    /** Kernel names of the metadata devices of the layout's thin-pool targets. */
    public static Set<String> thinPoolMetadataDevices(Layout layout) {
        Set<String> out = new LinkedHashSet<>();
        for (DmDevice d : layout.dmDevices()) {
            for (DmTarget t : d.table().targets()) {
                if (t instanceof ThinPoolTarget pool) {
                    out.add(layout.find(pool.metadataDevice()).map(BlockDevice::name).orElse(pool.metadataDevice()));
                }
            }
        }
        return Set.copyOf(out);
    }

    /** Parses and runs the lines one by one, so that a failure names its own line. */
    private static void run(String id, Simulation simulation, String file, List<String> lines, TraceListener listener) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String where = id + ": " + file + " line " + (i + 1) + " `" + line.strip() + "`";
            Script script;
            try {
                script = Script.parse(line);
            } catch (RuntimeException e) {
                throw new CaseFailure(where + " does not parse: " + describe(e), e);
            }
            for (Command command : script.commands()) {
                try {
                    simulation.execute(command, listener);
                } catch (RuntimeException e) {
                    throw new CaseFailure(where + " failed in the engine: " + describe(e), e);
                }
            }
        }
    }

    private static String describe(Throwable e) {
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** A case the model could not run: the message names the case, where it stopped and why. */
    public static final class CaseFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /**
         * Creates the failure.
         *
         * @param message the case, the stage and the reason
         * @param cause the exception
         */
        public CaseFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
