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
