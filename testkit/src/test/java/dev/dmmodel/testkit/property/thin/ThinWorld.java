package dev.dmmodel.testkit.property.thin;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Command;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A {@link ThinCase} run on a {@link Simulation}, followed through its trace and checked against references
 * that know nothing of dm-thin's metadata: what each thin device should read back, which pool block each of
 * its blocks should map to, and how many sectors each device should pass on.
 *
 * <p>What the engine did is read from the trace only, in order. A {@code block_bio_remap} onto the pool from
 * {@code thinN:sector} is a thin bio going to its data block: a write stamps its data there, a read reads it.
 * A pool bio without a remap is kcopyd's: a read followed by a write of the same length is a copy
 * ({@code break_sharing}), a lone write is zeroing ({@code schedule_zero}). The pool starts full of garbage.
 *
 * <p>The references follow the commands: a write makes its sectors hold that write's data; a discard unmaps the
 * whole blocks inside its range ({@code process_discard_cell_passdown}: partial blocks stay mapped), which then
 * read back zeroes; {@code create_snap NEW ORIGIN} gives NEW its origin's data and block mappings
 * ({@code dm_pool_create_snap}: every block shared); {@code delete ID} drops ID's mappings
 * ({@code dm_pool_delete_thin_device}). A block's reference count is, by definition, the number of (device,
 * block) mappings to it.
 */
final class ThinWorld {

    /** What to check. */
    enum Check {
        /** A read returns the data of the last write (or zeroes). */
        IDENTITY,
        /**
         * Block mappings and reference counts: a write to an unshared mapped block goes to that block, a
         * write to a shared or unmapped one to a block no device maps (never a block still referenced: no
         * double allocation, no block freed early), a read to the block mapped; each thin device's mapped
         * sectors and highest mapped sector and the pool's used blocks ({@link ThinStats}) equal the
         * reference's (no block leaked).
         */
        MAPPINGS,
        /** Sectors each device receives equal the sectors it passes on, per direction, plus thin's own I/O. */
        CONSERVATION
    }

    static final long ZERO = 0;
    static final long GARBAGE = -1;

    private final ThinCase c;
    private final Set<Check> checks;
    private final Simulation sim;
    private final Layout layout;
    private final String poolName;
    private final List<String> thinNames = new ArrayList<>();
    private final long bs;
    private boolean zeroing;
    private final long virtual;
    /** Per thin device id: the token each sector should read back. */
    private final Map<Long, long[]> expected = new TreeMap<>();
    /** Per thin device id: the pool block each of its blocks maps to, -1 if none. */
    private final Map<Long, long[]> mapping = new TreeMap<>();
    /** The token on each sector of the pool device. */
    private final long[] pool;
    private int opIndex;
    private String line = "";
    final Map<String, Long> coverage = new TreeMap<>();

    ThinWorld(ThinCase c, Set<Check> checks) {
        this.c = c;
        this.checks = EnumSet.copyOf(checks);
        this.layout = c.layout();
        this.sim = Simulation.of(layout);
        DmDevice poolDev = layout.dmDevices().stream()
                .filter(d -> d.table().targets().get(0) instanceof ThinPoolTarget).findFirst().orElseThrow();
        ThinPoolTarget pt = (ThinPoolTarget) poolDev.table().targets().get(0);
        this.poolName = poolDev.name();
        this.bs = pt.blockSectors();
        this.zeroing = pt.zeroNewBlocks();
        this.pool = new long[Math.toIntExact(pt.length().count())];
        Arrays.fill(pool, GARBAGE);
        long v = Long.MAX_VALUE;
        for (DmDevice d : layout.dmDevices()) {
            if (d.table().targets().get(0) instanceof ThinTarget t) {
                int id = Math.toIntExact(t.deviceId());
                while (thinNames.size() <= id) {
                    thinNames.add(null);
                }
                thinNames.set(id, d.name());
                v = Math.min(v, d.size().count());
            }
        }
        this.virtual = v;
        for (long id = 0; id < thinNames.size(); id++) {
            expected.put(id, new long[Math.toIntExact(virtual)]);
            mapping.put(id, blankMapping());
        }
    }

