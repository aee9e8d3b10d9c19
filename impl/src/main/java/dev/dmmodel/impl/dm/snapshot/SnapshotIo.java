package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.SnapshotOriginTarget;
import dev.dmmodel.dm.SnapshotTarget;
import dev.dmmodel.engine.SnapshotStats;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.dm.DmCore;
import dev.dmmodel.impl.dm.TargetModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * dm-snapshot's I/O path ({@code drivers/md/dm-snap.c}) for one host: the snapshots registered on each origin
 * device ({@code register_snapshot}, sorted by chunk size, largest first), their exception tables and stores.
 *
 * <ul>
 *   <li>A write to the origin is cut at the smallest chunk of its snapshots ({@code origin_map}'s
 *       {@code dm_accept_partial_bio}); for each valid snapshot without an exception for the chunk a pending
 *       exception takes the next free COW chunk and kcopyd copies the chunk from the origin device to it; the
 *       origin write waits until the exception is committed, then goes down (not traced as a remap). Without new
 *       exceptions it is remapped at once.</li>
 *   <li>A write to the snapshot: to its exception if it has one; else a new exception — a write of the whole
 *       chunk goes straight to the new COW chunk and nothing is copied ({@code start_full_bio}), a partial write
 *       waits for the copy of the chunk from the origin.</li>
 *   <li>A read of the snapshot goes to the COW device where an exception exists, to the origin device
 *       otherwise; reads of the origin pass straight down.</li>
 *   <li>When the COW device has no free chunk the snapshot is invalidated (its header is rewritten marked
 *       invalid); origin writes then go straight through and snapshot I/O fails with EIO. A {@code PO} store's
 *       snapshot write that finds no room only sets "Overflow" and fails that write.</li>
 * </ul>
 * kcopyd copies run in the order they were started, after the submission that started them, one chunk each
 * (sub-jobs of at most 1024 sectors); their completions commit the exception store in that order
 * ({@link ExceptionStore}).
 */
public final class SnapshotIo implements DmCore.SnapshotMapper {
    /** dm-kcopyd's sub-job ({@link dev.dmmodel.impl.dm.Kcopyd#SUB_JOB_SECTORS}). */
    static final long KCOPYD_SUB_JOB_SECTORS = dev.dmmodel.impl.dm.Kcopyd.SUB_JOB_SECTORS;

    private final BlockLayer block;
    private final Function<String, BlockDevice> device;
    private final Supplier<Collection<BlockDevice>> devices;
    private final Map<String, Snap> snaps = new LinkedHashMap<>();

    /** One snapshot target's state ({@code struct dm_snapshot}). */
    private final class Snap {
        final String name;
        final SnapshotTarget t;
        final ExceptionStore store;
        /** {@code s->complete}: old chunk to COW chunk. */
        final Map<Long, Long> complete = new HashMap<>();
        /** {@code s->pending}. */
        final Map<Long, Pending> pending = new HashMap<>();
        boolean valid = true;
        boolean overflowed;
        long copied;
        long fullWrites;
        long originWriteSectors;
        long largestOriginWrite;

        Snap(String name, SnapshotTarget t) {
            this.name = name;
            this.t = t;
            this.store = new ExceptionStore(t.store(), t.chunkSectors(), size(t.cowDevice()));
        }

        long chunk(long sector) {
            return sector / t.chunkSectors();
        }
    }

    /** {@code struct dm_snap_pending_exception}. */
    private static final class Pending {
        final Snap s;
        final long oldChunk;
        final long newChunk;
        final List<Bio> originBios = new ArrayList<>();
        final List<Bio> snapshotBios = new ArrayList<>();
        boolean started;

        Pending(Snap s, long oldChunk, long newChunk) {
            this.s = s;
            this.oldChunk = oldChunk;
            this.newChunk = newChunk;
        }
    }

    /**
     * dm-snapshot on a block layer.
     *
     * @param block the block layer
     * @param device the devices by kernel name, as they are now
     * @param devices every device there is now
     */
    public SnapshotIo(BlockLayer block, Function<String, BlockDevice> device, Supplier<Collection<BlockDevice>> devices) {
        this.block = block;
        this.device = device;
        this.devices = devices;
    }

