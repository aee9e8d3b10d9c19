package dev.dmmodel.benchmarks;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.IoJob;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Shows that a job's memory does not grow with its length: runs sequential 1 MiB O_DIRECT write jobs
 * of 1 TiB and 10 TiB (by default) through the linear LV of {@link Stacks#linearHuge()} with
 * {@link TraceListener#NONE}, as {@link LongSequentialWriteMemory} does, and prints for each the heap in
 * use after a full GC
 * <ul>
 *   <li>before the run (layout and a fresh simulation built and reachable),</li>
 *   <li>during it (a sampler thread forces a GC every second, or every {@code --sample-seconds}; the
 *       smallest and largest of those samples), and</li>
 *   <li>after it (the simulation still reachable),</li>
 * </ul>
 * with the run time and writes per second. "Heap after GC" is the smallest of several
 * {@code System.gc()}-then-{@link Runtime} readings on the main thread; during the run, where the job
 * keeps allocating between the GC and the reading, it is read from the GC's own after-collection figures
 * ({@code com.sun.management.GcInfo}) when the JVM has them.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.dmmodel.benchmarks.MemoryCheck [TiB ...] [--sample-seconds N]
 * </pre>
 *
 * <p>Sizes are whole TiB (default {@code 1 10}); the jobs run in the order given, in one JVM, each on a
 * fresh simulation. Add {@code -Xmx64m} to the JVM to see the jobs fit a small heap.
 */
public final class MemoryCheck {
    private static final double MIB = 1024.0 * 1024.0;
    private static final int SAMPLES = 5;

    private MemoryCheck() {
    }

    /** Runs the jobs named on the command line (whole TiB; default 1 and 10) and prints the figures. */
    public static void main(String[] args) throws InterruptedException {
        List<Long> sizes = new ArrayList<>();
        long sampleMillis = 1_000;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--sample-seconds")) {
                sampleMillis = Math.round(Double.parseDouble(args[++i]) * 1000);
            } else {
                sizes.add(Long.parseLong(args[i]));
            }
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1L, 10L);
        }
        Runtime rt = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "MemoryCheck: sequential 1 MiB O_DIRECT writes to %s (12 TiB linear LV on a"
                        + " GPT partition of a 16 TiB scsi_debug disk), listener NONE%n", Stacks.LINEAR_LV);
        System.out.printf(Locale.ROOT, "JVM %s, max heap %.0f MiB, collectors %s%n",
                System.getProperty("java.version"), rt.maxMemory() / MIB,
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList());
        System.out.printf(Locale.ROOT, "%-7s %12s %10s %12s %14s %22s %13s %10s%n", "job", "writes", "time s",
                "writes/s", "heap before", "during min..max (n)", "heap after", "after-before");
        for (long tib : sizes) {
            runOne(tib, sampleMillis);
        }
    }

    private static void runOne(long tib, long sampleMillis) throws InterruptedException {
        Layout layout = Stacks.linearHuge();
        Simulation sim = Simulation.of(layout);
        IoJob job = LongSequentialWriteMemory.job(Bytes.tib(tib));
        long before = heapAfterGc();

        Sampler sampler = new Sampler(sampleMillis);
        Thread t = new Thread(sampler, "heap-sampler");
        t.setDaemon(true);
        t.start();
        long start = System.nanoTime();
        JobResult r = sim.run(job, TraceListener.NONE);
        long nanos = System.nanoTime() - start;
        sampler.stop();
        t.interrupt();
        t.join();

        long after = heapAfterGc();
        Reference.reachabilityFence(sim);
        Reference.reachabilityFence(layout);
        if (r.errors() != 0) {
            System.out.println(job + ": " + r.errors() + " errors, first: " + r.firstError());
        }
        double secs = nanos / 1e9;
        String during = sampler.count() == 0 ? "(none)" : String.format(Locale.ROOT, "%.1f..%.1f MiB (%d)",
                sampler.min() / MIB, sampler.max() / MIB, sampler.count());
        System.out.printf(Locale.ROOT, "%-7s %12d %10.1f %12.0f %10.1f MiB %22s %9.1f MiB %+6.1f MiB%n",
                tib + " TiB", r.operations(), secs, r.operations() / secs, before / MIB, during, after / MIB,
                (after - before) / MIB);
    }

    /** The smallest of several {@code System.gc()}-then-used-heap readings, in bytes. */
    static long heapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        long min = Long.MAX_VALUE;
        for (int i = 0; i < SAMPLES; i++) {
            System.gc();
            Thread.sleep(20);
            min = Math.min(min, rt.totalMemory() - rt.freeMemory());
        }
        return min;
    }

    /**
     * The heap in use just after the most recent collection, summed over the collector's pools, from
     * {@code com.sun.management.GcInfo}; -1 if this JVM does not report it.
     */
    static long lastGcUsedAfter() {
        long bestEnd = -1;
        long used = -1;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean sun) {
                com.sun.management.GcInfo info = sun.getLastGcInfo();
                if (info != null && info.getEndTime() > bestEnd) {
                    bestEnd = info.getEndTime();
                    long sum = 0;
                    for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
                        if (isHeapPool(e.getKey())) {
                            sum += e.getValue().getUsed();
                        }
                    }
                    used = sum;
                }
            }
        }
        return used;
    }

    private static boolean isHeapPool(String pool) {
        return ManagementFactory.getMemoryPoolMXBeans().stream()
                .anyMatch(p -> p.getName().equals(pool) && p.getType() == java.lang.management.MemoryType.HEAP);
    }

    /** Forces a GC every period while the job runs and keeps the heap in use after each. */
    private static final class Sampler implements Runnable {
        private final long periodMillis;
        private final List<Long> samples = new ArrayList<>();
        private volatile boolean running = true;

        Sampler(long periodMillis) {
            this.periodMillis = periodMillis;
        }

        void stop() {
            running = false;
        }

        @Override
        public void run() {
            while (running) {
                try {
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                }
                if (!running) {
                    return;
                }
                System.gc();
                long used = lastGcUsedAfter();
                if (used < 0) {
                    Runtime rt = Runtime.getRuntime();
                    used = rt.totalMemory() - rt.freeMemory();
                }
                synchronized (samples) {
                    samples.add(used);
                }
            }
        }

        long[] values() {
            synchronized (samples) {
                return samples.stream().mapToLong(Long::longValue).toArray();
            }
        }

        int count() {
            return values().length;
        }

        long min() {
            return Arrays.stream(values()).min().orElse(-1);
        }

        long max() {
            return Arrays.stream(values()).max().orElse(-1);
        }
    }
}
