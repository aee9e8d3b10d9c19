package dev.dmmodel.impl.dm.thin;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.dm.DmTableLimits;
import dev.dmmodel.trace.EventType;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * dm-thin's I/O path ({@code drivers/md/dm-thin.c}): mapped, unshared blocks are remapped at once
 * ({@code thin_bio_map}); everything else goes to the pool's worker: a write to an unprovisioned block
 * provisions it, zeroing it first unless the bio overwrites the whole block ({@code schedule_zero}); a
 * write to a shared block copies it first unless overwritten whole ({@code break_sharing}); reads of
 * unprovisioned blocks complete with zeroes and no I/O; discards unmap whole blocks and pass down those
 * no longer shared. Zeroing and copies are kcopyd jobs on the pool device in sub-jobs of at most 1024
 * sectors ({@code DEFAULT_SUB_JOB_SIZE_KB}).
 */
public final class ThinIo implements dev.dmmodel.impl.dm.DmCore.ThinMapper {
    /** dm-kcopyd's sub-job ({@link dev.dmmodel.impl.dm.Kcopyd#SUB_JOB_SECTORS}). */
    static final long KCOPYD_SUB_JOB_SECTORS = dev.dmmodel.impl.dm.Kcopyd.SUB_JOB_SECTORS;

    private final BlockLayer blockLayer;
    /** The devices by kernel name, as they are now. */
    private final Function<String, BlockDevice> devices;
    /** Pool device (kernel name) to the transaction id LVM's metadata gives its pool. */
    private final Map<String, Long> lvmTransactionIds;
    private final Map<String, ThinPoolMetadata> pools = new HashMap<>();
    /** Per thin device: provisioned, partial first writes, zeroed, copied, largest bio, write bios, no space. */
    private final Map<String, long[]> counters = new HashMap<>();
    /** Pools whose low water mark event fired. */
    private final Set<String> lowWater = new HashSet<>();
    /** Thin ids that exist only because a table names them (an imported host), not yet written. */
    private final Set<String> implicit = new HashSet<>();

    /**
     * dm-thin on a block layer.
     *
     * @param devices the devices by kernel name
     * @param lvmTransactionIds pool device to the transaction id LVM's metadata gives its pool (LVM keeps the
     *     kernel pool's id in step: lib/thin/thin.c transaction_id)
     */
    public ThinIo(BlockLayer block, Function<String, BlockDevice> devices, Map<String, Long> lvmTransactionIds) {
        this.blockLayer = block;
        this.devices = devices;
        this.lvmTransactionIds = lvmTransactionIds;
    }

    /** A pool's transaction id ({@code set_transaction_id}; {@code dmsetup status} shows it). */
    public long transactionId(String poolDevice) {
        return pool(poolDevice).transactionId();
    }

    /** The pool metadata of a pool device (kernel name), created on first use. */
    ThinPoolMetadata pool(String poolDevice) {
        return pools.computeIfAbsent(poolDevice, p -> {
            ThinPoolTarget t = poolTarget(p);
            ThinPoolMetadata m = new ThinPoolMetadata(t.length().count() / t.blockSectors());
            long tid = lvmTransactionIds.getOrDefault(p, 0L);
            if (tid != 0) {
                m.setTransactionId(0, tid);
            }
            return m;
        });
    }

    public ThinPoolTarget poolTarget(String poolDevice) {
        DmDevice dm = (DmDevice) devices.apply(poolDevice);
        return DmTableLimits.poolTarget(dm.table()).orElseThrow(() -> new IllegalStateException(poolDevice
                + " is not a thin-pool device"));
    }

    /** Registers a thin device a table names, so that an imported host's thin devices exist. */
    public void registerFromTable(ThinTarget t) {
        ThinPoolMetadata m = pool(t.poolDevice());
        if (!m.exists(t.deviceId())) {
            m.createThin(t.deviceId());
            implicit.add(t.poolDevice() + "/" + t.deviceId());
        }
    }