    private long size(String name) {
        BlockDevice d = device.apply(name);
        if (d == null) {
            throw new IllegalStateException("no device " + name);
        }
        return d.size().count();
    }

    private Snap snap(String name, SnapshotTarget t) {
        Snap s = snaps.get(name);
        if (s == null || !s.t.equals(t)) {
            s = new Snap(name, t);
            snaps.put(name, s);
        }
        return s;
    }

    /** The snapshots registered on an origin device, largest chunk first ({@code __insert_snapshot}). */
    private List<Snap> snapshotsOf(String origin) {
        List<Snap> out = new ArrayList<>();
        for (BlockDevice d : devices.get()) {
            if (d instanceof DmDevice dm) {
                for (DmTarget x : dm.table().targets()) {
                    if (x instanceof SnapshotTarget st && st.originDevice().equals(origin)) {
                        out.add(snap(dm.name(), st));
                    }
                }
            }
        }
        out.sort(Comparator.comparingLong((Snap s) -> s.t.chunkSectors()).reversed()
                .thenComparing(s -> s.name));
        return out;
    }

    // dm-snap.c: origin_resume / get_origin_minimum_chunksize — the smallest chunk of the origin's snapshots,
    // and origin_map's dm_accept_partial_bio at the next multiple of it (writes only)
    @Override
    public long originAcceptedLen(SnapshotOriginTarget target, Bio clone) {
        if (clone.op != Op.WRITE || clone.sectors == 0) {
            return clone.sectors;
        }
        List<Snap> list = snapshotsOf(target.device());
        for (Snap s : list) {
            s.largestOriginWrite = Math.max(s.largestOriginWrite, clone.sectors);
        }
        long boundary = list.stream().mapToLong(s -> s.t.chunkSectors()).min().orElse(0);
        if (boundary == 0) {
            return clone.sectors;
        }
        long available = boundary - (clone.sector & (boundary - 1));
        return Math.min(clone.sectors, available);
    }

    // dm-snap.c: origin_map — the clone keeps its sector on the origin device; a write asks every snapshot first
    @Override
    public TargetModel.MapResult originMap(TargetModel.MapContext ctx, SnapshotOriginTarget target, Bio clone) {
        clone.device = target.device();
        if (clone.op != Op.WRITE || clone.sectors == 0) {
            return TargetModel.MapResult.REMAPPED;
        }
        for (Snap s : snapshotsOf(target.device())) {
            if (s.valid) {
                s.originWriteSectors = Math.addExact(s.originWriteSectors, clone.sectors);
            }
        }
        return doOrigin(target.device(), clone) ? TargetModel.MapResult.REMAPPED : TargetModel.MapResult.SUBMITTED;
    }

    /** {@code do_origin} / {@code __origin_write}: true when no exception is needed ({@code DM_MAPIO_REMAPPED}). */
    // dm-snap.c: __origin_write — every valid snapshot that lacks the chunk gets a pending exception; the bio waits on
    // the first of them, whose copy starts last
    private boolean doOrigin(String origin, Bio bio) {
        boolean remapped = true;
        Pending startLast = null;
        Bio waiting = bio;
        for (Snap s : snapshotsOf(origin)) {
            if (bio.sector >= s.t.end().count() || !s.valid) {
                continue;
            }
            long chunk = s.chunk(bio.sector);
            Pending pe = s.pending.get(chunk);
            if (pe == null) {
                if (s.complete.containsKey(chunk)) {
                    continue;
                }
                pe = insertPending(s, chunk);
                if (pe == null) {
                    // dm-snap.c: __origin_write — no room: invalidate_snapshot(snap, -ENOMEM)
                    invalidate(s);
                    continue;
                }
            }
            remapped = false;
            if (waiting != null) {
                pe.originBios.add(waiting);
                waiting = null;
                if (!pe.started) {
                    pe.started = true;
                    startLast = pe;
                }
            }
            if (!pe.started) {
                pe.started = true;
                startCopy(pe);
            }
        }
        if (startLast != null) {
            startCopy(startLast);
        }
        return remapped;
    }

