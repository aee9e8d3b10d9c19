package dev.dmmodel.trace;

import java.util.Objects;

/**
 * One block-layer event in the kernel's vocabulary, as a row of the normalized trace format
 * ({@code seq,device,event,rwbs,sector,nr_sectors,extra}).
 *
 * @param seq position in the trace, from 0
 * @param device kernel name of the device the event is reported for
 * @param type the tracepoint
 * @param rwbs the operation flags as blktrace prints them ({@code W}, {@code WS}, {@code R}, {@code RA},
 *     {@code D}, {@code FWS} ...)
 * @param sector the sector (for {@code block_split}, where the remainder starts)
 * @param nrSectors the size in sectors, or -1 where the tracepoint prints none
 * @param extra details: {@code from=dm-0:64} for a remap, {@code new_sector=128} for a split,
 *     {@code bytes=524288} for request events, {@code err=0} for completions; empty if none
 * @param why for a split, a remap or a bio queued with a size of its own (built to fit before 4.3, a thin pool's
 *     zeroing or copy) of a simulation run with {@link dev.dmmodel.engine.EngineOptions#explainSplits()},
 *     what cut, moved or sized the bio, with the limit and its value ({@code max_sectors=1024 (max_sectors_kb 512)
 *     of sdb}, {@code max_segments=168 (168 segments of at most 65536 bytes) of sdb}, {@code target boundary at
 *     sector 2048 of dm-0 (table line 0 ends)}, {@code max_io_len=128 of the striped target: boundary at sector 256
 *     of dm-0}, {@code thin block 0 -> pool data block 0 (128-sector blocks)}); empty otherwise, and never part of
 *     the normalized trace format
 */
public record TraceEvent(long seq, String device, EventType type, String rwbs, long sector, long nrSectors,
                         String extra, String why) {

    /** An event without an explanation. */
    public TraceEvent(long seq, String device, EventType type, String rwbs, long sector, long nrSectors,
                      String extra) {
        this(seq, device, type, rwbs, sector, nrSectors, extra, "");
    }

    /** Rejects nulls. */
    public TraceEvent {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(rwbs, "rwbs");
        Objects.requireNonNull(extra, "extra");
        Objects.requireNonNull(why, "why");
        if (nrSectors < -1) {
            throw new IllegalArgumentException("nr_sectors (" + nrSectors + ") must be -1 (none) or more");
        }
    }

    /** Whether the event has a size. */
    public boolean hasSize() {
        return nrSectors >= 0;
    }
}
