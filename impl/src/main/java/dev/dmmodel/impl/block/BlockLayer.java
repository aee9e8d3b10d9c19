package dev.dmmodel.impl.block;

import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.Partition;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The block layer of one host ({@code block/blk-core.c}, {@code blk-mq.c}, {@code bio.c}): how a submitted bio
 * travels — the partition remap, one {@code block_bio_queue} per bio, the submission loop that runs bios for
 * lower devices first ({@code __submit_bio_noacct}), request-based disks ({@link DiskQueue}) or a bio-based
 * driver's {@code submit_bio} (device-mapper), the submitter's plug, completion, and work handed to kernel
 * threads. Bio-based drivers register their devices with their limits.
 */
public final class BlockLayer {

    /** A bio-based driver's entry points ({@code block_device_operations.submit_bio}). */
    public interface BioBasedDriver {
        /** {@code ->submit_bio}: the driver takes the bio (clones, remaps, resubmits). */
        void submitBio(Bio bio);

        /**
         * Before 4.3: how far a bio being built at {@code sector} may grow as far as the driver is concerned
         * ({@code merge_bvec_fn}); {@link Long#MAX_VALUE} for no limit of its own.
         */
        default long mergeLimit(long sector) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * A request-based stacking driver ({@code blk_mq_ops.queue_rq} of request-based device-mapper,
     * {@code drivers/md/dm-rq.c}): it takes each request its queue issues and clones it onto a device below
     * ({@link #insertClonedRequest}).
     */
    public interface RequestBasedDriver {
        /** {@code ->queue_rq}: the request the device's queue issued. */
        void queueRq(Request rq);
    }

    /** The kernel whose rules apply. */
    public final KernelProfile profile;
    /** The block tracepoints. */
    public final Events events = new Events();
    /** {@code /proc/diskstats}. */
    public final Accounting accounting = new Accounting();
    private final Map<String, DiskQueue> disks = new HashMap<>();
    private final Map<String, Partition> partitions = new HashMap<>();
    private final Map<String, BioBasedDriver> drivers = new HashMap<>();
    /** Bio-based devices' current limits (tunable through sysfs). */
    private final Map<String, Limits> driverLimits = new HashMap<>();
    /** {@code current->bio_list}: non-null while a submission loop runs. */
    private Deque<Bio> bioList;
    /** Work handed to kernel threads (dm-thin's worker, kcopyd), run once the submitter's loop is done. */
    private final Deque<Runnable> deferred = new ArrayDeque<>();
    private boolean runningDeferred;
    /** The first I/O error since it was last read, or null. */
    private String ioError;
    private Plug plug;
    /** kblockd's pending queue runs ({@code hctx->run_work}), in the order they were queued. */
    private final Set<DiskQueue> kblockdRuns = new LinkedHashSet<>();

    /** A block layer under the profile's rules, with no devices yet. */
    public BlockLayer(KernelProfile profile) {
        this.profile = profile;
    }

    /**
     * A request-based disk with its limits ({@code blk_mq_alloc_disk}) and the I/O scheduler its driver gets by
     * default ({@link #defaultElevator}).
     */
    public void addDisk(String name, Limits limits, DiskDriver driver) {
        DiskQueue q = new DiskQueue(name, limits, this, defaultElevator(driver));
        q.fua = fua(driver);
        disks.put(name, q);
    }

    /**
     * Whether a disk of the driver takes FUA writes ({@code queue/fua}): NVMe namespaces of a controller with a
     * volatile write cache do (qemu's: recorded 1); the model's other disks are taken as not (the recorded virtio
     * disks: 0), so a FUA write is a write and a post-flush ({@code blk_insert_flush}).
     */
    // drivers/nvme/host/core.c: nvme_update_disk_info (BLK_FEAT_FUA with NVME_CTRL_VWC_PRESENT)
    static boolean fua(DiskDriver driver) {
        return driver == DiskDriver.NVME;
    }

    /**
     * Whether a disk of the driver gets mq-deadline rather than none. The kernel gives mq-deadline to a queue with
     * one hardware queue and none to one with several or whose driver opts out: SCSI disks behind a single-queue
     * host (scsi_debug, AHCI) get mq-deadline; NVMe and virtio-blk have a queue per CPU, loop and null_blk opt
     * out. A multi-queue SCSI host (virtio-scsi with several queues) would get none; the model does not know a
     * host's queues and gives every SCSI disk mq-deadline.
     */
    // block/elevator.c: elevator_get_default
    static boolean defaultElevator(DiskDriver driver) {
        return switch (driver) {
            case SD, OTHER -> true;
            case NVME, VIRTIO_BLK, LOOP, NULL_BLK -> false;
        };
    }

    /**
     * A request-based stacked device ({@code dm_mq_init_request_queue}): a request queue of its own with the given
     * limits, on which bios become requests (split, plug and scheduler merges as on a disk); each request it issues
     * goes to {@code driver}. Its tag set has one hardware queue, so it gets mq-deadline
     * ({@code elevator_get_default}).
     */
    // drivers/md/dm-rq.c: dm_mq_init_request_queue — nr_hw_queues = 1 (dm_mq_nr_hw_queues), BLK_MQ_F_STACKING
    public void addRequestBased(String name, Limits limits, RequestBasedDriver driver) {
        disks.put(name, new DiskQueue(name, limits, this, true, java.util.Objects.requireNonNull(driver, "driver")));
        accounting.reset(name);
    }

    /** {@code dm_mq_queue_depth}: the tag depth of a request-based dm device (module parameter, default 2048). */
    public static final long DM_MQ_QUEUE_DEPTH = 2048;

    /** {@code BLKDEV_DEFAULT_RQ}. */
    static final long BLKDEV_DEFAULT_RQ = 128;

    /**
     * sysfs {@code queue/nr_requests} of a request-based stacked device; empty for a bio-based device (which has no
     * such file) and for a disk (whose driver's tag depth the model does not know).
     */
    // block/blk-mq-sched.c: blk_mq_init_sched — with a scheduler, nr_requests = 2 * min(queue_depth, BLKDEV_DEFAULT_RQ)
    public java.util.OptionalLong stackedNrRequests(String name) {
        DiskQueue q = disks.get(name);
        if (q == null || q.stacking == null) {
            return java.util.OptionalLong.empty();
        }
        return java.util.OptionalLong.of(q.elevator ? 2 * Math.min(DM_MQ_QUEUE_DEPTH, BLKDEV_DEFAULT_RQ)
                : DM_MQ_QUEUE_DEPTH);
    }

    /**
     * sysfs {@code queue/scheduler} of a device with a request queue ({@code none [mq-deadline]} or
     * {@code [none] mq-deadline}); empty for a bio-based device or a partition, which have none of their own.
     */
    // block/elevator.c: elv_iosched_show
    public java.util.Optional<String> scheduler(String name) {
        DiskQueue q = disks.get(name);
        if (q == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(q.elevator ? "none [mq-deadline]" : "[none] mq-deadline");
    }

    /** A request-based stacked device goes away ({@code del_gendisk}). */
    public void removeRequestBased(String name) {
        DiskQueue q = disks.get(name);
        if (q == null || q.stacking == null) {
            throw new IllegalStateException("no request-based device " + name);
        }
        disks.remove(name);
        accounting.reset(name);
    }

    /**
     * {@code blk_insert_cloned_request}: the clone of {@code original} goes to {@code device}'s queue, traced as
     * {@code block_rq_remap} there (from the stacked device and the original's sector, as {@code map_request}
     * traces it) and issued at once. When the clone completes, {@code endIo} (the target's {@code rq_end_io}) runs
     * and the original completes ({@link #completed}). A clone the device's limits cannot take fails the original.
     */
    // drivers/md/dm-rq.c: map_request (trace_block_rq_remap) -> dm_dispatch_clone_request
    public void insertClonedRequest(Request original, String device, Runnable endIo) {
        DiskQueue q = disks.get(device);
        if (q == null) {
            Partition p = partitions.get(device);
            throw new IllegalStateException("request-based " + original.queue.name + ": path " + device
                    + (p != null ? " is a partition: the model clones requests onto whole disks only"
                    : " has no request queue"));
        }
        Request clone = new Request(q, original, endIo);
        if (events.enabled()) {
            events.emit(device, EventType.RQ_REMAP, clone.rwbs(), clone.sector, clone.sectors,
                    "from=" + original.queue.name + ":" + original.sector);
        }
        // block/blk-mq.c: blk_insert_cloned_request — a read or write beyond the queue's max_sectors
        // (blk_queue_get_max_sectors) or max_segments is refused (BLK_STS_IOERR)
        boolean readWrite = clone.op == Op.READ || clone.op == Op.WRITE;
        if (readWrite && (clone.sectors > q.limits.maxSectors || clone.segments > q.limits.maxSegments)) {
            failRequest(original, device + ": cloned request of " + clone.sectors + " sectors and " + clone.segments
                    + " segments over its limits (blk_insert_cloned_request)");
            return;
        }
        q.issueDirectly(clone);
    }

    /** A request-based stacked device's request fails without a clone ({@code DM_MAPIO_KILL}). */
    // drivers/md/dm-rq.c: dm_kill_unmapped_request -> dm_complete_request(rq, BLK_STS_IOERR)
    public void failRequest(Request original, String why) {
        if (ioError == null) {
            ioError = why;
        }
        if (events.enabled()) {
            events.emit(original.queue.name, EventType.RQ_COMPLETE, original.rwbs(), original.sector,
                    original.sectors, "err=-5");
        }
        for (Bio b : original.bios) {
            if (b.parent != null) {
                endio(b.parent);
            }
        }
    }

    /** A partition of a disk ({@code add_partition}). */
    public void addPartition(Partition p) {
        partitions.put(p.name(), p);
    }

    /** A bio-based device: its driver and limits ({@code blk_alloc_disk}); counters start at zero. */
    public void addBioBased(String name, Limits limits, BioBasedDriver driver) {
        drivers.put(name, driver);
        driverLimits.put(name, limits);
        accounting.reset(name);
    }

    /**
     * A bio-based device's new table is live ({@code dm_swap_table} on resume): its driver and limits are replaced,
     * its counters kept (the gendisk stays).
     */
    public void replaceBioBased(String name, Limits limits, BioBasedDriver driver) {
        if (!drivers.containsKey(name)) {
            throw new IllegalStateException("no bio-based device " + name);
        }
        drivers.put(name, driver);
        driverLimits.put(name, limits);
    }

    /** A bio-based device goes away ({@code del_gendisk}). */
    public void removeBioBased(String name) {
        drivers.remove(name);
        driverLimits.remove(name);
        accounting.reset(name);
    }

    /** The submitter's plug, or null. */
    Plug plug() {
        return plug;
    }

    /** {@code blk_start_plug}: plugs nest; only the outermost flushes. */
    public void startPlug() {
        if (plug == null) {
            plug = new Plug();
        } else {
            plug.depth++;
        }
    }

    /** {@code blk_finish_plug}: the drivers' plug callbacks first, then the plugged requests. */
    // block/blk-core.c: __blk_flush_plug — flush_plug_callbacks, then blk_mq_flush_plug_list
    public void finishPlug() {
        if (plug == null) {
            return;
        }
        if (--plug.depth == 0) {
            Plug p = plug;
            List<Runnable> callbacks = new ArrayList<>(p.callbacks.values());
            p.callbacks.clear();
            callbacks.forEach(Runnable::run);
            flushPlug(p);
            plug = null;
            runDeferred();
        }
    }

    /**
     * {@code blk_check_plugged}: when the submitter holds a plug, {@code unplug} runs once when it flushes (one
     * callback per {@code key}) and this returns true; without a plug it returns false and nothing is registered.
     */
    // block/blk-core.c: blk_check_plugged
    public boolean checkPlugged(Object key, Runnable unplug) {
        if (plug == null) {
            return false;
        }
        plug.callbacks.putIfAbsent(java.util.Objects.requireNonNull(key, "key"),
                java.util.Objects.requireNonNull(unplug, "unplug"));
        return true;
    }

    // block/blk-mq.c: blk_mq_flush_plug_list / blk_mq_dispatch_plug_list — per queue, oldest first
    void flushPlug(Plug p) {
        if (p.requests.isEmpty()) {
            return;
        }
        List<Request> newestFirst = new ArrayList<>(p.requests);
        java.util.Collections.reverse(newestFirst);
        p.requests.clear();
        for (Map.Entry<DiskQueue, List<Request>> e : DiskQueue.byQueue(newestFirst).entrySet()) {
            e.getKey().insertAndIssue(e.getValue());
        }
    }

    /**
     * {@code submit_bio_noacct}: the partition remap, the one {@code block_bio_queue} per bio, then either
     * the caller's running loop takes it ({@code current->bio_list}) or a new loop starts.
     */
    public void submitBioNoacct(Bio bio) {
        Partition part = partitions.get(bio.device);
        if (part != null && !bio.remapped) {
            // block/blk-core.c: blk_partition_remap — reported on the disk, from the partition
            long from = bio.sector;
            bio.sector += part.start().count();
            bio.device = part.disk();
            bio.remapped = true;
            if (events.enabled()) {
                events.emit(bio.device, EventType.BIO_REMAP, bio.rwbs(), bio.sector, bio.sectors,
                        "from=" + part.name() + ":" + from, events.explain
                                ? "partition " + part.name() + " starts at sector " + part.start().count() + " of "
                                        + part.disk() : "");
            }
        }
        if (!bio.traced) {
            if (bio.why != null) {
                events.emit(bio.device, EventType.BIO_QUEUE, bio.rwbs(), bio.sector, bio.sectors, "", bio.why);
            } else {
                events.bio(EventType.BIO_QUEUE, bio);
            }
            bio.traced = true;
        }
        if (bioList != null) {
            bioList.addLast(bio);
            return;
        }
        submitLoop(bio);
        runDeferred();
    }

    /** Whether bios are built to fit the queue (before 4.3) rather than split on entry. */
    public boolean atBuild() {
        return profile.bioShaping() == KernelProfile.BioShaping.AT_BUILD;
    }

    /**
     * Before 4.3: how many sectors a bio starting at {@code sector} of {@code device} may grow to when it is
     * built ({@code blk_max_size_offset} and the driver's {@code merge_bvec_fn}).
     */
    long buildLimit(String device, long sector) {
        long max = queueOf(device).maxSectors;
        BioBasedDriver d = drivers.get(device);
        return d == null ? max : Math.min(max, d.mergeLimit(sector));
    }

    /**
     * A region of a device written or read by dm-io (kcopyd, a target's metadata I/O): one bio of {@code sectors}
     * since 4.3, which the queues below split; before, bios built to fit the device ({@link #buildPieces}), a
     * preflush on the first only.
     */
    // drivers/md/dm-io.c: do_region
    public void submitRegion(String device, Op op, int flags, long sector, long sectors) {
        submitRegion(device, op, flags, sector, sectors, null);
    }

    /**
     * {@link #submitRegion(String, Op, int, long, long)} with what the region is for ({@code trace --why}: a thin
     * block's zeroing, a copy), said on each of its bios' {@code block_bio_queue}; null to say nothing.
     */
    public void submitRegion(String device, Op op, int flags, long sector, long sectors, String why) {
        if (!atBuild() || sectors == 0) {
            Bio bio = new Bio(device, op, flags, sector, sectors, sectors == 0 ? null : pages(sectors));
            bio.why = why;
            submitBioNoacct(bio);
            return;
        }
        boolean first = true;
        for (long[] piece : buildPieces(device, sector, sectors)) {
            Bio bio = new Bio(device, op, first ? flags : flags & ~Bio.PREFLUSH, piece[0], piece[1], pages(piece[1]));
            if (why != null) {
                bio.why = piece[2] == BUILT_WHOLE ? why : why + "; " + buildWhy(device, piece);
            }
            submitBioNoacct(bio);
            first = false;
        }
    }

    /**
     * Before 4.3: the pieces {@code [start, length]} in sectors that bios built page by page for
     * {@code sectors} at {@code start} of {@code device} come out as ({@code bio_get_nr_vecs} vectors, then
     * {@code bio_add_page} stops at {@link #buildLimit} or max_segments). Used by direct I/O and by dm-io for
     * kcopyd ({@code do_region}).
     */
    public List<long[]> buildPieces(String device, long start, long sectors) {
        Limits q = queueOf(device);
        long nrVecs = Bios.bioGetNrVecs(q.maxSegments, q.maxSectors);
        List<long[]> out = new ArrayList<>();
        long bytes = sectors * 512;
        long done = 0;
        while (done < bytes) {
            long at = start + done / 512;
            long limitBytes = buildLimit(device, at) * 512;
            long len = 0;
            long pages = 0;
            long cut = BUILT_WHOLE;
            while (done + len < bytes) {
                long page = Math.min(Bvecs.PAGE, bytes - done - len);
                if (pages > 0 && (pages + 1 > nrVecs || len + page > limitBytes || pages + 1 > q.maxSegments)) {
                    cut = pages + 1 > nrVecs || pages + 1 > q.maxSegments ? BUILT_NR_VECS : BUILT_SIZE_LIMIT;
                    break;
                }
                len += page;
                pages++;
            }
            out.add(new long[] {at, len / 512, cut});
            done += len;
        }
        return out;
    }

    /** {@link #buildPieces}' third number: the piece holds the rest. */
    public static final long BUILT_WHOLE = 0;
    /** {@link #buildPieces}' third number: the bio's vectors ({@code bio_get_nr_vecs}) were all used. */
    public static final long BUILT_NR_VECS = 1;
    /** {@link #buildPieces}' third number: {@link #buildLimit} (max_sectors or the driver's merge_bvec_fn). */
    public static final long BUILT_SIZE_LIMIT = 2;

    /**
     * Why a bio built before 4.3 ({@link #buildPieces}) ended where it did, for {@code trace --why}; empty for a
     * piece that holds the rest.
     */
    public String buildWhy(String device, long[] piece) {
        Limits q = queueOf(device);
        long nrVecs = Bios.bioGetNrVecs(q.maxSegments, q.maxSectors);
        if (piece[2] == BUILT_NR_VECS) {
            return "built to fit " + device + ": bio_get_nr_vecs " + nrVecs + " pages = min(max_segments "
                    + q.maxSegments + ", max_sectors " + q.maxSectors + "/8 + 1, BIO_MAX_PAGES " + Bios.BIO_MAX_VECS
                    + ")";
        }
        if (piece[2] == BUILT_SIZE_LIMIT) {
            BioBasedDriver d = drivers.get(device);
            long merge = d == null ? Long.MAX_VALUE : d.mergeLimit(piece[0]);
            return merge < q.maxSectors
                    ? "built to fit " + device + ": its merge_bvec_fn stops the bio at sector " + (piece[0] + merge)
                    : "built to fit " + device + ": max_sectors=" + q.maxSectors + " (blk_max_size_offset)";
        }
        return "";
    }

    /** The queue limits a bio for the device meets first: a partition's disk, a bio-based device's own. */
    public Limits queueLimits(String device) {
        return queueOf(device);
    }

    /** Hands work to a kernel thread (it runs after the current submission). */
    public void defer(Runnable work) {
        deferred.addLast(work);
    }

    private void runDeferred() {
        if (runningDeferred) {
            return;
        }
        runningDeferred = true;
        // the work runs in a kernel thread, not in the submitter's task: the submitter's plug is not its plug
        Plug submitters = plug;
        plug = null;
        try {
            while (!deferred.isEmpty()) {
                deferred.pollFirst().run();
            }
        } finally {
            runningDeferred = false;
            plug = submitters;
        }
    }

    /** Completes a bio without I/O below ({@code bio_endio}). */
    public void complete(Bio bio) {
        if (bio.parent != null) {
            endio(bio.parent);
        }
    }

    /** Fails a bio ({@code bio_io_error}); the error is reported to the submitter. */
    public void fail(Bio bio, String why) {
        if (ioError == null) {
            ioError = why;
        }
        complete(bio);
    }

    /** The first I/O error since the last call, or null. */
    public String takeIoError() {
        String e = ioError;
        ioError = null;
        return e;
    }

    /** Zero pages for a kernel-internal bio of {@code sectors}. */
    public Bvecs pages(long sectors) {
        return Bvecs.regular(Bvecs.PAGE, 0, sectors * 512);
    }

    /** Whether discards of {@code sectors} can go to the device ({@code bdev_max_discard_sectors}). */
    public boolean supportsDiscard(String device, long sectors) {
        Limits l = queueOf(device);
        return l.maxDiscardSectors != 0 && l.maxDiscardSectors >= sectors;
    }

    /** The device's discard granularity in bytes. */
    public long discardGranularity(String device) {
        return queueOf(device).discardGranularity;
    }

    /** A partition's start on its disk, 0 for other devices ({@code get_start_sect}). */
    public long startSector(String device) {
        Partition p = partitions.get(device);
        return p == null ? 0 : p.start().count();
    }

    private final Deque<Bio> pending = new ArrayDeque<>();
    private final Deque<Bio> scratch = new ArrayDeque<>();
    private final ArrayList<Bio> lower = new ArrayList<>();
    private final ArrayList<Bio> same = new ArrayList<>();

    // block/blk-core.c: __submit_bio_noacct — bios for lower devices run before those for the same one
    private void submitLoop(Bio first) {
        pending.clear();
        Bio bio = first;
        while (bio != null) {
            scratch.clear();
            bioList = scratch;
            String level = bio.device;
            submit(bio);
            bioList = null;
            if (!scratch.isEmpty()) {
                lower.clear();
                same.clear();
                for (Bio b : scratch) {
                    (b.device.equals(level) ? same : lower).add(b);
                }
                for (int i = same.size() - 1; i >= 0; i--) {
                    pending.addFirst(same.get(i));
                }
                for (int i = lower.size() - 1; i >= 0; i--) {
                    pending.addFirst(lower.get(i));
                }
            }
            bio = pending.pollFirst();
        }
    }

    // block/blk-core.c: __submit_bio — blk-mq disks, or the bio-based driver's submit_bio
    private void submit(Bio bio) {
        DiskQueue q = disks.get(bio.device);
        if (q != null) {
            q.submit(bio);
            return;
        }
        BioBasedDriver d = drivers.get(bio.device);
        if (d != null) {
            d.submitBio(bio);
            return;
        }
        throw new IllegalStateException("no queue for " + bio.device);
    }

    void completed(Request rq) {
        // block/blk-mq.c: blk_account_io_done — one I/O per request, on the disk and on the partition it starts in
        accounting.io(rq.queue.name, rq.op, rq.sectors);
        for (Partition p : partitions.values()) {
            if (p.disk().equals(rq.queue.name) && rq.sector >= p.start().count() && rq.sector < p.end().count()) {
                accounting.io(p.name(), rq.op, rq.sectors);
            }
        }
        for (Bio b : rq.bios) {
            if (b.parent != null) {
                endio(b.parent);
            }
        }
        if (rq.original != null) {
            completeOriginal(rq);
        }
    }

    // drivers/md/dm-rq.c: end_clone_bio — the last clone bio updates the original by all its bytes
    // (blk_update_request: block_rq_complete with its sectors, which ends its bios); then end_clone_request ->
    // dm_done: the target's rq_end_io, and dm_end_request -> blk_mq_end_request(orig), whose blk_update_request
    // has nothing left: a second block_rq_complete of 0 sectors at the same sector
    private void completeOriginal(Request clone) {
        Request orig = clone.original;
        boolean trace = events.enabled();
        if (trace) {
            events.emit(orig.queue.name, EventType.RQ_COMPLETE, orig.rwbs(), orig.sector, orig.sectors, "err=0");
        }
        for (Bio b : orig.bios) {
            if (b.parent != null) {
                endio(b.parent);
            }
        }
        if (clone.endIo != null) {
            clone.endIo.run();
        }
        if (trace) {
            events.emit(orig.queue.name, EventType.RQ_COMPLETE, orig.rwbs(), orig.sector, 0, "err=0");
        }
        // blk_account_io_done for the original, on the stacked device
        accounting.io(orig.queue.name, orig.op, orig.sectors);
    }

    /** {@code bio_endio}: a chained parent completes when its last piece does; dm bios are traced. */
    // block/bio.c: bio_endio
    public void endio(Bio bio) {
        if (--bio.remaining > 0) {
            return;
        }
        if (bio.endIo != null) {
            // drivers/md/dm.c: clone_endio — the target's end_io before the original bio completes
            Runnable r = bio.endIo;
            bio.endIo = null;
            r.run();
        }
        if (bio.dmBio) {
            events.emit(bio.device, EventType.BIO_COMPLETE, bio.rwbs(), bio.sector, bio.sectors, "err=0");
        }
        if (bio.parent != null) {
            endio(bio.parent);
        }
    }

    /** Queues a run of the disk's queue on kblockd, which dispatches what waits in its scheduler. */
    // block/blk-mq.c: blk_mq_run_hw_queue(hctx, true) — kblockd_mod_delayed_work_on
    void runQueueFromKblockd(DiskQueue q) {
        kblockdRuns.add(q);
    }

    /**
     * Completes everything issued (the submitter waits for its I/O). The submitter sleeping lets kblockd's worker
     * on its CPU run first: the queue runs handed to it dispatch what waits in the schedulers.
     */
    public void completeAll() {
        for (DiskQueue q : kblockdRuns) {
            q.dispatchScheduled();
        }
        kblockdRuns.clear();
        for (DiskQueue q : disks.values()) {
            q.completeAll();
        }
    }

    /** The request queue of a disk, or null. */
    DiskQueue disk(String name) {
        return disks.get(name);
    }

    /** The queue limits I/O to a device meets first: a partition's disk, a dm device's own. */
    private Limits queueOf(String name) {
        Partition p = partitions.get(name);
        if (p != null) {
            return queueOf(p.disk());
        }
        DiskQueue q = disks.get(name);
        if (q != null) {
            return q.limits;
        }
        return driverLimits.get(name);
    }

    /** {@code bdi->ra_pages}: read_ahead_kb in pages. */
    public long raPages(String device) {
        return queueOf(device).readAheadKb / 4;
    }

    /** {@code bdi->io_pages}: max_sectors_kb in pages. */
    public long ioPages(String device) {
        return queueOf(device).maxSectors / 8;
    }

    /** {@code max_sectors_kb} written through sysfs; false when the kernel refuses it (EINVAL). */
    // block/blk-sysfs.c: queue_max_sectors_store
    public boolean storeMaxSectorsKb(String device, long kb) {
        Limits l = queueOf(device);
        try {
            dev.dmmodel.impl.block.BlockLimits.storeMaxSectorsKb(device, l, kb, profile);
            return true;
        } catch (dev.dmmodel.layout.LayoutException e) {
            return false;
        }
    }

    /** {@code read_ahead_kb} written through sysfs. */
    // block/blk-sysfs.c: queue_ra_store
    public void storeReadAheadKb(String device, long kb) {
        queueOf(device).readAheadKb = kb;
    }

    /** Discards {@code sectors} at {@code sector} of the device; the last bio carries {@code lastFlags}. */
    // block/blk-lib.c: __blkdev_issue_discard — bios up to the discard limit, aligned to the granularity
    public void issueDiscard(String device, long sector, long sectors, int lastFlags) {
        long gran = Math.max(discardGranularity(device) / 512, 1);
        long start = startSector(device);
        long done = 0;
        while (done < sectors) {
            long s = sector + done;
            long abs = s + start;
            long aligned = (abs + gran - 1) / gran * gran;
            long limit = aligned != abs ? aligned - abs : (0xFFFF_FFFFL / 512) / gran * gran;
            long len = Math.min(sectors - done, limit);
            boolean last = done + len == sectors;
            submitBioNoacct(new Bio(device, Op.DISCARD, last ? lastFlags : 0, s, len, null));
            done += len;
        }
    }
}
