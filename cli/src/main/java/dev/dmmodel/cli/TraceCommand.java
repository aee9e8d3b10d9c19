package dev.dmmodel.cli;

import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormat;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dmmodel trace}: runs a workload on the stack and prints the kernel's block events. */
@picocli.CommandLine.Command(name = "trace",
        header = "Runs a workload on the stack and prints the kernel's block events.",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Builds the stack, runs the setup lines without tracing, then runs the workload lines and prints"
                + " the block events they cause (the kernel's block tracepoints, layer by layer) as they happen.",
            "A workload command that fails (dd: ... Invalid argument) prints the tool's message on stderr; the"
                + " run goes on and exits 1. A line that does not parse, or names a device the snapshot does"
                + " not have, exits 2 before anything runs."},
        footerHeading = "%nExample:%n",
        footer = {
            "  dmmodel trace --snapshot kernel-traces/ss-str-1M-at32k/snapshot \\",
            "    --workload 'dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 oflag=direct'",
            "  seq,device,event,rwbs,sector,nr_sectors,extra",
            "  0,dm-0,block_bio_queue,WS,0,2048,",
            "  1,sda,block_bio_remap,WS,2048,128,from=dm-0:0",
            "  2,sda,block_bio_queue,WS,2048,128,",
            "  3,dm-0,block_split,WS,128,,new_sector=128",
            "  ..."})
