package dev.dmmodel.testkit.conformance;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs a recorded case through the model and compares the traces: the layout is built from the case's
 * snapshot under a kernel profile, {@code setup.txt} runs without tracing, {@code workload.txt} runs with
 * every event collected as the engine emits it (sequence numbers as emitted), and the result is compared
 * with {@code trace.csv} in the case's {@link CompareMode}. The dm devices and the places of the thin-pool
 * metadata the comparison needs come from the built layout ({@link #scope}); whether request sizes are
 * compared too, from {@link #requestSizesDeterministic}.
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
                scope(layout, requestSizesDeterministic(c)).withAtMostModelled(timingDependentEvents(c)));
    }

    /**
     * What the comparator needs to know of the layout: its dm devices, where its thin pools' metadata lies
     * ({@link #thinPoolMetadataRanges}), and whether to compare request sizes.
     */
    public static CompareScope scope(Layout layout, boolean requestSizes) {
        return new CompareScope(dmDevices(layout), thinPoolMetadataRanges(layout), requestSizes);
    }

    /** The testkit resource with the per-case verdicts on request sizes (see {@link CompareMode}). */
    public static final String REQUEST_SIZES_RESOURCE = "/dev/dmmodel/testkit/conformance/request-sizes.txt";

    /**
     * Whether the case's recorded requests are deterministic, so that the multiset of their sizes is compared
     * too ({@link CompareMode}): the verdict {@code yes} in {@link #REQUEST_SIZES_RESOURCE} for
     * {@code <trace folder>/<case>} (the case folder's parent's name and its own). A case not listed there, or
     * listed {@code no}, is not; a {@link CompareMode#SEQUENCE} case compares its requests in place anyway.
     */
    public static boolean requestSizesDeterministic(TraceCase c) {
        Objects.requireNonNull(c, "case");
        RequestSizeVerdict v = requestSizeVerdicts().get(id(c));
        return v != null && v.deterministic();
    }

    /**
     * One line of {@link #REQUEST_SIZES_RESOURCE}.
     *
     * @param id {@code <trace folder>/<case>}
     * @param deterministic the verdict
     * @param reason why, from the recording's README and the kernel's rules
     */
    public record RequestSizeVerdict(String id, boolean deterministic, String reason) {
    }

    /**
     * Every verdict of {@link #REQUEST_SIZES_RESOURCE} by {@code <trace folder>/<case>}, in file order: lines
     * {@code <folder>/<case> TAB yes|no TAB reason}; blank lines and lines starting with {@code #} are skipped.
     *
     * @throws IllegalStateException for a malformed or repeated line, naming it
     */
    public static Map<String, RequestSizeVerdict> requestSizeVerdicts() {
        return RequestSizeVerdicts.ALL;
    }

    private static final class RequestSizeVerdicts {
        static final Map<String, RequestSizeVerdict> ALL = read();

        private static Map<String, RequestSizeVerdict> read() {
            Map<String, RequestSizeVerdict> out = new LinkedHashMap<>();
            for (Row row : rows(REQUEST_SIZES_RESOURCE, "<folder>/<case> TAB yes|no TAB reason")) {
                String[] f = row.fields();
                if (f.length != 3 || !(f[1].equals("yes") || f[1].equals("no")) || f[2].isBlank()) {
                    throw row.malformed();
                }
                RequestSizeVerdict v = new RequestSizeVerdict(f[0], f[1].equals("yes"), f[2]);
                if (out.put(v.id(), v) != null) {
                    throw row.repeated(v.id());
                }
            }
            return Collections.unmodifiableMap(out);
        }
    }

    /** The testkit resource with the events a recorded kernel traces for only some bios, by timing. */
    public static final String TIMING_DEPENDENT_RESOURCE = "/dev/dmmodel/testkit/conformance/timing-dependent-events.txt";

    /**
     * The events of the case that its recorded kernel traced for only some of the bios, depending on timing, so
     * that the multiset modes compare them as a part of the modelled ones ({@link CompareScope#atMostModelled}):
     * the lines of {@link #TIMING_DEPENDENT_RESOURCE} for {@code <trace folder>/<case>}, each
     * {@code <folder>/<case> TAB <device> TAB <tracepoint> TAB reason}. Most cases have none.
     *
     * @throws IllegalStateException for a malformed line or an unknown tracepoint, naming it
     */
    public static Set<CompareScope.DeviceEvents> timingDependentEvents(TraceCase c) {
        Objects.requireNonNull(c, "case");
        return TimingDependent.ALL.getOrDefault(id(c), Set.of());
    }

    private static final class TimingDependent {
        static final Map<String, Set<CompareScope.DeviceEvents>> ALL = read();

        private static Map<String, Set<CompareScope.DeviceEvents>> read() {
            Map<String, Set<CompareScope.DeviceEvents>> out = new LinkedHashMap<>();
            for (Row row : rows(TIMING_DEPENDENT_RESOURCE, "<folder>/<case> TAB <device> TAB <tracepoint> TAB reason")) {
                String[] f = row.fields();
                if (f.length != 4 || f[1].isBlank() || f[3].isBlank()) {
                    throw row.malformed();
                }
                EventType type;
                try {
                    type = EventType.ofTracepoint(f[2]);
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException(TIMING_DEPENDENT_RESOURCE + " line " + row.number() + ": "
                            + e.getMessage() + "; expected one such as block_bio_remap", e);
                }
                Set<CompareScope.DeviceEvents> events = new LinkedHashSet<>(out.getOrDefault(f[0], Set.of()));
                if (!events.add(new CompareScope.DeviceEvents(f[1], type))) {
                    throw row.repeated(f[0] + " " + f[1] + " " + f[2]);
                }
                out.put(f[0], Set.copyOf(events));
            }
            return Collections.unmodifiableMap(out);
        }
    }

    /** {@code <trace folder>/<case>}: the case folder's parent's name and its own. */
    private static String id(TraceCase c) {
        Path parent = c.directory().getParent();
        return (parent == null || parent.getFileName() == null ? "" : parent.getFileName() + "/") + c.name();
    }

    /** A line of a tab-separated testkit resource, split, with its number for messages. */
    private record Row(String resource, int number, String line, String expected) {
        String[] fields() {
            return line.split("\t");
        }

        IllegalStateException malformed() {
            return new IllegalStateException(resource + " line " + number + ": expected " + expected + ", found: "
                    + line);
        }

        IllegalStateException repeated(String what) {
            return new IllegalStateException(resource + " line " + number + ": " + what + " is listed twice");
        }
    }

    /** The resource's lines that are neither blank nor {@code #} comments. */
    private static List<Row> rows(String resource, String expected) {
        try (InputStream in = KernelConformance.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource " + resource + " is missing");
            }
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            List<Row> out = new ArrayList<>();
            for (int i = 0; i < lines.length; i++) {
                if (!lines[i].isBlank() && !lines[i].startsWith("#")) {
                    out.add(new Row(resource, i + 1, lines[i], expected));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
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
            layout = Layout.of(c.snapshot().toLayoutSpec(profile));
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

    /** Kernel names of the layout's device-mapper devices. */
    public static Set<String> dmDevices(Layout layout) {
        Set<String> out = new LinkedHashSet<>();
        for (DmDevice d : layout.dmDevices()) {
            out.add(d.name());
        }
        return Set.copyOf(out);
    }

    /**
     * Where the layout's thin pools keep their metadata: each metadata device whole, and the place it occupies
     * on every device below it, found by following its table down (a {@code linear} target maps its range to
     * {@code offset} on its device; a {@code striped} target to one contiguous range on each stripe; a
     * partition's range lies at the partition's start on its disk), in each device's own sectors. A table
     * below that maps the metadata through a {@code thin}, {@code thin-pool}, {@code zero} or {@code error}
     * target is not followed there (no fixed place). Adjacent or overlapping ranges of a device are joined;
     * the list is ordered by device and sector.
     */
    public static List<DeviceRange> thinPoolMetadataRanges(Layout layout) {
        Objects.requireNonNull(layout, "layout");
        Map<String, List<long[]>> ranges = new TreeMap<>(TraceComparator.DEVICE_ORDER);
        for (String metadata : thinPoolMetadataDevices(layout)) {
            BlockDevice d = layout.device(metadata);
            occupy(layout, d, 0, d.size().count(), ranges, 0);
        }
        List<DeviceRange> out = new ArrayList<>();
        for (Map.Entry<String, List<long[]>> e : ranges.entrySet()) {
            List<long[]> rs = new ArrayList<>(e.getValue());
            rs.sort(Comparator.comparingLong(r -> r[0]));
            long start = -1;
            long end = -1;
            for (long[] r : rs) {
                if (start >= 0 && r[0] <= end) {
                    end = Math.max(end, r[1]);
                    continue;
                }
                if (start >= 0) {
                    out.add(new DeviceRange(e.getKey(), start, end - start));
                }
                start = r[0];
                end = r[1];
            }
            if (start >= 0) {
                out.add(new DeviceRange(e.getKey(), start, end - start));
            }
        }
        return List.copyOf(out);
    }

    /** Records {@code [start, start + length)} of {@code d} and follows it down. */
    private static void occupy(Layout layout, BlockDevice d, long start, long length, Map<String, List<long[]>> out,
                               int depth) {
        if (length <= 0) {
            return;
        }
        if (depth > 64) {
            throw new IllegalStateException("dm tables nest deeper than 64 levels below " + d.name());
        }
        out.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(new long[] {start, start + length});
        long end = start + length;
        if (d instanceof Partition p) {
            occupy(layout, layout.device(p.disk()), p.start().count() + start, length, out, depth + 1);
        } else if (d instanceof DmDevice dm) {
            for (DmTarget t : dm.table().targets()) {
                long a = Math.max(start, t.start().count());
                long b = Math.min(end, t.end().count());
                if (a >= b) {
                    continue;
                }
                if (t instanceof LinearTarget lin) {
                    occupy(layout, layout.device(lin.device()), lin.offset().count() + a - t.start().count(), b - a,
                            out, depth + 1);
                } else if (t instanceof StripedTarget st) {
                    occupyStripes(layout, st, a - t.start().count(), b - t.start().count(), out, depth);
                }
            }
        }
    }

    /**
     * The stripes' shares of the target's sectors {@code [a, b)} (relative to the target): on each stripe the
     * chunks of a contiguous range are consecutive, so each share is one range, from the stripe's first sector
     * in {@code [a, b)} to its last ({@code stripe_map_sector}: chunk {@code c} is chunk {@code c / n} of stripe
     * {@code c % n}).
     */
    private static void occupyStripes(Layout layout, StripedTarget st, long a, long b, Map<String, List<long[]>> out,
                                      int depth) {
        long chunk = st.chunkSectors();
        int n = st.stripes().size();
        long firstChunk = a / chunk;
        long lastChunk = (b - 1) / chunk;
        for (int i = 0; i < n; i++) {
            long c0 = firstChunk + Math.floorMod(i - firstChunk, (long) n);
            long c1 = lastChunk - Math.floorMod(lastChunk - i, (long) n);
            if (c0 > c1) {
                continue;
            }
            long firstSector = Math.max(a, c0 * chunk);
            long lastSector = Math.min(b - 1, c1 * chunk + chunk - 1);
            long lo = (c0 / n) * chunk + firstSector % chunk;
            long hi = (c1 / n) * chunk + lastSector % chunk + 1;
            StripedTarget.Stripe s = st.stripes().get(i);
            occupy(layout, layout.device(s.device()), s.offset().count() + lo, hi - lo, out, depth + 1);
        }
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
