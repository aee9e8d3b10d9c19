package dev.dmmodel.impl.dm;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.block.Splitter;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Device-mapper's I/O core ({@code drivers/md/dm.c}): each dm device is a bio-based driver whose
 * {@code submit_bio} clones the bio for the target it starts in, no further than the target's end or its
 * {@code max_io_len} ({@code __max_io_len}), hands the clone to the target's {@code map}, and resubmits the
 * rest as a split ({@code dm_split_and_process_bio}); empty flushes go to every device of every target
 * ({@code __send_empty_flush}); discards and write-zeroes are split to the dm device's own limits first. A
 * target's {@link TargetModel#map(TargetModel.MapContext, Bio, Bio, long)} does what its kernel {@code map} does;
 * dm-thin's, which needs the pool's state, reaches it through {@link ThinMapper}.
 */
public final class DmCore {

    /** dm-thin's {@code thin_map} and its block size, which bounds a thin target's clones. */
    public interface ThinMapper {
        /** {@code thin_map}: the clone of {@code bio} at {@code offset} sectors into the target. */
        void map(String thinDevice, ThinTarget target, Bio bio, Bio clone, long offset);

        /** The pool's block size in sectors ({@code dm_set_target_max_io_len(ti, sectors_per_block)}). */
        long blockSectors(String poolDevice);
    }

    /**
     * dm-snapshot's {@code origin_map} and {@code snapshot_map}, which share the origins' snapshot lists and the
     * exception stores ({@code drivers/md/dm-snap.c}).
     */
    public interface SnapshotMapper {
        /** {@code origin_map}'s {@code dm_accept_partial_bio}: how much of a clone of the origin target it takes. */
        long originAcceptedLen(dev.dmmodel.dm.SnapshotOriginTarget target, Bio clone);

        /** {@code origin_map} for a clone of the origin target. */
        TargetModel.MapResult originMap(TargetModel.MapContext ctx, dev.dmmodel.dm.SnapshotOriginTarget target,
                                        Bio clone);

        /** {@code snapshot_map} for a clone (never crossing a chunk) of the snapshot target. */
        TargetModel.MapResult snapshotMap(TargetModel.MapContext ctx, dev.dmmodel.dm.SnapshotTarget target, Bio clone);
    }

    /** A dm device: its table's targets with their models, and what their {@code map} is given. */
    private record DmNode(DmDevice device, List<DmTarget> targets, List<TargetModel> models,
                          TargetModel.MapContext ctx) {
        int targetAt(long sector) {
            for (int i = 0; i < targets.size(); i++) {
                if (sector < targets.get(i).end().count()) {
                    return i;
                }
            }
            throw new IllegalArgumentException("sector " + sector + " beyond " + device.name());
        }
    }

    private final BlockLayer block;
    private final KernelProfile profile;
    private final Map<String, DmNode> dms = new HashMap<>();
    private ThinMapper thin;
    private SnapshotMapper snapshots;

    /** Device-mapper on a block layer. */
    public DmCore(BlockLayer block) {
        this.block = block;
        this.profile = block.profile;
    }

    /** Connects dm-thin's {@code map}. */
    public void thinMapper(ThinMapper mapper) {
        this.thin = mapper;
    }

    /** Connects dm-snapshot's {@code map}s (before the devices are added). */
    public void snapshotMapper(SnapshotMapper mapper) {
        this.snapshots = mapper;
    }

    /**
     * {@code DM_DEV_CREATE} + table load + resume: the device joins the block layer as a bio-based device with
     * its computed limits.
     *
     * @param deviceSize the size in sectors of a device by kernel name (for targets that look below)
     */
    // drivers/md/dm-ioctl.c: dev_create, table_load, do_resume
    public void add(DmDevice dm, Limits limits, Function<String, Long> deviceSize) {
        if (dms.containsKey(dm.name())) {
            throw new IllegalStateException("dm device " + dm.name() + " already exists");
        }
        List<TargetModel> models = new ArrayList<>();
        for (DmTarget t : dm.table().targets()) {
            models.add(TargetModel.of(t, deviceSize));
        }
        DmNode node = new DmNode(dm, dm.table().targets(), models, new TargetModel.MapContext(block, dm.name(), thin, snapshots));
        dms.put(dm.name(), node);
        if (requestBased(models)) {
            block.addRequestBased(dm.name(), limits, rq -> mapRequest(node, rq));
            return;
        }
        block.addBioBased(dm.name(), limits, bioDriver(node));
    }

