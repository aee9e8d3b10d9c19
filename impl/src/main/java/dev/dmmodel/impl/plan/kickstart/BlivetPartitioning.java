package dev.dmmodel.impl.plan.kickstart;

import dev.dmmodel.device.PartitionTableType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * blivet's placement of new partitions (blivet/partitioning.py: do_partitioning = allocate_partitions, then
 * grow_partitions), over libparted's view of each disk: sectors are the disk's logical sectors, as parted counts
 * them; alignments are libparted's ({@code offset}, {@code grain}) pairs. Pure: disks and requests in, placements
 * or blivet's {@code PartitioningError} message out.
 */
final class BlivetPartitioning {

    /** Python's decimal default context: 28 significant digits, round half even (blivet grows with Decimal). */
    static final MathContext PY_DECIMAL = new MathContext(28, RoundingMode.HALF_EVEN);

    /** 2 TiB: blivet/partitioning.py's limit on a BIOS boot partition's end (get_best_free_space_region). */
    static final long TWO_TIB = 2L << 40;

    /** Large enough to be no limit, small enough to add sectors to (gpt's limits are 2^64). */
    private static final long NO_LIMIT = Long.MAX_VALUE / 4;

    enum Type { NORMAL, LOGICAL, EXTENDED }

    /** A libparted alignment: sectors {@code s} with {@code (s - offset) % grain == 0}. */
    record Align(long offset, long grain) {
        Align {
            if (grain < 1) {
                throw new IllegalArgumentException("grain " + grain);
            }
            offset = Math.floorMod(offset, grain);
        }

        // libparted/cs/natmath.c: ped_alignment_is_aligned (inside the geometry)
        boolean aligned(long gs, long ge, long s) {
            return s >= gs && s <= ge && Math.floorMod(s - offset, grain) == 0;
        }

        // natmath.c: ped_alignment_align_up, then _closest_inside_geometry; -1 when nothing fits
        long up(long gs, long ge, long s) {
            return inside(gs, ge, Math.addExact(Math.floorDiv(s - offset + grain - 1, grain) * grain, offset));
        }

        // natmath.c: ped_alignment_align_down
        long down(long gs, long ge, long s) {
            return inside(gs, ge, Math.floorDiv(s - offset, grain) * grain + offset);
        }

        // natmath.c: ped_alignment_align_nearest (a tie goes down, as closest() returns its second)
        long nearest(long gs, long ge, long s) {
            long u = up(gs, ge, s);
            long d = down(gs, ge, s);
            if (u == -1) {
                return d;
            }
            if (d == -1) {
                return u;
            }
            return Math.abs(s - u) < Math.abs(s - d) ? u : d;
        }

        private long inside(long gs, long ge, long s) {
            if (s < gs) {
                s += Math.floorDiv(gs - s + grain - 1, grain) * grain;
            }
            if (s > ge) {
                s -= Math.floorDiv(s - ge + grain - 1, grain) * grain;
            }
            return s >= gs && s <= ge ? s : -1;
        }
    }

    /**
     * A disk as blivet sees it: its length and sector size, libparted's optimal and minimal alignment, the label
     * and the partitions already on it (kept).
     */
    record DiskGeom(String name, long length, long sectorBytes, Align optimal, Align minimal,
                    PartitionTableType label, List<long[]> existing) {
        DiskGeom {
            existing = List.copyOf(existing);
        }

        boolean msdos() {
            return label == PartitionTableType.MSDOS;
        }

        // libparted labels: msdos addresses 32-bit sectors; gpt 64-bit (no limit here)
        long maxStart() {
            return msdos() ? 0xFFFF_FFFFL : NO_LIMIT;
        }

        long maxLength() {
            return msdos() ? 0xFFFF_FFFFL : NO_LIMIT;
        }

        // libparted/labels/gpt.c: gpt_alloc_metadata (primary header and 16 KiB of entries at the start, the
        // backup at the end); dos.c: add_startend_metadata (the first track, and the last sector without
        // cylinder alignment, which blivet turns off)
        long firstUsable() {
            return msdos() ? 63 : 2 + ceilDiv(16384, sectorBytes);
        }

        long lastUsable() {
            return msdos() ? length - 2 : length - 2 - ceilDiv(16384, sectorBytes);
        }

        // blivet/formats/disklabel.py: get_alignment — optimal, minimal below the optimal grain; -1 (blivet's
        // AlignmentError) below the minimal grain
        Align alignment(long sizeBytes) {
            if (sizeBytes < minimal.grain() * sectorBytes) {
                return null;
            }
            return sizeBytes < optimal.grain() * sectorBytes ? minimal : optimal;
        }

        Align alignmentOrMinimal(long sizeBytes) {
            Align a = alignment(sizeBytes);
            return a == null ? minimal : a;
        }
    }

