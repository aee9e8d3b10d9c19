package dev.dmmodel.testkit.assertions;

import dev.dmmodel.trace.TraceEvent;
import java.util.List;
import java.util.Objects;

/**
 * Assertions on a block trace (the events a {@link dev.dmmodel.engine.Simulation} reported), in all devices;
 * {@link #at(String)} narrows to one device. See {@link AbstractTraceAssert} for the checks.
 *
 * <pre>{@code
 * List<TraceEvent> events = new ArrayList<>();
 * Simulation.of(layout).run(Script.parse("dd if=/dev/zero of=/dev/vg/lv bs=1M count=4 oflag=direct"), events::add);
 * assertThatTrace(events).at("dm-0").bioSizes().containsOnly(2048L);
 * assertThatTrace(events).at("sda").requestSizes().allMatch(n -> n <= 896);
 * }</pre>
 */
public final class TraceAssert extends AbstractTraceAssert<TraceAssert> {

    TraceAssert(List<TraceEvent> actual) {
        this(actual, "trace");
    }

    private TraceAssert(List<TraceEvent> actual, String scope) {
        super(actual, TraceAssert.class, scope);
    }

    @Override
    TraceAssert narrowed(List<TraceEvent> events, String scope) {
        return new TraceAssert(events, scope);
    }

    /**
     * Narrows to the events reported for one device, by its kernel name as the trace has it ({@code dm-0},
     * {@code sda1}; not {@code /dev/vg/lv}: a trace knows no layout). Fails if the trace has no event at that
     * device, naming the devices it has, so that a mistyped name cannot make later checks pass vacuously.
     *
     * <pre>{@code assertThatTrace(events).at("dm-0").hasNoSplits();}</pre>
     */
    public DeviceTraceAssert at(String device) {
        isNotNull();
        Objects.requireNonNull(device, "device");
        List<TraceEvent> events = actual.stream().filter(e -> e.device().equals(device)).toList();
        if (events.isEmpty()) {
            failWithMessage("%s", "Expecting events at device " + device + " in " + scope()
                    + " but there are none; the trace has events at "
                    + actual.stream().map(TraceEvent::device).distinct().toList());
        }
        return new DeviceTraceAssert(events, device, scope() + " at " + device);
    }
}
