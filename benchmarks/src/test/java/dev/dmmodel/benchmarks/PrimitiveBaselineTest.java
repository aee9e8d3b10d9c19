package dev.dmmodel.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.IoJob;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link PrimitiveLoop} counts what the engine emits: for the same job on the same layout, the same number of events
 * per device and event type, run after run on the same simulation (a thin pool provisions in the first run and
 * remaps in the next). Besides {@link PrimitiveBaseline}'s four cases, layouts that take the loop's other rules:
 * a disk split (max_sectors_kb 128), kcopyd zeroing of 2 MiB thin blocks in 1024-sector sub-jobs under its plug
 * (merges, the plug flushed at 128 KiB), and 6.1, whose writer holds a plug (the thin clones of a 1 MiB write merge).
 */
class PrimitiveBaselineTest {
    private static final int OPS = 2_000;
    /** The engine's counts of the last run {@link #same} checked. */
    private static Map<String, Map<EventType, Long>> last;

    @Test
    void linearSeq1m() {
        same(Stacks.linear(), Stacks.LINEAR_LV, "seq1m", OPS, 2);
    }

    @Test
    void linearRand4k() {
        same(Stacks.linear(), Stacks.LINEAR_LV, "rand4k", OPS, 2);
    }

    @Test
    void thinSeq1m() {
        Map<String, Map<EventType, Long>> first = same(Stacks.thin(), Stacks.THIN, "seq1m", OPS, 2);
        // 16 blocks a write, each provisioned by the worker (whole-block overwrites: no zeroing)
        assertThat(first.get("sda").get(EventType.GETRQ)).isEqualTo(16L * OPS);
    }

    @Test
    void thinRand4k() {
        Map<String, Map<EventType, Long>> first = same(Stacks.thin(), Stacks.THIN, "rand4k", OPS, 2);
        // 2,000 × 4 KiB = 125 blocks of 64 KiB, each zeroed before its first write
        assertThat(first.get("sda").get(EventType.GETRQ)).isEqualTo(OPS + 125L);
    }

    @Test
    void aDiskSplitAtMaxSectors() {
        Layout layout = linear(KernelProfile.defaultProfile(), 128);
        Map<String, Map<EventType, Long>> first = same(layout, Stacks.LINEAR_LV, "seq1m", 200, 1);
        assertThat(first.get("sda").get(EventType.SPLIT)).isEqualTo(7L * 200);
    }

    @Test
    void kcopydZeroesLargeThinBlocksUnderItsPlug() {
        Map<String, Map<EventType, Long>> first = same(thin(KernelProfile.defaultProfile(), 4096), Stacks.THIN,
                "rand4k", OPS, 2);
        assertThat(first.get("sda")).containsKey(EventType.BIO_BACKMERGE);
    }

    @Test
    void aWritersPlugOn61() {
        KernelProfile p61 = profile("linux-6.1");
        same(thin(p61, 128), Stacks.THIN, "seq1m", 500, 2);
        // once provisioned, the 16 clones of a write remap at once, under the writer's plug: one request
        assertThat(last.get("sda").get(EventType.BIO_BACKMERGE)).isEqualTo(15L * 500);
        assertThat(last.get("sda").get(EventType.GETRQ)).isEqualTo(500L);
        same(thin(p61, 128), Stacks.THIN, "rand4k", OPS, 2);
        same(thin(p61, 4096), Stacks.THIN, "rand4k", OPS, 2);
        same(linear(p61, 0), Stacks.LINEAR_LV, "seq1m", 200, 1);
        same(linear(p61, 128), Stacks.LINEAR_LV, "seq1m", 200, 1);
        same(linear(p61, 0), Stacks.LINEAR_LV, "rand4k", OPS, 1);
    }

    @Test
    void theLoopWritesTheJobsBlocksInTheJobsOrder() {
        PrimitiveLoop loop = new PrimitiveLoop(Stacks.linear(), Stacks.LINEAR_LV);
        for (int ops : new int[] {OPS, BioEventThroughput.OPS, 3}) {
            for (String workload : new String[] {"rand4k", "seq1m"}) {
                IoJob job = job(workload, Stacks.LINEAR_LV, ops);
                loop.order(job.opCount(), job.pattern() == IoJob.Pattern.RANDOM, job.seed());
                long i = 0;
                for (Iterator<IoJob.IoOp> it = job.ops(); it.hasNext(); i++) {
                    assertThat(loop.block(i) * job.blockSize()).as(workload + " op " + i)
                            .isEqualTo(it.next().offsetBytes());
                }
                assertThat(i).isEqualTo(ops);
            }
        }
    }

    /** BioEventThroughput's job with {@code ops} writes. */
    private static IoJob job(String workload, String target, int ops) {
        IoJob full = BioEventThroughput.job(workload, target);
        return IoJob.builder().target(target).write().direct().pattern(full.pattern()).seed(full.seed())
                .blockSize(full.blockSize()).size(full.blockSize() * ops).build();
    }

    /**
     * Runs the job {@code runs} times on one simulation and one loop and checks every run's counts agree; returns
     * the first run's.
     */
    private static Map<String, Map<EventType, Long>> same(Layout layout, String target, String workload, int ops,
                                                         int runs) {
        IoJob job = job(workload, target, ops);
        Simulation sim = Simulation.of(layout);
        PrimitiveLoop loop = new PrimitiveLoop(layout, target);
        Map<String, Map<EventType, Long>> first = null;
        for (int run = 0; run < runs; run++) {
            Map<String, Map<EventType, Long>> engine = new LinkedHashMap<>();
            long[] total = new long[1];
            JobResult r = sim.run(job, e -> {
                engine.computeIfAbsent(e.device(), k -> new LinkedHashMap<>()).merge(e.type(), 1L, Long::sum);
                total[0]++;
            });
            assertThat(r.errors()).isZero();
            loop.resetCounts();
            long events = loop.run(job.opCount(), job.blockSize(), job.pattern() == IoJob.Pattern.RANDOM, job.seed());
            String what = layout.profile() + " " + target + " " + workload + " run " + run;
            assertThat(loop.errors()).as(what).isZero();
            assertThat(loop.counts()).as(what).isEqualTo(engine);
            assertThat(events).as(what).isEqualTo(total[0]).isEqualTo(loop.events());
            if (first == null) {
                first = engine;
            }
            last = engine;
        }
        return first;
    }

    private static KernelProfile profile(String name) {
        return KernelProfile.presets().stream().filter(p -> p.toString().equals(name)).findFirst().orElseThrow();
    }

    /** {@link Stacks#linear()} under {@code profile}, with sda's max_sectors_kb set unless 0. */
    private static Layout linear(KernelProfile profile, long maxSectorsKb) {
        LayoutBuilder b = Layout.builder(profile).disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)));
        if (maxSectorsKb != 0) {
            b.maxSectorsKb("sda", maxSectorsKb);
        }
        return b.partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(2048)))
                .pvcreate("sda1")
                .vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size(Bytes.gib(32)).build())
                .build();
    }

    /** {@link Stacks#thin()} under {@code profile} with pool blocks of {@code blockSectors}. */
    private static Layout thin(KernelProfile profile, long blockSectors) {
        return Layout.builder(profile)
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(1)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.ofBytes(Bytes.gib(64).count()), "sdb", "sda",
                        blockSectors, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.ofBytes(Bytes.gib(32).count()), "pool", 0))
                .build();
    }
}
