package dev.dmmodel.benchmarks;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.IoJob;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long one very long job takes, and (with a profiler) what it allocates: a sequential 1 MiB
 * O_DIRECT write job through partition → dm-linear → disk ({@link Stacks#linearHuge()}: a 12 TiB LV on a
 * GPT partition of a 16 TiB scsi_debug disk), events discarded ({@link TraceListener#NONE}).
 *
 * <ul>
 *   <li>{@link #tenTiB()}: 10 TiB, 10,485,760 writes — the long one;</li>
 *   <li>{@link #oneTiB()}: 1 TiB, 1,048,576 writes — the same job a tenth as long; the two times should
 *       be about 1 : 10 (the engine streams the job's operations and keeps no per-operation state).</li>
 * </ul>
 *
 * <p>Each is a single shot ({@link Mode#SingleShotTime}, 1 fork, no warm-up, 1 iteration): the score is
 * the wall time of the one run, in seconds, JIT warm-up included (a negligible part of a run this long).
 * A fresh {@link Simulation} is created before the run ({@code @Setup(Level.Iteration)}); the layout is
 * built once per trial.
 *
 * <p>Memory: run with JMH's GC profiler,
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar LongSequentialWriteMemory -prof gc
 * </pre>
 * which adds {@code gc.alloc.rate} (MB/s), {@code gc.alloc.rate.norm} (bytes allocated by the whole job,
 * since one operation is one job), {@code gc.count} and {@code gc.time}. Allocation grows with the job's
 * length by nature; what must not grow is the live heap, which a profiler of allocation does not show:
 * {@link MemoryCheck} measures the heap in use after GC before, during and after 1 TiB and 10 TiB jobs.
 * Giving the fork a small heap ({@code -jvmArgsAppend -Xmx64m}) is a quick check as well: a job whose
 * state grew with its length would fail there with an OutOfMemoryError.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(1)
@State(Scope.Thread)
public class LongSequentialWriteMemory {

    private Layout layout;
    private Simulation simulation;

    /** Builds the 16 TiB stack. */
    @Setup(Level.Trial)
    public void buildLayout() {
        layout = Stacks.linearHuge();
    }

    /** A fresh simulation for the run. */
    @Setup(Level.Iteration)
    public void newSimulation() {
        simulation = Simulation.of(layout);
    }

    /** A sequential 1 MiB direct write job of {@code size} on the linear LV. */
    static IoJob job(Bytes size) {
        return IoJob.builder().target(Stacks.LINEAR_LV).write().direct().sequential().blockSize(1 << 20)
                .size(size.count()).build();
    }

    /** 10 TiB of sequential 1 MiB direct writes. */
    @Benchmark
    public JobResult tenTiB() {
        return run(job(Bytes.tib(10)));
    }

    /** 1 TiB of sequential 1 MiB direct writes. */
    @Benchmark
    public JobResult oneTiB() {
        return run(job(Bytes.tib(1)));
    }

    private JobResult run(IoJob job) {
        JobResult r = simulation.run(job, TraceListener.NONE);
        if (r.errors() != 0) {
            throw new IllegalStateException(job + ": " + r.errors() + " errors, first: " + r.firstError());
        }
        return r;
    }
}
