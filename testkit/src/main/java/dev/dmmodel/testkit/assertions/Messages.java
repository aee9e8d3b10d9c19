package dev.dmmodel.testkit.assertions;

import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.testkit.property.StackPlan;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormat;
import java.util.List;

/** Renders the parts of layouts, limits, traces and thin statistics that failure messages show. */
final class Messages {

    /** How many trace lines a message shows before "... N more". */
    static final int MAX_TRACE_LINES = 40;

    private Messages() {
    }

    /** The layout summary ({@link StackPlan#describe(Layout)}), indented. */
    static String layout(Layout layout) {
        return StackPlan.describe(layout);
    }

    /** Findings, one per line: severity, id, device, message. */
    static String findings(List<Finding> findings) {
        if (findings.isEmpty()) {
            return "    (no findings)";
        }
        StringBuilder sb = new StringBuilder();
        for (Finding f : findings) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append("    ").append(f.severity()).append(' ').append(f.id()).append(" [").append(f.device())
                    .append("] ").append(f.message());
        }
        return sb.toString();
    }

    /** Every queue limit under its sysfs name, one line per limit. */
    static String limits(String device, QueueLimits l) {
        return "queue limits of " + device + ":"
                + "\n    logical_block_size=" + l.logicalBlockSize()
                + "\n    physical_block_size=" + l.physicalBlockSize()
                + "\n    minimum_io_size=" + l.ioMin()
                + "\n    optimal_io_size=" + l.ioOpt()
                + "\n    alignment_offset=" + l.sysfsAlignmentOffset() + (l.misaligned() ? " (misaligned)" : "")
                + "\n    max_sectors_kb=" + l.maxSectorsKb()
                + "\n    max_hw_sectors_kb=" + l.maxHwSectorsKb()
                + "\n    max_segments=" + l.maxSegments()
                + "\n    max_segment_size=" + l.maxSegmentSize()
                + "\n    chunk_sectors=" + l.chunkSectors()
                + "\n    discard_granularity=" + l.discardGranularity()
                + "\n    discard_max_bytes=" + l.maxDiscardSectors() * 512
                + "\n    write_zeroes_max_bytes=" + l.maxWriteZeroesSectors() * 512
                + "\n    rotational=" + (l.rotational() ? 1 : 0)
                + "\n    read_ahead_kb=" + l.readAheadKb();
    }

    /** Events in {@link TraceFormat#TEXT}, at most {@link #MAX_TRACE_LINES} lines, then "... N more". */
    static String trace(List<TraceEvent> events) {
        if (events.isEmpty()) {
            return "    (no events)";
        }
        StringBuilder sb = new StringBuilder();
        int shown = Math.min(events.size(), MAX_TRACE_LINES);
        for (int i = 0; i < shown; i++) {
            if (i > 0) {
                sb.append('\n');
            }
            sb.append(TraceFormat.TEXT.format(events.get(i)));
        }
        if (events.size() > shown) {
            sb.append("\n... ").append(events.size() - shown).append(" more");
        }
        return sb.toString();
    }

    /** Every field of the statistics, one per line. */
    static String thinStats(ThinStats s) {
        return "thin statistics of " + s.thinDevice() + " (pool " + s.poolDevice() + "):"
                + "\n    blockSectors=" + s.blockSectors()
                + "\n    blocksProvisioned=" + s.blocksProvisioned()
                + "\n    partialFirstWrites=" + s.partialFirstWrites()
                + "\n    blocksZeroed=" + s.blocksZeroed()
                + "\n    blocksCopied=" + s.blocksCopied()
                + "\n    largestBioSectors=" + s.largestBioSectors()
                + "\n    writeBios=" + s.writeBios()
                + "\n    poolUsedBlocks=" + s.poolUsedBlocks()
                + "\n    poolTotalBlocks=" + s.poolTotalBlocks()
                + "\n    lowWaterMarkReached=" + s.lowWaterMarkReached()
                + "\n    outOfSpaceBios=" + s.outOfSpaceBios()
                + "\n    mappedSectors=" + s.mappedSectors()
                + "\n    highestMappedSector=" + s.highestMappedSector()
                + "\n    poolTransactionId=" + s.poolTransactionId();
    }
}
