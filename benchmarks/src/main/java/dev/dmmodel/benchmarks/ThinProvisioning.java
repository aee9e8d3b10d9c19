package dev.dmmodel.benchmarks;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Provisioning a 1 PiB thin volume ({@link ThinProvisioningCheck#layout()}: a pool with 64 KiB blocks) by
 * sequential 1 MiB O_DIRECT writes: one single shot per {@code gib} of data written, scored in seconds. Every
 * write provisions 16 blocks through the pool's worker (a whole-block overwrite each, so no zeroing).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ThinProvisioning -prof gc -jvmArgsAppend -Xmx64m
 * </pre>
 *
 * <p>The fork runs in whatever heap is given; with {@code -Xmx64m} a mapping structure that grew with blocks
 * instead of runs would fail with an OutOfMemoryError long before 256 GiB (4 Mi blocks). {@link ThinProvisioningCheck}
 * prints the live heap before and after, which an allocation profiler does not show.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(1)
@State(Scope.Thread)
public class ThinProvisioning {

    /** GiB written by the job. */
    @Param({"64", "256"})
    public long gib;

    private Layout layout;
    private Simulation simulation;

    /** Builds the petabyte stack. */
    @Setup(Level.Trial)
    public void buildLayout() {
        layout = ThinProvisioningCheck.layout();
    }

    /** A fresh simulation (an empty pool) for the run. */
    @Setup(Level.Iteration)
    public void newSimulation() {
        simulation = Simulation.of(layout);
    }

    /** Sequential 1 MiB direct writes from the start of the thin device. */
    @Benchmark
    public ThinStats provision() {
        JobResult r = simulation.run(IoJob.builder().target("/dev/mapper/thin").sequential().write().direct()
                .blockSize(1 << 20).size(Bytes.gib(gib).count()).build(), TraceListener.NONE);
        if (r.errors() != 0) {
            throw new IllegalStateException(r.errors() + " errors, first: " + r.firstError());
        }
        ThinStats s = simulation.thinStats().get(0);
        long expected = Bytes.gib(gib).count() / 65536;
        if (s.blocksProvisioned() != expected) {
            throw new IllegalStateException("provisioned " + s.blocksProvisioned() + " blocks, expected " + expected);
        }
        return s;
    }
}