final class TraceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StackOptions stack;

    @Option(names = "--setup-file", paramLabel = "FILE",
            description = "Commands run first, without tracing (sync, drop_caches, dmsetup message ...).")
    Path setupFile;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Workload workload;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "csv (default; seq,device,event,rwbs,sector,nr_sectors,extra), json (JSON Lines), text"
                + " (the default with --why), or svg: no events, but per-layer charts of them (bio and request"
                + " sizes, request offsets in issue order, a thin pool's zeroing and copies) as one SVG document.")
    String format;

    @Option(names = "--summary",
            description = "Print no events but, at the end, the per-layer statistics of the workload: for each device"
                + " the bios it received and their sectors, splits, bios remapped to it, merges, requests issued"
                + " and their sizes; for each thin device written its provisioning, zeroing and copies. Memory does"
                + " not grow with the workload's length.")
    boolean summary;

    @Option(names = "--why",
            description = "Say why each split and remap happened: the limit and its value that cut the bio"
                + " (max_sectors, max_segments, chunk_sectors, virt_boundary_mask, discard limits), the target"
                + " boundary or chunk, the partition start, the thin block. Text and JSON only: the CSV format is"
                + " the recorded traces' and has no column for it.")
    boolean why;

    @Option(names = "--buffer-run-bytes", paramLabel = "N",
            description = "Bytes per physically contiguous run of the O_DIRECT buffer, a multiple of 4096:"
                + " 4096 (default; scattered pages) up to 2M (transparent huge pages). Sizes such as 2M work.")
    String bufferRunBytes;

    @Option(names = "--stats",
            description = "At the end, print iostat -x lines of the workload (setup not counted) for every device"
                + " to stderr.")
    boolean stats;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "1",
            description = "The interval the --stats rates are computed over (default 1).")
    double seconds;

    /** The workload: lines given as options, or a file. */
    static final class Workload {
        @Option(names = "--workload", paramLabel = "LINE", required = true,
                description = "A workload line (repeat for several), e.g. 'dd if=/dev/zero of=/dev/vg/lv bs=1M count=1 oflag=direct'.")
        List<String> lines;

        @Option(names = "--workload-file", paramLabel = "FILE", required = true,
                description = "A file of workload lines, one command per line (# comments, $ prompts allowed).")
        Path file;

        /** The commands, each with its file and line; none is a usage error. */
        List<WorkloadLines.Step> steps() {
            String where = file != null ? file.toString() : "--workload";
            List<WorkloadLines.Step> steps = file != null
                    ? WorkloadLines.parse(where, read(file, "--workload-file"))
                    : WorkloadLines.parse(where, String.join("\n", lines));
            if (steps.isEmpty()) {
                throw new CliException(where + ": no command to run (only blank or comment lines)");
            }
            return steps;
        }
    }

    /** The commands of {@code --setup-file FILE}, none without one. */
    static List<WorkloadLines.Step> setup(Path setupFile) {
        return setupFile == null ? List.of()
                : WorkloadLines.parse(setupFile.toString(), read(setupFile, "--setup-file"));
    }

    @Override
    public Integer call() {
        String chosen = format != null ? format : why ? "text" : "csv";
        String formatName = CliException.choice("--format", chosen, "csv", "json", "text", "svg");
        boolean svg = formatName.equals("svg");
        TraceFormat traceFormat = switch (formatName) {
            case "json" -> TraceFormat.JSON;
            case "text" -> TraceFormat.TEXT;
            default -> TraceFormat.CSV;
        };
        if (summary && (format != null || why)) {
            throw new CliException("--summary prints a table instead of events: it takes neither --format nor --why");
        }
        if (why && svg) {
            throw new CliException("--why: the svg charts have no place for the reasons; use --format text or json");
        }
        if (why && traceFormat == TraceFormat.CSV) {
            throw new CliException("--why: the csv format is the recorded traces' seven columns and has no column"
                    + " for the reasons; use --format text or --format json");
        }
        EngineOptions options = why ? engineOptions().withExplainedSplits() : engineOptions();
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new CliException("--seconds: expected a positive number of seconds, found " + seconds);
        }
        List<WorkloadLines.Step> setup = setup(setupFile);
        List<WorkloadLines.Step> steps = workload.steps();
        StackOptions.Stack s = stack.load();
        s.printNotes(spec.commandLine().getErr());
        if (s.reportPlanFailure(spec.commandLine().getErr())) {
            return Main.FAILED;
        }
        setup = withPlanSetup(s, setup);
        checkDevices(s.layout(), setup);
        checkDevices(s.layout(), steps);

        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Simulation sim = Simulation.of(s.layout(), options);
        boolean failed = false;
        for (WorkloadLines.Step step : setup) {
            CommandResult r = execute(sim, step, TraceListener.NONE, out);
            if (!r.ok()) {
                err.println(step.where() + ": " + message(r));
                err.flush();
                failed = true;
            }
        }
        List<DeviceStats> beforeWorkload = sim.stats();
        Stop stop = new Stop(out, traceFormat);
        TraceCharts charts = new TraceCharts();
        Progress progress = Progress.onStderr(err);
        TraceListener listener = progress.counting(svg || summary ? charts : stop);
        try {
            for (WorkloadLines.Step step : steps) {
                progress.command(step.command().line());
                CommandResult r = execute(sim, step, listener, out);
                if (!r.ok()) {
                    out.flush();
                    progress.done();
                    err.println(message(r));
                    err.flush();
                    failed = true;
                }
            }
        } catch (OutputClosed e) {
            progress.done();
            return Main.OK; // stdout was closed (| head): nobody reads the rest
        }
        progress.done();
        if (summary) {
            out.print(charts.summary(sim.thinStats()));
        } else if (svg) {
            out.print(charts.svgDocument("dmmodel trace " + s.origin() + " under " + s.profile().name() + ": "
                    + charts.events() + " events", sim.thinStats()));
        } else {
            stop.start(); // the CSV header, also when there was no event
        }
        out.flush();
        // what the run showed (a snapshot's copies, a COW device filled): on stderr, like the notes, so that the
        // trace on stdout stays one format
        List<dev.dmmodel.finding.Finding> found = sim.findings();
        if (!found.isEmpty()) {
            err.println("findings of the run:");
            for (dev.dmmodel.finding.Finding f : found) {
                err.println("  " + f.severity() + " " + f.id() + " [" + f.device() + "] " + f.message());
                err.println("    fix: " + f.fix());
            }
            err.flush();
        }
        if (stats) {
            err.println(DeviceStats.iostatHeader());
            for (DeviceStats d : since(beforeWorkload, sim.stats())) {
                err.println(d.iostatLine(seconds));
            }
            err.flush();
        }
        return failed ? Main.FAILED : Main.OK;
    }

    /**
     * The plans' filesystem commands ({@code mkfs}, {@code mount}: they set the block sizes the engine uses) and
     * then the {@code --setup-file}'s: the workload runs on the stack as the plans left it, filesystems included.
     * Each plan command is named by its plan's file and line.
     */
    static List<WorkloadLines.Step> withPlanSetup(StackOptions.Stack s, List<WorkloadLines.Step> setup) {
        List<WorkloadLines.Step> out = new ArrayList<>();
        for (dev.dmmodel.plan.PlanResult r : s.plans()) {
            List<dev.dmmodel.plan.PlanEntry> unused = new ArrayList<>(r.entries());
            for (Command c : r.setup().commands()) {
                // the entry the command came from, for its file and line in messages
                dev.dmmodel.plan.PlanEntry from = unused.stream()
                        .filter(e -> e.command().strip().equals(c.line().strip())).findFirst().orElse(null);
                if (from != null) {
                    unused.remove(from);
                    out.add(new WorkloadLines.Step(from.source(), from.line(), c));
                } else {
                    out.add(new WorkloadLines.Step("--plan setup", out.size() + 1, c));
                }
            }
        }
        out.addAll(setup);
        return out;
    }

    /** The counters of the workload alone: {@code after} minus {@code before}, device by device. */
    static List<DeviceStats> since(List<DeviceStats> before, List<DeviceStats> after) {
        Map<String, DeviceStats> b = new HashMap<>();
        for (DeviceStats d : before) {
            b.put(d.device(), d);
        }
        List<DeviceStats> out = new ArrayList<>();
        for (DeviceStats a : after) {
            DeviceStats z = b.getOrDefault(a.device(), new DeviceStats(a.device(), 0, 0, 0, 0, 0, 0, 0, 0, 0));
            out.add(new DeviceStats(a.device(), a.readIos() - z.readIos(), a.readMerges() - z.readMerges(),
                    a.readSectors() - z.readSectors(), a.writeIos() - z.writeIos(),
                    a.writeMerges() - z.writeMerges(), a.writeSectors() - z.writeSectors(),
                    a.discardIos() - z.discardIos(), a.discardSectors() - z.discardSectors(),
                    a.flushIos() - z.flushIos()));
        }
        return out;
    }

    private EngineOptions engineOptions() {
        return engineOptions(bufferRunBytes);
    }

    /** The engine options of {@code --buffer-run-bytes N} (null: the default). */
    static EngineOptions engineOptions(String bufferRunBytes) {
        if (bufferRunBytes == null) {
            return EngineOptions.DEFAULTS;
        }
        try {
            return new EngineOptions(Bytes.parse(bufferRunBytes).count());
        } catch (IllegalArgumentException e) {
            throw new CliException("--buffer-run-bytes: " + e.getMessage(), e);
        }
    }

    /** Runs one command; a command the engine cannot run ends the run with a message naming its line. */
    static CommandResult execute(Simulation sim, WorkloadLines.Step step, TraceListener listener,
                                         PrintWriter out) {
        try {
            return sim.execute(step.command(), listener);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            out.flush();
            throw new CliException(step.where() + ": " + e.getMessage() + " (in: " + step.command().line() + ")", e);
        }
    }

    static String message(CommandResult r) {
        return r.message().isEmpty() ? r.command().line() + ": exit status " + r.exitStatus() : r.message();
    }

    /**
     * Checks, before anything runs, that every device a command names exists, so that a typo stops the run
     * before any event is printed (the engine would stop at that command, after the events before it).
     */
    static void checkDevices(Layout layout, List<WorkloadLines.Step> steps) {
        java.util.Set<String> created = new java.util.HashSet<>();
        for (WorkloadLines.Step step : steps) {
            for (String ref : devices(step.command())) {
                if (layout.find(ref).isEmpty() && !created.contains(ref)) {
                    throw new CliException(step.where() + ": no device " + ref + " in the snapshot (devices: "
                            + String.join(", ", layout.devices().stream().map(d -> d.name()).toList())
                            + "; /dev/mapper/NAME and /dev/VG/LV work too) (in: " + step.command().line() + ")");
                }
            }
            // an array mdadm --create starts is there for the lines after it
            if (step.command() instanceof Command.MdadmCreate m) {
                m.request().kernelName().ifPresent(md -> {
                    created.add(md);
                    created.add("/dev/" + md);
                });
                created.add(m.request().name());
            }
        }
    }

    /** The block devices a command names. */
    private static List<String> devices(Command c) {
        List<String> out = new ArrayList<>();
        if (c instanceof Command.Dd dd) {
            for (String p : List.of(dd.input(), dd.output())) {
                if (!p.equals("/dev/zero") && !p.equals("/dev/null") && !p.equals("-")) {
                    out.add(p);
                }
            }
        } else if (c instanceof Command.SetBlockSize b) {
            out.add(b.device());
        } else if (c instanceof Command.Mkfs m) {
            out.add(m.device());
        } else if (c instanceof Command.Mount m) {
            out.add(m.device());
        } else if (c instanceof Command.DmsetupMessage m) {
            out.add(m.device());
        } else if (c instanceof Command.DmsetupSuspendResume m) {
            out.add(m.device());
        } else if (c instanceof Command.Blkdiscard b) {
            out.add(b.device());
        } else if (c instanceof Command.SysfsWrite w) {
            sysfsDevice(w.path()).ifPresent(out::add);
        }
        return out;
    }

    /** {@code sda} of {@code /sys/block/sda/queue/max_sectors_kb}. */
    private static Optional<String> sysfsDevice(String path) {
        String[] parts = path.split("/");
        if (parts.length >= 4 && parts[0].isEmpty() && parts[1].equals("sys") && parts[2].equals("block")) {
            return Optional.of(parts[3]);
        }
        return Optional.empty();
    }

    private static String read(Path file, String option) {
        return StackOptions.read(file, option);
    }

    /** Thrown out of the listener when nobody reads stdout any more. */
    private static final class OutputClosed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OutputClosed() {
            super(null, null, false, false);
        }
    }

    /**
     * Writes events, starting the format's writer (and so its header) at the first event, so that a run the
     * engine stops before any event prints nothing; stops the run once stdout is closed (checked every 4096
     * events).
     */
    private static final class Stop implements TraceListener {
        private final PrintWriter out;
        private final TraceFormat format;
        private TraceListener writer;
        private long events;

        Stop(PrintWriter out, TraceFormat format) {
            this.out = out;
            this.format = format;
        }

        /** Starts the writer if no event did. */
        void start() {
            if (writer == null) {
                writer = format.writer(out);
            }
        }

        @Override
        public void onEvent(TraceEvent event) {
            start();
            writer.onEvent(event);
            if ((++events & 4095) == 0 && out.checkError()) {
                throw new OutputClosed();
            }
        }
    }
}
