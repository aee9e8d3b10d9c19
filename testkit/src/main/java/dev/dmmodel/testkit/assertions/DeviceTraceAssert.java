package dev.dmmodel.testkit.assertions;

import dev.dmmodel.trace.TraceEvent;
import java.util.List;

/**
 * Assertions on the events of one device in a trace, from {@link TraceAssert#at(String)}. See
 * {@link AbstractTraceAssert} for the checks; messages say which device.
 *
 * <pre>{@code
 * assertThatTrace(events).at("sda").splits().isNotEmpty();
 * assertThatTrace(events).at("dm-0").hasNoSplits().allBiosAlignedTo(2048);
 * }</pre>
 */
public final class DeviceTraceAssert extends AbstractTraceAssert<DeviceTraceAssert> {

    private final String device;

    DeviceTraceAssert(List<TraceEvent> actual, String device, String scope) {
        super(actual, DeviceTraceAssert.class, scope);
        this.device = device;
    }

    @Override
    DeviceTraceAssert narrowed(List<TraceEvent> events, String scope) {
        return new DeviceTraceAssert(events, device, scope);
    }

    /**
     * The kernel name of the device these events are at.
     *
     * <pre>{@code String d = assertThatTrace(events).at("dm-0").device();   // "dm-0"}</pre>
     */
    public String device() {
        return device;
    }
}
