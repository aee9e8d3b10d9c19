package dev.dmmodel.impl.engine.property;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: through dm-thin, a read returns the data of the last write</b> — model data identity, not
 * bytes. Random direct writes, whole-block discards and snapshots go to four thin devices of one pool; the test
 * follows the data through the pool device only by what the trace shows there and checks every read against a
 * reference that knows nothing of dm-thin's metadata.
 *
 * <p>Data carries a token per sector: a write stamps {@code (operation, virtual sector)} on each of its
 * sectors. The reference keeps, per thin device, the token each virtual sector should read back; a snapshot
 * copies its origin's tokens, a discard turns the whole blocks it covers into zeroes. The observed side keeps
 * the token on each sector of the pool device, updated from the trace in order: a {@code block_bio_remap} onto
 * the pool from {@code thinN:sector} stamps (writes) or is checked (reads); a pool bio without a remap is
 * kcopyd's: a read followed by a write of the same length is a copy ({@code break_sharing}), a lone write is
 * zeroing ({@code schedule_zero}). The pool starts full of garbage, so a missing zeroing shows up as garbage
 * read back; a read sector the trace never takes to the pool must be one the reference says reads zeroes
 * ({@code provision_block}: unprovisioned reads are zero-filled). With {@code skip_block_zeroing} the never
 * written rest of a provisioned block is allowed to read anything, as the kernel documents.
 */
class ThinDataIdentityTest {
    private static final long ZERO = 0;
    private static final long GARBAGE = -1;
    private static final int THINS = 4;
    private static final long BASE_SEED = 0x7A1D_0DA7_A1DE_2026L;

