package dev.dmmodel.trace;

/** The kernel's block tracepoints, by the names ftrace prints. */
public enum EventType {
    /** A bio enters a queue ({@code submit_bio_noacct}, once per bio). */
    BIO_QUEUE("block_bio_queue"),
    /** A bio is redirected to another device (partition or device-mapper remap). */
    BIO_REMAP("block_bio_remap"),
    /** A bio is split; its remainder continues from {@code new_sector}. */
    SPLIT("block_split"),
    /** A bio is appended to an existing request. */
    BIO_BACKMERGE("block_bio_backmerge"),
    /** A bio is prepended to an existing request. */
    BIO_FRONTMERGE("block_bio_frontmerge"),
    /** A request is allocated for a bio. */
    GETRQ("block_getrq"),
    /** A request is inserted into the scheduler or dispatch list. */
    RQ_INSERT("block_rq_insert"),
    /**
     * A request-based dm device's request is cloned onto the device below ({@code map_request}); {@code from} is
     * the dm device and the original request's sector.
     */
    RQ_REMAP("block_rq_remap"),
    /** A request is issued to the driver. */
    RQ_ISSUE("block_rq_issue"),
    /** A request goes back to the queue (the driver was busy). */
    RQ_REQUEUE("block_rq_requeue"),
    /** Two requests were merged. */
    RQ_MERGE("block_rq_merge"),
    /** A request completes. */
    RQ_COMPLETE("block_rq_complete"),
    /** A bio completes on a bio-based device. */
    BIO_COMPLETE("block_bio_complete"),
    /** The submitter's plug is started. */
    PLUG("block_plug"),
    /** The submitter's plug is flushed. */
    UNPLUG("block_unplug");

    private final String tracepoint;

    EventType(String tracepoint) {
        this.tracepoint = tracepoint;
    }

    /** The tracepoint name, e.g. {@code block_bio_queue}. */
    public String tracepoint() {
        return tracepoint;
    }

    /**
     * The event type of a tracepoint name.
     *
     * @throws IllegalArgumentException naming the unknown name
     */
    public static EventType ofTracepoint(String name) {
        for (EventType t : values()) {
            if (t.tracepoint.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown block tracepoint '" + name + "'");
    }
}