    /** A request: one new partition as anaconda made its PartitionDevice. */
    record Request(int id, String label, long sizeBytes, boolean grow, long maxBytes, List<String> disks,
                   boolean primary, int weight, boolean bootable, String mount) {
    }

    /** A placed partition. */
    record Placed(Request request, String disk, int number, long start, long end, Type type) {
        long length() {
            return end - start + 1;
        }
    }

    /** The result: every new partition, and the extended partitions made. */
    record Result(List<Placed> partitions, List<Placed> extended) {
    }

    /** blivet's PartitioningError, with its message. */
    static final class PartitioningError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PartitioningError(String message) {
            super(message);
        }
    }

    record Region(String disk, long start, long end, boolean inExtended) {
        long length() {
            return end - start + 1;
        }

        boolean contains(long s, long e) {
            return s >= start && e <= end;
        }
    }

    /** One disk's partition list as libparted holds it while blivet allocates. */
    private static final class Label {
        final DiskGeom geom;
        final List<Placed> parts = new ArrayList<>();

        Label(DiskGeom geom) {
            this.geom = geom;
            for (long[] e : geom.existing()) {
                parts.add(new Placed(null, geom.name(), (int) e[0], e[1], e[2], e[0] > 4 && geom.msdos()
                        ? Type.LOGICAL : Type.NORMAL));
            }
        }

        Placed extended() {
            return parts.stream().filter(p -> p.type() == Type.EXTENDED).findFirst().orElse(null);
        }

        int primaryCount() {
            return (int) parts.stream().filter(p -> p.type() != Type.LOGICAL).count();
        }

        int maxPrimary() {
            return geom.msdos() ? 4 : 128;
        }

        // libparted: ped_disk_get_free_space regions (getFreeSpaceRegions), in disk order
        List<Region> free() {
            List<Region> out = new ArrayList<>();
            List<long[]> used = new ArrayList<>();
            for (Placed p : parts) {
                if (p.type() != Type.LOGICAL) {
                    used.add(new long[] {p.start(), p.end()});
                }
            }
            gaps(out, geom.firstUsable(), geom.lastUsable(), used, false);
            Placed ext = extended();
            if (ext != null) {
                List<long[]> logical = new ArrayList<>();
                // dos.c: the extended partition's own table, and an EBR before each logical partition
                logical.add(new long[] {ext.start(), Math.min(ext.end(), ext.start() + 62)});
                for (Placed p : parts) {
                    if (p.type() == Type.LOGICAL) {
                        logical.add(new long[] {p.start() - 1, p.end()});
                    }
                }
                gaps(out, ext.start(), ext.end(), logical, true);
            }
            out.sort(Comparator.comparingLong(Region::start));
            return out;
        }

        private void gaps(List<Region> out, long from, long to, List<long[]> used, boolean inExt) {
            used.sort(Comparator.comparingLong(u -> u[0]));
            long next = from;
            for (long[] u : used) {
                if (u[0] > next && u[0] - 1 <= to) {
                    out.add(new Region(geom.name(), next, Math.min(to, u[0] - 1), inExt));
                }
                next = Math.max(next, u[1] + 1);
            }
            if (next <= to) {
                out.add(new Region(geom.name(), next, to, inExt));
            }
        }

        // libparted: ped_disk_add_partition numbering — gpt and msdos primaries the lowest free number, msdos
        // logical partitions the lowest free from 5 (dos.c: msdos_partition_enumerate)
        int number(Type type) {
            int n = type == Type.LOGICAL ? 5 : 1;
            while (true) {
                final int k = n;
                if (parts.stream().noneMatch(p -> p.number() == k)) {
                    return n;
                }
                n++;
            }
        }
    }

    private final List<Label> labels = new ArrayList<>();

    private BlivetPartitioning(List<DiskGeom> disks) {
        for (DiskGeom d : disks) {
            labels.add(new Label(d));
        }
    }

    /**
     * Allocates and grows the requests (blivet/partitioning.py: do_partitioning).
     *
     * @param disks the usable disks, in blivet's order
     * @throws PartitioningError with blivet's message
     */
    static Result place(List<DiskGeom> disks, List<Request> requests) {
        BlivetPartitioning b = new BlivetPartitioning(disks);
        // do_partitioning: get_free_regions — the regions before allocation, at least one optimal grain long
        List<Region> free = new ArrayList<>();
        for (Label l : b.labels) {
            for (Region r : l.free()) {
                if (r.length() >= l.geom.optimal().grain()) {
                    free.add(r);
                }
            }
        }
        List<Request> sorted = pythonSort(requests);
        List<Placed> placed = b.allocate(sorted, free);
        placed = b.grow(placed, free);
        List<Placed> ext = new ArrayList<>();
        for (Label l : b.labels) {
            Placed e = l.extended();
            if (e != null) {
                ext.add(e);
            }
        }
        return new Result(placed, ext);
    }

    // ---- blivet/partitioning.py: partition_compare

    static int compare(Request a, Request b) {
        int ret = 0;
        ret -= a.weight();
        ret += b.weight();
        if (!a.disks().isEmpty() && b.disks().isEmpty()) {
            ret -= 500;
        } else if (a.disks().isEmpty() && !b.disks().isEmpty()) {
            ret += 500;
        } else {
            ret += Integer.compare(a.disks().size(), b.disks().size()) * 500;
        }
        ret -= Boolean.compare(a.primary(), b.primary()) * 200;
        ret += Boolean.compare(a.grow(), b.grow()) * 100;
        ret -= Long.compare(a.sizeBytes(), b.sizeBytes()) * 50;
        if (a.grow() && b.grow()) {
            if (a.maxBytes() == 0 && b.maxBytes() != 0) {
                ret -= 25;
            } else if (a.maxBytes() != 0 && b.maxBytes() == 0) {
                ret += 25;
            } else {
                ret -= Long.compare(a.maxBytes(), b.maxBytes()) * 25;
            }
        }
        if (a.mount() != null && b.mount() != null) {
            ret += Integer.signum(a.mount().compareTo(b.mount())) * 10;
        }
        return Integer.signum(ret);
    }

    /**
     * Python's list.sort with cmp_to_key for the short lists a kickstart has: the first run (reversed if strictly
     * descending) then binary insertion (CPython listobject.c: count_run, binarysort), so that a comparison that
     * is not transitive orders requests as blivet's does, and never throws.
     */
    static List<Request> pythonSort(List<Request> in) {
        return pythonSort(in, BlivetPartitioning::compare);
    }

    /** {@link #pythonSort(List)} with any cmp function. */
    static <T> List<T> pythonSort(List<T> in, Comparator<T> cmp) {
        List<T> a = new ArrayList<>(in);
        int n = a.size();
        if (n < 2) {
            return a;
        }
        int run = 1;
        if (cmp.compare(a.get(1), a.get(0)) < 0) {
            run = 2;
            while (run < n && cmp.compare(a.get(run), a.get(run - 1)) < 0) {
                run++;
            }
            java.util.Collections.reverse(a.subList(0, run));
        } else {
            run = 2;
            while (run < n && cmp.compare(a.get(run), a.get(run - 1)) >= 0) {
                run++;
            }
        }
        for (int i = run; i < n; i++) {
            T pivot = a.get(i);
            int l = 0;
            int r = i;
            while (l < r) {
                int p = (l + r) >>> 1;
                if (cmp.compare(pivot, a.get(p)) < 0) {
                    r = p;
                } else {
                    l = p + 1;
                }
            }
            a.remove(i);
            a.add(l, pivot);
        }
        return a;
    }

    // ---- blivet/partitioning.py: get_next_partition_type

    private static Type nextType(Label l, boolean noPrimary) {
        Placed ext = l.extended();
        boolean supportsExt = l.geom.msdos();
        int count = l.primaryCount();
        int max = l.maxPrimary();
        if (count < max) {
            if (count == max - 1) {
                if (ext == null && supportsExt) {
                    return Type.EXTENDED;
                } else if (ext == null) {
                    return noPrimary ? null : Type.NORMAL;
                } else {
                    return noPrimary ? Type.LOGICAL : Type.NORMAL;
                }
            }
            if (!noPrimary) {
                return Type.NORMAL;
            }
            return ext != null ? Type.LOGICAL : null;
        }
        return ext != null ? Type.LOGICAL : null;
    }

    // ---- blivet/partitioning.py: get_best_free_space_region (no requested start sector: anaconda passes none)

    private static Region bestRegion(Label l, Type type, long reqBytes, boolean boot, Region bestFree, boolean grow) {
        Placed ext = l.extended();
        Region best = bestFree;
        for (Region f : l.free()) {
            if (ext != null) {
                boolean in = f.inExtended();
                if ((in && type == Type.NORMAL) || (!in && type == Type.LOGICAL)) {
                    continue;
                }
            }
            if (f.start() > l.geom.maxStart()) {
                continue;
            }
            // a BIOS host (not EFI): a boot partition must end below 2 TiB
            if (boot && Math.addExact(Math.multiplyExact(f.start(), l.geom.sectorBytes()), reqBytes) > TWO_TIB) {
                continue;
            }
            long freeBytes = Math.multiplyExact(f.length(), l.geom.sectorBytes());
            boolean bigger = grow || type == Type.EXTENDED;
            if (reqBytes <= freeBytes) {
                if (best == null || (bigger ? f.length() > best.length() : f.length() < best.length())) {
                    best = f;
                    if (boot) {
                        break;
                    }
                }
            }
        }
        return best;
    }

    // ---- blivet/partitioning.py: align_size_for_disklabel — rounds up to the alignment's grainSize, which is
    // a count of sectors used as a count of bytes (so a size in whole KiB is never changed)

    private static long alignSize(long sizeBytes, DiskGeom d) {
        long grain = d.alignmentOrMinimal(sizeBytes).grain();
        long grains = sizeBytes / grain;
        return Math.addExact(Math.multiplyExact(grains, grain), sizeBytes % grain != 0 ? grain : 0);
    }

    // ---- blivet/partitioning.py: add_partition (no start sector)

    private static Placed addPartition(Label l, Region free, Type type, Long sizeBytes, Request req) {
        DiskGeom d = l.geom;
        long ss = d.sectorBytes();
        long forAlign = sizeBytes == null ? Math.multiplyExact(free.length(), ss) : sizeBytes;
        Align a = d.alignmentOrMinimal(forAlign);
        Align endA = new Align(a.offset() - 1, a.grain());
        long start = free.start();
        if (!a.aligned(free.start(), free.end(), start)) {
            start = a.nearest(free.start(), free.end(), start);
            if (start == -1) {
                throw new PartitioningError("failed to allocate aligned partition");
            }
        }
        if (type == Type.LOGICAL) {
            start += a.grain();
        }
        long end;
        if (type == Type.EXTENDED && sizeBytes == null) {
            end = free.end();
        } else {
            long length = sizeBytes / ss;
            end = Math.addExact(start, length) - 1;
        }
        if (!endA.aligned(free.start(), free.end(), end)) {
            end = endA.up(free.start(), free.end(), end);
            if (end == -1) {
                throw new PartitioningError("failed to allocate aligned partition");
            }
            if (start > end) {
                throw new PartitioningError("unable to allocate aligned partition");
            }
        }
        if (end - start + 1 > d.maxLength()) {
            throw new PartitioningError("requested size exceeds maximum allowed");
        }
        // libparted: ped_disk_add_partition with an exact constraint — the geometry must be free
        if (!free.contains(start, end)) {
            throw new PartitioningError("failed to add partition to disk: Unable to satisfy all constraints on the "
                    + "partition.");
        }
        Placed p = new Placed(req, d.name(), l.number(type), start, end, type);
        l.parts.add(p);
        return p;
    }

    // ---- blivet/partitioning.py: allocate_partitions

    private List<Placed> allocate(List<Request> sorted, List<Region> freespace) {
        List<Placed> placed = new ArrayList<>();
        for (int idx = 0; idx < sorted.size(); idx++) {
            Request part = sorted.get(idx);
            List<Label> reqDisks = new ArrayList<>();
            for (Label l : labels) {
                if (part.disks().isEmpty() || part.disks().contains(l.geom.name())) {
                    reqDisks.add(l);
                }
            }
            if (reqDisks.isEmpty()) {
                throw new PartitioningError("Unable to allocate requested partition scheme.");
            }
            boolean boot = part.weight() > 1000;
            Region free = null;
            Label useDisk = null;
            Type partType = null;
            long growth = 0;
            List<String> noSlots = new ArrayList<>();
            List<String> noPrimary = new ArrayList<>();
            for (Label l : reqDisks) {
                Region currentFree = part.grow() ? null : free;
                long reqSize = alignSize(part.sizeBytes(), l.geom);
                Type newType = nextType(l, false);
                if (newType == null) {
                    noSlots.add(l.geom.name());
                    continue;
                }
                if (part.primary() && newType != Type.NORMAL) {
                    if (l.primaryCount() < l.maxPrimary()) {
                        newType = Type.NORMAL;
                    } else {
                        noPrimary.add(l.geom.name());
                        continue;
                    }
                }
                Region best = bestRegion(l, newType, reqSize, boot, currentFree, part.grow());
                if (Objects.equals(best, free) && !part.primary() && newType == Type.NORMAL) {
                    newType = nextType(l, true);
                    if (newType != null) {
                        best = bestRegion(l, newType, reqSize, boot, currentFree, part.grow());
                    }
                }
                if (best != null && !Objects.equals(free, best)) {
                    boolean update = true;
                    boolean anyGrow = false;
                    for (int j = 0; j <= idx; j++) {
                        anyGrow |= sorted.get(j).grow();
                    }
                    if (anyGrow) {
                        long newGrowth = growthWith(part, l, newType, best, reqSize, placed, freespace);
                        if (free != null && newGrowth <= growth) {
                            update = false;
                        } else {
                            growth = newGrowth;
                        }
                    }
                    if (update) {
                        partType = newType;
                        useDisk = l;
                        free = best;
                    }
                }
                if (free != null && boot) {
                    break;
                }
            }
            if (free == null) {
                List<String> errors = new ArrayList<>();
                if (!noSlots.isEmpty()) {
                    errors.add(String.join(", ", noSlots) + ": no free partition slots");
                }
                if (!noPrimary.isEmpty()) {
                    errors.add(String.join(", ", noPrimary) + ": no primary partition slots available");
                }
                throw new PartitioningError(errors.isEmpty() ? "Unable to allocate requested partition scheme."
                        : "Unable to allocate requested partition scheme on requested disks:\n"
                        + String.join("\n", errors));
            }
            Label l = useDisk;
            long alignedSize = alignSize(part.sizeBytes(), l.geom);
            if (partType == Type.EXTENDED) {
                Placed ext = addPartition(l, free, Type.EXTENDED, null, null);
                long grainBytes = Math.multiplyExact(l.geom.optimal().grain(), l.geom.sectorBytes());
                if (alignedSize > Math.multiplyExact(ext.length() - l.geom.optimal().grain(), l.geom.sectorBytes())) {
                    alignedSize -= grainBytes;
                }
                partType = Type.LOGICAL;
                free = bestRegion(l, partType, alignedSize, boot, null, part.grow());
                if (free == null) {
                    throw new PartitioningError("not enough free space after creating extended partition");
                }
            }
            placed.add(addPartition(l, free, partType, alignedSize, part));
        }
        return placed;
    }

    /** The total growth (sectors) on every disk if {@code part} went into {@code best} of {@code cand}. */
    private long growthWith(Request part, Label cand, Type type, Region best, long reqSize, List<Placed> placed,
                            List<Region> freespace) {
        long total = 0;
        for (Label l : labels) {
            List<Placed> temp = new ArrayList<>();
            for (Placed p : placed) {
                if (p.disk().equals(l.geom.name())) {
                    temp.add(p);
                }
            }
            Placed tempExt = null;
            Placed tempPart = null;
            if (l == cand) {
                Type t = type;
                Region f = best;
                if (type == Type.EXTENDED) {
                    tempExt = addPartition(l, best, Type.EXTENDED, null, null);
                    t = Type.LOGICAL;
                    f = bestRegion(l, t, reqSize, part.weight() > 1000, null, part.grow());
                    if (f == null) {
                        l.parts.remove(tempExt);
                        continue;
                    }
                }
                try {
                    tempPart = addPartition(l, f, t, reqSize, part);
                } catch (PartitioningError e) {
                    if (tempExt != null) {
                        l.parts.remove(tempExt);
                    }
                    continue;
                }
                temp.add(tempPart);
            }
            for (Chunk c : chunks(l.geom, temp, freespace)) {
                c.grow();
                total += c.growth();
            }
            if (tempPart != null) {
                l.parts.remove(tempPart);
            }
            if (tempExt != null) {
                l.parts.remove(tempExt);
            }
        }
        return total;
    }

    // ---- blivet/partitioning.py: Request, PartitionRequest, Chunk, DiskChunk

    /** A growable (or fixed) request in a chunk; units are sectors or extents. */
    static final class Grow {
        final Object key;
        final long base;
        long growth;
        long maxGrowth;
        boolean done;
        final boolean growable;
        final long start;
        final long end;
        final boolean bootable;

        Grow(Object key, long base, boolean growable, boolean limited, long maxGrowth, long start, long end,
             boolean bootable) {
            this.key = key;
            this.base = base;
            this.growable = growable;
            this.done = !growable;
            this.maxGrowth = maxGrowth;
            this.start = start;
            this.end = end;
            this.bootable = bootable;
            // Request.__init__: a limit at or below the base size: done growing
            if (growable && limited && maxGrowth <= 0) {
                this.done = true;
            }
        }
    }

    /** blivet's Chunk: a pool of units shared among its requests in proportion to their base sizes. */
    abstract static class Chunk {
        final List<Grow> requests = new ArrayList<>();
        long pool;
        long base;

        Chunk(long length) {
            this.pool = length;
        }

        void add(Grow r, long reserve) {
            requests.add(r);
            pool -= r.base;
            pool -= reserve;
            if (!r.done) {
                base += r.base;
            }
        }

        long growth() {
            long g = 0;
            for (Grow r : requests) {
                g += r.growth;
            }
            return g;
        }

        boolean hasGrowable() {
            return requests.stream().anyMatch(r -> r.growable);
        }

        int remaining() {
            return (int) requests.stream().filter(r -> !r.done).count();
        }

        boolean done() {
            return remaining() == 0 || pool == 0;
        }

        long maxGrowth(Grow r) {
            return r.maxGrowth;
        }

        void sort() {
        }

        // Chunk.trim_over_grown_request
        long trim(Grow r, long newBase, boolean adjust) {
            long max = maxGrowth(r);
            if (max != 0 && r.growth >= max) {
                if (r.growth > max) {
                    pool += r.growth - max;
                    r.growth = max;
                }
                if (adjust) {
                    newBase -= r.base;
                }
                r.done = true;
            }
            return newBase;
        }

        // Chunk.grow_requests (proportional): each pass gives each growing request
        // int(Decimal(base) / Decimal(chunk base) * pool); leftovers go to the first request that can grow
        void grow() {
            sort();
            long newBase = base;
            long lastPool = 0;
            while (!done() && pool != 0 && lastPool != pool) {
                lastPool = pool;
                base = newBase;
                for (Grow p : requests) {
                    if (p.done) {
                        continue;
                    }
                    BigDecimal share = new BigDecimal(p.base).divide(new BigDecimal(base), PY_DECIMAL);
                    long g = share.multiply(new BigDecimal(lastPool), PY_DECIMAL).setScale(0, RoundingMode.DOWN)
                            .longValueExact();
                    p.growth += g;
                    pool -= g;
                    newBase = trim(p, newBase, true);
                }
            }
            if (pool != 0) {
                for (Grow p : requests) {
                    if (p.done) {
                        continue;
                    }
                    p.growth += pool;
                    pool = 0;
                    trim(p, 0, false);
                    if (pool == 0) {
                        break;
                    }
                }
            }
        }
    }

    /** blivet's DiskChunk: an aligned free region of a disk. */
    static final class DiskChunk extends Chunk {
        final long start;
        final long end;
        final DiskGeom disk;

        DiskChunk(DiskGeom disk, long start, long end) {
            super(end - start + 1);
            this.disk = disk;
            this.start = start;
            this.end = end;
        }

        void addPartition(Grow r) {
            if (requests.isEmpty()) {
                long chunkEnd = Math.min(disk.maxStart(), end);
                if (chunkEnd <= start) {
                    throw new PartitioningError("partitions allocated outside disklabel limits");
                }
                pool = chunkEnd - start + 1;
            }
            add(r, 0);
        }

        // DiskChunk.max_growth: the label's last start sector, 2 TiB for the boot partition, the request's own
        @Override
        long maxGrowth(Grow r) {
            long before = 0;
            for (Grow q : requests) {
                if (q.start < r.start) {
                    before += q.growth;
                }
            }
            long reqEnd = r.end + before;
            long max = disk.maxStart() - reqEnd;
            if (r.bootable) {
                max = Math.min(max, TWO_TIB / disk.sectorBytes() - reqEnd);
            }
            if (r.maxGrowth != 0) {
                max = Math.min(max, r.maxGrowth);
            }
            return max;
        }

        @Override
        void sort() {
            requests.sort(Comparator.comparingLong(r -> r.start));
        }
    }

    // PartitionRequest: base is the allocated length; --maxsize and the label's longest partition cap growth
    private static Grow request(Placed p, DiskGeom d) {
        Request r = p.request();
        long maxGrowth = 0;
        if (r.grow()) {
            long maxSectors = d.maxLength();
            if (r.maxBytes() > 0) {
                maxSectors = Math.min(maxSectors, r.maxBytes() / d.sectorBytes());
            }
            maxGrowth = maxSectors - p.length();
        }
        return new Grow(p, p.length(), r.grow(), true, maxGrowth, p.start(), p.end(), r.bootable());
    }

    // blivet/partitioning.py: get_disk_chunks — each original free region aligned (optimal start, its end one
    // before an optimal boundary), with the new partitions inside it
    private static List<DiskChunk> chunks(DiskGeom d, List<Placed> parts, List<Region> freespace) {
        List<DiskChunk> chunks = new ArrayList<>();
        List<Region> kept = new ArrayList<>();
        for (Region f : freespace) {
            if (!f.disk().equals(d.name())) {
                continue;
            }
            Align a = d.alignment(Math.multiplyExact(f.length(), d.sectorBytes()));
            if (a == null) {
                continue;
            }
            Align endA = new Align(a.offset() - 1, a.grain());
            long s = a.up(f.start(), f.end(), f.start());
            long e = endA.down(f.start(), f.end(), f.end());
            if (s == -1 || e == -1 || s >= e || e - s + 1 < a.grain()) {
                continue;
            }
            kept.add(f);
            chunks.add(new DiskChunk(d, s, e));
        }
        for (Placed p : parts) {
            if (p.type() == Type.EXTENDED || p.request() == null) {
                continue;
            }
            for (int i = 0; i < kept.size(); i++) {
                if (kept.get(i).contains(p.start(), p.end())) {
                    chunks.get(i).addPartition(request(p, d));
                    break;
                }
            }
        }
        return chunks;
    }

    // ---- blivet/partitioning.py: grow_partitions

    private List<Placed> grow(List<Placed> placed, List<Region> freespace) {
        if (placed.stream().noneMatch(p -> p.request().grow())) {
            return placed;
        }
        List<Placed> out = new ArrayList<>(placed);
        for (Label l : labels) {
            DiskGeom d = l.geom;
            List<Placed> mine = out.stream().filter(p -> p.disk().equals(d.name())).toList();
            List<DiskChunk> chunks = chunks(d, mine, freespace);
            for (DiskChunk c : chunks) {
                if (c.hasGrowable()) {
                    c.grow();
                }
            }
            for (DiskChunk c : chunks) {
                if (!c.hasGrowable()) {
                    continue;
                }
                Align def = d.optimal();
                long start = c.start;
                if (!def.aligned(c.start, c.end, start)) {
                    start = def.up(c.start, c.end, start);
                }
                List<Placed> fresh = new ArrayList<>();
                for (Grow g : c.requests) {
                    Placed p = (Placed) g.key;
                    long newLength = g.base + g.growth;
                    Align a = d.alignmentOrMinimal(Math.multiplyExact(newLength, d.sectorBytes()));
                    Align endA = new Align(a.offset() - 1, a.grain());
                    if (p.type() == Type.LOGICAL) {
                        start += a.grain();
                    }
                    long end = start + newLength - 1;
                    if (!endA.aligned(c.start, c.end, end)) {
                        end = endA.down(c.start, c.end, end);
                        if (end == -1 || end < start) {
                            throw new PartitioningError("failed to allocate aligned partition");
                        }
                    }
                    fresh.add(new Placed(p.request(), d.name(), 0, start, end, p.type()));
                    start = end + 1;
                }
                // remove_new_partitions, then each added back in disk order, numbered again by libparted
                for (Grow g : c.requests) {
                    l.parts.remove((Placed) g.key);
                    out.remove((Placed) g.key);
                }
                Placed ext = l.extended();
                List<Placed> order = new ArrayList<>(fresh);
                if (ext != null && c.start <= ext.start() && ext.end() <= c.end) {
                    long extStart = 0;
                    for (Placed p : fresh) {
                        if (p.type() == Type.LOGICAL && (extStart == 0 || p.start() < extStart)) {
                            extStart = p.start() - def.grain();
                        }
                    }
                    l.parts.remove(ext);
                    Placed newExt = new Placed(null, d.name(), 0, extStart, c.end, Type.EXTENDED);
                    for (int i = 0; i < order.size(); i++) {
                        if (order.get(i).type() == Type.LOGICAL) {
                            order.add(i, newExt);
                            break;
                        }
                    }
                }
                for (Placed p : order) {
                    Placed numbered = new Placed(p.request(), d.name(), l.number(p.type()), p.start(), p.end(),
                            p.type());
                    l.parts.add(numbered);
                    if (numbered.request() != null) {
                        out.add(numbered);
                    }
                }
            }
        }
        return out;
    }

    static long ceilDiv(long a, long b) {
        return Math.floorDiv(a + b - 1, b);
    }
}
