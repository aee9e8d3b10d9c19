package dev.dmmodel.impl.block;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;

/** Numbers events and hands them to the current listener. */
public final class Events {
    public TraceListener listener = TraceListener.NONE;
    private long seq;
    /**
     * Whether splits and remaps say why ({@link dev.dmmodel.engine.EngineOptions#explainSplits()}): call sites
     * build the words only when this is set.
     */
    public boolean explain;

    public void listener(TraceListener l) {
        this.listener = l;
    }

    public boolean enabled() {
        return listener != TraceListener.NONE;
    }

    public void emit(String device, EventType type, String rwbs, long sector, long sectors, String extra) {
        if (listener != TraceListener.NONE) {
            listener.onEvent(new TraceEvent(seq++, device, type, rwbs, sector, sectors, extra));
        }
    }

    /** An event with what caused it ({@link TraceEvent#why()}). */
    public void emit(String device, EventType type, String rwbs, long sector, long sectors, String extra, String why) {
        if (listener != TraceListener.NONE) {
            listener.onEvent(new TraceEvent(seq++, device, type, rwbs, sector, sectors, extra, why));
        }
    }

    void bio(EventType type, Bio bio) {
        emit(bio.device, type, bio.rwbs(), bio.sector, bio.sectors, "");
    }
}