    private long[] counters(String thinDevice) {
        return counters.computeIfAbsent(thinDevice, k -> new long[7]);
    }

    /** The statistics of a thin device. */
    public dev.dmmodel.engine.ThinStats stats(String thinDevice, ThinTarget t) {
        long[] c = counters.getOrDefault(thinDevice, new long[7]);
        ThinPoolMetadata m = pool(t.poolDevice());
        long bs = poolTarget(t.poolDevice()).blockSectors();
        boolean exists = m.exists(t.deviceId());
        long mapped = exists ? m.mappedBlocks(t.deviceId()) * bs : 0;
        long highest = exists ? m.highestMappedBlock(t.deviceId()) : -1;
        // dm-thin.c: thin_status — mapped sectors, then ((highest block + 1) * block size) - 1 or "-"
        return new dev.dmmodel.engine.ThinStats(thinDevice, t.poolDevice(), bs,
                c[0], c[1], c[2], c[3], c[4], c[5], m.usedBlocks(), m.dataBlocks(), lowWater.contains(t.poolDevice()),
                c[6], mapped, highest < 0 ? -1 : (highest + 1) * bs - 1, m.transactionId());
    }

    // dm-thin.c: pool_message — create_thin, create_snap, delete, set_transaction_id
    public void message(String poolDevice, List<String> words) {
        ThinPoolMetadata m = pool(poolDevice);
        String cmd = words.isEmpty() ? "" : words.get(0);
        switch (cmd) {
            case "create_thin": {
                long id = number(words, 1);
                if (!implicit.remove(poolDevice + "/" + id)) {
                    m.createThin(id);
                }
                return;
            }
            case "create_snap": {
                long id = number(words, 1);
                long origin = number(words, 2);
                if (implicit.remove(poolDevice + "/" + id) && m.mappedBlocks(id) == 0) {
                    m.delete(id);
                }
                implicit.remove(poolDevice + "/" + origin);
                m.createSnap(id, origin);
                return;
            }
            case "delete":
                implicit.remove(poolDevice + "/" + number(words, 1));
                m.delete(number(words, 1));
                return;
            case "set_transaction_id":
                m.setTransactionId(number(words, 1), number(words, 2));
                return;
            case "reserve_metadata_snap":
            case "release_metadata_snap":
                return;
            default:
                throw new IllegalArgumentException("unrecognised thin pool message '" + String.join(" ", words) + "'");
        }
    }

    private static long number(List<String> words, int i) {
        if (words.size() <= i) {
            throw new IllegalArgumentException("thin pool message '" + String.join(" ", words) + "' lacks an argument");
        }
        try {
            return Long.parseLong(words.get(i));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("thin pool message '" + String.join(" ", words) + "': '" + words.get(i)
                    + "' is not a number");
        }
    }

    /**
     * {@code thin_map} for a clone (never crossing a block) of {@code thinBio} at {@code offset} sectors
     * into the thin target.
     */
    @Override
    public void map(String thinDevice, ThinTarget t, Bio thinBio, Bio clone, long offset) {
        ThinPoolTarget pt = poolTarget(t.poolDevice());
        if (clone.op == Op.WRITE && clone.sectors > 0 && !thinBio.thinCounted) {
            thinBio.thinCounted = true;
            long[] c = counters(thinDevice);
            c[4] = Math.max(c[4], thinBio.sectors);
            c[5]++;
        }
        ThinPoolMetadata m = pool(t.poolDevice());
        if (!m.exists(t.deviceId())) {
            blockLayer.fail(clone, thinDevice + ": thin device " + t.deviceId() + " does not exist in pool " + t.poolDevice());
            return;
        }
        long bs = pt.blockSectors();
        if (clone.op == Op.FLUSH || (clone.sectors == 0 && clone.has(Bio.PREFLUSH))) {
            blockLayer.complete(clone);
            return;
        }
        if (clone.op == Op.DISCARD) {
            blockLayer.defer(() -> discard(t, pt, m, clone, offset, bs));
            return;
        }
        long block = offset / bs;
        Optional<ThinPoolMetadata.Lookup> l = m.lookup(t.deviceId(), block);
        if (l.isPresent() && (!l.get().shared() || clone.op == Op.READ)) {
            remap(thinDevice, t, thinBio, clone, l.get().dataBlock(), offset, bs);
            return;
        }
        if (clone.op == Op.READ) {
            // dm-thin.c: provision_block — an unprovisioned read is zero-filled, no I/O below
            blockLayer.complete(clone);
            return;
        }
        blockLayer.defer(() -> provision(thinDevice, t, pt, m, thinBio, clone, offset, bs));
    }

