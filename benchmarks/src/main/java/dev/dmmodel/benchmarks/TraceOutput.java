package dev.dmmodel.benchmarks;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceFormat;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.workload.IoJob;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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

/**
 * The trace as {@code dmmodel trace} streams it: the engine's events formatted as CSV or JSON Lines and written,
 * UTF-8 encoded, through the same 64 KiB-buffered {@link PrintWriter} the command uses to stdout, here into a byte
 * sink that counts (the bytes a pipe would carry). Events per second of the whole path: the engine, the
 * {@link dev.dmmodel.trace.TraceEvent}s, the formatting and the encoding.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar TraceOutput -f 1 -wi 2 -i 3
 * </pre>
 *
 * <p>The piped command itself, for a 100 GiB workload in a 64 MiB heap (memory independent of the length):
 * {@code JAVA_OPTS=-Xmx64m bin/dmmodel trace --layout ... --workload 'dd ... bs=1M count=102400 oflag=direct' | wc -c}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@State(Scope.Thread)
public class TraceOutput {

    /** Writes per invocation. */
    public static final int OPS = 10_000;

    /** The output format. */
    @Param({"csv", "json"})
    public String format;

    /** The write pattern (as {@link BioEventThroughput}'s, on the linear stack). */
    @Param({"seq1m", "rand4k"})
    public String workload;

    private Layout layout;
    private IoJob job;
    private Simulation simulation;
    private CountingSink sink;
    private PrintWriter out;
    private TraceListener writer;

    /** A byte sink that only counts. */
    static final class CountingSink extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }

    /** Events and bytes per second, next to the primary score. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Counters {
        /** Events written. */
        public long events;
        /** Bytes written. */
        public long bytes;

        /** Zeroes the counters at the start of each iteration. */
        @Setup(Level.Iteration)
        public void clear() {
            events = 0;
            bytes = 0;
        }
    }

    /** The linear stack and the job. */
    @Setup(Level.Trial)
    public void buildLayout() {
        layout = Stacks.linear();
        job = BioEventThroughput.job(workload, Stacks.LINEAR_LV);
    }

    /** A fresh simulation and writer for each iteration. */
    @Setup(Level.Iteration)
    public void newSimulation() {
        simulation = Simulation.of(layout);
        sink = new CountingSink();
        out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8), 1 << 16),
                false);
        writer = (format.equals("json") ? TraceFormat.JSON : TraceFormat.CSV).writer(out);
    }

    /** Runs {@value #OPS} direct writes, every event written out. */
    @Benchmark
    public long streamed(Counters counters) {
        long[] n = new long[1];
        JobResult r = simulation.run(job, e -> {
            n[0]++;
            writer.onEvent(e);
        });
        if (r.errors() != 0) {
            throw new IllegalStateException(r.errors() + " errors");
        }
        out.flush();
        counters.events += n[0];
        long before = counters.bytes;
        counters.bytes = sink.bytes;
        return counters.bytes - before;
    }
}
