package dev.dmmodel.impl.engine;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.limits.Limits;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The block layer of one host: how a submitted bio travels through partitions and device-mapper
 * devices to request-based disks ({@code block/blk-core.c: submit_bio_noacct}, {@code __submit_bio_noacct},
 * {@code drivers/md/dm.c: dm_submit_bio}).
 */
final class Kernel {
    final KernelProfile profile;
    final Events events = new Events();
    final Accounting accounting = new Accounting();
    private final Map<String, DiskQueue> disks = new HashMap<>();
    private final Map<String, Partition> partitions = new HashMap<>();
    private final Map<String, DmNode> dms = new HashMap<>();
    private final Map<String, BlockDevice> devices = new HashMap<>();
    /** dm devices' current limits (tunable through sysfs). */
    private final Map<String, Limits> dmLimits = new HashMap<>();
    /** {@code current->bio_list}: non-null while a submission loop runs. */
    private Deque<Bio> bioList;
    /** Work handed to kernel threads (dm-thin's worker, kcopyd), run once the submitter's loop is done. */
    private final Deque<Runnable> deferred = new ArrayDeque<>();
    private boolean runningDeferred;
    /** The first I/O error since it was last read, or null. */
    private String ioError;
    final ThinIo thin = new ThinIo(this);
    private Plug plug;

    /** A dm device: its table's targets with their models. */
    private record DmNode(DmDevice device, List<DmTarget> targets, List<TargetModel> models) {
        int targetAt(long sector) {
            for (int i = 0; i < targets.size(); i++) {
                if (sector < targets.get(i).end().count()) {
                    return i;
                }
            }
            throw new IllegalArgumentException("sector " + sector + " beyond " + device.name());
        }
    }

    private final List<dev.dmmodel.dm.ThinTarget> thinTargets = new ArrayList<>();
    /** Pool device (kernel name) to the transaction id LVM's metadata gives its pool. */
    final Map<String, Long> lvmTransactionIds = new HashMap<>();

    Kernel(Layout layout) {
        this.profile = layout.profile();
        for (BlockDevice d : layout.devices()) {
            devices.put(d.name(), d);
            if (d instanceof Disk disk) {
                disks.put(d.name(), new DiskQueue(d.name(), Limits.of(disk.limits()), this));
            } else if (d instanceof Partition p) {
                partitions.put(d.name(), p);
            } else if (d instanceof DmDevice dm) {
                List<TargetModel> models = new ArrayList<>();
                for (DmTarget t : dm.table().targets()) {
                    models.add(TargetModel.of(t, n -> layout.device(n).size().count()));
                }
                dms.put(d.name(), new DmNode(dm, dm.table().targets(), models));
                for (DmTarget t : dm.table().targets()) {
                    if (t instanceof dev.dmmodel.dm.ThinTarget tt) {
                        thinTargets.add(tt);
                    }
                }
                dmLimits.put(d.name(), Limits.of(dm.limits()));
            }
        }
        // LVM keeps the kernel pool's transaction id in step with its metadata (lib/thin/thin.c: transaction_id)
        for (dev.dmmodel.lvm.VolumeGroup vg : layout.volumeGroups()) {
            for (dev.dmmodel.lvm.LogicalVolume lv : vg.logicalVolumes()) {
                lv.thinPool().ifPresent(tp -> {
                    for (String dmName : List.of(dev.dmmodel.lvm.LogicalVolume.dmName(vg.name(), lv.name(), "tpool"),
                            dev.dmmodel.lvm.LogicalVolume.dmName(vg.name(), lv.name()))) {
                        layout.find("/dev/mapper/" + dmName).filter(d -> d instanceof DmDevice dm && dm.table()
                                .targets().stream().anyMatch(t -> t instanceof dev.dmmodel.dm.ThinPoolTarget))
                                .ifPresent(d -> lvmTransactionIds.putIfAbsent(d.name(), tp.transactionId()));
                    }
                });
            }
        }
    }