    private BlockLayer.BioBasedDriver bioDriver(DmNode node) {
        return new BlockLayer.BioBasedDriver() {
            @Override
            public void submitBio(Bio bio) {
                dmSubmit(node, bio);
            }

            @Override
            public long mergeLimit(long sector) {
                // before 4.3: dm_merge_bvec — the target boundary or max_io_len
                int i = node.targetAt(sector);
                DmTarget ti = node.targets().get(i);
                return maxIoLen(node, ti, node.models().get(i), sector - ti.start().count(), Op.WRITE);
            }
        };
    }

    /**
     * {@code dmsetup reload} + {@code resume} of a bio-based device while I/O runs ({@code dm_swap_table}): the
     * device keeps its name and counters; its targets, models and limits are the new table's.
     *
     * @throws IllegalStateException if the device does not exist or either table is request-based
     */
    // drivers/md/dm-ioctl.c: table_load, do_resume -> dm_swap_table
    public void reload(DmDevice dm, Limits limits, Function<String, Long> deviceSize) {
        DmNode old = dms.get(dm.name());
        if (old == null) {
            throw new IllegalStateException("no dm device " + dm.name());
        }
        List<TargetModel> models = new ArrayList<>();
        for (DmTarget t : dm.table().targets()) {
            models.add(TargetModel.of(t, deviceSize));
        }
        if (requestBased(models) || requestBased(old.models())) {
            throw new IllegalStateException("dm device " + dm.name() + ": reloading a request-based table is not"
                    + " modelled");
        }
        DmNode node = new DmNode(dm, dm.table().targets(), models, new TargetModel.MapContext(block, dm.name(), thin,
                snapshots));
        dms.put(dm.name(), node);
        block.replaceBioBased(dm.name(), limits, bioDriver(node));
    }

    /** {@code DM_DEV_REMOVE}: the device is gone; nothing may be stacked on it. */
    // drivers/md/dm-ioctl.c: dev_remove
    public void remove(String name) {
        for (DmNode n : dms.values()) {
            if (n.device().table().devices().contains(name)) {
                throw new IllegalStateException("dm device " + name + " is in use by " + n.device().name());
            }
        }
        DmNode gone = dms.remove(name);
        if (gone == null) {
            throw new IllegalStateException("no dm device " + name);
        }
        if (requestBased(gone.models())) {
            block.removeRequestBased(name);
        } else {
            block.removeBioBased(name);
        }
    }

    // drivers/md/dm-table.c: dm_table_determine_type — request-based when its (singleton) target says so
    private static boolean requestBased(List<TargetModel> models) {
        return !models.isEmpty() && models.stream().allMatch(TargetModel::requestBased);
    }

    /**
     * The status line of a dm device's targets as {@code dmsetup status} prints it, one line per target
     * ({@code <start> <length> <type> <status>}); a target whose model does not say prints nothing after its type.
     */
    // drivers/md/dm-ioctl.c: retrieve_status
    public List<String> status(String name, Function<String, String> device) {
        DmNode n = dms.get(name);
        if (n == null) {
            throw new IllegalStateException("no dm device " + name);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.targets().size(); i++) {
            DmTarget t = n.targets().get(i);
            String s = n.models().get(i).status(device);
            out.add(t.start().count() + " " + t.length().count() + " " + t.type() + (s.isEmpty() ? "" : " " + s));
        }
        return out;
    }

    // drivers/md/dm-rq.c: dm_mq_queue_rq -> map_request — the target's clone_and_map_rq picks the device below;
    // the clone is inserted there (blk_insert_cloned_request); a killed request completes with an error
    private void mapRequest(DmNode dm, dev.dmmodel.impl.block.Request rq) {
        int i = dm.targetAt(rq.sector());
        TargetModel model = dm.models().get(i);
        TargetModel.RqMapping m = model.cloneAndMapRq(dm.ctx(), rq.sector(), rq.sectors() * 512);
        if (m == null) {
            block.failRequest(rq, dm.device().name() + ": no usable path for the request at sector " + rq.sector()
                    + " (DM_MAPIO_KILL)");
            return;
        }
        block.insertClonedRequest(rq, m.device(), m.endIo());
    }

