package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.dm.SnapshotTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * One snapshot's exception store: where the next exception's copy goes on the COW device, when the metadata is
 * committed, and what {@code dmsetup status} counts.
 *
 * <p>Persistent ({@code dm-snap-persistent.c}): the COW device is chunks; chunk 0 is the header, chunk 1 the first
 * metadata area, which holds {@code chunk bytes / 16} exceptions (a {@code struct disk_exception} is two 64-bit chunk
 * numbers); that many data chunks follow, then the next metadata area, and so on. A new store starts with
 * {@code next_free} at chunk 2. Commits are batched: each exception whose copy is done is written into the area in
 * memory, and the area is written (a chunk-sized {@code PREFLUSH|FUA} write) only when no other exception is in
 * flight or the area is full; a full area first has the next one zeroed on disk. The kernel's batching depends on
 * when the copies complete; the model's copies complete in the order they were started and only after every
 * exception the same submission prepared, which is the rule with every copy in flight at once (deterministic).
 *
 * <p>Transient ({@code dm-snap-transient.c}): exceptions in memory only; chunks from the start of the COW device;
 * every commit completes at once without I/O.
 */
final class ExceptionStore {
    /** {@code NUM_SNAPSHOT_HDR_CHUNKS}: the header chunk. */
    static final long HEADER_CHUNKS = 1;
    /** {@code sizeof(struct disk_exception)}: old and new chunk, 8 bytes each. */
    static final long DISK_EXCEPTION_BYTES = 16;

    /** A metadata write a commit issues: a chunk of the COW device, and whether it is the area's commit. */
    record MetadataWrite(long chunk, boolean commit) {
    }

    /** What one {@code commit_exception} does: the metadata writes in order, then the exceptions it completes. */
    record Commit(List<MetadataWrite> writes, List<Runnable> completed) {
    }

    private final SnapshotTarget.Store type;
    private final long chunkSectors;
    private final long cowSectors;
    private final long exceptionsPerArea;
    /** Persistent: the next free chunk; transient: the next free sector ({@code tc->next_free}). */
    private long nextFree;
    private long currentArea;
    private long currentCommitted;
    private long pendingCount;
    private final List<Runnable> callbacks = new ArrayList<>();
    private long commits;
    /** {@code ps->valid}: cleared when the snapshot is dropped; no area is committed after that. */
    private boolean valid = true;

    ExceptionStore(SnapshotTarget.Store type, long chunkSectors, long cowSectors) {
        this.type = type;
        this.chunkSectors = chunkSectors;
        this.cowSectors = cowSectors;
        // dm-snap-persistent.c: persistent_read_metadata — exceptions_per_area = chunk bytes / sizeof(disk_exception)
        this.exceptionsPerArea = Math.multiplyExact(chunkSectors, 512L) / DISK_EXCEPTION_BYTES;
        // dm-snap-persistent.c: persistent_ctr — next_free = NUM_SNAPSHOT_HDR_CHUNKS + 1 (header and first area)
        this.nextFree = type.persistent() ? HEADER_CHUNKS + 1 : 0;
    }

    long exceptionsPerArea() {
        return exceptionsPerArea;
    }

    /** The COW chunk of metadata area {@code area}. */
    // dm-snap-persistent.c: area_location — NUM_SNAPSHOT_HDR_CHUNKS + (exceptions_per_area + 1) * area
    long areaChunk(long area) {
        return Math.addExact(HEADER_CHUNKS, Math.multiplyExact(exceptionsPerArea + 1, area));
    }

    /** The COW chunk of a new exception, or empty when the COW device has no room ({@code -ENOSPC}). */
    OptionalLong prepare() {
        if (!type.persistent()) {
            // dm-snap-transient.c: transient_prepare_exception — chunks from sector 0 while they fit
            if (cowSectors < nextFree + chunkSectors) {
                return OptionalLong.empty();
            }
            long chunk = nextFree / chunkSectors;
            nextFree += chunkSectors;
            return OptionalLong.of(chunk);
        }
        // dm-snap-persistent.c: persistent_prepare_exception — room for next_free + 1 chunks; skip metadata chunks
        if (cowSectors < Math.multiplyExact(nextFree + 1, chunkSectors)) {
            return OptionalLong.empty();
        }
        long chunk = nextFree;
        nextFree++;
        if (nextFree % (exceptionsPerArea + 1) == HEADER_CHUNKS) {
            nextFree++;
        }
        pendingCount++;
        return OptionalLong.of(chunk);
    }

    /**
     * {@code commit_exception}: the exception whose copy is done joins the area; {@code done} is to run once it
     * is on disk. Returns the metadata writes this commit issues and the exceptions they complete (none while
     * others are in flight).
     */
    Commit commit(Runnable done) {
        if (!type.persistent()) {
            // dm-snap-transient.c: transient_commit_exception — just succeed
            return new Commit(List.of(), List.of(done));
        }
        // dm-snap-persistent.c: persistent_commit_exception
        currentCommitted++;
        callbacks.add(done);
        pendingCount--;
        boolean full = currentCommitted == exceptionsPerArea;
        if (pendingCount != 0 && !full) {
            return new Commit(List.of(), List.of());
        }
        List<MetadataWrite> writes = new ArrayList<>();
        if (full) {
            // zero_disk_area(ps, current_area + 1): wipe the next area before this one is committed
            writes.add(new MetadataWrite(areaChunk(currentArea + 1), false));
        }
        if (valid) {
            writes.add(new MetadataWrite(areaChunk(currentArea), true));
            commits++;
        }
        if (full) {
            currentCommitted = 0;
            currentArea++;
        }
        List<Runnable> run = List.copyOf(callbacks);
        callbacks.clear();
        return new Commit(List.copyOf(writes), run);
    }

    /**
     * {@code drop_snapshot}: the snapshot is invalid; the persistent store writes its header marked invalid (the
     * chunk returned, chunk 0), the transient store does nothing (empty).
     */
    // dm-snap-persistent.c: persistent_drop_snapshot — ps->valid = 0, write_header
    OptionalLong drop() {
        valid = false;
        return type.persistent() ? OptionalLong.of(0) : OptionalLong.empty();
    }

    /** Commits written so far. */
    long commits() {
        return commits;
    }

    /** {@code usage}: COW sectors allocated. */
    // dm-snap-persistent.c: persistent_usage — next_free * chunk_size; dm-snap-transient.c: transient_usage — next_free
    long usedSectors() {
        return type.persistent() ? Math.multiplyExact(nextFree, chunkSectors) : nextFree;
    }

    /** {@code usage}: the COW device's size. */
    long totalSectors() {
        return cowSectors;
    }

    /** {@code usage}: metadata sectors — the header and the areas up to the current one; 0 for a transient store. */
    // dm-snap-persistent.c: persistent_usage — (current_area + 1 + NUM_SNAPSHOT_HDR_CHUNKS) * chunk_size
    long metadataSectors() {
        return type.persistent() ? Math.multiplyExact(currentArea + 1 + HEADER_CHUNKS, chunkSectors) : 0;
    }
}