    /**
     * {@code DM_DEV_CREATE} + table load + resume of a device LVM activates while the workload runs: the
     * device joins with its computed limits; thin ids its table names must already exist in the pool.
     */
    // drivers/md/dm-ioctl.c: dev_create, table_load, do_resume
    void addDm(DmDevice dm, Limits limits) {
        if (devices.containsKey(dm.name())) {
            throw new IllegalStateException("dm device " + dm.name() + " already exists");
        }
        List<TargetModel> models = new ArrayList<>();
        for (DmTarget t : dm.table().targets()) {
            models.add(TargetModel.of(t, n -> devices.get(n).size().count()));
        }
        devices.put(dm.name(), dm);
        dms.put(dm.name(), new DmNode(dm, dm.table().targets(), models));
        dmLimits.put(dm.name(), limits);
        accounting.reset(dm.name());
    }

    /** {@code DM_DEV_REMOVE}: the device and its counters are gone; nothing may be stacked on it. */
    // drivers/md/dm-ioctl.c: dev_remove
    void removeDm(String name) {
        for (DmNode n : dms.values()) {
            if (n.device().table().devices().contains(name)) {
                throw new IllegalStateException("dm device " + name + " is in use by " + n.device().name());
            }
        }
        if (dms.remove(name) == null) {
            throw new IllegalStateException("no dm device " + name);
        }
        devices.remove(name);
        dmLimits.remove(name);
        accounting.reset(name);
    }

    /** Registers the thin devices the tables name (after construction, when pools can be looked up). */
    void registerThinDevices() {
        for (dev.dmmodel.dm.ThinTarget t : thinTargets) {
            thin.registerFromTable(t);
        }
    }

    BlockDevice device(String name) {
        return devices.get(name);
    }

    Plug plug() {
        return plug;
    }

    /** {@code blk_start_plug}: plugs nest; only the outermost flushes. */
    void startPlug() {
        if (plug == null) {
            plug = new Plug();
        } else {
            plug.depth++;
        }
    }

