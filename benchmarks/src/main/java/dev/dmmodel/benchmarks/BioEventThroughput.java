package dev.dmmodel.benchmarks;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.workload.IoJob;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * How many block events per second the engine produces for O_DIRECT writes, trace listener included.
 *
 * <p>What is measured: one invocation runs an fio-style {@link IoJob} of {@value #OPS} direct writes
 * ({@link Simulation#run(IoJob, dev.dmmodel.trace.TraceListener)}) with a {@link CountingListener}, so
 * the cost is the whole I/O path as the engine models it — splitting, remapping through each layer,
 * plugging, request merging, issue and completion, per-device accounting — plus building one
 * {@link dev.dmmodel.trace.TraceEvent} per event. The listener itself only counts and keeps the last
 * sector (handed to a {@link Blackhole}).
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code stack=linear}: partition → dm-linear → disk ({@link Stacks#linear()}: an LVM LV on an
 *       msdos partition at sector 2048 of a 64 GiB scsi_debug disk), target {@code /dev/vg/lv};</li>
 *   <li>{@code stack=striped}: dm-striped, 2 stripes × 64 KiB over two 64 GiB scsi_debug disks
 *       ({@link Stacks#striped()}), target {@code /dev/vg/striped};</li>
 *   <li>{@code stack=raid5}: an LV on md raid5 over four disks, 64 KiB chunks ({@link Stacks#raid5()}): writes go
 *       through the stripe cache (reads before partial-stripe writes, parity), target {@code /dev/vg/r5};</li>
 *   <li>{@code workload=rand4k}: 4 KiB writes in a seeded random order (seed 42), each 4 KiB block of the
 *       first {@value #OPS} × 4 KiB of the LV once;</li>
 *   <li>{@code workload=seq1m}: 1 MiB sequential writes over the first {@value #OPS} MiB of the LV.</li>
 * </ul>
 *
 * <p>Results: the primary score is invocations per second (each {@value #OPS} writes, so JMH prints
 * it as "ops/s"); the {@link Counters} state adds {@code directWrites:events} (block events per second —
 * the number to read) and {@code directWrites:writes} (writes per second). They are JMH {@link AuxCounters.Type#OPERATIONS} counters, which JMH
 * divides by the measured time; {@link AuxCounters.Type#EVENTS} counters would be printed as raw totals.
 *
 * <p>State: the layout is built once per trial. A fresh {@link Simulation} is created for every
 * iteration ({@code @Setup(Level.Iteration)}) and reused by all invocations of that iteration: direct
 * writes leave no page-cache state behind, so each invocation does the same work, and the cumulative
 * per-device counters the simulation keeps are fixed-size.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar BioEventThroughput -f 1 -wi 2 -i 3 -t 1}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@State(Scope.Thread)
public class BioEventThroughput {

    /** Writes per invocation. */
    public static final int OPS = 10_000;

    /** The stack under test. */
    @Param({"linear", "striped", "raid5"})
    public String stack;

    /** The write pattern. */
    @Param({"rand4k", "seq1m"})
    public String workload;

    private Layout layout;
    private IoJob job;
    private Simulation simulation;
    private final CountingListener listener = new CountingListener();

    /** Builds the layout and the job. */
    @Setup(Level.Trial)
    public void buildLayout() {
        String target;
        switch (stack) {
            case "linear":
                layout = Stacks.linear();
                target = Stacks.LINEAR_LV;
                break;
            case "striped":
                layout = Stacks.striped();
                target = Stacks.STRIPED_LV;
                break;
            case "raid5":
                layout = Stacks.raid5();
                target = Stacks.RAID5_LV;
                break;
            default:
                throw new IllegalArgumentException("stack must be linear, striped or raid5, not " + stack);
        }
        job = job(workload, target);
    }

    /** A fresh simulation for each iteration. */
    @Setup(Level.Iteration)
    public void newSimulation() {
        simulation = Simulation.of(layout);
    }

    /** The job of {@value #OPS} direct writes for a workload name. */
    static IoJob job(String workload, String target) {
        switch (workload) {
            case "rand4k":
                return IoJob.builder().target(target).write().direct().random(42).blockSize(4096)
                        .size(4096L * OPS).build();
            case "seq1m":
                return IoJob.builder().target(target).write().direct().sequential().blockSize(1 << 20)
                        .size((1L << 20) * OPS).build();
            default:
                throw new IllegalArgumentException("workload must be rand4k or seq1m, not " + workload);
        }
    }

    /**
     * Per-thread totals JMH prints next to the primary score, normalised to seconds: {@code events} is
     * block events per second, {@code writes} writes per second.
     */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Counters {
        /** Block events delivered to the listener. */
        public long events;
        /** Writes completed. */
        public long writes;

        /** Zeroes the counters at the start of each iteration. */
        @Setup(Level.Iteration)
        public void clear() {
            events = 0;
            writes = 0;
        }
    }

    /** Runs {@value #OPS} direct writes through the stack. */
    @Benchmark
    public long directWrites(Counters counters, Blackhole bh) {
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
}
