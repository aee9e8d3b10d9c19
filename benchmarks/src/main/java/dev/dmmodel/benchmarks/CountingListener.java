package dev.dmmodel.benchmarks;

import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;

/**
 * A trace listener that costs next to nothing: it counts the events and keeps the last event's sector,
 * which the caller hands to a blackhole so that the JIT cannot drop the events' construction.
 */
public final class CountingListener implements TraceListener {
    private long events;
    private long lastSector;

    @Override
    public void onEvent(TraceEvent event) {
        events++;
        lastSector = event.sector();
    }

    /** Events seen since the last {@link #reset()}. */
    public long events() {
        return events;
    }

    /** The sector of the last event seen. */
    public long lastSector() {
        return lastSector;
    }

    /** Starts counting again from zero. */
    public void reset() {
        events = 0;
        lastSector = 0;
    }
}
