package dev.dmmodel.benchmarks;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Importing a large host's snapshot ({@link LargeHosts}: {@code lvs} LVs, half of them thin, on {@code lvs / 10}
 * SCSI disks), in its phases: {@link #readAndSpec} reads and validates the directory and turns it into layout
 * steps ({@code HostSnapshot.read(dir).toLayoutSpec()}), {@link #build} replays the steps ({@code Layout.of}, which
 * computes every device's queue limits), {@link #findings} validates the layout, and {@link #total} does all three
 * as {@code dmmodel check --snapshot DIR} does. The snapshot is written once per trial into a temporary directory
 * (deleted after); the files are in the page cache when measured.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar LargeHostImport                       # warmed: ms per operation
 * java -jar benchmarks/target/benchmarks.jar LargeHostImport -bm ss -wi 0 -i 1 -f 5  # cold: a new JVM's first import
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LargeHostImport {

    /** The snapshot on disk and the steps read from it, once per trial. */
    @State(Scope.Benchmark)
    public static class Host {
        /** Linear and thin LVs; disks are a tenth. */
        @Param({"100", "1000", "10000"})
        public int lvs;

        /** Whether the dm devices have their {@code queue/} files (a collected snapshot has them). */
        @Param({"true"})
        public boolean dmQueueFiles;

        Path dir;
        LayoutSpec spec;

        /** Writes the snapshot and reads it once (the spec {@link #build} replays). */
        @Setup(Level.Trial)
        public void write() throws IOException {
            Path root = Files.createTempDirectory("dmmodel-largehost-");
            dir = root.resolve("snapshot");
            LargeHosts.Shape s = LargeHosts.Shape.ofLvs(lvs);
            LargeHosts.write(dir, new LargeHosts.Shape(s.disks(), s.lvs(), s.vgs(), dmQueueFiles));
            spec = HostSnapshot.read(dir).toLayoutSpec();
        }

        /** Deletes the snapshot. */
        @TearDown(Level.Trial)
        public void delete() {
            LargeHosts.delete(dir.getParent());
        }
    }

    /** A layout whose findings were never asked for (they are computed once per layout). */
    @State(Scope.Thread)
    public static class FreshLayout {
        Layout layout;

        /** Builds it again before each call of {@link #findings}. */
        @Setup(Level.Invocation)
        public void build(Host host) {
            layout = Layout.of(host.spec);
        }
    }

    /** Phase (a): read and validate the directory, and the layout steps. */
    @Benchmark
    public LayoutSpec readAndSpec(Host host) {
        return HostSnapshot.read(host.dir).toLayoutSpec();
    }

    /** Phase (b): replay the steps, computing every device's limits. */
    @Benchmark
    public Layout build(Host host) {
        return Layout.of(host.spec);
    }

    /** Phase (c): every finding of the built layout. */
    @Benchmark
    public List<Finding> findings(FreshLayout fresh) {
        return fresh.layout.findings();
    }

    /** All three, from the directory to the findings. */
    @Benchmark
    public List<Finding> total(Host host) {
        return Layout.of(HostSnapshot.read(host.dir).toLayoutSpec()).findings();
    }
}
