package dev.dmmodel.impl.block;

import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.trace.EventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request-based (blk-mq) disk: bios are split to its limits, merged into plugged requests or into requests
 * waiting in its I/O scheduler, and issued ({@code block/blk-mq.c: blk_mq_submit_bio}).
 */
final class DiskQueue {
    final String name;
    Limits limits;
    private final BlockLayer kernel;
    /** Whether the queue has an I/O scheduler (mq-deadline) rather than none. */
    final boolean elevator;
    final List<Request> inFlight = new ArrayList<>();
    /** Requests inserted into the scheduler and not yet dispatched, oldest first. */
    private final List<Request> scheduled = new ArrayList<>();

    /** The stacking driver that takes issued requests ({@code ->queue_rq} of request-based dm), or null for a disk. */
    final BlockLayer.RequestBasedDriver stacking;

    DiskQueue(String name, Limits limits, BlockLayer kernel, boolean elevator) {
        this(name, limits, kernel, elevator, null);
    }

    /** Whether the queue takes REQ_FUA ({@code queue/fua}); set by {@link BlockLayer#addDisk}. */
    boolean fua;

    DiskQueue(String name, Limits limits, BlockLayer kernel, boolean elevator, BlockLayer.RequestBasedDriver stacking) {
        this.name = name;
        this.limits = limits;
        this.kernel = kernel;
        this.elevator = elevator;
        this.stacking = stacking;
    }

    // block/blk-mq.c: blk_mq_submit_bio
    void submit(Bio bio) {
        if (bio.sectors == 0 && bio.has(Bio.PREFLUSH)) {
            // block/blk-flush.c: an empty preflush becomes a flush request (rwbs FF, sector 0)
            kernel.events.bio(EventType.GETRQ, bio);
            Request rq = new Request(this, bio, 0);
            rq.flushRequest();
            insertAndIssue(List.of(rq));
            return;
        }
        Splitter.Result r = Splitter.check(bio, limits);
        Bio piece = bio;
        boolean splits = kernel.profile.bioShaping() == dev.dmmodel.limits.KernelProfile.BioShaping.ON_ENTRY;
        if (splits && r.splitSectors() > 0 && r.splitSectors() < bio.sectors) {
            // block/blk-merge.c: __bio_split_to_limits — the first piece goes on, marked REQ_NOMERGE
            piece = bio.clone(0, r.splitSectors());
            piece.flags |= Bio.NOMERGE;
            piece.device = name;
            piece.parent = bio.parent;
            if (bio.parent != null) {
                bio.parent.remaining++;
            }
            bio.advance(r.splitSectors());
            if (kernel.events.enabled()) {
                kernel.events.emit(name, EventType.SPLIT, piece.rwbs(), piece.sector, -1, "new_sector=" + bio.sector,
                        kernel.events.explain ? Splitter.why(r, piece.sector, limits) + " of " + name : "");
            }
            kernel.submitBioNoacct(bio);
        }
        Plug plug = kernel.plug();
        if (plug != null && attemptPlugMerge(plug, piece, r.segments())) {
            return;
        }
        if (attemptSchedulerMerge(piece, r.segments())) {
            return;
        }
        Request rq = new Request(this, piece, r.segments());
        kernel.events.bio(EventType.GETRQ, piece);
        if (piece.has(Bio.FUA) && !fua) {
            // block/blk-flush.c: blk_insert_flush — a queue without FUA (the recorded virtio disks' queue/fua is 0)
            // drops REQ_FUA from the data request and flushes after it (an empty post-flush request): the write is
            // issued as plain W; a queue with FUA (NVMe, queue/fua 1) issues it as WFS
            rq.flags &= ~Bio.FUA;
        }
        if (plug != null) {
            addToPlug(plug, rq);
        } else if (elevator && kernel.profile.unpluggedRequestsWaitInScheduler()) {
            insertForKblockd(rq);
        } else {
            insertAndIssue(List.of(rq));
        }
    }

