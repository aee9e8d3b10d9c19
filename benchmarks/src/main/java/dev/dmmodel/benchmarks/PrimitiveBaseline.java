package dev.dmmodel.benchmarks;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.workload.IoJob;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The engine against a hand-written loop doing the same work ({@link PrimitiveLoop}), in the same run: block events
 * per second of each, for the same stacks and workloads.
 *
 * <p>{@code engine} is {@link BioEventThroughput#directWrites}: {@value BioEventThroughput#OPS} O_DIRECT writes through
 * {@link Simulation#run(IoJob, dev.dmmodel.trace.TraceListener)} with a {@link CountingListener}. {@code primitive}
 * is {@link PrimitiveLoop#run} for the same writes (same offsets, same seed), counting the events it would have
 * emitted per device and type on plain arrays; {@code PrimitiveBaselineTest} checks that the two count the same. Both
 * report {@code :events} (block events per second) and {@code :writes}; both start each iteration with an empty thin
 * pool (a fresh simulation), so in each iteration the first invocation provisions and the rest remap.
 *
 * <p>Parameters: {@code stack} = {@code linear} ({@link Stacks#linear()}, partition → dm-linear → disk) or
 * {@code thin} ({@link Stacks#thin()}, thin → pool → disk, 64 KiB blocks); {@code workload} = {@code rand4k} or
 * {@code seq1m} as in {@link BioEventThroughput}.
 *
 * <p>Run with the ratio table printed at the end: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.dmmodel.benchmarks.PrimitiveBaseline -f 1 -wi 2 -i 3 -t 1} (any JMH options); or as a plain JMH benchmark:
 * {@code java -jar benchmarks/target/benchmarks.jar PrimitiveBaseline -f 1 -wi 2 -i 3 -t 1}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@State(Scope.Thread)
public class PrimitiveBaseline {

    /** The stack under test. */
    @Param({"linear", "thin"})
    public String stack;

    /** The write pattern. */
    @Param({"rand4k", "seq1m"})
    public String workload;

    private Layout layout;
    private String target;
    private IoJob job;
    private Simulation simulation;
    private PrimitiveLoop loop;
    private final CountingListener listener = new CountingListener();

    /** The layout and target of a stack name. */
    static Layout layout(String stack) {
        return switch (stack) {
            case "linear" -> Stacks.linear();
            case "thin" -> Stacks.thin();
            default -> throw new IllegalArgumentException("stack must be linear or thin, not " + stack);
        };
    }

    /** The device written to in {@link #layout(String)}. */
    static String target(String stack) {
        return stack.equals("thin") ? Stacks.THIN : Stacks.LINEAR_LV;
    }

    /** Builds the layout, the job and the loop. */
    @Setup(Level.Trial)
    public void build() {
        layout = layout(stack);
        target = target(stack);
        job = BioEventThroughput.job(workload, target);
        loop = new PrimitiveLoop(layout, target);
    }

    /** A fresh simulation and an empty pool for the loop, each iteration. */
    @Setup(Level.Iteration)
    public void fresh() {
        simulation = Simulation.of(layout);
        loop.emptyPool();
    }

    /** The engine: {@value BioEventThroughput#OPS} direct writes, every event built and delivered. */
    @Benchmark
    public long engine(BioEventThroughput.Counters counters, Blackhole bh) {
        listener.reset();
        JobResult r = simulation.run(job, listener);
        if (r.errors() != 0) {
            throw new IllegalStateException(job + ": " + r.errors() + " errors, first: " + r.firstError());
        }
        counters.events += listener.events();
        counters.writes += r.operations();
        bh.consume(listener.lastSector());
        return r.bytes();
    }

    /** The loop: the same writes, the same rules, the events counted. */
    @Benchmark
    public long primitive(BioEventThroughput.Counters counters, Blackhole bh) {
        long events = loop.run(job.opCount(), job.blockSize(), job.pattern() == IoJob.Pattern.RANDOM, job.seed());
        if (loop.errors() != 0) {
            throw new IllegalStateException(job + ": " + loop.errors() + " errors");
        }
        counters.events += events;
        counters.writes += job.opCount();
        bh.consume(events);
        return events;
    }

    /**
     * Runs the benchmark with the JMH options given (e.g. {@code -f 1 -wi 2 -i 3 -t 1}, {@code -p stack=thin}) and
     * prints a Markdown table: per stack and workload, the engine's and the loop's events/s and their ratio.
     */
    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        CommandLineOptions cli = new CommandLineOptions(args);
        Collection<RunResult> results = new Runner(new OptionsBuilder().parent(cli)
                .include(PrimitiveBaseline.class.getName() + "\\.").build()).run();
        // stack, workload -> {engine, engine error, primitive, primitive error}
        Map<String, double[]> rows = new TreeMap<>();
        for (RunResult rr : results) {
            var params = rr.getParams();
            String key = params.getParam("stack") + ", " + params.getParam("workload");
            boolean engine = params.getBenchmark().endsWith(".engine");
            Result events = null;
            for (Map.Entry<String, Result> e : rr.getSecondaryResults().entrySet()) {
                if (e.getKey().endsWith("events")) {
                    events = e.getValue();
                }
            }
            if (events == null) {
                continue;
            }
            double[] row = rows.computeIfAbsent(key, k -> new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
            row[engine ? 0 : 2] = events.getScore();
            row[engine ? 1 : 3] = events.getScoreError();
        }
        List<String> lines = new ArrayList<>();
        lines.add("| stack, workload | engine events/s | primitive events/s | engine / primitive |");
        lines.add("|---|---|---|---|");
        for (Map.Entry<String, double[]> e : rows.entrySet()) {
            double[] r = e.getValue();
            lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %.1f %% |", e.getKey(), millions(r[0], r[1]),
                    millions(r[2], r[3]), 100 * r[0] / r[2]));
        }
        System.out.println();
        lines.forEach(System.out::println);
    }

    private static String millions(double score, double error) {
        if (Double.isNaN(score)) {
            return "–";
        }
        return Double.isNaN(error) ? String.format(Locale.ROOT, "%.1f M", score / 1e6)
                : String.format(Locale.ROOT, "%.1f M ± %.1f", score / 1e6, error / 1e6);
    }
}
