package dev.dmmodel.cli;

import dev.dmmodel.analysis.ThinOverwriteAnalysis;
import dev.dmmodel.analysis.ThinOverwriteReport;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dmmodel report}: the stack, its limits explained, its findings and a workload's trace, as one page. */
@picocli.CommandLine.Command(name = "report",
        header = "Writes one self-contained HTML page: the stack, every limit explained, the findings, a workload's"
            + " charts.",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Builds the stack and writes a page to share: the stack as a picture (each box links to its device),"
                + " the findings with their fixes and the limits they rest on, and every device's queue limits with"
                + " the derivation of each (the kernel rule and its inputs, down to the hardware) on demand.",
            "With a workload it also runs it, as trace does, and adds what each device did, the thin devices'"
                + " full-block-overwrite analysis with each fix re-run through the model, and per-layer charts:"
                + " bio and request sizes, request offsets in issue order, a thin pool's zeroing and copies.",
            "The page has no script and loads nothing: it opens offline, prints, and reads on a narrow screen."},
        footerHeading = "%nExample:%n",
        footer = {
            "  dmmodel report --layout examples/hosts/seed-004-thin.yaml \\",
            "      --workload 'dd if=/dev/zero of=/dev/mapper/thin bs=1M \\",
            "                  count=16 oflag=direct' -o report.html"})
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StackOptions stack;

    @Option(names = "--setup-file", paramLabel = "FILE",
            description = "Commands run first, without tracing (sync, drop_caches, dmsetup message ...).")
    Path setupFile;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    TraceCommand.Workload workload;

    @Option(names = "--buffer-run-bytes", paramLabel = "N",
            description = "Bytes per physically contiguous run of the O_DIRECT buffer (as for trace).")
    String bufferRunBytes;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the page to FILE (replaced if it exists) instead of standard output.")
    Path output;

    @Override
    public Integer call() {
        EngineOptions options = TraceCommand.engineOptions(bufferRunBytes);
        List<WorkloadLines.Step> setup = TraceCommand.setup(setupFile);
        List<WorkloadLines.Step> steps = workload == null ? List.of() : workload.steps();
        StackOptions.Stack s = stack.load();
        PrintWriter err = spec.commandLine().getErr();
        s.printNotes(err);
        if (s.reportPlanFailure(err)) {
            return Main.FAILED;
        }
        Optional<HtmlReport.Run> run = Optional.empty();
        boolean failed = false;
        if (workload != null) {
            setup = TraceCommand.withPlanSetup(s, setup);
            TraceCommand.checkDevices(s.layout(), setup);
            TraceCommand.checkDevices(s.layout(), steps);
            Simulation sim = Simulation.of(s.layout(), options);
            List<String> failures = new ArrayList<>();
            PrintWriter sink = new PrintWriter(PrintWriter.nullWriter());
            for (WorkloadLines.Step step : setup) {
                CommandResult r = TraceCommand.execute(sim, step, TraceListener.NONE, sink);
                if (!r.ok()) {
                    failures.add(step.where() + ": " + TraceCommand.message(r));
                }
            }
            List<DeviceStats> before = sim.stats();
            TraceCharts charts = new TraceCharts();
            Progress progress = Progress.onStderr(err);
            TraceListener listener = progress.counting(charts);
            for (WorkloadLines.Step step : steps) {
                progress.command(step.command().line());
                CommandResult r = TraceCommand.execute(sim, step, listener, sink);
                if (!r.ok()) {
                    failures.add(step.where() + ": " + TraceCommand.message(r));
                }
            }
            progress.done();
            List<ThinStats> thin = sim.thinStats();
            List<ThinOverwriteReport> overwrites = List.of();
            if (thin.stream().anyMatch(t -> t.writeBios() > 0) && s.layout().spec().isPresent()) {
                List<Command> all = new ArrayList<>();
                setup.forEach(x -> all.add(x.command()));
                steps.forEach(x -> all.add(x.command()));
                overwrites = ThinOverwriteAnalysis.analyze(s.layout().spec().get(), new Script(all), options);
            }
            for (String f : failures) {
                err.println(f);
            }
            err.flush();
            failed = !failures.isEmpty();
            run = Optional.of(new HtmlReport.Run(steps.stream().map(x -> x.command().line()).toList(), charts,
                    TraceCommand.since(before, sim.stats()), thin, overwrites, sim.findings(), failures));
        }
        String page = HtmlReport.render(s, run, new Main.Version().getVersion()[0]);
        if (output != null) {
            try {
                Files.writeString(output, page, StandardCharsets.UTF_8);
            } catch (IOException | UncheckedIOException e) {
                throw new CliException("--output " + output + ": cannot write the file: " + e.getMessage(), e);
            }
        } else {
            PrintWriter out = spec.commandLine().getOut();
            out.print(page);
            out.flush();
        }
        return failed ? Main.FAILED : Main.OK;
    }
}