    private long[] blankMapping() {
        long[] m = new long[Math.toIntExact(virtual / bs)];
        Arrays.fill(m, -1);
        return m;
    }

    /**
     * Checks reads as if the pool zeroed new blocks even when it does not ({@code skip_block_zeroing}): for the
     * test that shows the identity check is not vacuous.
     */
    ThinWorld assumingZeroing() {
        zeroing = true;
        return this;
    }

    /** Runs every command, checking each; throws {@link AssertionError} at the first violation. */
    ThinWorld run() {
        for (Command cmd : c.script().commands()) {
            step(cmd);
        }
        return this;
    }

    private void step(Command cmd) {
        opIndex++;
        line = cmd.line();
        List<ThinStats> before = sim.thinStats();
        List<TraceEvent> events = new ArrayList<>();
        CommandResult result = sim.execute(cmd, events::add);
        if (!result.ok()) {
            throw new AssertionError("a valid command failed: " + line + "\n  " + result.message());
        }
        if (cmd instanceof Command.Dd dd && dd.input().equals("/dev/zero")) {
            int dev = thinIndex(dd.output());
            long start = dd.seekBytes() / 512;
            long len = dd.outputBlockSize() / 512;
            follow(events, before, dev, start, len, false);
            for (long s = start; s < start + len; s++) {
                expected.get((long) dev)[(int) s] = token(s);
            }
            note("write");
        } else if (cmd instanceof Command.Dd dd) {
            int dev = thinIndex(dd.input());
            follow(events, before, dev, dd.skipBytes() / 512, dd.inputBlockSize() / 512, true);
            note("read");
        } else if (cmd instanceof Command.Blkdiscard b) {
            int dev = thinIndex(b.device());
            follow(events, before, dev, 0, 0, false);
            long start = b.offset() / 512;
            long end = start + b.length().orElseThrow() / 512;
            // dm-thin unmaps the whole blocks inside the range; they read back zeroes
            for (long blk = (start + bs - 1) / bs; blk < end / bs; blk++) {
                Arrays.fill(expected.get((long) dev), (int) (blk * bs), (int) ((blk + 1) * bs), ZERO);
                if (mapping.get((long) dev)[(int) blk] >= 0) {
                    note("block unmapped by a discard");
                }
                mapping.get((long) dev)[(int) blk] = -1;
            }
            note("discard");
        } else if (cmd instanceof Command.DmsetupMessage m) {
            follow(events, before, -1, 0, 0, false);
            List<String> w = m.message();
            if (w.get(0).equals("create_snap")) {
                long id = Long.parseLong(w.get(1));
                long origin = Long.parseLong(w.get(2));
                expected.put(id, expected.get(origin).clone());
                mapping.put(id, mapping.get(origin).clone());
                note(id < thinNames.size() ? "snapshot into a thin device" : "snapshot without a device");
            } else if (w.get(0).equals("delete")) {
                long id = Long.parseLong(w.get(1));
                expected.remove(id);
                mapping.remove(id);
                note("delete");
            } else {
                throw new AssertionError("unexpected message " + line);
            }
        } else {
            throw new AssertionError("unexpected command " + line);
        }
        if (checks.contains(Check.MAPPINGS)) {
            checkStats();
        }
    }

    private long token(long sector) {
        return ((long) opIndex << 32) | (sector + 1);
    }