    @Test
    void aReadReturnsTheDataOfTheLastWrite() {
        int tries = Math.max(50, PropertyRunner.tries() / 5);
        long sharedReads = 0;
        long zeroedChecks = 0;
        long copies = 0;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < tries; i++) {
            long seed = PropertyRunner.mix64(BASE_SEED + i * 0x9E37_79B9_7F4A_7C15L);
            try {
                long[] c = runCase(seed);
                sharedReads += c[0];
                zeroedChecks += c[1];
                copies += c[2];
            } catch (AssertionError e) {
                if (failures.size() < 5) {
                    failures.add("seed 0x" + Long.toHexString(seed) + ": " + e.getMessage());
                } else {
                    failures.add("...");
                }
            }
        }
        assertThat(failures).as("failing cases (%d of %d)", failures.size(), tries)
                .isEqualTo(List.of());
        // the generator reaches what the property is about
        assertThat(sharedReads).as("reads of blocks shared with a snapshot").isPositive();
        assertThat(copies).as("kcopyd copies of shared blocks").isPositive();
        assertThat(zeroedChecks).as("sectors checked to read back zeroes").isPositive();
    }

    @Test
    void theReferenceCatchesAMissingZeroing() {
        // the check is not vacuous: with skip_block_zeroing the rest of a partially written block is garbage,
        // which the strict check (as if zeroing were on) rejects
        World w = new World(128, false);
        w.write(0, 0, 8);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> w.readStrict(0, 0, 128)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("garbage");
    }

    /** One generated case; returns {shared reads, sectors checked zero, copies}. */
    private static long[] runCase(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long bs = new long[] {128, 256, 1024, 2048}[r.nextInt(4)];
        boolean zeroing = r.nextInt(4) != 0;
        World w = new World(bs, zeroing);
        int ops = 10 + r.nextInt(30);
        for (int k = 0; k < ops; k++) {
            int kind = r.nextInt(10);
            int dev = w.pickUsedOrFirst(r);
            if (kind < 5) {
                long[] range = range(r, w.virtualSectors, bs);
                w.write(dev, range[0], range[1]);
            } else if (kind < 7) {
                long[] range = range(r, w.virtualSectors, bs);
                w.read(dev, range[0], range[1]);
            } else if (kind < 8) {
                long[] range = range(r, w.virtualSectors, bs);
                w.discard(dev, range[0], range[1]);
            } else {
                int target = w.unused();
                if (target >= 0 && w.used.get(dev)) {
                    w.snapshot(target, dev);
                }
            }
        }
        for (int d = 0; d < THINS; d++) {
            w.read(d, 0, w.virtualSectors);
        }
        return new long[] {w.sharedReads, w.zeroChecks, w.copies};
    }

    /** A start and length in sectors: whole blocks about a third of the time, otherwise any sectors. */
    private static long[] range(SplittableRandom r, long virtual, long bs) {
        if (r.nextInt(3) == 0) {
            long blocks = 1 + r.nextInt(3);
            long start = r.nextLong(virtual / bs - blocks + 1) * bs;
            return new long[] {start, blocks * bs};
        }
        long len = 1 + r.nextLong(3 * bs);
        long start = r.nextLong(virtual - len + 1);
        return new long[] {start, len};
    }

    /** The simulated host, the reference and the observed pool contents. */
    private static final class World {
        final long bs;
        final boolean zeroing;
        final long virtualSectors;
        final Simulation sim;
        final long[][] expected = new long[THINS][];
        final long[] pool;
        final BitSet used = new BitSet();
        final String poolName;
        final List<String> thinNames = new ArrayList<>();
        int opIndex;
        long sharedReads;
        long zeroChecks;
        long copies;

        World(long bs, boolean zeroing) {
            this.bs = bs;
            this.zeroing = zeroing;
            long blocksPerThin = 24;
            this.virtualSectors = blocksPerThin * bs;
            long dataBlocks = THINS * blocksPerThin + 4;
            this.pool = new long[Math.toIntExact(dataBlocks * bs)];
            Arrays.fill(pool, GARBAGE);
            for (int d = 0; d < THINS; d++) {
                expected[d] = new long[Math.toIntExact(virtualSectors)];
            }
            ThinPoolFeature[] features = zeroing ? new ThinPoolFeature[0]
                    : new ThinPoolFeature[] {ThinPoolFeature.SKIP_BLOCK_ZEROING};
            var b = Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("sdb", DiskPresets.qemuAhci().size(Bytes.gib(2)))
                    .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sdb", Sectors.ZERO))
                    .dmsetupCreate("tdata", t -> t.linear(Sectors.of(dataBlocks * bs), "sdb", Sectors.of(8192)))
                    .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(dataBlocks * bs), "tmeta", "tdata", bs, 0,
                            features));
            for (int d = 0; d < THINS; d++) {
                int id = d;
                b = b.dmsetupCreate("thin" + d, t -> t.thin(Sectors.of(virtualSectors), "pool", id));
            }
            this.sim = Simulation.of(b.build());
            this.poolName = sim.layout().device("/dev/mapper/pool").name();
            for (int d = 0; d < THINS; d++) {
                thinNames.add(sim.layout().device("/dev/mapper/thin" + d).name());
            }
        }

        int pickUsedOrFirst(SplittableRandom r) {
            if (used.isEmpty()) {
                return 0;
            }
            int n = r.nextInt(used.cardinality());
            int d = used.nextSetBit(0);
            for (int i = 0; i < n; i++) {
                d = used.nextSetBit(d + 1);
            }
            return d;
        }

        int unused() {
            int d = used.nextClearBit(0);
            return d < THINS ? d : -1;
        }

        long token(long sector) {
            return ((long) opIndex << 32) | (sector + 1);
        }

        void write(int dev, long start, long len) {
            opIndex++;
            used.set(dev);
            exec("dd if=/dev/zero of=/dev/mapper/thin" + dev + " bs=" + len * 512 + " count=1 seek=" + start * 512
                    + " oflag=direct,seek_bytes", dev, start, len, false);
            for (long s = start; s < start + len; s++) {
                expected[dev][(int) s] = token(s);
            }
        }

        void read(int dev, long start, long len) {
            opIndex++;
            exec("dd if=/dev/mapper/thin" + dev + " of=/dev/null bs=" + len * 512 + " count=1 skip=" + start * 512
                    + " iflag=direct,skip_bytes", dev, start, len, false);
        }

        /** A read checked as if the pool zeroed new blocks (for the self-test). */
        void readStrict(int dev, long start, long len) {
            opIndex++;
            exec("dd if=/dev/mapper/thin" + dev + " of=/dev/null bs=" + len * 512 + " count=1 skip=" + start * 512
                    + " iflag=direct,skip_bytes", dev, start, len, true);
        }

        void discard(int dev, long start, long len) {
            opIndex++;
            exec("blkdiscard -o " + start * 512 + " -l " + len * 512 + " /dev/mapper/thin" + dev, dev, start, len,
                    false);
            // dm-thin unmaps the whole blocks inside the range; they read back zeroes
            long first = (start + bs - 1) / bs;
            long end = (start + len) / bs;
            for (long blk = first; blk < end; blk++) {
                Arrays.fill(expected[dev], (int) (blk * bs), (int) ((blk + 1) * bs), ZERO);
            }
        }

        void snapshot(int target, int origin) {
            opIndex++;
            used.set(target);
            exec("dmsetup message /dev/mapper/pool 0 \"create_snap " + target + " " + origin + "\"", target, 0, 0,
                    false);
            expected[target] = expected[origin].clone();
        }

        private void exec(String line, int dev, long start, long len, boolean strict) {
            List<TraceEvent> events = new ArrayList<>();
            Command c = Script.parse(line).commands().get(0);
            CommandResult result = sim.execute(c, events::add);
            if (!result.ok()) {
                throw new AssertionError(line + " failed: " + result.message());
            }
            follow(line, events, dev, start, len, strict);
        }

        /** Replays the pool device's part of the trace onto the observed contents, checking reads. */
        private void follow(String line, List<TraceEvent> events, int dev, long start, long len, boolean strict) {
            Map<String, Integer> pendingRemaps = new HashMap<>();
            Deque<TraceEvent> kcopydReads = new ArrayDeque<>();
            BitSet readCovered = new BitSet();
            for (TraceEvent e : events) {
                if (!e.device().equals(poolName) || e.nrSectors() <= 0) {
                    continue;
                }
                char op = CaseRun.opOf(e.rwbs());
                String key = op + "@" + e.sector() + "+" + e.nrSectors();
                if (e.type() == EventType.BIO_REMAP) {
                    String from = e.extra().replaceFirst("^from=", "");
                    int colon = from.lastIndexOf(':');
                    int thin = thinIndex(from.substring(0, colon));
                    long vs = Long.parseLong(from.substring(colon + 1));
                    pendingRemaps.merge(key, 1, Integer::sum);
                    for (long i = 0; i < e.nrSectors(); i++) {
                        int p = (int) (e.sector() + i);
                        int v = (int) (vs + i);
                        if (op == 'W') {
                            pool[p] = token(vs + i);
                        } else if (op == 'R') {
                            readCovered.set(v);
                            check(line, thin, v, p, strict);
                        }
                    }
                    continue;
                }
                if (e.type() != EventType.BIO_QUEUE) {
                    continue;
                }
                Integer n = pendingRemaps.get(key);
                if (n != null) {
                    if (n == 1) {
                        pendingRemaps.remove(key);
                    } else {
                        pendingRemaps.put(key, n - 1);
                    }
                    continue;
                }
                // a pool bio nobody remapped: kcopyd's
                if (op == 'R') {
                    kcopydReads.add(e);
                } else if (op == 'W') {
                    TraceEvent src = kcopydReads.poll();
                    if (src != null) {
                        if (src.nrSectors() != e.nrSectors()) {
                            throw new AssertionError(line + ": kcopyd read " + src + " and write " + e
                                    + " differ in length");
                        }
                        copies++;
                        System.arraycopy(pool, (int) src.sector(), pool, (int) e.sector(), (int) e.nrSectors());
                    } else {
                        Arrays.fill(pool, (int) e.sector(), (int) (e.sector() + e.nrSectors()), ZERO);
                    }
                }
            }
            if (!kcopydReads.isEmpty()) {
                throw new AssertionError(line + ": kcopyd reads without a write: " + kcopydReads);
            }
            if (line.startsWith("dd if=/dev/mapper/")) {
                for (long v = start; v < start + len; v++) {
                    if (!readCovered.get((int) v)) {
                        zeroChecks++;
                        if (expected[dev][(int) v] != ZERO) {
                            throw new AssertionError(line + ": thin" + dev + " sector " + v + " was read as zeroes "
                                    + "without I/O below, but its last write was " + describe(expected[dev][(int) v]));
                        }
                    }
                }
            }
        }

        private void check(String line, int thin, int v, int p, boolean strict) {
            long want = expected[thin][v];
            long got = pool[p];
            if (want == ZERO && !zeroing && !strict) {
                return; // skip_block_zeroing: the unwritten rest of a block is whatever was there
            }
            if (want != ZERO) {
                for (int d = 0; d < THINS; d++) {
                    if (d != thin && expected[d][v] == want) {
                        sharedReads++;
                        break;
                    }
                }
            } else {
                zeroChecks++;
            }
            if (got != want) {
                throw new AssertionError(line + ": thin" + thin + " sector " + v + " (pool sector " + p + ") reads "
                        + describe(got) + ", but it should read " + (want == ZERO ? "zeroes (never written, or discarded)"
                        : describe(want)));
            }
        }

        private static String describe(long token) {
            if (token == ZERO) {
                return "zeroes";
            }
            if (token == GARBAGE) {
                return "garbage (never written, never zeroed)";
            }
            return "operation " + (token >>> 32) + "'s data for sector " + ((token & 0xFFFF_FFFFL) - 1);
        }

        private int thinIndex(String device) {
            int i = thinNames.indexOf(device);
            if (i < 0) {
                throw new AssertionError("a remap onto the pool from " + device + ", which is no thin device");
            }
            return i;
        }
    }
}
