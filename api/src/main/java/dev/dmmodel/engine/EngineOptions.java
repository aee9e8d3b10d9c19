package dev.dmmodel.engine;

/**
 * What a simulation cannot learn from the layout: how the submitting process's memory is laid out.
 *
 * <p>How physically contiguous a direct-I/O buffer is decides how many segments its bio has, and so
 * where a queue with few segments splits it: the recorded 1 MiB {@code O_DIRECT} writes to an AHCI disk
 * (168 segments) reached the disk whole, as 1344 + 704 or as 1360 + 688 sectors depending on this alone.
 *
 * @param bufferRunBytes bytes per physically contiguous run of the I/O buffer: 4096 for scattered pages
 *     (a malloc'd buffer; the default), 2 MiB for a buffer in transparent huge pages
 * @param explainSplits whether each split and remap event says why ({@link dev.dmmodel.trace.TraceEvent#why()}):
 *     the limit that cut the bio, the target boundary, the chunk; off by default, as it costs a string an event
 */
public record EngineOptions(long bufferRunBytes, boolean explainSplits) {

    /** Scattered 4 KiB pages. */
    public static final EngineOptions DEFAULTS = new EngineOptions(4096);

    /** A buffer backed by 2 MiB transparent huge pages. */
    public static final EngineOptions HUGE_PAGES = new EngineOptions(2L << 20);

    /** Options with the given buffer runs, splits unexplained. */
    public EngineOptions(long bufferRunBytes) {
        this(bufferRunBytes, false);
    }

    /** These options with splits and remaps explained. */
    public EngineOptions withExplainedSplits() {
        return new EngineOptions(bufferRunBytes, true);
    }

    /** Checks that runs are whole pages. */
    public EngineOptions {
        if (bufferRunBytes < 4096 || bufferRunBytes % 4096 != 0) {
            throw new IllegalArgumentException("bufferRunBytes (" + bufferRunBytes
                    + ") must be a positive multiple of the 4096-byte page");
        }
    }
}
