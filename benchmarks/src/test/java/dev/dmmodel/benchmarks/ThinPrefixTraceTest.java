package dev.dmmodel.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.trace.TraceFormat;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.IoJob;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Speed work on the thin path must not change a single event: the first GiB of sequential 1 MiB direct writes to
 * the petabyte thin device ({@link ThinProvisioningCheck#layout()}), event for event as CSV lines, hashes to what the
 * engine before the speed work (commit d086af9, Guava range maps in the pool metadata) gave. The pinned numbers
 * were produced by running this same test on that commit.
 */
class ThinPrefixTraceTest {

    /** Events of the first GiB, and the FNV-1a 64 hash of their CSV lines, from commit d086af9. */
    private static final long EVENTS = 164_864L;
    private static final long HASH = 0xbb2650bbb6ec8250L;

    @Test
    void theFirstGibIsEventForEventTheEngineBeforeTheSpeedWork() {
        Simulation sim = Simulation.of(ThinProvisioningCheck.layout());
        long[] n = {0};
        long[] h = {0xcbf29ce484222325L};
        JobResult r = sim.run(IoJob.builder().target("/dev/mapper/thin").sequential().write().direct()
                .blockSize(1 << 20).size(Bytes.gib(1).count()).build(), e -> {
                    n[0]++;
                    for (byte b : (TraceFormat.CSV.format(e) + "\n").getBytes(StandardCharsets.UTF_8)) {
                        h[0] ^= b & 0xff;
                        h[0] *= 0x100000001b3L;
                    }
                });
        assertThat(r.errors()).isZero();
        assertThat(n[0] + " events, hash " + Long.toHexString(h[0]))
                .isEqualTo(EVENTS + " events, hash " + Long.toHexString(HASH));
    }
}