    /** Replays the pool's part of the trace onto the observed contents and mappings, checking reads. */
    private void follow(List<TraceEvent> events, List<ThinStats> before, int dev, long start, long len,
                        boolean read) {
        Map<String, Integer> pendingRemaps = new HashMap<>();
        Deque<TraceEvent> kcopydReads = new ArrayDeque<>();
        BitSet readCovered = new BitSet();
        Map<String, long[]> received = new TreeMap<>();
        Map<String, long[]> issued = new TreeMap<>();
        Map<String, long[]> remappedOnto = new TreeMap<>();
        for (TraceEvent e : events) {
            char op = opOf(e.rwbs());
            int dir = op == 'R' ? 0 : op == 'W' ? 1 : -1;
            if (e.nrSectors() > 0 && dir >= 0) {
                if (e.type() == EventType.BIO_QUEUE) {
                    received.computeIfAbsent(e.device(), k -> new long[2])[dir] += e.nrSectors();
                } else if (e.type() == EventType.BIO_REMAP) {
                    issued.computeIfAbsent(fromDevice(e), k -> new long[2])[dir] += e.nrSectors();
                    remappedOnto.computeIfAbsent(e.device(), k -> new long[2])[dir] += e.nrSectors();
                }
            }
            if (!e.device().equals(poolName) || e.nrSectors() <= 0) {
                continue;
            }
            String key = op + "@" + e.sector() + "+" + e.nrSectors();
            if (e.type() == EventType.BIO_REMAP) {
                int thin = thinIndexByName(fromDevice(e));
                long vs = fromSector(e);
                pendingRemaps.merge(key, 1, Integer::sum);
                if (op == 'W' || op == 'R') {
                    remap(e, op, thin, vs);
                }
                if (op == 'R') {
                    readCovered.set((int) vs, (int) (vs + e.nrSectors()));
                }
                if (checks.contains(Check.IDENTITY)) {
                    for (long i = 0; i < e.nrSectors(); i++) {
                        int p = (int) (e.sector() + i);
                        int v = (int) (vs + i);
                        if (op == 'W') {
                            pool[p] = token(vs + i);
                        } else if (op == 'R') {
                            checkRead(thin, v, p);
                        }
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
                        fail(Check.IDENTITY, "kcopyd read " + src + " and write " + e + " differ in length");
                    }
                    note("kcopyd copy");
                    System.arraycopy(pool, (int) src.sector(), pool, (int) e.sector(), (int) e.nrSectors());
                } else {
                    note("kcopyd zeroing");
                    Arrays.fill(pool, (int) e.sector(), (int) (e.sector() + e.nrSectors()), ZERO);
                }
            }
        }
        if (!kcopydReads.isEmpty()) {
            fail(Check.IDENTITY, "kcopyd reads without a write: " + kcopydReads);
        }
        long unmappedRead = 0;
        if (read) {
            long[] map = mapping.get((long) dev);
            long[] want = expected.get((long) dev);
            for (int v = readCovered.nextClearBit((int) start); v < start + len; v = readCovered.nextClearBit(v + 1)) {
                unmappedRead++;
                if (want[v] != ZERO || map[(int) (v / bs)] >= 0) {
                    failUnmappedRead(dev, v);
                }
            }
            note("sector read as zeroes without I/O", unmappedRead);
        }
        if (checks.contains(Check.CONSERVATION)) {
            conserve(before, dev, unmappedRead, received, issued, remappedOnto);
        }
    }

    private void failUnmappedRead(int dev, int v) {
        long want = expected.get((long) dev)[v];
        if (want != ZERO) {
            fail(Check.IDENTITY, "thin" + dev + " sector " + v + " was read as zeroes without I/O below, "
                    + "but its last write was " + describe(want));
        }
        long pb = mapping.get((long) dev)[(int) (v / bs)];
        if (pb >= 0) {
            fail(Check.MAPPINGS, "thin" + dev + " sector " + v + " was read as zeroes without I/O below, "
                    + "but its block " + v / bs + " maps to pool block " + pb);
        }
    }

    /** A thin bio's remap onto its pool block, checked against the reference mapping and then applied. */
    private void remap(TraceEvent e, char op, int thin, long vs) {
        long vb = vs / bs;
        long pb = e.sector() / bs;
        if (vs % bs != e.sector() % bs || vs % bs + e.nrSectors() > bs) {
            fail(Check.MAPPINGS, "remap " + line(e) + " does not keep the offset within one block of " + bs
                    + " sectors");
        }
        long[] map = mapping.get((long) thin);
        long cur = map[(int) vb];
        if (op == 'R') {
            if (cur != pb) {
                fail(Check.MAPPINGS, "read remap " + line(e) + ": thin" + thin + " block " + vb + " maps to "
                        + (cur < 0 ? "nothing" : "pool block " + cur) + ", not " + pb);
            }
            return;
        }
        long refs = cur < 0 ? 0 : references(cur);
        if (cur >= 0 && refs == 1) {
            if (pb != cur) {
                fail(Check.MAPPINGS, "write remap " + line(e) + ": thin" + thin + " block " + vb
                        + " maps to pool block " + cur + " shared by no other device, so the write goes there, "
                        + "not to " + pb);
            }
            note("write in place");
            return;
        }
        long taken = references(pb);
        if (taken > 0) {
            fail(Check.MAPPINGS, "write remap " + line(e) + ": thin" + thin + " block " + vb + " ("
                    + (cur < 0 ? "unmapped" : "pool block " + cur + ", shared by " + refs + " devices")
                    + ") is given pool block " + pb + ", which " + taken + " mapping(s) still hold: " + holders(pb));
        }
        note(cur < 0 ? "block provisioned" : "sharing broken");
        map[(int) vb] = pb;
    }

