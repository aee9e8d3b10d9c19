package dev.dmmodel.testkit.conformance;

import dev.dmmodel.trace.EventType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * How a modelled trace is compared with a recorded {@code trace.csv}, as a case's {@code compare.txt}
 * says ({@code docs/snapshot-format.md}). Every mode compares per device; an event is compared on its
 * tracepoint, rwbs, sector and size, a {@code block_split} on its sector only.
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
     * {@code multiset-data}: as {@link #MULTISET_DM}, leaving out the thin-pool metadata devices and
     * zero-length bios (flushes), whose timing depends on dm-thin's commit timer.
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
