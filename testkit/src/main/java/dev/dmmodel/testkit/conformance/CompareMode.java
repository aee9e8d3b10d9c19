package dev.dmmodel.testkit.conformance;

import dev.dmmodel.trace.EventType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * How a modelled trace is compared with a recorded {@code trace.csv}, as a case's {@code compare.txt}
 * says ({@code docs/snapshot-format.md}). Every mode compares per device; an event is compared on its
 * tracepoint, rwbs, sector and size, a {@code block_split} on its sector only.
 *
 * <p><b>Request sizes.</b> {@link #SEQUENCE} compares {@code block_rq_issue} in place, so the requests a disk
 * issues are part of it. The multiset modes are used where the kernel's order depends on timing, and there
 * the requests may too: whether two bios merge into one request depends on whether the first was still
 * queued when the second came. So the multiset modes compare requests only where a recording's requests are
 * deterministic, and {@code compare.txt} (which is given) cannot say so: the per-case verdicts, each with its
 * reason taken from the recordings' READMEs, are the testkit resource
 * {@code dev/dmmodel/testkit/conformance/request-sizes.txt} ({@link KernelConformance#requestSizesDeterministic}).
 * The rule behind them: requests are timing-dependent when the page cache issues the I/O (buffered writeback,
 * readahead), when several bios of one write reach a disk at once and may or may not back-merge (a 1 MiB write
 * cut into 64 KiB pool blocks on 6.1), and when a bio reaching a disk holds more pages than the disk's
 * max_segments, so that where it is cut depends on how physically contiguous the user's buffer was (a 1 MiB
 * {@code O_DIRECT} write on the AHCI disks: 2048, 1344 + 704 or 1352 + 696 sectors in different runs).
 * Otherwise (one synchronous {@code O_DIRECT} bio in flight at a time, thin zeroing and copies that complete
 * before the write they serve) a disk's requests are its bios and the multiset of their sizes is compared:
 * per device, {@code block_rq_issue} events as (rwbs, nr_sectors), without zero-length requests (flushes)
 * and, in {@link #MULTISET_DATA}, without those inside thin-pool metadata; an issue later given back by
 * {@code block_rq_requeue} (same rwbs and size) is not counted, since the request is issued again.
 */
public enum CompareMode {
    /**
     * {@code sequence}: per device, the subsequence of {@code block_bio_queue}, {@code block_bio_remap},
     * {@code block_split} and {@code block_rq_issue} events, in the same order.
     */
    SEQUENCE("sequence", EnumSet.of(EventType.BIO_QUEUE, EventType.BIO_REMAP, EventType.SPLIT, EventType.RQ_ISSUE)),
    /**
     * {@code multiset}: per device, the bag of {@code block_bio_queue}, {@code block_bio_remap} and
     * {@code block_split} events, in any order (where the kernel's order depends on timing).
     */
    MULTISET("multiset", EnumSet.of(EventType.BIO_QUEUE, EventType.BIO_REMAP, EventType.SPLIT)),
    /**
     * {@code multiset-dm}: as {@link #MULTISET}, on device-mapper devices only (the split at the bottom disk
     * depends on how physically contiguous the user's pages were).
     */
    MULTISET_DM("multiset-dm", EnumSet.of(EventType.BIO_QUEUE, EventType.BIO_REMAP, EventType.SPLIT)),
    /**
     * {@code multiset-data}: the bag of {@code block_bio_queue}, {@code block_bio_remap} and {@code block_split}
     * events per device, on every device (dm devices, partitions and disks), leaving out
     * <ul>
     *   <li>zero-length bios (flushes), whose timing depends on dm-thin's commit timer;</li>
     *   <li>every event whose sectors lie inside the place a thin pool's metadata device occupies, on the
     *       metadata device itself and on each device below it (followed down its dm tables and partitions:
     *       {@link KernelConformance#thinPoolMetadataRanges}): dm-thin commits its metadata on a timer as well
     *       as on flushes, and the model issues no metadata I/O;</li>
     *   <li>{@code block_split} on partitions and whole disks: as in {@link #MULTISET_DM}, a split at the bottom
     *       disk depends on how physically contiguous the user's pages were (their bio events are compared).</li>
     * </ul>
     * The data path (thin, pool, data device and the disk below: remaps, splits, zeroing, copies, discards)
     * does not depend on timing. (The snapshot format's {@code multiset-data} is defined on dm devices only;
     * this comparison also holds the disks' data bios to the recording.)
     */
    MULTISET_DATA("multiset-data", EnumSet.of(EventType.BIO_QUEUE, EventType.BIO_REMAP, EventType.SPLIT));

    private final String word;
    private final Set<EventType> events;

    CompareMode(String word, Set<EventType> events) {
        this.word = word;
        this.events = Set.copyOf(events);
    }

    /** The word in {@code compare.txt} ({@code multiset-data}). */
    public String word() {
        return word;
    }

    /** The tracepoints this mode compares. */
    public Set<EventType> events() {
        return events;
    }

    /** Whether the order of events on a device matters. */
    public boolean ordered() {
        return this == SEQUENCE;
    }

    /**
     * The mode a {@code compare.txt} word names (surrounding white space ignored).
     *
     * @throws IllegalArgumentException naming the word and the known ones
     */
    public static CompareMode ofWord(String word) {
        String w = word.strip();
        for (CompareMode m : values()) {
            if (m.word.equals(w)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown compare mode '" + w + "' (expected one of "
                + String.join(", ", Arrays.stream(values()).map(CompareMode::word).toList()) + ")");
    }

    @Override
    public String toString() {
        return word;
    }
}
