package dev.dmmodel.benchmarks;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The engine's work for O_DIRECT writes, by hand: the same rules on plain arrays, with no bio, request or trace
 * event objects, no strings and no maps in the loop. It is the baseline {@link PrimitiveBaseline} measures the engine
 * against, and {@code PrimitiveBaselineTest} checks that it counts the same block events per device and event type as
 * the engine does for the same job.
 *
 * <p>What it does per write ({@code block/fops.c: __blkdev_direct_IO} of one bio, no plug on 6.12), with the rules of
 * {@code BlockLayer}, {@code DmCore}, {@code ThinIo}, {@code Splitter} and {@code DiskQueue}:
 * <ul>
 *   <li>a partition adds its start ({@code blk_partition_remap}: {@code block_bio_remap} on the disk);</li>
 *   <li>every new bio is traced once ({@code block_bio_queue}, on the disk for a partition);</li>
 *   <li>dm-linear and the thin pool add their offset ({@code block_bio_remap} on the device below); dm cuts a clone
 *       at the target's end, and a thin target's also at its pool block and the dm device's max_sectors
 *       ({@code __max_io_len}), the rest is a {@code block_split} resubmitted;</li>
 *   <li>dm-thin looks the block up in an {@code int[]} (data block + 1, 0 = unmapped): a mapped one is remapped at
 *       once, an unmapped one goes to the pool's worker, which runs after the submission: it allocates the first
 *       free data block from a cursor (a {@code long[]} bitset), zeroes it first under kcopyd's plug (sub-jobs of
 *       1024 sectors) unless the write covers the whole block, maps it and remaps the write (traced on 5.18+);</li>
 *   <li>a disk splits at max_sectors / max_segments ({@code get_max_io_size}, whole pages: one segment per 4 KiB
 *       page; the first piece {@code REQ_NOMERGE}), tries a back or front merge into the newest plugged request of its
 *       queue within max_sectors and max_segments, else takes a request ({@code block_getrq}); a plugged request
 *       waits in the plug (flushed when full or when the newest reached {@code BLK_PLUG_FLUSH_SIZE}), an unplugged
 *       one is inserted and issued at once;</li>
 *   <li>the writer waits: every issued request completes ({@code block_rq_complete}) and so does every bio that
 *       entered a dm device ({@code block_bio_complete}).</li>
 * </ul>
 *
 * <p>Scope: a chain of single-target devices (linear, thin, thin-pool, partitions) on one disk path, writes of whole
 * pages of at most 256 pages ({@code BIO_MAX_VECS}: one bio), bios shaped on entry (4.3+), no requests waiting in the
 * scheduler while unplugged, no virt boundary; anything else is refused when it is built.
 */
public final class PrimitiveLoop {
    /** Event indices in {@link #counts()}'s arrays. */
    static final int BIO_QUEUE = 0;
    static final int BIO_REMAP = 1;
    static final int SPLIT = 2;
    static final int GETRQ = 3;
    static final int BACKMERGE = 4;
    static final int FRONTMERGE = 5;
    static final int RQ_INSERT = 6;
    static final int RQ_ISSUE = 7;
    static final int RQ_COMPLETE = 8;
    static final int BIO_COMPLETE = 9;
    static final int TYPES = 10;
    private static final EventType[] EVENT_TYPES = {EventType.BIO_QUEUE, EventType.BIO_REMAP, EventType.SPLIT,
        EventType.GETRQ, EventType.BIO_BACKMERGE, EventType.BIO_FRONTMERGE, EventType.RQ_INSERT, EventType.RQ_ISSUE,
        EventType.RQ_COMPLETE, EventType.BIO_COMPLETE};

    private static final int DISK = 0;
    private static final int PARTITION = 1;
    private static final int LINEAR = 2;
    private static final int THIN = 3;
    private static final int POOL = 4;

    private static final long PAGE = 4096;
    private static final long BIO_MAX_VECS = 256;
    /** dm-kcopyd's sub-job ({@code SUB_JOB_SIZE}): 1024 sectors. */
    private static final long KCOPYD_SUB_JOB_SECTORS = 1024;

    // the chain, top first: node i's device name, kind, the node below, and its numbers
    private final String[] names;
    private final int[] kind;
    private final int[] lower;
    /** Partition start, linear offset; 0 for the pool. */
    private final long[] shift;
    /** A dm device's (single) target length. */
    private final long[] length;
    private final long[] maxSectors;
    private final long[] maxSegments;
    private final long[] chunkSectors;
    private final long[] pbsSectors;
    private final long[] lbsSectors;
    private final int top;
    private final long topSectors;