    /**
     * The host's clock moved from {@code fromNanos} to {@code toNanos}: each target's timers and periodic work
     * run ({@link TargetModel#clockAdvanced}), devices in name order.
     */
    public void clockAdvanced(long fromNanos, long toNanos) {
        for (String name : new java.util.TreeSet<>(dms.keySet())) {
            DmNode n = dms.get(name);
            if (n == null) {
                continue;
            }
            for (TargetModel m : n.models()) {
                m.clockAdvanced(n.ctx(), fromNanos, toNanos);
            }
        }
    }

    /** The models of a dm device's targets in table order, or an empty list if there is no such device. */
    public List<TargetModel> models(String device) {
        DmNode n = dms.get(device);
        return n == null ? List.of() : n.models();
    }

    // drivers/md/dm.c: dm_submit_bio / dm_split_and_process_bio — one clone per call, the rest resubmitted
    private void dmSubmit(DmNode dm, Bio bio) {
        bio.dmBio = true;
        if (bio.sectors == 0 && bio.has(Bio.PREFLUSH)) {
            emptyFlush(dm, bio);
            return;
        }
        if (bio.has(Bio.PREFLUSH) && bio.op == Op.WRITE) {
            // drivers/md/dm.c: dm_split_and_process_bio — a flush with data is sent as an empty flush first
            // (__send_empty_flush); dm_io_complete then requeues the data without REQ_PREFLUSH, which is not traced
            // as queued again (BIO_TRACE_COMPLETION)
            flushBeforeData(dm, bio);
            bio.flags &= ~Bio.PREFLUSH;
        }
        if (bio.op == Op.DISCARD || bio.op == Op.WRITE_ZEROES) {
            // drivers/md/dm.c: dm_split_and_process_bio — abnormal I/O is split to the dm device's own limits
            Splitter.Result r = Splitter.check(bio, block.queueLimits(dm.device().name()));
            if (r.splitSectors() > 0 && r.splitSectors() < bio.sectors) {
                Bio first = bio.clone(0, r.splitSectors());
                first.dmBio = true;
                first.traced = true;
                first.parent = bio.parent;
                if (bio.parent != null) {
                    bio.parent.remaining++;
                }
                bio.advance(r.splitSectors());
                block.events.emit(dm.device().name(), EventType.SPLIT, first.rwbs(), first.sector, -1,
                        "new_sector=" + bio.sector, block.events.explain
                                ? Splitter.why(r, first.sector, block.queueLimits(dm.device().name())) + " of "
                                        + dm.device().name() : "");
                block.submitBioNoacct(bio);
                bio = first;
            }
        }
        int i = dm.targetAt(bio.sector);
        DmTarget ti = dm.targets().get(i);
        TargetModel model = dm.models().get(i);
        long offset = bio.sector - ti.start().count();
        long len = Math.min(maxIoLen(dm, ti, model, offset, bio.op), bio.sectors);
        long offered = len;
        Bio clone = bio.clone(0, len);
        // drivers/md/dm.c: dm_accept_partial_bio — the target's map may take less than dm core offered (io->sectors,
        // which dm_io_acct counts)
        long accepted = model.acceptedLen(dm.ctx(), clone);
        if (accepted < len) {
            len = accepted;
            clone = bio.clone(0, len);
        }
        // drivers/md/dm.c: dm_start_io_acct — one I/O per dm_io: per bio entering dm_submit_bio (4.3+),
        // per original bio before (_dm_request)
        if (!block.atBuild() || !bio.dmAccounted) {
            block.accounting.io(dm.device().name(), bio.op, block.atBuild() ? bio.sectors : len);
            bio.dmAccounted = true;
        }
        clone.parent = bio;
        bio.remaining++;
        // drivers/md/dm.c: __map_bio — the target's map; a remapped clone is traced and submitted below
        if (model.map(dm.ctx(), bio, clone, offset) == TargetModel.MapResult.REMAPPED) {
            // trace_block_bio_remap(clone, original device, original sector)
            if (block.events.enabled()) {
                block.events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, clone.sectors,
                        "from=" + dm.device().name() + ":" + bio.sector, block.events.explain
                                ? ti.type() + " target, table line " + i + " (sectors " + ti.start().count() + "+"
                                        + ti.length().count() + "), " + offset + " into it" : "");
            }
            block.submitBioNoacct(clone);
        }
        String why = block.events.explain && len < bio.sectors
                ? cutWhy(dm, i, ti, model, offset, bio.op, offered, len) : "";
        remainder(dm, bio, len, why);
    }

    // what ended the clone at len: the target's end, max_io_len, the dm device's max_sectors, or the target's
    // dm_accept_partial_bio (for trace --why; the same arithmetic as __max_io_len)
    private String cutWhy(DmNode dm, int line, DmTarget ti, TargetModel model, long offset, Op op, long offered,
                          long len) {
        String dev = dm.device().name();
        if (len < offered) {
            return ti.type() + " target took " + len + " of " + offered + " sectors (dm_accept_partial_bio)";
        }
        long toEnd = ti.length().count() - offset;
        if (len == toEnd) {
            return "target boundary at sector " + (ti.start().count() + ti.length().count()) + " of " + dev
                    + " (table line " + line + " ends)";
        }
        if (op == Op.DISCARD || op == Op.WRITE_ZEROES) {
            return ti.type() + " target's limit for " + op.name().toLowerCase(java.util.Locale.ROOT) + " ("
                    + len + " sectors)";
        }
        long granularity = model.maxIoLen(dm.ctx());
        long left = granularity == 0 ? 0 : granularity - offset % granularity;
        if (granularity != 0 && len == left) {
            return "max_io_len=" + granularity + " of the " + ti.type() + " target: boundary at sector "
                    + (ti.start().count() + offset + left) + " of " + dev;
        }
        return "max_sectors=" + block.queueLimits(dev).maxSectors + " of " + dev + " (__max_io_len)";
    }

    // drivers/md/dm.c: __send_empty_flush — an empty flush clone to every device area of every target (a thin
    // target defers it), at the sector the target gives it (TargetModel.emptyFlushSector)
    private void emptyFlush(DmNode dm, Bio bio) {
        block.accounting.io(dm.device().name(), Op.FLUSH, 0);
        bio.remaining++;
        for (TargetModel model : dm.models()) {
            model.flushWork(dm.ctx());
            for (TargetModel.DeviceArea a : model.flushAreas()) {
                long sector = model.emptyFlushSector(a, bio.sector, profile);
                Bio clone = new Bio(a.device(), Op.WRITE, bio.flags, sector, 0, null);
                clone.parent = bio;
                bio.remaining++;
                block.events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, 0,
                        "from=" + dm.device().name() + ":" + bio.sector);
                block.submitBioNoacct(clone);
            }
        }
        block.endio(bio);
    }

    // drivers/md/dm.c: __send_empty_flush for a flush with data — the empty clones count towards the bio itself
    private void flushBeforeData(DmNode dm, Bio bio) {
        for (TargetModel model : dm.models()) {
            for (TargetModel.DeviceArea a : model.flushAreas()) {
                long sector = model.emptyFlushSector(a, bio.sector, profile);
                Bio clone = new Bio(a.device(), Op.WRITE, bio.flags, sector, 0, null);
                clone.parent = bio;
                bio.remaining++;
                // the recorded 6.12 remap names sector 0 of the dm device as the flush clone's origin
                block.events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, 0,
                        "from=" + dm.device().name() + ":" + 0);
                block.submitBioNoacct(clone);
            }
        }
    }

    // drivers/md/dm.c: dm_split_and_process_bio — the rest is trimmed, traced as a split, and resubmitted
    private void remainder(DmNode dm, Bio bio, long len, String why) {
        if (len < bio.sectors && block.atBuild()) {
            // before 4.3: __split_and_process_bio clones every piece in one loop, nothing is traced
            bio.advance(len);
            dmSubmit(dm, bio);
            return;
        }
        if (len < bio.sectors) {
            bio.advance(len);
            if (block.events.enabled()) {
                block.events.emit(dm.device().name(), EventType.SPLIT, bio.rwbs(), bio.sector, -1,
                        "new_sector=" + bio.sector, why);
            }
            block.submitBioNoacct(bio);
        }
    }

    // drivers/md/dm.c: __max_io_len — to the target's end; with max_io_len also the chunk and dm max_sectors
    private long maxIoLen(DmNode dm, DmTarget ti, TargetModel model, long offset, Op op) {
        long len = ti.length().count() - offset;
        Limits limits = block.queueLimits(dm.device().name());
        if (op == Op.DISCARD || op == Op.WRITE_ZEROES) {
            return model.abnormalIoLen(dm.ctx(), offset, len);
        }
        long granularity = model.maxIoLen(dm.ctx());
        if (granularity == 0) {
            return len;
        }
        long left = granularity - offset % granularity;
        return Math.min(len, Math.min(limits.maxSectors, left));
    }
}