    /** {@code blk_finish_plug}. */
    void finishPlug() {
        if (plug == null) {
            return;
        }
        if (--plug.depth == 0) {
            Plug p = plug;
            flushPlug(p);
            plug = null;
        }
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
    void submitBioNoacct(Bio bio) {
        Partition part = partitions.get(bio.device);
        if (part != null && !bio.remapped) {
            // block/blk-core.c: blk_partition_remap — reported on the disk, from the partition
            long from = bio.sector;
            bio.sector += part.start().count();
            bio.device = part.disk();
            bio.remapped = true;
            if (events.enabled()) {
                events.emit(bio.device, EventType.BIO_REMAP, bio.rwbs(), bio.sector, bio.sectors,
                        "from=" + part.name() + ":" + from);
            }
        }
        if (!bio.traced) {
            events.bio(EventType.BIO_QUEUE, bio);
            bio.traced = true;
        }
        if (bioList != null) {
            bioList.addLast(bio);
            return;
        }
        submitLoop(bio);
        runDeferred();
    }

    boolean atBuild() {
        return profile.bioShaping() == KernelProfile.BioShaping.AT_BUILD;
    }

    /**
     * Before 4.3: how many sectors a bio starting at {@code sector} of {@code device} may grow to when it is
     * built ({@code blk_max_size_offset} and, for dm, {@code dm_merge_bvec}: the target boundary or
     * max_io_len, and the dm queue's max_sectors).
     */
    long buildLimit(String device, long sector) {
        Limits q = queueOf(device);
        long max = q.maxSectors;
        DmNode dm = dms.get(device);
        if (dm != null) {
            int i = dm.targetAt(sector);
            DmTarget ti = dm.targets().get(i);
            max = Math.min(max, maxIoLen(dm, ti, dm.models().get(i), sector - ti.start().count(), Op.WRITE));
        }
        return max;
    }

    /**
     * Before 4.3: the pieces {@code [start, length]} in sectors that bios built page by page for
     * {@code sectors} at {@code start} of {@code device} come out as ({@code bio_get_nr_vecs} vectors, then
     * {@code bio_add_page} stops at {@link #buildLimit} or max_segments). Used by direct I/O and by dm-io for
     * kcopyd ({@code do_region}).
     */
    List<long[]> buildPieces(String device, long start, long sectors) {
        Limits q = queueOf(device);
        long nrVecs = dev.dmmodel.impl.block.Bios.bioGetNrVecs(q.maxSegments, q.maxSectors);
        List<long[]> out = new ArrayList<>();
        long bytes = sectors * 512;
        long done = 0;
        while (done < bytes) {
            long at = start + done / 512;
            long limitBytes = buildLimit(device, at) * 512;
            long len = 0;
            long pages = 0;
            while (done + len < bytes) {
                long page = Math.min(Bvecs.PAGE, bytes - done - len);
                if (pages > 0 && (pages + 1 > nrVecs || len + page > limitBytes || pages + 1 > q.maxSegments)) {
                    break;
                }
                len += page;
                pages++;
            }
            out.add(new long[] {at, len / 512});
            done += len;
        }
        return out;
    }

    /** The queue limits a bio for the device meets first (see {@link #queueOf}). */
    Limits queueLimits(String device) {
        return queueOf(device);
    }

    /** Hands work to a kernel thread (it runs after the current submission). */
    void defer(Runnable work) {
        deferred.addLast(work);
    }

    private void runDeferred() {
        if (runningDeferred) {
            return;
        }
        runningDeferred = true;
        try {
            while (!deferred.isEmpty()) {
                deferred.pollFirst().run();
            }
        } finally {
            runningDeferred = false;
        }
    }

    /** Completes a bio without I/O below ({@code bio_endio}). */
    void complete(Bio bio) {
        if (bio.parent != null) {
            endio(bio.parent);
        }
    }

    /** Fails a bio ({@code bio_io_error}); the error is reported to the submitter. */
    void fail(Bio bio, String why) {
        if (ioError == null) {
            ioError = why;
        }
        complete(bio);
    }

    /** The first I/O error since the last call, or null. */
    String takeIoError() {
        String e = ioError;
        ioError = null;
        return e;
    }

    /** Zero pages for a kernel-internal bio of {@code sectors}. */
    Bvecs pages(long sectors) {
        return new UserBuffer(Bvecs.PAGE).vectors(0, sectors * 512);
    }

    /** Whether discards of {@code sectors} can go to the device ({@code bdev_max_discard_sectors}). */
    boolean supportsDiscard(String device, long sectors) {
        Limits l = queueOf(device);
        return l.maxDiscardSectors != 0 && l.maxDiscardSectors >= sectors;
    }

    long discardGranularity(String device) {
        return queueOf(device).discardGranularity;
    }

    long startSector(String device) {
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
        DmNode dm = dms.get(bio.device);
        if (dm != null) {
            dmSubmit(dm, bio);
            return;
        }
        throw new IllegalStateException("no queue for " + bio.device);
    }

    // drivers/md/dm.c: dm_submit_bio / dm_split_and_process_bio — one clone per call, the rest resubmitted
    private void dmSubmit(DmNode dm, Bio bio) {
        bio.dmBio = true;
        if (bio.sectors == 0 && bio.has(Bio.PREFLUSH)) {
            emptyFlush(dm, bio);
            return;
        }
        if (bio.op == Op.DISCARD || bio.op == Op.WRITE_ZEROES) {
            // drivers/md/dm.c: dm_split_and_process_bio — abnormal I/O is split to the dm device's own limits
            Splitter.Result r = Splitter.check(bio, dmLimits.get(dm.device().name()));
            if (r.splitSectors() > 0 && r.splitSectors() < bio.sectors) {
                Bio first = bio.clone(0, r.splitSectors());
                first.dmBio = true;
                first.traced = true;
                first.parent = bio.parent;
                if (bio.parent != null) {
                    bio.parent.remaining++;
                }
                bio.advance(r.splitSectors());
                events.emit(dm.device().name(), EventType.SPLIT, first.rwbs(), first.sector, -1,
                        "new_sector=" + bio.sector);
                submitBioNoacct(bio);
                bio = first;
            }
        }
        int i = dm.targetAt(bio.sector);
        DmTarget ti = dm.targets().get(i);
        TargetModel model = dm.models().get(i);
        long offset = bio.sector - ti.start().count();
        long len = Math.min(maxIoLen(dm, ti, model, offset, bio.op), bio.sectors);
        // drivers/md/dm.c: dm_start_io_acct — one I/O per dm_io: per bio entering dm_submit_bio (4.3+),
        // per original bio before (_dm_request)
        if (!atBuild() || !bio.dmAccounted) {
            accounting.io(dm.device().name(), bio.op, atBuild() ? bio.sectors : len);
            bio.dmAccounted = true;
        }
        Bio clone = bio.clone(0, len);
        clone.parent = bio;
        bio.remaining++;
        if (ti instanceof dev.dmmodel.dm.ThinTarget thinTarget) {
            thin.map(dm.device().name(), thinTarget, bio, clone, offset);
            remainder(dm, bio, len);
            return;
        }
        if (model instanceof dev.dmmodel.impl.dm.ZeroLike z) {
            // dm-zero / dm-error: complete without I/O below
            if (z.fails()) {
                fail(clone, dm.device().name() + ": Input/output error (error target)");
            } else {
                complete(clone);
            }
            remainder(dm, bio, len);
            return;
        }
        if ((bio.op == Op.DISCARD || bio.op == Op.WRITE_ZEROES)
                && model instanceof dev.dmmodel.impl.dm.StripedModel striped) {
            // drivers/md/dm-stripe.c: stripe_map — an abnormal bio goes once to every stripe (num_discard_bios)
            bio.remaining--;
            for (int stripe = 0; stripe < striped.stripeCount(); stripe++) {
                long[] range = striped.mapRange(stripe, offset, len);
                if (range == null) {
                    continue;
                }
                Bio piece = new Bio(striped.stripeDevice(stripe), bio.op, bio.flags, range[0], range[1], null);
                piece.parent = bio;
                bio.remaining++;
                if (events.enabled()) {
                    events.emit(piece.device, EventType.BIO_REMAP, piece.rwbs(), piece.sector, piece.sectors,
                            "from=" + dm.device().name() + ":" + bio.sector);
                }
                submitBioNoacct(piece);
            }
            remainder(dm, bio, len);
            return;
        }
        TargetModel.Remap r = model.map(offset);
        clone.device = r.device();
        clone.sector = r.sector();
        // drivers/md/dm.c: __map_bio — trace_block_bio_remap(clone, original device, original sector)
        if (events.enabled()) {
            events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, clone.sectors,
                    "from=" + dm.device().name() + ":" + bio.sector);
        }
        submitBioNoacct(clone);
        remainder(dm, bio, len);
    }

