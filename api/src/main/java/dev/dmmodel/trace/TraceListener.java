package dev.dmmodel.trace;

/**
 * Receives the engine's events as they happen, so that traces of any length stream without being kept in
 * memory.
 */
@FunctionalInterface
public interface TraceListener {

    /** A listener that ignores every event. */
    TraceListener NONE = e -> { };

    /** Called once per event, in trace order. */
    void onEvent(TraceEvent event);
}
