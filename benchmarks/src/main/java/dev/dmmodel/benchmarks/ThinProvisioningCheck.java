package dev.dmmodel.benchmarks;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.IoJob;
import java.util.Locale;

/**
 * Provisioning a huge thin volume by sequential 1 MiB direct writes with 64 KiB blocks: time per TiB and
 * the heap the pool's mappings take, which must follow the number of runs, not of blocks. A petabyte is
 * 2^34 blocks; one sequential writer maps them as one run.
 *
 * <p>Run: {@code java -Xmx64m -cp benchmarks/target/benchmarks.jar dev.dmmodel.benchmarks.ThinProvisioningCheck [TiB ...]}
 * (default 1 and 4 TiB). Prints, per size, the time, provisioned blocks, the pool's used blocks and the
 * heap after GC before and after.
 */
public final class ThinProvisioningCheck {
    private ThinProvisioningCheck() {
    }

    /** A 2 PiB disk, a thin pool with 64 KiB blocks over all of it (metadata on a small second disk), a 1 PiB thin device. */
    static Layout layout() {
        return Layout.builder()
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.tib(2048)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(16)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.ofBytes(Bytes.tib(2048).count()), "sdb", "sda", 128, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.ofBytes(Bytes.tib(1024).count()), "pool", 0))
                .build();
    }

    private static long usedHeap() {
        long best = Long.MAX_VALUE;
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 5; i++) {
            System.gc();
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }

    /** Runs the check. */
    public static void main(String[] args) {
        long[] sizes = args.length == 0 ? new long[] {1, 4} : java.util.Arrays.stream(args).mapToLong(Long::parseLong)
                .toArray();
        Layout layout = layout();
        System.out.println("thin provisioning: 1 MiB O_DIRECT writes, 64 KiB blocks, listener NONE, max heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        for (long tib : sizes) {
            Simulation sim = Simulation.of(layout, EngineOptions.DEFAULTS);
            long before = usedHeap();
            long t0 = System.nanoTime();
            JobResult r = sim.run(IoJob.builder().target("/dev/mapper/thin").sequential().write().direct()
                    .blockSize(1 << 20).size(Bytes.tib(tib).count()).build(), TraceListener.NONE);
            double secs = (System.nanoTime() - t0) / 1e9;
            ThinStats s = sim.thinStats().get(0);
            long after = usedHeap();
            System.out.printf(Locale.ROOT, "%4d TiB: %.1f s, %d writes, %d blocks provisioned, pool used %d, "
                            + "heap %.1f -> %.1f MiB, errors %d%n", tib, secs, r.operations(), s.blocksProvisioned(),
                    s.poolUsedBlocks(), before / 1048576.0, after / 1048576.0, r.errors());
        }
    }
}