    // profile rules
    private final boolean plugsDirectWrites;
    private final int plugMaxRequests;
    private final long plugFlushBytes;
    private final boolean tracesDeferredRemaps;

    // dm-thin: one thin node at most
    private final int thinNode;
    private final int poolNode;
    private final long blockSectors;
    private final boolean zeroNewBlocks;
    private final long dataBlocks;
    /** Virtual block → data block + 1; 0 for unmapped. */
    private int[] thinMap;
    /** Data blocks in use. */
    private long[] used;
    private long allocated;
    private long cursor;

    // the pool worker's queue (FIFO): what, thin offset, length, data block
    private int[] defKind = new int[64];
    private long[] defOffset = new long[64];
    private long[] defLen = new long[64];
    private long[] defData = new long[64];
    private int defHead;
    private int defTail;
    private boolean runningDeferred;
    private static final int PROVISION = 0;
    private static final int REMAP = 1;

    // plugs: slot 0 the writer's, slot 1 a kernel thread's (kcopyd); -1 none
    private int plug = -1;
    private final int[][] plugQueue;
    private final long[][] plugSector;
    private final long[][] plugSectors;
    private final long[][] plugSegments;
    private final boolean[][] plugMergeable;
    private final int[] plugN = new int[2];
    private final boolean[] plugMulti = new boolean[2];

    /** Requests issued and not completed, per node. */
    private final long[] inFlight;
    /** Bios that entered a dm node and have not completed. */
    private final long[] dmBios;
    /** Events per node × type, cumulative. */
    private final long[] counts;
    private long errors;

    // the random order's keys (IoJob's BlockPermutation)
    private final long[] keys = new long[6];

    /** The loop for writes to {@code target} of {@code layout}, starting with an empty thin pool. */
    public PrimitiveLoop(Layout layout, String target) {
        KernelProfile p = layout.profile();
        if (p.bioShaping() != KernelProfile.BioShaping.ON_ENTRY) {
            throw new UnsupportedOperationException("the primitive loop splits bios on entry (4.3+), not " + p);
        }
        if (p.unpluggedRequestsWaitInScheduler()) {
            throw new UnsupportedOperationException("the primitive loop issues unplugged requests at once");
        }
        plugsDirectWrites = p.plugsDirectWrites();
        plugMaxRequests = p.plugMaxRequests();
        plugFlushBytes = p.plugFlushBytes();
        tracesDeferredRemaps = p.tracesDeferredRemaps();

        List<BlockDevice> chain = new ArrayList<>();
        BlockDevice d = layout.device(target);
        ThinPoolTarget pool = null;
        ThinTarget thin = null;
        while (true) {
            chain.add(d);
            if (d instanceof Disk) {
                break;
            }
            if (d instanceof Partition part) {
                d = layout.device(part.disk());
                continue;
            }
            if (!(d instanceof DmDevice dm) || dm.table().targets().size() != 1) {
                throw new UnsupportedOperationException(d.name() + ": the primitive loop takes disks, partitions"
                        + " and single-target dm devices");
            }
            DmTarget t = dm.table().targets().get(0);
            if (t instanceof LinearTarget lt) {
                d = layout.device(lt.device());
            } else if (t instanceof ThinTarget tt && thin == null) {
                thin = tt;
                d = layout.device(tt.poolDevice());
            } else if (t instanceof ThinPoolTarget pt && pool == null) {
                pool = pt;
                d = layout.device(pt.dataDevice());
            } else {
                throw new UnsupportedOperationException(d.name() + ": " + t.type() + " is not in the primitive loop");
            }
        }
        int n = chain.size();
        names = new String[n];
        kind = new int[n];
        lower = new int[n];
        shift = new long[n];
        length = new long[n];
        maxSectors = new long[n];
        maxSegments = new long[n];
        chunkSectors = new long[n];
        pbsSectors = new long[n];
        lbsSectors = new long[n];
        int thinAt = -1;
        int poolAt = -1;
        for (int i = 0; i < n; i++) {
            BlockDevice dev = chain.get(i);
            QueueLimits l = dev.limits();
            names[i] = dev.name();
            lower[i] = i + 1 < n ? i + 1 : -1;
            maxSectors[i] = l.maxSectors();
            maxSegments[i] = l.maxSegments();
            chunkSectors[i] = l.chunkSectors();
            pbsSectors[i] = l.physicalBlockSize() / 512;
            lbsSectors[i] = l.logicalBlockSize() / 512;
            if (dev instanceof Disk) {
                kind[i] = DISK;
                if (l.virtBoundaryMask() >= PAGE || l.virtBoundaryMask() != 0 || l.maxSegmentSize() < PAGE
                        || l.segBoundaryMask() < PAGE - 1) {
                    throw new UnsupportedOperationException(dev.name() + ": the primitive loop counts one segment"
                            + " per page and no virt boundary");
                }
            } else if (dev instanceof Partition part) {
                kind[i] = PARTITION;
                shift[i] = part.start().count();
            } else {
                DmTarget t = ((DmDevice) dev).table().targets().get(0);
                length[i] = t.length().count();
                if (t instanceof LinearTarget lt) {
                    kind[i] = LINEAR;
                    shift[i] = lt.offset().count();
                } else if (t instanceof ThinTarget) {
                    kind[i] = THIN;
                    thinAt = i;
                } else {
                    kind[i] = POOL;
                    poolAt = i;
                }
            }
        }
        if ((thinAt < 0) != (poolAt < 0) || thinAt > poolAt) {
            throw new UnsupportedOperationException("a thin device and its pool go together, the thin one above");
        }
        thinNode = thinAt;
        poolNode = poolAt;
        blockSectors = pool == null ? 0 : pool.blockSectors();
        zeroNewBlocks = pool != null && pool.zeroNewBlocks();
        dataBlocks = pool == null ? 0 : pool.length().count() / pool.blockSectors();
        if (thin != null && (thin.length().count() / blockSectors > Integer.MAX_VALUE || dataBlocks >= Integer.MAX_VALUE)) {
            throw new UnsupportedOperationException("the primitive loop's thin map takes fewer than 2^31 blocks");
        }
        int cap = 2 * plugMaxRequests + 1;
        plugQueue = new int[2][cap];
        plugSector = new long[2][cap];
        plugSectors = new long[2][cap];
        plugSegments = new long[2][cap];
        plugMergeable = new boolean[2][cap];
        inFlight = new long[n];
        dmBios = new long[n];
        counts = new long[n * TYPES];
        top = 0;
        topSectors = chain.get(0).size().count();
        emptyPool();
    }

