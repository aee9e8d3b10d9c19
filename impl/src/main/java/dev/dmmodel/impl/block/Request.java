package dev.dmmodel.impl.block;

/** A {@code struct request} on a request-based queue: merged bios, sector range, segments. */
public final class Request {
    final DiskQueue queue;
    Op op;
    int flags;
    long sector;
    long sectors;
    int segments;
    final boolean mergeable;
    /** Bios in this request (for completion of the dm bios above them). */
    final java.util.ArrayList<Bio> bios = new java.util.ArrayList<>(2);
    /** The request-based dm device's request this one is the clone of, or null ({@code tio->orig}). */
    final Request original;
    /** The dm target's {@code rq_end_io} for a clone, or null. */
    final Runnable endIo;

    Request(DiskQueue queue, Bio bio, int segments) {
        this.queue = queue;
        this.op = bio.op;
        this.flags = bio.flags;
        this.sector = bio.sector;
        this.sectors = bio.sectors;
        this.segments = segments;
        this.mergeable = bio.sectors > 0 && !bio.has(Bio.NOMERGE) && !bio.has(Bio.PREFLUSH) && !bio.has(Bio.FUA)
                && bio.op != Op.FLUSH;
        bios.add(bio);
        this.original = null;
        this.endIo = null;
    }

    // drivers/md/dm-rq.c: setup_clone / blk_rq_prep_clone — same operation, flags and range, REQ_NOMERGE, no bios
    // of its own that complete anything above (end_clone_bio completes the original instead)
    Request(DiskQueue queue, Request original, Runnable endIo) {
        this.queue = queue;
        this.op = original.op;
        this.flags = original.flags;
        this.sector = original.sector;
        this.sectors = original.sectors;
        this.segments = original.segments;
        this.mergeable = false;
        this.original = original;
        this.endIo = endIo;
    }

    /** The device whose queue holds this request. */
    public String device() {
        return queue.name;
    }

    /** First sector ({@code blk_rq_pos}). */
    public long sector() {
        return sector;
    }

    /** Length in sectors ({@code blk_rq_sectors}). */
    public long sectors() {
        return sectors;
    }

    /** Turns this request into the flush request of an empty preflush bio. */
    void flushRequest() {
        op = Op.FLUSH;
        flags = Bio.PREFLUSH;
        sector = 0;
        sectors = 0;
    }

    long end() {
        return sector + sectors;
    }

    String rwbs() {
        return Bio.rwbsOf(op, flags);
    }
}
