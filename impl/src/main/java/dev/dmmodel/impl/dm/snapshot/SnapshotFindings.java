package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.engine.SnapshotStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.units.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** What a workload's statistics say about a classic snapshot ({@link SnapshotStats}), one factory per finding. */
public final class SnapshotFindings {
    /** Sectors in a MiB. */
    static final long MIB_SECTORS = 2048;
    /** {@link FindingType#SNAPSHOT_CHUNK_SMALLER_THAN_WRITE}: origin writes of at least this many chunks. */
    static final long PIECES_REPORTED = 4;

    private SnapshotFindings() {
    }

    /** Every finding the statistics of one snapshot give, in the order of {@link FindingType}. */
    public static List<Finding> of(SnapshotStats s) {
        Objects.requireNonNull(s, "stats");
        List<Finding> out = new ArrayList<>();
        writeAmplification(s, out);
        chunkSmallerThanWrite(s, out);
        cowFull(s, out);
        return List.copyOf(out);
    }

    /** Chunks copied per MiB written to the origin (chunks copied for any reason, over origin sectors written). */
    static double chunksPerMib(SnapshotStats s) {
        return (double) s.chunksCopied() * MIB_SECTORS / s.originWriteSectors();
    }

    // chunks copied per MiB written to the origin: each copy is a chunk read from the origin and written to the COW
    private static void writeAmplification(SnapshotStats s, List<Finding> out) {
        if (s.chunksCopied() == 0 || s.originWriteSectors() == 0) {
            return;
        }
        long copied = s.bytesCopied();
        long written = Math.multiplyExact(s.originWriteSectors(), 512L);
        out.add(new Finding(FindingType.SNAPSHOT_WRITE_AMPLIFICATION,
                FindingType.SNAPSHOT_WRITE_AMPLIFICATION.defaultSeverity(), s.snapshotDevice(),
                String.format(Locale.ROOT, "snapshot %s copied %d chunks of %s for %s written to its origin %s: "
                        + "%.2f chunks per MiB; the origin's writes cost %s read from %s and %s written to %s "
                        + "(%.2f times the data) and %d exception-store commits", s.snapshotDevice(), s.chunksCopied(),
                        Sizes.format(s.chunkSectors() * 512), Sizes.format(written), s.originDevice(), chunksPerMib(s),
                        Sizes.format(copied), s.originDevice(), Sizes.format(copied), s.cowDevice(),
                        (double) copied / written, s.commits()),
                "a first write to each chunk costs a copy: overwrite regions once, or use a thin snapshot "
                        + "(lvcreate -s of a thin LV), which shares blocks instead of copying them"));
    }

    // dm-snap.c: origin_map cuts every origin write at the smallest chunk of its snapshots
    private static void chunkSmallerThanWrite(SnapshotStats s, List<Finding> out) {
        long pieces = s.largestOriginWriteSectors() / s.chunkSectors();
        if (pieces < PIECES_REPORTED) {
            return;
        }
        out.add(new Finding(FindingType.SNAPSHOT_CHUNK_SMALLER_THAN_WRITE,
                FindingType.SNAPSHOT_CHUNK_SMALLER_THAN_WRITE.defaultSeverity(), s.snapshotDevice(),
                "writes of up to " + Sizes.format(s.largestOriginWriteSectors() * 512) + " to the origin of snapshot "
                        + s.snapshotDevice() + " are cut at its " + Sizes.format(s.chunkSectors() * 512) + " chunks: "
                        + pieces + " pieces per write, each waiting for its own copy and commit",
                "create the snapshot with a larger chunk (lvcreate -s -c, up to 512KiB), e.g. "
                        + Sizes.format(Math.min(s.largestOriginWriteSectors(), 1024) * 512)));
    }

    // dm-snap.c: __invalidate_snapshot / snapshot_overflowed — the COW device had no free chunk
    private static void cowFull(SnapshotStats s, List<Finding> out) {
        if (!s.invalid() && !s.overflowed()) {
            return;
        }
        out.add(new Finding(FindingType.SNAPSHOT_COW_FULL, FindingType.SNAPSHOT_COW_FULL.defaultSeverity(),
                s.snapshotDevice(), "the COW device " + s.cowDevice() + " of snapshot " + s.snapshotDevice() + " ("
                        + Sizes.format(s.totalSectors() * 512) + ") filled: "
                        + (s.invalid() ? "the snapshot is invalid (dmsetup status 'Invalid'): its I/O fails and its "
                        + "data is lost" : "the snapshot overflowed (dmsetup status 'Overflow'): writes to it fail"),
                "make the COW device larger than the data the origin will change (lvextend of the snapshot, or "
                        + "snapshot_autoextend_threshold in lvm.conf)"));
    }
}
