package dev.dmmodel.testkit.assertions;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.AbstractIntegerAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ListAssert;
import org.assertj.core.presentation.StandardRepresentation;

/**
 * The checks shared by {@link TraceAssert} (a whole trace) and {@link DeviceTraceAssert} (the events of one
 * device). Sizes and alignments are in 512-byte sectors, as the trace reports them. Failure messages show the
 * relevant events in {@link TraceFormat#TEXT}, at most 40 lines and then {@code ... N more}.
 *
 * <pre>{@code
 * assertThatTrace(events).at("dm-0").hasNoSplits().allBiosAtMost(2048);
 * }</pre>
 *
 * @param <SELF> the concrete assertion type
 */
public abstract class AbstractTraceAssert<SELF extends AbstractTraceAssert<SELF>>
        extends AbstractAssert<SELF, List<TraceEvent>> {

    /** What these events are, for messages: {@code trace}, {@code trace at dm-0}, ... */
    private final String scope;

    AbstractTraceAssert(List<TraceEvent> actual, Class<?> selfType, String scope) {
        super(actual, selfType);
        this.scope = scope;
    }

    /** The same kind of assertion on a subset of the events. */
    abstract SELF narrowed(List<TraceEvent> events, String scope);

    /** What these events are, for messages ({@code trace at dm-0}). */
    String scope() {
        return scope;
    }

    private List<TraceEvent> select(Predicate<TraceEvent> p) {
        return actual.stream().filter(p).toList();
    }

    private void fail(String message, List<TraceEvent> shown) {
        failWithMessage("%s", message + "\n" + Messages.trace(shown));
    }

    /**
     * Narrows the assertion to the events of one tracepoint.
     *
     * <pre>{@code assertThatTrace(events).at("sda").ofType(EventType.RQ_ISSUE).eventCount().isEqualTo(12);}</pre>
     */
    public SELF ofType(EventType type) {
        isNotNull();
        Objects.requireNonNull(type, "type");
        return narrowed(select(e -> e.type() == type), scope + " of type " + type.tracepoint());
    }

    /**
     * An AssertJ list assertion on the sizes ({@code nr_sectors}) of the {@code block_bio_queue} events, in trace
     * order: every bio as it entered a queue, before any split. Its description shows those events.
     *
     * <pre>{@code assertThatTrace(events).at("dm-0").bioSizes().containsOnly(2048L);}</pre>
     */
    public ListAssert<Long> bioSizes() {
        return sizes(EventType.BIO_QUEUE, "bio sizes");
    }

    /**
     * An AssertJ list assertion on the sizes ({@code nr_sectors}) of the {@code block_rq_issue} events, in trace
     * order: the requests the driver received.
     *
     * <pre>{@code assertThatTrace(events).at("sda").requestSizes().allMatch(n -> n <= 896);}</pre>
     */
    public ListAssert<Long> requestSizes() {
        return sizes(EventType.RQ_ISSUE, "request sizes");
    }

    private ListAssert<Long> sizes(EventType type, String what) {
        isNotNull();
        List<TraceEvent> events = select(e -> e.type() == type);
        List<Long> sizes = events.stream().map(TraceEvent::nrSectors).toList();
        return Assertions.assertThat(sizes).as(() -> what + " (nr_sectors of " + type.tracepoint() + ") in "
                + scope + ", from\n" + Messages.trace(events) + "\n");
    }

    /**
     * An AssertJ list assertion on the {@code block_split} events, shown in {@link TraceFormat#TEXT}.
     *
     * <pre>{@code assertThatTrace(events).at("sda").splits().hasSize(8);}</pre>
     */
    public ListAssert<TraceEvent> splits() {
        isNotNull();
        List<TraceEvent> events = select(e -> e.type() == EventType.SPLIT);
        return Assertions.assertThat(events).withRepresentation(TEXT_REPRESENTATION)
                .as(() -> "splits (block_split) in " + scope);
    }

    /**
     * Verifies that no bio was split ({@code block_split}).
     *
     * <pre>{@code assertThatTrace(events).at("dm-0").hasNoSplits();}</pre>
     */
    public SELF hasNoSplits() {
        return hasNoEventsOfType(EventType.SPLIT);
    }

    /**
     * Verifies that no event is of that tracepoint.
     *
     * <pre>{@code assertThatTrace(events).hasNoEventsOfType(EventType.RQ_REQUEUE);}</pre>
     */
    public SELF hasNoEventsOfType(EventType type) {
        isNotNull();
        Objects.requireNonNull(type, "type");
        List<TraceEvent> bad = select(e -> e.type() == type);
        if (!bad.isEmpty()) {
            fail("Expecting no " + type.tracepoint() + " events in " + scope + " but found " + bad.size() + ":", bad);
        }
        return myself;
    }

    /**
     * Verifies that every bio ({@code block_bio_queue}) is at most {@code sectors} long.
     *
     * <pre>{@code assertThatTrace(events).at("dm-0").allBiosAtMost(2048);}</pre>
     */
    public SELF allBiosAtMost(long sectors) {
        isNotNull();
        List<TraceEvent> bad = select(e -> e.type() == EventType.BIO_QUEUE && e.nrSectors() > sectors);
        if (!bad.isEmpty()) {
            fail("Expecting every bio (block_bio_queue) in " + scope + " to be at most " + sectors
                    + " sectors but " + bad.size() + " were larger:", bad);
        }
        return myself;
    }

    /**
     * Verifies that every bio ({@code block_bio_queue}) starts on a multiple of {@code sectors} and is a
     * multiple of it long: it covers whole aligned units, e.g. whole 8-sector 4 KiB blocks or whole chunks.
     *
     * <pre>{@code assertThatTrace(events).at("dm-0").allBiosAlignedTo(8);}</pre>
     *
     * @throws IllegalArgumentException if {@code sectors} is not positive
     */
    public SELF allBiosAlignedTo(long sectors) {
        isNotNull();
        if (sectors <= 0) {
            throw new IllegalArgumentException("alignment (" + sectors + " sectors) must be positive");
        }
        List<TraceEvent> bad = select(e -> e.type() == EventType.BIO_QUEUE
                && (Long.remainderUnsigned(e.sector(), sectors) != 0 || e.nrSectors() % sectors != 0));
        if (!bad.isEmpty()) {
            fail("Expecting every bio (block_bio_queue) in " + scope + " to start on and span multiples of "
                    + sectors + " sectors but " + bad.size() + " did not:", bad);
        }
        return myself;
    }

    /**
     * An AssertJ assertion on the number of events (of every type) in this scope.
     *
     * <pre>{@code assertThatTrace(events).at("sda").ofType(EventType.SPLIT).eventCount().isEqualTo(8);}</pre>
     */
    public AbstractIntegerAssert<?> eventCount() {
        isNotNull();
        List<TraceEvent> events = actual;
        return Assertions.assertThat(events.size()).as(() -> "number of events in " + scope + ", which are\n"
                + Messages.trace(events) + "\n");
    }

    /**
     * An AssertJ assertion on the number of events of one tracepoint.
     *
     * <pre>{@code assertThatTrace(events).at("sda").eventCount(EventType.RQ_ISSUE).isEqualTo(12);}</pre>
     */
    public AbstractIntegerAssert<?> eventCount(EventType type) {
        return ofType(type).eventCount();
    }

    private static final StandardRepresentation TEXT_REPRESENTATION = new StandardRepresentation() {
        @Override
        protected String fallbackToStringOf(Object object) {
            return object instanceof TraceEvent e ? TraceFormat.TEXT.format(e).strip()
                    : super.fallbackToStringOf(object);
        }
    };
}
