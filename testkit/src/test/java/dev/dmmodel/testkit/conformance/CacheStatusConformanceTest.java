package dev.dmmodel.testkit.conformance;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * dm-cache's and dm-writecache's {@code dmsetup status} against the recordings, byte for byte after the target
 * type: the status of the snapshot ({@code snapshot/dmsetup-status.txt}) against the model's just after import,
 * and the status the recorder took after the workload ({@code raw/dmsetup-status.txt}) against the model's after
 * the case's setup and workload ({@code cache_status}: used cache blocks, hits, misses, promotions;
 * {@code writecache_status}: free blocks, reads, read hits, writes, allocations). Cases of other families (their
 * status files have no cache line) are skipped. The known gap writecache-buf1M-at16M takes part: its counters do
 * not depend on when the metadata is committed.
 */
class CacheStatusConformanceTest {
    private static final String WHAT = "cache status conformance cases";

    /** The one recorded set with cache stacks. */
    private static final String FOLDER = "kernel-traces-6.12-stacks";

    @TestFactory
    Stream<DynamicNode> statusBeforeAndAfterTheWorkloadAgreesWithTheRecording() {
        Optional<Path> shared = SharedFolders.shared();
        if (shared.isEmpty()) {
            return Stream.of(SharedFolders.missingShared(WHAT));
        }
        Path root = shared.get().resolve(FOLDER);
        if (!Files.isDirectory(root)) {
            return Stream.of(SharedFolders.missingFolder(WHAT, FOLDER, root));
        }
        return SharedFolders.casesRun(FOLDER, root).stream()
                .filter(dir -> Files.isRegularFile(dir.resolve("raw/dmsetup-status.txt")))
                .map(dir -> dynamicTest(FOLDER + "/" + dir.getFileName(), dir.resolve("raw/dmsetup-status.txt").toUri(),
                        () -> check(dir)));
    }

    private static void check(Path dir) throws IOException {
        List<String[]> before = cacheLines(dir.resolve("snapshot/dmsetup-status.txt"));
        List<String[]> after = cacheLines(dir.resolve("raw/dmsetup-status.txt"));
        Assumptions.assumeFalse(after.isEmpty(), () -> dir.getFileName() + ": no cache or writecache status line");
        TraceCase c = TraceCase.read(dir);
        Simulation fresh = Simulation.of(Layout.of(c.snapshot().toLayoutSpec(c.snapshot().profile().orElseThrow())));
        List<String> differences = new ArrayList<>();
        compare("before the setup", before, fresh, differences);
        Simulation sim = KernelConformance.simulate(c, c.snapshot().profile().orElseThrow(), TraceListener.NONE);
        compare("after the workload", after, sim, differences);
        if (!differences.isEmpty()) {
            throw new AssertionError(dir.getFileName() + ": " + String.join("\n  ", differences));
        }
    }

    private static void compare(String when, List<String[]> lines, Simulation sim, List<String> differences) {
        Layout layout = sim.layout();
        for (String[] w : lines) {
            String name = w[0].substring(0, w[0].length() - 1);
            Optional<BlockDevice> device = layout.find("/dev/mapper/" + name);
            String kname = device.orElseThrow(() -> new AssertionError("recorded device " + name
                    + " is not in the modelled layout")).name();
            String recorded = String.join(" ", java.util.Arrays.asList(w).subList(4, w.length));
            String model = w[3].equals("cache")
                    ? sim.cacheStats().stream().filter(s -> s.device().equals(kname)).findFirst().orElseThrow().status()
                    : sim.writecacheStats().stream().filter(s -> s.device().equals(kname)).findFirst().orElseThrow()
                    .status();
            if (!model.strip().equals(recorded)) {
                differences.add(name + " (" + kname + ") " + when + ": recorded '" + recorded + "', model '"
                        + model.strip() + "'");
            }
        }
    }

    /** The status lines of cache and writecache targets, split in words. */
    private static List<String[]> cacheLines(Path file) throws IOException {
        List<String[]> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        for (String line : Files.readAllLines(file)) {
            String[] w = line.strip().split("\\s+");
            if (w.length > 4 && w[0].endsWith(":") && (w[3].equals("cache") || w[3].equals("writecache"))) {
                out.add(w);
            }
        }
        return out;
    }
}