    // dm-snap.c: __insert_pending_exception — the store's prepare_exception gives the COW chunk, or there is no room
    private Pending insertPending(Snap s, long chunk) {
        OptionalLong cow = s.store.prepare();
        if (cow.isEmpty()) {
            return null;
        }
        Pending pe = new Pending(s, chunk, cow.getAsLong());
        s.pending.put(chunk, pe);
        return pe;
    }

    // dm-snap.c: __invalidate_snapshot — the store drops the snapshot (persistent: its header rewritten invalid)
    private void invalidate(Snap s) {
        if (!s.valid) {
            return;
        }
        OptionalLong header = s.store.drop();
        s.valid = false;
        if (header.isPresent()) {
            metadataIo(s, header.getAsLong(), Bio.SYNC);
        }
    }

    // dm-snap.c: snapshot_map
    @Override
    public TargetModel.MapResult snapshotMap(TargetModel.MapContext ctx, SnapshotTarget target, Bio clone) {
        Snap s = snap(ctx.device(), target);
        if (clone.has(Bio.PREFLUSH)) {
            clone.device = target.cowDevice();
            return TargetModel.MapResult.REMAPPED;
        }
        long chunk = s.chunk(clone.sector);
        // full snapshots are not usable: DM_MAPIO_KILL; an overflowed one takes no more writes
        if (!s.valid || (s.overflowed && clone.op != Op.READ)) {
            block.fail(clone, ctx.device() + ": snapshot " + (s.valid ? "overflowed" : "is invalid")
                    + ": Input/output error");
            return TargetModel.MapResult.SUBMITTED;
        }
        Long e = s.complete.get(chunk);
        if (clone.op == Op.DISCARD) {
            // discards reach the snapshot only with discard_zeroes_cow: a whole chunk with an exception is zeroed on
            // the COW device (zero_exception), part of one is remapped, one without an exception completes at once
            if (e == null) {
                block.complete(clone);
                return TargetModel.MapResult.SUBMITTED;
            }
            remapException(s, clone, e);
            if (clone.sectors == target.chunkSectors()) {
                block.defer(() -> {
                    kcopydIo(target.cowDevice(), Op.WRITE, clone.sector, target.chunkSectors());
                    block.complete(clone);
                });
                return TargetModel.MapResult.SUBMITTED;
            }
            return TargetModel.MapResult.REMAPPED;
        }
        if (e != null) {
            remapException(s, clone, e);
            return TargetModel.MapResult.REMAPPED;
        }
        if (clone.op == Op.READ) {
            clone.device = target.originDevice();
            return TargetModel.MapResult.REMAPPED;
        }
        Pending pe = s.pending.get(chunk);
        if (pe == null) {
            pe = insertPending(s, chunk);
            if (pe == null) {
                if (target.store() == SnapshotTarget.Store.PERSISTENT_OVERFLOW) {
                    s.overflowed = true;
                } else {
                    invalidate(s);
                }
                block.fail(clone, ctx.device() + ": snapshot COW device " + target.cowDevice() + " is full: "
                        + "Input/output error");
                return TargetModel.MapResult.SUBMITTED;
            }
        }
        remapException(s, clone, pe.newChunk);
        if (!pe.started && clone.sectors == target.chunkSectors()) {
            // dm-snap.c: start_full_bio — the whole chunk is written, nothing copied; its completion is the copy's
            pe.started = true;
            s.fullWrites++;
            block.submitBioNoacct(clone);
            Pending done = pe;
            block.defer(() -> copyDone(done));
            return TargetModel.MapResult.SUBMITTED;
        }
        pe.snapshotBios.add(clone);
        if (!pe.started) {
            pe.started = true;
            startCopy(pe);
        }
        return TargetModel.MapResult.SUBMITTED;
    }

    // dm-snap.c: remap_exception — the same offset in the exception's COW chunk
    private static void remapException(Snap s, Bio clone, long newChunk) {
        long cs = s.t.chunkSectors();
        clone.device = s.t.cowDevice();
        clone.sector = Math.addExact(Math.multiplyExact(newChunk, cs), clone.sector % cs);
    }