    // block/blk-mq.c: blk_mq_submit_bio without a plug — blk_mq_insert_request, then blk_mq_run_hw_queue(async)
    private void insertForKblockd(Request rq) {
        if (kernel.events.enabled()) {
            kernel.events.emit(name, EventType.RQ_INSERT, rq.rwbs(), rq.sector, rq.sectors, "bytes=" + rq.sectors * 512);
        }
        scheduled.add(rq);
        kernel.runQueueFromKblockd(this);
    }

    // block/mq-deadline.c: dd_bio_merge / block/elevator.c: elv_merge — a request ending where the bio starts
    // (the hash of request ends), else one starting where it ends (the sort tree's front merge)
    private boolean attemptSchedulerMerge(Bio bio, int segments) {
        if (scheduled.isEmpty()) {
            return false;
        }
        for (int i = scheduled.size() - 1; i >= 0; i--) {
            Request rq = scheduled.get(i);
            if (rq.mergeable && rq.end() == bio.sector) {
                return attemptBioMerge(rq, bio, segments);
            }
        }
        for (int i = scheduled.size() - 1; i >= 0; i--) {
            Request rq = scheduled.get(i);
            if (rq.mergeable && bio.end() == rq.sector) {
                return attemptBioMerge(rq, bio, segments);
            }
        }
        return false;
    }

    // block/blk-merge.c: blk_attempt_plug_merge — the newest plugged request of this queue only
    private boolean attemptPlugMerge(Plug plug, Bio bio, int segments) {
        for (int i = plug.requests.size() - 1; i >= 0; i--) {
            Request rq = plug.requests.get(i);
            if (rq.queue == this) {
                return attemptBioMerge(rq, bio, segments);
            }
            if (!plug.multipleQueues) {
                break;
            }
        }
        return false;
    }

    // block/blk-merge.c: blk_attempt_bio_merge / ll_back_merge_fn / ll_front_merge_fn
    private boolean attemptBioMerge(Request rq, Bio bio, int segments) {
        if (!rq.mergeable || bio.has(Bio.NOMERGE) || bio.has(Bio.PREFLUSH) || bio.has(Bio.FUA)
                || rq.op != bio.op || !bio.op.hasData()) {
            return false;
        }
        if (rq.segments + segments > limits.maxSegments) {
            return false;
        }
        if (rq.end() == bio.sector) {
            if (willGap(rq.bios.get(0), rq.bios.get(rq.bios.size() - 1), bio)) {
                return false;
            }
            if (rq.sectors + bio.sectors > maxRequestSectors(rq.sector)) {
                return false;
            }
            rq.sectors += bio.sectors;
            rq.segments += segments;
            rq.bios.add(bio);
            kernel.events.bio(EventType.BIO_BACKMERGE, bio);
            kernel.accounting.merge(name, bio.op);
            return true;
        }
        if (bio.end() == rq.sector) {
            if (willGap(bio, bio, rq.bios.get(0))) {
                return false;
            }
            if (rq.sectors + bio.sectors > maxRequestSectors(bio.sector)) {
                return false;
            }
            rq.sector = bio.sector;
            rq.sectors += bio.sectors;
            rq.segments += segments;
            rq.bios.add(bio);
            kernel.events.bio(EventType.BIO_FRONTMERGE, bio);
            kernel.accounting.merge(name, bio.op);
            return true;
        }
        return false;
    }

    // block/blk.h: bio_will_gap — with a virt boundary, no merge into a request whose first bio starts off a
    // boundary, nor across a gap between the previous bio's last vector and the next bio's first
    private boolean willGap(Bio first, Bio prev, Bio next) {
        long mask = limits.virtBoundaryMask;
        if (mask == 0 || first.data == null || prev.data == null || next.data == null) {
            return false;
        }
        if ((first.data.firstAddress() & mask) != 0) {
            return true;
        }
        long prevEnd = prev.data.endAddress();
        long nextStart = next.data.firstAddress();
        if (prevEnd == nextStart) {
            return false; // biovec_phys_mergeable
        }
        return (nextStart & mask) != 0 || (prevEnd & mask) != 0;
    }