    /** Unmaps every thin block (a fresh simulation's empty pool). */
    public void emptyPool() {
        if (thinNode >= 0) {
            thinMap = new int[(int) (length[thinNode] / blockSectors)];
            used = new long[(int) ((dataBlocks + 63) / 64)];
            allocated = 0;
            cursor = 0;
        }
    }

    /** Zeroes the event counts. */
    public void resetCounts() {
        java.util.Arrays.fill(counts, 0);
        errors = 0;
    }

    /** All events counted since {@link #resetCounts()}. */
    public long events() {
        long sum = 0;
        for (long c : counts) {
            sum += c;
        }
        return sum;
    }

    /** Writes refused (beyond the device) since {@link #resetCounts()}. */
    public long errors() {
        return errors;
    }

    /**
     * The counts by device and event type, non-zero ones only, in chain order (for the test and reports; not
     * used by the loop).
     */
    public Map<String, Map<EventType, Long>> counts() {
        Map<String, Map<EventType, Long>> m = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            for (int t = 0; t < TYPES; t++) {
                long c = counts[i * TYPES + t];
                if (c != 0) {
                    m.computeIfAbsent(names[i], k -> new LinkedHashMap<>()).put(EVENT_TYPES[t], c);
                }
            }
        }
        return m;
    }

    /**
     * {@code ops} O_DIRECT writes of {@code blockBytes} from offset 0: in order, or each block once in the random
     * order of {@code IoJob}'s seeded permutation (a 6-round Feistel network with keys from
     * {@link SplittableRandom}, cycle walking below {@code ops}). Returns the events counted by this call.
     */
    public long run(long ops, long blockBytes, boolean random, long seed) {
        long before = events();
        order(ops, random, seed);
        long sectors = blockBytes / 512;
        if (blockBytes % PAGE != 0 || blockBytes / PAGE > BIO_MAX_VECS) {
            throw new UnsupportedOperationException("the primitive loop writes whole pages, one bio a write");
        }
        for (long i = 0; i < ops; i++) {
            long sector = block(i) * sectors;
            if (sector + sectors > topSectors) {
                errors++;
                continue;
            }
            write(sector, sectors);
        }
        return events() - before;
    }

    // IoJob's order: sequential, or its BlockPermutation of [0, ops)
    private boolean random;
    private long ops;
    private int halfBits;
    private long mask;

    /** Sets the order {@link #block} follows: {@code IoJob.BlockPermutation(ops, seed)} when random. */
    void order(long count, boolean randomOrder, long seed) {
        this.random = randomOrder;
        this.ops = count;
        if (randomOrder) {
            int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, count - 1));
            bits = Math.max(2, bits + (bits & 1));
            halfBits = bits / 2;
            mask = (1L << halfBits) - 1;
            SplittableRandom r = new SplittableRandom(seed);
            for (int i = 0; i < keys.length; i++) {
                keys[i] = r.nextLong();
            }
        }
    }

    /** The block the {@code i}th write goes to in the current {@link #order}. */
    long block(long i) {
        if (!random) {
            return i;
        }
        long y = i;
        do {
            y = encrypt(y, halfBits, mask);
        } while (y >= ops);
        return y;
    }

    private long encrypt(long x, int halfBits, long mask) {
        long left = x >>> halfBits;
        long right = x & mask;
        for (long key : keys) {
            long v = right ^ key;
            v = (v ^ (v >>> 30)) * 0xbf58476d1ce4e5b9L;
            v = (v ^ (v >>> 27)) * 0x94d049bb133111ebL;
            long f = (v ^ (v >>> 31)) & mask;
            long newRight = left ^ f;
            left = right;
            right = newRight;
        }
        return (left << halfBits) | right;
    }

    // block/fops.c: blkdev_direct_IO — one bio, the writer's plug where the kernel has one, then wait
    private void write(long sector, long sectors) {
        if (plugsDirectWrites) {
            startPlug(0);
        }
        queueBio((int) top, sector, sectors);
        runDeferred();
        if (plugsDirectWrites) {
            flushPlug(0);
            plug = -1;
            runDeferred();
        }
        completeAll();
    }

    // block/blk-core.c: submit_bio_noacct — the partition remap, one block_bio_queue, then the device's submit
    private void queueBio(int node, long sector, long sectors) {
        if (kind[node] == PARTITION) {
            sector += shift[node];
            node = lower[node];
            counts[node * TYPES + BIO_REMAP]++;
        }
        counts[node * TYPES + BIO_QUEUE]++;
        switch (kind[node]) {
            case DISK:
                disk(node, sector, sectors);
                break;
            case THIN:
                thin(node, sector, sectors);
                break;
            default:
                linear(node, sector, sectors);
                break;
        }
    }

    // drivers/md/dm.c: dm_split_and_process_bio for linear and the pool: no max_io_len, clones to the target's end
    private void linear(int node, long sector, long sectors) {
        dmBios[node]++;
        int below = lower[node];
        while (true) {
            long len = Math.min(length[node] - sector, sectors);
            counts[below * TYPES + BIO_REMAP]++;
            queueBio(below, shift[node] + sector, len);
            if (len == sectors) {
                return;
            }
            counts[node * TYPES + SPLIT]++;
            sector += len;
            sectors -= len;
        }
    }

    // drivers/md/dm.c: __max_io_len with dm-thin's max_io_len = its block; dm-thin.c: thin_bio_map
    private void thin(int node, long sector, long sectors) {
        dmBios[node]++;
        long bs = blockSectors;
        while (true) {
            long len = Math.min(length[node] - sector, Math.min(maxSectors[node], bs - sector % bs));
            len = Math.min(len, sectors);
            int data = thinMap[(int) (sector / bs)] - 1;
            if (data >= 0) {
                counts[poolNode * TYPES + BIO_REMAP]++;
                queueBio(poolNode, data * bs + sector % bs, len);
            } else {
                defer(PROVISION, sector, len, 0);
            }
            if (len == sectors) {
                return;
            }
            counts[node * TYPES + SPLIT]++;
            sector += len;
            sectors -= len;
        }
    }

    private void defer(int what, long offset, long len, long data) {
        if (defTail == defKind.length) {
            if (defHead > 0) {
                int live = defTail - defHead;
                System.arraycopy(defKind, defHead, defKind, 0, live);
                System.arraycopy(defOffset, defHead, defOffset, 0, live);
                System.arraycopy(defLen, defHead, defLen, 0, live);
                System.arraycopy(defData, defHead, defData, 0, live);
                defTail = live;
                defHead = 0;
            } else {
                int cap = defKind.length * 2;
                defKind = java.util.Arrays.copyOf(defKind, cap);
                defOffset = java.util.Arrays.copyOf(defOffset, cap);
                defLen = java.util.Arrays.copyOf(defLen, cap);
                defData = java.util.Arrays.copyOf(defData, cap);
            }
        }
        defKind[defTail] = what;
        defOffset[defTail] = offset;
        defLen[defTail] = len;
        defData[defTail] = data;
        defTail++;
    }

    // the pool's worker (a kernel thread: not under the writer's plug), work in the order it was handed over
    private void runDeferred() {
        if (runningDeferred) {
            return;
        }
        runningDeferred = true;
        int writers = plug;
        plug = -1;
        while (defHead < defTail) {
            int what = defKind[defHead];
            long offset = defOffset[defHead];
            long len = defLen[defHead];
            long data = defData[defHead];
            defHead++;
            if (what == PROVISION) {
                provision(offset, len);
            } else {
                remapDeferred(offset, len, data);
            }
        }
        defHead = 0;
        defTail = 0;
        plug = writers;
        runningDeferred = false;
    }

    // dm-thin.c: provision_block — allocate, zero unless overwritten whole, insert, remap
    private void provision(long offset, long len) {
        long bs = blockSectors;
        int block = (int) (offset / bs);
        int mapped = thinMap[block] - 1;
        if (mapped >= 0) {
            remapDeferred(offset, len, mapped);
            return;
        }
        long data = allocate();
        if (data < 0) {
            throw new UnsupportedOperationException("the primitive loop does not run out of pool space");
        }
        boolean prepared = false;
        if (zeroNewBlocks && len != bs) {
            // dm-kcopyd.c: dm_kcopyd_zero — one write per sub-job under kcopyd's plug
            startPlug(1);
            long start = data * bs;
            for (long s = start; s < start + bs; s += KCOPYD_SUB_JOB_SECTORS) {
                queueBio(poolNode, s, Math.min(KCOPYD_SUB_JOB_SECTORS, start + bs - s));
            }
            flushPlug(1);
            plug = -1;
            prepared = true;
        }
        thinMap[block] = (int) data + 1;
        if (prepared) {
            defer(REMAP, offset, len, data);
        } else {
            remapDeferred(offset, len, data);
        }
    }

    // dm-space-map-disk.c: sm_disk_new_block — the first free block from the cursor on, wrapping
    private long allocate() {
        if (allocated >= dataBlocks) {
            return -1;
        }
        long b = firstFree(cursor, dataBlocks);
        if (b < 0) {
            b = firstFree(0, cursor);
        }
        used[(int) (b >>> 6)] |= 1L << b;
        allocated++;
        cursor = b + 1 >= dataBlocks ? 0 : b + 1;
        return b;
    }

    private long firstFree(long from, long to) {
        for (long b = from; b < to; ) {
            long word = ~used[(int) (b >>> 6)] & (-1L << b);
            if (word != 0) {
                long free = (b & ~63L) + Long.numberOfTrailingZeros(word);
                return free < to ? free : -1;
            }
            b = (b & ~63L) + 64;
        }
        return -1;
    }

    // dm-thin.c: remap_and_issue from the worker — traced by dm_submit_bio_remap on 5.18+
    private void remapDeferred(long offset, long len, long data) {
        if (tracesDeferredRemaps) {
            counts[poolNode * TYPES + BIO_REMAP]++;
        }
        queueBio(poolNode, data * blockSectors + offset % blockSectors, len);
    }

    // block/blk-mq.c: blk_mq_submit_bio — split to the limits (the first piece REQ_NOMERGE), plug merge, a request
    private void disk(int node, long sector, long sectors) {
        while (true) {
            long maxBytes = maxIoSectors(node, sector) * 512;
            long bytes = sectors * 512;
            long pages = bytes / PAGE;
            long piece = sectors;
            long segments = pages;
            if (pages > maxSegments[node] || bytes > maxBytes) {
                // block/blk-merge.c: bio_split_rw on whole pages (Splitter.wholePages)
                if (maxSegments[node] * PAGE <= maxBytes) {
                    piece = maxSegments[node] * PAGE / 512;
                    segments = maxSegments[node];
                } else {
                    piece = maxBytes / (lbsSectors[node] * 512) * lbsSectors[node];
                    segments = (maxBytes + PAGE - 1) / PAGE;
                }
                if ((piece * 512) % PAGE != 0) {
                    throw new UnsupportedOperationException(names[node] + ": a split off a page boundary");
                }
            }
            boolean split = piece < sectors;
            if (split) {
                counts[node * TYPES + SPLIT]++;
            }
            request(node, sector, piece, segments, !split);
            if (!split) {
                return;
            }
            sector += piece;
            sectors -= piece;
        }
    }

    // block/blk-merge.c: get_max_io_size
    private long maxIoSectors(int node, long sector) {
        long pbs = pbsSectors[node];
        long max = maxSectors[node];
        if (chunkSectors[node] != 0) {
            max = Math.min(max, chunkSectors[node] - sector % chunkSectors[node]);
        }
        long start = sector % pbs;
        long end = (start + max) / pbs * pbs;
        return end > start ? end - start : max / lbsSectors[node] * lbsSectors[node];
    }

    private void request(int node, long sector, long sectors, long segments, boolean mergeable) {
        int pl = plug;
        if (pl >= 0 && mergeable && plugMerge(pl, node, sector, sectors, segments)) {
            return;
        }
        counts[node * TYPES + GETRQ]++;
        if (pl < 0) {
            counts[node * TYPES + RQ_INSERT]++;
            counts[node * TYPES + RQ_ISSUE]++;
            inFlight[node]++;
            return;
        }
        // block/blk-mq.c: blk_add_rq_to_plug
        int n = plugN[pl];
        boolean haveLast = n > 0;
        if (n > 0) {
            int max = plugMulti[pl] ? 2 * plugMaxRequests : plugMaxRequests;
            if (n >= max || (plugFlushBytes > 0 && plugSectors[pl][n - 1] * 512 >= plugFlushBytes)) {
                flushPlug(pl);
                haveLast = false;
            }
        }
        n = plugN[pl];
        if (!plugMulti[pl] && haveLast && plugQueue[pl][n - 1] != node) {
            plugMulti[pl] = true;
        }
        plugQueue[pl][n] = node;
        plugSector[pl][n] = sector;
        plugSectors[pl][n] = sectors;
        plugSegments[pl][n] = segments;
        plugMergeable[pl][n] = mergeable;
        plugN[pl] = n + 1;
    }

    // block/blk-merge.c: blk_attempt_plug_merge — the newest plugged request of this queue; ll_back/front_merge_fn
    private boolean plugMerge(int pl, int node, long sector, long sectors, long segments) {
        for (int i = plugN[pl] - 1; i >= 0; i--) {
            if (plugQueue[pl][i] != node) {
                if (!plugMulti[pl]) {
                    return false;
                }
                continue;
            }
            if (!plugMergeable[pl][i] || plugSegments[pl][i] + segments > maxSegments[node]) {
                return false;
            }
            long rqSector = plugSector[pl][i];
            long rqSectors = plugSectors[pl][i];
            if (rqSector + rqSectors == sector) {
                if (rqSectors + sectors > maxRequestSectors(node, rqSector)) {
                    return false;
                }
                plugSectors[pl][i] = rqSectors + sectors;
                plugSegments[pl][i] += segments;
                counts[node * TYPES + BACKMERGE]++;
                return true;
            }
            if (sector + sectors == rqSector) {
                if (rqSectors + sectors > maxRequestSectors(node, sector)) {
                    return false;
                }
                plugSector[pl][i] = sector;
                plugSectors[pl][i] = rqSectors + sectors;
                plugSegments[pl][i] += segments;
                counts[node * TYPES + FRONTMERGE]++;
                return true;
            }
            return false;
        }
        return false;
    }

    // block/blk.h: blk_rq_get_max_sectors
    private long maxRequestSectors(int node, long pos) {
        long chunk = chunkSectors[node];
        return chunk == 0 ? maxSectors[node] : Math.min(maxSectors[node], chunk - pos % chunk);
    }

    private void startPlug(int slot) {
        plug = slot;
        plugN[slot] = 0;
        plugMulti[slot] = false;
    }

    // block/blk-mq.c: blk_mq_flush_plug_list — every plugged request inserted and issued
    private void flushPlug(int slot) {
        int n = plugN[slot];
        for (int i = 0; i < n; i++) {
            int node = plugQueue[slot][i];
            counts[node * TYPES + RQ_INSERT]++;
            counts[node * TYPES + RQ_ISSUE]++;
            inFlight[node]++;
        }
        plugN[slot] = 0;
    }

    // the writer waits: every request completes, then every dm bio above it
    private void completeAll() {
        for (int i = 0; i < inFlight.length; i++) {
            counts[i * TYPES + RQ_COMPLETE] += inFlight[i];
            counts[i * TYPES + BIO_COMPLETE] += dmBios[i];
            inFlight[i] = 0;
            dmBios[i] = 0;
        }
    }
}