    /** The reference count of a pool block: mappings to it from every device id. */
    private long references(long pb) {
        long n = 0;
        for (long[] m : mapping.values()) {
            for (long b : m) {
                if (b == pb) {
                    n++;
                }
            }
        }
        return n;
    }

    private String holders(long pb) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : mapping.entrySet()) {
            for (int i = 0; i < e.getValue().length; i++) {
                if (e.getValue()[i] == pb) {
                    out.add("id " + e.getKey() + " block " + i);
                }
            }
        }
        return out.toString();
    }

    /** {@link ThinStats} against the reference mappings. */
    private void checkStats() {
        Set<Long> used = new HashSet<>();
        for (long[] m : mapping.values()) {
            for (long b : m) {
                if (b >= 0) {
                    used.add(b);
                }
            }
        }
        for (ThinStats s : sim.thinStats()) {
            int id = thinIndexByName(s.thinDevice());
            long[] m = mapping.get((long) id);
            long mapped = 0;
            long highest = -1;
            for (int vb = 0; vb < m.length; vb++) {
                if (m[vb] >= 0) {
                    mapped++;
                    highest = vb;
                }
            }
            if (s.mappedSectors() != mapped * bs || s.highestMappedSector() != (highest < 0 ? -1
                    : (highest + 1) * bs - 1)) {
                fail(Check.MAPPINGS, "thin" + id + " status '" + s.dmsetupStatus() + "', but it maps " + mapped
                        + " blocks of " + bs + " sectors, the highest " + highest + ": "
                        + Arrays.toString(m));
            }
            if (s.poolUsedBlocks() != used.size()) {
                fail(Check.MAPPINGS, "the pool counts " + s.poolUsedBlocks() + " used blocks, but "
                        + used.size() + " distinct blocks are mapped (" + (s.poolUsedBlocks() > used.size()
                        ? "leaked" : "freed while mapped") + "): " + mappingsText());
            }
        }
    }

    private String mappingsText() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Long, long[]> e : mapping.entrySet()) {
            sb.append("\n    id ").append(e.getKey()).append(": ").append(Arrays.toString(e.getValue()));
        }
        return sb.toString();
    }

    /**
     * Per direction: a thin device passes on every written sector and every read sector of a mapped block;
     * the pool receives what its thin devices pass on plus kcopyd's zeroing and copying (whole blocks, as
     * {@link ThinStats} counts them); every other dm device passes on what it receives; a disk receives what
     * the dm devices remap onto it.
     */
    private void conserve(List<ThinStats> before, int dev, long unmappedRead, Map<String, long[]> received,
                          Map<String, long[]> issued, Map<String, long[]> remappedOnto) {
        long zeroed = 0;
        long copied = 0;
        List<ThinStats> after = sim.thinStats();
        for (int i = 0; i < after.size(); i++) {
            zeroed += after.get(i).blocksZeroed() - before.get(i).blocksZeroed();
            copied += after.get(i).blocksCopied() - before.get(i).blocksCopied();
        }
        long[] kcopyd = {copied * bs, (zeroed + copied) * bs};
        String[] dirs = {"read", "write"};
        for (BlockDevice d : layout.devices()) {
            long[] in = received.getOrDefault(d.name(), new long[2]);
            long[] out = issued.getOrDefault(d.name(), new long[2]);
            long[] onto = remappedOnto.getOrDefault(d.name(), new long[2]);
            for (int k = 0; k < 2; k++) {
                if (d instanceof Disk) {
                    expectEqual(in[k], onto[k], dirs[k] + " sectors " + d.name() + " receives vs. remapped onto it");
                } else if (d.name().equals(poolName)) {
                    expectEqual(in[k], onto[k] + kcopyd[k], dirs[k] + " sectors the pool " + d.name()
                            + " receives vs. its thin devices' remaps (" + onto[k] + ") plus kcopyd's " + kcopyd[k]
                            + " (" + zeroed + " blocks zeroed, " + copied + " copied)");
                    expectEqual(out[k], in[k], dirs[k] + " sectors the pool " + d.name() + " passes on vs. receives");
                } else if (thinNames.contains(d.name())) {
                    long zeroFilled = k == 0 && thinNames.indexOf(d.name()) == dev ? unmappedRead : 0;
                    expectEqual(out[k] + zeroFilled, in[k], dirs[k] + " sectors thin device " + d.name()
                            + " passes on (+ " + zeroFilled + " read from unmapped blocks) vs. receives");
                } else {
                    expectEqual(out[k], in[k], dirs[k] + " sectors " + d.name() + " passes on vs. receives");
                }
            }
        }
        note("sectors conserved", kcopyd[1] + received.values().stream().mapToLong(a -> a[0] + a[1]).sum());
    }

    private void expectEqual(long got, long want, String what) {
        if (got != want) {
            fail(Check.CONSERVATION, what + ": " + got + " != " + want);
        }
    }

    private void checkRead(int thin, int v, int p) {
        if (!checks.contains(Check.IDENTITY)) {
            return;
        }
        long want = expected.get((long) thin)[v];
        long got = pool[p];
        if (want == ZERO && !zeroing) {
            return; // skip_block_zeroing: the unwritten rest of a block is whatever was there
        }
        if (want != ZERO) {
            for (Map.Entry<Long, long[]> e : expected.entrySet()) {
                if (e.getKey() != thin && e.getValue()[v] == want) {
                    note("read of data shared with a snapshot");
                    break;
                }
            }
        } else {
            note("sector checked to read zeroes");
        }
        if (got != want) {
            fail(Check.IDENTITY, "thin" + thin + " sector " + v + " (pool sector " + p + ") reads " + describe(got)
                    + ", but it should read " + (want == ZERO ? "zeroes (never written, or discarded)"
                    : describe(want)));
        }
    }

    private void fail(Check check, String what) {
        if (checks.contains(check)) {
            throw new AssertionError("operation " + opIndex + " (" + line + "): " + what);
        }
    }

    private void note(String label) {
        note(label, 1);
    }

    private void note(String label, long n) {
        coverage.merge(label, n, Long::sum);
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

    private int thinIndex(String path) {
        return thinIndexByName(layout.device(path).name());
    }

    private int thinIndexByName(String name) {
        int i = thinNames.indexOf(name);
        if (i < 0) {
            throw new AssertionError("operation " + opIndex + " (" + line + "): " + name + " is no thin device");
        }
        return i;
    }

    private static String fromDevice(TraceEvent e) {
        String from = e.extra().replaceFirst("^from=", "");
        return from.substring(0, from.lastIndexOf(':'));
    }

    private static long fromSector(TraceEvent e) {
        String from = e.extra().replaceFirst("^from=", "");
        return Long.parseLong(from.substring(from.lastIndexOf(':') + 1));
    }

    private static String line(TraceEvent e) {
        return e.seq() + " " + e.device() + " " + e.type().tracepoint() + " " + e.rwbs() + " " + e.sector()
                + (e.hasSize() ? "+" + e.nrSectors() : "") + (e.extra().isEmpty() ? "" : " " + e.extra());
    }

    /** The operation letter of an rwbs: R, W, D, N, or F for a bare flush. */
    static char opOf(String rwbs) {
        String s = rwbs.length() > 1 && rwbs.charAt(0) == 'F' ? rwbs.substring(1) : rwbs;
        return s.isEmpty() ? '?' : s.charAt(0);
    }
}