    // block/blk.h: blk_rq_get_max_sectors — max_sectors, and the distance to the next chunk boundary
    private long maxRequestSectors(long pos) {
        long max = limits.maxSectors;
        if (limits.chunkSectors == 0) {
            return max;
        }
        return Math.min(max, limits.chunkSectors - pos % limits.chunkSectors);
    }

    // block/blk-mq.c: blk_add_rq_to_plug — flush first when full or when the newest request reached 128 KiB
    private void addToPlug(Plug plug, Request rq) {
        Request last = plug.last();
        if (!plug.requests.isEmpty()) {
            int perQueue = kernel.profile.plugMaxRequests();
            int max = plug.multipleQueues ? 2 * perQueue : perQueue;
            long flushBytes = kernel.profile.plugFlushBytes();
            if (plug.requests.size() >= max || (flushBytes > 0 && last.sectors * 512 >= flushBytes)) {
                kernel.flushPlug(plug);
                last = null;
            }
        }
        if (!plug.multipleQueues && last != null && last.queue != this) {
            plug.multipleQueues = true;
        }
        plug.requests.add(rq);
    }

    // block/blk-mq.c: blk_mq_insert_request + blk_mq_run_hw_queue — inserted, then issued at once, after the
    // requests already waiting in the scheduler
    void insertAndIssue(List<Request> rqs) {
        boolean trace = kernel.events.enabled();
        for (Request rq : rqs) {
            if (trace) {
                kernel.events.emit(name, EventType.RQ_INSERT, rq.rwbs(), rq.sector, rq.sectors,
                        "bytes=" + rq.sectors * 512);
            }
        }
        dispatchScheduled();
        for (Request rq : rqs) {
            issue(rq);
        }
    }

    /**
     * The queue run: every request waiting in the scheduler is issued. mq-deadline ({@code dd_dispatch_request})
     * starts from the oldest and goes on in sector order from the last one it issued; the model issues them in
     * the order they were inserted, which is the same for the ascending writes it models.
     */
    void dispatchScheduled() {
        for (Request rq : scheduled) {
            issue(rq);
        }
        scheduled.clear();
    }

    private void issue(Request rq) {
        if (kernel.events.enabled()) {
            kernel.events.emit(name, EventType.RQ_ISSUE, rq.rwbs(), rq.sector, rq.sectors, "bytes=" + rq.sectors * 512);
        }
        if (stacking != null) {
            // block/blk-mq.c: blk_mq_dispatch_rq_list -> ->queue_rq (drivers/md/dm-rq.c: dm_mq_queue_rq)
            stacking.queueRq(rq);
            return;
        }
        inFlight.add(rq);
    }

    // block/blk-mq.c: blk_insert_cloned_request -> blk_mq_request_issue_directly — a clone bypasses this queue's
    // scheduler and plug: issued at once, no block_rq_insert
    void issueDirectly(Request clone) {
        issue(clone);
    }

    /** Completes every issued request, oldest first. */
    void completeAll() {
        for (Request rq : inFlight) {
            kernel.events.emit(name, EventType.RQ_COMPLETE, rq.rwbs(), rq.sector, rq.sectors, "err=0");
            kernel.completed(rq);
        }
        inFlight.clear();
    }

    static Map<DiskQueue, List<Request>> byQueue(List<Request> newestFirst) {
        Map<DiskQueue, List<Request>> m = new LinkedHashMap<>();
        for (Request rq : newestFirst) {
            m.computeIfAbsent(rq.queue, q -> new ArrayList<>()).add(0, rq);
        }
        return m;
    }
}