    // drivers/md/dm.c: __send_empty_flush — an empty flush clone to every device of every target
    private void emptyFlush(DmNode dm, Bio bio) {
        accounting.io(dm.device().name(), Op.FLUSH, 0);
        bio.remaining++;
        for (int i = 0; i < dm.targets().size(); i++) {
            DmTarget ti = dm.targets().get(i);
            if (ti instanceof dev.dmmodel.dm.ThinTarget) {
                continue; // dm-thin defers it to its worker, which commits metadata (not modelled as data I/O)
            }
            for (TargetModel.DeviceArea a : dm.models().get(i).iterateDevices()) {
                Bio clone = new Bio(a.device(), Op.WRITE, bio.flags, a.start(), 0, null);
                clone.parent = bio;
                bio.remaining++;
                events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, 0,
                        "from=" + dm.device().name() + ":" + bio.sector);
                submitBioNoacct(clone);
            }
        }
        endio(bio);
    }

    // drivers/md/dm.c: dm_split_and_process_bio — the rest is trimmed, traced as a split, and resubmitted
    private void remainder(DmNode dm, Bio bio, long len) {
        if (len < bio.sectors && atBuild()) {
            // before 4.3: __split_and_process_bio clones every piece in one loop, nothing is traced
            bio.advance(len);
            dmSubmit(dm, bio);
            return;
        }
        if (len < bio.sectors) {
            bio.advance(len);
            if (events.enabled()) {
                events.emit(dm.device().name(), EventType.SPLIT, bio.rwbs(), bio.sector, -1,
                        "new_sector=" + bio.sector);
            }
            submitBioNoacct(bio);
        }
    }

    // drivers/md/dm.c: __max_io_len — to the target's end; with max_io_len also the chunk and dm max_sectors
    private long maxIoLen(DmNode dm, DmTarget ti, TargetModel model, long offset, Op op) {
        long len = ti.length().count() - offset;
        if (op == Op.DISCARD || op == Op.WRITE_ZEROES) {
            // drivers/md/dm.c: __process_abnormal_io — to the target's end; since 6.5 a thin target
            // (max_discard_granularity) also cuts at multiples of its max_discard_sectors
            if (ti instanceof dev.dmmodel.dm.ThinTarget
                    && profile.thinDiscardLimit() == KernelProfile.ThinDiscardLimit.BIO_PRISON_RANGE) {
                long max = dmLimits.get(dm.device().name()).maxDiscardSectors;
                return Math.min(len, max - offset % max);
            }
            return len;
        }
        // dm-thin.c: thin_ctr — dm_set_target_max_io_len(ti, sectors_per_block)
        long granularity = ti instanceof dev.dmmodel.dm.ThinTarget t
                ? thin.poolTarget(t.poolDevice()).blockSectors() : model.maxIoLen();
        if (granularity == 0) {
            return len;
        }
        long left = granularity - offset % granularity;
        return Math.min(len, Math.min(dmLimits.get(dm.device().name()).maxSectors, left));
    }

    void issued(Request rq) {
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
    }

    // block/bio.c: bio_endio — a chained parent completes when its last piece does; dm bios are traced
    void endio(Bio bio) {
        if (--bio.remaining > 0) {
            return;
        }
        if (bio.dmBio) {
            events.emit(bio.device, EventType.BIO_COMPLETE, bio.rwbs(), bio.sector, bio.sectors, "err=0");
        }
        if (bio.parent != null) {
            endio(bio.parent);
        }
    }

    /** Completes everything issued (the submitter waits for its I/O). */
    void completeAll() {
        for (DiskQueue q : disks.values()) {
            q.completeAll();
        }
    }

    DiskQueue disk(String name) {
        return disks.get(name);
    }

    /** The queue limits I/O to a device meets first: a partition's disk, a dm device's own. */
    private Limits queueOf(String name) {
        Partition p = partitions.get(name);
        if (p != null) {
            return disks.get(p.disk()).limits;
        }
        if (disks.containsKey(name)) {
            return disks.get(name).limits;
        }
        return dmLimits.get(name);
    }

    /** {@code bdi->ra_pages}: read_ahead_kb in pages. */
    long raPages(BlockDevice d) {
        return queueOf(d.name()).readAheadKb / 4;
    }

    /** {@code bdi->io_pages}: max_sectors_kb in pages. */
    long ioPages(String device) {
        return queueOf(device).maxSectors / 8;
    }

    // block/blk-sysfs.c: queue_max_sectors_store
    boolean storeMaxSectorsKb(String device, long kb) {
        Limits l = queueOf(device);
        try {
            dev.dmmodel.impl.limits.BlockLimits.storeMaxSectorsKb(device, l, kb, profile);
            return true;
        } catch (dev.dmmodel.layout.LayoutException e) {
            return false;
        }
    }

    // block/blk-sysfs.c: queue_ra_store
    void storeReadAheadKb(String device, long kb) {
        queueOf(device).readAheadKb = kb;
    }
}