    private void remap(String thinDevice, ThinTarget t, Bio thinBio, Bio clone, long dataBlock, long offset, long bs) {
        long origSector = thinBio.sector;
        clone.device = t.poolDevice();
        clone.sector = dataBlock * bs + offset % bs;
        // dm.c: __map_bio — the remap is reported from the thin device's original sector (text only when traced)
        if (blockLayer.events.enabled()) {
            blockLayer.events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, clone.sectors,
                    "from=" + thinDevice + ":" + origSector, blockLayer.events.explain
                            ? blockWhy(offset, dataBlock, bs) : "");
        }
        blockLayer.submitBioNoacct(clone);
    }

    // for trace --why: which virtual block of the thin device maps to which data block of the pool
    private static String blockWhy(long offset, long dataBlock, long bs) {
        return "thin block " + offset / bs + " -> pool data block " + dataBlock + " (" + bs + "-sector blocks)";
    }

    // dm-thin.c: process_cell / provision_block / break_sharing — run by the pool's worker
    private void provision(String thinDevice, ThinTarget t, ThinPoolTarget pt, ThinPoolMetadata m, Bio thinBio,
                           Bio clone, long offset, long bs) {
        long block = offset / bs;
        Optional<ThinPoolMetadata.Lookup> l = m.lookup(t.deviceId(), block);
        if (l.isPresent() && !l.get().shared()) {
            remapDeferred(thinDevice, t, clone, l.get().dataBlock(), offset, bs);
            return;
        }
        long data = m.allocate();
        // dm-thin.c: check_low_water_mark — one table event when free blocks reach the low water mark
        if (data >= 0 && m.freeBlocks() <= pt.lowWaterMark()) {
            lowWater.add(t.poolDevice());
        }
        if (data < 0) {
            counters(thinDevice)[6]++;
            // dm-thin.c: alloc_data_block -> PM_OUT_OF_DATA_SPACE
            blockLayer.fail(clone, t.poolDevice() + ": out of data space" + (pt.features().contains(
                    dev.dmmodel.dm.ThinPoolFeature.ERROR_IF_NO_SPACE) ? " (error_if_no_space: failed)"
                    : " (queued until the pool grows or no_space_timeout expires)"));
            return;
        }
        boolean overwrite = clone.op == Op.WRITE && clone.sectors == bs;
        long[] c = counters(thinDevice);
        c[0]++;
        if (!overwrite) {
            c[1]++;
        }
        boolean prepared = false;
        if (l.isPresent()) {
            if (!overwrite) {
                c[3]++;
                // dm-thin.c: schedule_internal_copy — kcopyd copies the whole block through the pool device
                copy(t.poolDevice(), l.get().dataBlock() * bs, data * bs, bs, blockLayer.events.explain
                        ? "break_sharing: kcopyd copies shared data block " + l.get().dataBlock() + " to " + data
                                + " for thin block " + block + " of " + thinDevice + " (the " + clone.sectors
                                + "-sector write does not cover the " + bs + "-sector block)" : null);
                prepared = true;
            }
        } else if (pt.zeroNewBlocks() && !overwrite) {
            // dm-thin.c: schedule_zero -> ll_zero — kcopyd zeroes the whole block first
            c[2]++;
            zero(t.poolDevice(), data * bs, bs, blockLayer.events.explain
                    ? "schedule_zero: kcopyd zeroes data block " + data + " for thin block " + block + " of "
                            + thinDevice + " (the " + clone.sectors + "-sector " + clone.op.name().toLowerCase(
                                    java.util.Locale.ROOT) + " does not cover the " + bs + "-sector block)" : null);
            prepared = true;
        }
        m.insert(t.deviceId(), block, data);
        if (prepared) {
            // dm-thin.c: process_prepared_mapping — the bio goes on once kcopyd is done, in a later pass of the
            // worker: after the bios the worker has in hand now
            blockLayer.defer(() -> remapDeferred(thinDevice, t, clone, data, offset, bs));
        } else {
            remapDeferred(thinDevice, t, clone, data, offset, bs);
        }
    }

    // dm-thin.c: remap_and_issue from the worker — traced as a remap by dm_submit_bio_remap (5.18+), untraced before
    private void remapDeferred(String thinDevice, ThinTarget t, Bio clone, long dataBlock, long offset, long bs) {
        long origSector = clone.sector;
        clone.device = t.poolDevice();
        clone.sector = dataBlock * bs + offset % bs;
        if (blockLayer.profile.tracesDeferredRemaps() && blockLayer.events.enabled()) {
            blockLayer.events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, clone.sectors,
                    "from=" + thinDevice + ":" + origSector, blockLayer.events.explain
                            ? blockWhy(offset, dataBlock, bs) : "");
        }
        blockLayer.submitBioNoacct(clone);
    }

    // drivers/md/dm-kcopyd.c: dm_kcopyd_zero — writes of zero pages, one per sub-job, all from one run of kcopyd's
    // worker (do_work) under its plug
    private void zero(String poolDevice, long sector, long sectors, String why) {
        blockLayer.startPlug();
        for (long s = sector; s < sector + sectors; s += KCOPYD_SUB_JOB_SECTORS) {
            long len = Math.min(KCOPYD_SUB_JOB_SECTORS, sector + sectors - s);
            kcopydIo(poolDevice, Op.WRITE, s, len, why);
        }
        blockLayer.finishPlug();
    }

    // drivers/md/dm-kcopyd.c: dm_kcopyd_copy — each sub-job reads the source, then, once the read is done, writes
    // the destination: each I/O from a run of kcopyd's worker under its plug
    private void copy(String poolDevice, long from, long to, long sectors, String why) {
        for (long s = 0; s < sectors; s += KCOPYD_SUB_JOB_SECTORS) {
            long len = Math.min(KCOPYD_SUB_JOB_SECTORS, sectors - s);
            blockLayer.startPlug();
            kcopydIo(poolDevice, Op.READ, from + s, len, why);
            blockLayer.finishPlug();
            blockLayer.startPlug();
            kcopydIo(poolDevice, Op.WRITE, to + s, len, why);
            blockLayer.finishPlug();
        }
    }

    // drivers/md/dm-io.c: do_region — one bio per region since 4.3 (split on entry), built to fit the queue before
    private void kcopydIo(String device, Op op, long sector, long sectors, String why) {
        blockLayer.submitRegion(device, op, 0, sector, sectors, why);
    }

    // dm-thin.c: process_discard_bio / process_prepared_discard_passdown_pt1 — whole blocks only
    private void discard(ThinTarget t, ThinPoolTarget pt, ThinPoolMetadata m, Bio clone, long offset, long bs) {
        long begin = (offset + bs - 1) / bs;
        long end = (offset + clone.sectors) / bs;
        if (begin < end && pt.discardEnabled()) {
            List<long[]> freed = m.removeRange(t.deviceId(), begin, end);
            if (pt.discardPassdown() && blockLayer.supportsDiscard(pt.dataDevice(), bs)) {
                for (long[] run : freed) {
                    blockLayer.issueDiscard(t.poolDevice(), run[0] * bs, (run[1] - run[0]) * bs, 0);
                }
            }
        }
        blockLayer.complete(clone);
    }

    @Override
    public long blockSectors(String poolDevice) {
        return poolTarget(poolDevice).blockSectors();
    }
}
