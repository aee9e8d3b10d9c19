package dev.dmmodel.testkit.conformance;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * dm-thin's provisioning state against {@code dmsetup status} as the recorder took it after each thin case's
 * workload ({@code raw/pool-status.txt}): for every thin device its mapped sectors and highest mapped sector
 * ({@code thin_status}), for every pool its used/total data blocks and its transaction id ({@code pool_status};
 * an LVM pool starts at the transaction_id of the snapshot's {@code lvm/*.vg}). Metadata block counts are not
 * modelled and not compared. Cases whose trace is a known gap still take part:
 * their counts do not depend on where the allocator starts.
 */
class ThinStatusConformanceTest {
    private static final String WHAT = "thin status conformance cases";

    @TestFactory
    Stream<DynamicNode> statusAfterTheWorkloadAgreesWithTheRecording() {
        return SharedFolders.perCase(WHAT, "raw/pool-status.txt", (id, dir) -> dynamicTest(id,
                dir.resolve("raw/pool-status.txt").toUri(), () -> check(dir, dir.resolve("raw/pool-status.txt"))));
    }

    private static void check(Path dir, Path statusFile) throws IOException {
        TraceCase c = TraceCase.read(dir);
        Simulation sim = KernelConformance.simulate(c, c.snapshot().profile().orElseThrow(), TraceListener.NONE);
        Layout layout = sim.layout();
        List<ThinStats> stats = sim.thinStats();
        List<String> differences = new ArrayList<>();
        int compared = 0;
        for (String line : Files.readAllLines(statusFile)) {
            String[] w = line.strip().split("\\s+");
            if (w.length < 5 || !w[0].endsWith(":")) {
                continue;
            }
            String name = w[0].substring(0, w[0].length() - 1);
            Optional<BlockDevice> device = layout.find("/dev/mapper/" + name);
            if (w[3].equals("thin")) {
                String kname = device.orElseThrow(() -> new AssertionError(dir + ": recorded thin device " + name
                        + " is not in the modelled layout")).name();
                ThinStats s = stats.stream().filter(x -> x.thinDevice().equals(kname)).findFirst().orElseThrow();
                String recorded = w[4] + " " + (w.length > 5 ? w[5] : "");
                compared++;
                if (!s.dmsetupStatus().equals(recorded.strip())) {
                    differences.add(name + " (" + kname + ") thin status: recorded '" + recorded.strip() + "', model '"
                            + s.dmsetupStatus() + "'");
                }
            } else if (w[3].equals("thin-pool")) {
                String kname = device.orElseThrow(() -> new AssertionError(dir + ": recorded pool " + name
                        + " is not in the modelled layout")).name();
                Optional<ThinStats> s = stats.stream().filter(x -> x.poolDevice().equals(kname)).findFirst();
                if (s.isEmpty()) {
                    continue; // a pool without an active thin device: nothing modelled to compare
                }
                // the pool's transaction id comes from the snapshot's LVM metadata (0 for a pool made by dmsetup)
                String recorded = "transaction id " + w[4] + ", data " + w[6];
                String model = "transaction id " + s.get().poolTransactionId() + ", data " + s.get().poolUsedBlocks()
                        + "/" + s.get().poolTotalBlocks();
                compared++;
                if (!model.equals(recorded)) {
                    differences.add(name + " (" + kname + ") pool transaction id and used/total data blocks: recorded '"
                            + recorded + "', model '" + model + "'");
                }
            }
        }
        if (compared == 0) {
            throw new AssertionError(statusFile + " has no thin or thin-pool line to compare");
        }
        if (!differences.isEmpty()) {
            throw new AssertionError(dir.getFileName() + ": " + String.join("\n  ", differences));
        }
    }

}