    // dm-snap.c: start_copy — kcopyd copies the chunk (to the origin's end at most) from the origin to the COW chunk
    private void startCopy(Pending pe) {
        Snap s = pe.s;
        s.copied++;
        block.defer(() -> {
            long cs = s.t.chunkSectors();
            long src = Math.multiplyExact(pe.oldChunk, cs);
            long count = Math.min(cs, size(s.t.originDevice()) - src);
            long dst = Math.multiplyExact(pe.newChunk, cs);
            copy(s.t.originDevice(), src, s.t.cowDevice(), dst, count);
            copyDone(pe);
        });
    }

    // dm-snap.c: copy_callback -> complete_exception — the store's commit_exception; pending_complete for every
    // exception the commit wrote
    private void copyDone(Pending pe) {
        Snap s = pe.s;
        ExceptionStore.Commit c = s.store.commit(() -> pendingComplete(pe));
        for (ExceptionStore.MetadataWrite w : c.writes()) {
            // zero_disk_area: a plain sync write; area_io: REQ_PREFLUSH | REQ_FUA, sync (dm_io without notify)
            metadataIo(s, w.chunk(), w.commit() ? Bio.SYNC | Bio.PREFLUSH | Bio.FUA : Bio.SYNC);
        }
        for (Runnable r : c.completed()) {
            r.run();
        }
    }

    // dm-snap.c: pending_complete — the exception becomes complete (if the snapshot is still valid); the bios that
    // waited for it go down (snapshot writes fail if it is not), origin writes are retried through do_origin
    private void pendingComplete(Pending pe) {
        Snap s = pe.s;
        s.pending.remove(pe.oldChunk);
        boolean ok = s.valid;
        if (ok) {
            s.complete.put(pe.oldChunk, pe.newChunk);
        }
        for (Bio b : pe.snapshotBios) {
            if (ok) {
                block.submitBioNoacct(b);
            } else {
                block.fail(b, s.name + ": snapshot is invalid: Input/output error");
            }
        }
        for (Bio b : pe.originBios) {
            if (doOrigin(b.device, b)) {
                block.submitBioNoacct(b);
            }
        }
    }

    // dm-exception-store metadata I/O (chunk_io): one chunk of the COW device, sync
    private void metadataIo(Snap s, long chunk, int flags) {
        long cs = s.t.chunkSectors();
        block.submitRegion(s.t.cowDevice(), Op.WRITE, flags, Math.multiplyExact(chunk, cs), cs);
    }

    // drivers/md/dm-kcopyd.c: dm_kcopyd_copy — sub-jobs of at most 1024 sectors, each read, then written, each I/O
    // from a run of kcopyd's worker under its plug
    private void copy(String from, long fromSector, String to, long toSector, long sectors) {
        for (long s = 0; s < sectors; s += KCOPYD_SUB_JOB_SECTORS) {
            long len = Math.min(KCOPYD_SUB_JOB_SECTORS, sectors - s);
            kcopydIo(from, Op.READ, fromSector + s, len);
            kcopydIo(to, Op.WRITE, toSector + s, len);
        }
    }

    // drivers/md/dm-kcopyd.c: run_io_job — each sub-job's I/O (dm-io) from kcopyd's worker under its plug
    private void kcopydIo(String dev, Op op, long sector, long sectors) {
        block.startPlug();
        block.submitRegion(dev, op, 0, sector, sectors);
        block.finishPlug();
    }

    /** What a snapshot device did so far and its store's usage ({@code snapshot_status}). */
    public SnapshotStats stats(String snapshotDevice, SnapshotTarget t) {
        Snap s = snap(snapshotDevice, t);
        return new SnapshotStats(snapshotDevice, t.originDevice(), t.cowDevice(), t.chunkSectors(), s.copied,
                s.fullWrites, s.store.commits(), s.originWriteSectors, s.largestOriginWrite, s.store.usedSectors(),
                s.store.totalSectors(), s.store.metadataSectors(), !s.valid, s.overflowed);
    }
}
