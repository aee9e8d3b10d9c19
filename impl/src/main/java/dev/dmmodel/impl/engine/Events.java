package dev.dmmodel.impl.engine;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;

/** Numbers events and hands them to the current listener. */
final class Events {
    private TraceListener listener = TraceListener.NONE;
    private long seq;

    void listener(TraceListener l) {
        this.listener = l;
    }

    boolean enabled() {
        return listener != TraceListener.NONE;
    }

    void emit(String device, EventType type, String rwbs, long sector, long sectors, String extra) {
        if (listener != TraceListener.NONE) {
            listener.onEvent(new TraceEvent(seq++, device, type, rwbs, sector, sectors, extra));
        }
    }

    void bio(EventType type, Bio bio) {
        emit(bio.device, type, bio.rwbs(), bio.sector, bio.sectors, "");
    }
}
