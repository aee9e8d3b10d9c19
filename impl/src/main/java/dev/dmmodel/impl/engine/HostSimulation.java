package dev.dmmodel.impl.engine;

import com.google.common.collect.Range;
import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Bios;
import dev.dmmodel.impl.block.Bvecs;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.mm.PageCache;
import dev.dmmodel.impl.mm.UserBuffer;
import dev.dmmodel.impl.mm.Writeback;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's host: runs workload commands against a layout and reports the kernel's block events.
 * Modelled so far: {@code dd} (direct and buffered reads and writes of block devices, {@code /dev/zero},
 * {@code /dev/null}), {@code sync}, {@code drop_caches}, sysfs {@code max_sectors_kb}/{@code read_ahead_kb},
 * {@code blockdev --setbsz}, {@code mkfs}/{@code mount}/{@code umount} as changes of the soft block size,
 * {@code dmsetup message}/{@code suspend}/{@code resume}, {@code blkdiscard}, {@code sleep} (the clock
 * advances), and LVM's thin commands: {@code lvcreate -V -T} (the pool's {@code create_thin}, a new dm device
 * at the lowest free minor), {@code lvcreate -s} of a thin LV (the pool's {@code create_snap}; the snapshot
 * stays inactive, as LVM leaves it) and {@code lvremove} of a thin LV (its device removed, the pool's
 * {@code delete}). Each LVM change steps the pool's transaction id as LVM does.
 */
public final class HostSimulation implements Simulation {

    private final Layout original;
    private Layout layout;
    private final Kernel kernel;
    private final Map<String, PageCache> caches = new HashMap<>();
    /** Devices held open by a mounted filesystem, with the filesystem's sector size. */
    private final Map<String, Long> mounted = new HashMap<>();
    /** Sector sizes of filesystems written by mkfs, by device. */
    private final Map<String, Long> filesystems = new HashMap<>();
    private final UserBuffer buffer;
    /** The volume groups as LVM's metadata says now: thin snapshots created by the workload are added. */
    private final Map<String, dev.dmmodel.lvm.VolumeGroup> volumeGroups = new java.util.LinkedHashMap<>();
    /** The devices that exist now, in creation order: LVM commands add and remove dm devices. */
    private final List<BlockDevice> current;
    /** Modelled time since the start ({@code sleep}), in nanoseconds. */
    private long clockNanos;

    /** A simulation of the layout. */
    public HostSimulation(Layout layout, dev.dmmodel.engine.EngineOptions options) {
        this.original = layout;
        this.layout = layout;
        this.buffer = new UserBuffer(options.bufferRunBytes());
        this.kernel = new Kernel(layout);
        this.current = new ArrayList<>(layout.devices());
        kernel.registerThinDevices();
        for (dev.dmmodel.lvm.VolumeGroup vg : layout.volumeGroups()) {
            volumeGroups.put(vg.name(), vg);
        }
    }

    @Override
    public Layout layout() {
        return layout;
    }

    @Override
    public List<dev.dmmodel.engine.ThinStats> thinStats() {
        List<dev.dmmodel.engine.ThinStats> out = new ArrayList<>();
        for (BlockDevice d : layout.devices()) {
            if (d instanceof dev.dmmodel.device.DmDevice dm && dm.table().targets().size() == 1
                    && dm.table().targets().get(0) instanceof dev.dmmodel.dm.ThinTarget t) {
                out.add(kernel.thin.stats(d.name(), t));
            }
        }
        return List.copyOf(out);
    }

    @Override
    public List<dev.dmmodel.engine.DeviceStats> stats() {
        List<dev.dmmodel.engine.DeviceStats> out = new ArrayList<>();
        for (BlockDevice d : layout.devices()) {
            out.add(kernel.accounting.stats(d.name()));
        }
        return List.copyOf(out);
    }

    @Override
    public dev.dmmodel.engine.JobResult run(dev.dmmodel.workload.IoJob job, TraceListener listener) {
        kernel.events.listener(listener);
        try {
            return new JobRunner(this, job).run();
        } finally {
            kernel.events.listener(TraceListener.NONE);
        }
    }

    @Override
    public CommandResult execute(Command command, TraceListener listener) {
        kernel.events.listener(listener);
        try {
            if (command instanceof Command.Dd dd) {
                return new Dd(this, dd).run();
            }
            if (command instanceof Command.Sync) {
                for (PageCache c : List.copyOf(caches.values())) {
                    writeback(c, Bio.SYNC);
                }
                return ok(command);
            }
            if (command instanceof Command.DropCaches d) {
                if ((d.mode() & 1) != 0) {
                    for (PageCache c : caches.values()) {
                        c.dropClean();
                    }
                }
                return ok(command);
            }
            if (command instanceof Command.SysfsWrite w) {
                return sysfs(w);
            }
            if (command instanceof Command.SetBlockSize s) {
                return setBlockSize(s, device(s.device()), s.blockSize());
            }
            if (command instanceof Command.Mkfs m) {
                BlockDevice d = device(m.device());
                filesystems.put(d.name(), m.sectorSize() != 0 ? m.sectorSize() : d.limits().logicalBlockSize());
                return ok(command);
            }
            if (command instanceof Command.Mount m) {
                BlockDevice d = device(m.device());
                long sectorSize = filesystems.getOrDefault(d.name(), d.limits().logicalBlockSize());
                mounted.put(d.name(), sectorSize);
                // fs/super.c: sb_set_blocksize — XFS sets its sector size (xfs_setsize_buftarg)
                cache(d).blockSize = sectorSize;
                return ok(command);
            }
            if (command instanceof Command.Umount u) {
                BlockDevice d = layout.find(u.target()).orElse(null);
                String name = d != null ? d.name() : mounted.keySet().stream().findFirst().orElse(null);
                if (name != null) {
                    mounted.remove(name);
                    release(name);
                }
                return ok(command);
            }
            if (command instanceof Command.DmsetupMessage m) {
                BlockDevice d = device(m.device());
                try {
                    kernel.thin.message(d.name(), m.message());
                } catch (IllegalArgumentException | IllegalStateException e) {
                    return new CommandResult(command, 1, "device-mapper: message ioctl on " + m.device()
                            + " failed: " + e.getMessage(), 0);
                }
                return ok(command);
            }
            if (command instanceof Command.DmsetupSuspendResume s) {
                device(s.device());
                return ok(command);
            }
            if (command instanceof Command.Blkdiscard b) {
                return blkdiscard(b);
            }
            if (command instanceof Command.LvcreateSnapshot s) {
                return lvcreateSnapshot(s);
            }
            if (command instanceof Command.LvcreateThin c) {
                return lvcreateThin(c);
            }
            if (command instanceof Command.Lvremove r) {
                return lvremove(r);
            }
            if (command instanceof Command.Sleep s) {
                // nothing in the model runs on a timer yet: time only passes
                clockNanos = Math.addExact(clockNanos, s.duration().toNanos());
                return ok(command);
            }
            throw new UnsupportedOperationException("the engine does not model '" + command.line() + "' yet");
        } finally {
            kernel.events.listener(TraceListener.NONE);
        }
    }

    /*
     * lib/metadata/thin_manip.c: a thin snapshot is the pool message "create_snap NEW ORIGIN" and a transaction id
     * step; the snapshot LV is flagged ACTIVATION_SKIP, so no device appears and the layout's devices stay.
     */
    private CommandResult lvcreateSnapshot(Command.LvcreateSnapshot s) {
        String vgName = s.origin().substring(0, s.origin().indexOf('/'));
        String lvName = s.origin().substring(s.origin().indexOf('/') + 1);
        dev.dmmodel.lvm.VolumeGroup vg = volumeGroups.get(vgName);
        if (vg == null) {
            return new CommandResult(s, 5, "  Volume group \"" + vgName + "\" not found", 0);
        }
        dev.dmmodel.lvm.VolumeGroup updated;
        try {
            updated = dev.dmmodel.impl.lvm.ThinPools.lvcreateSnapshot(vg,
                    new dev.dmmodel.lvm.ThinSnapshotRequest(lvName, s.name()));
        } catch (dev.dmmodel.layout.LayoutException e) {
            return new CommandResult(s, 5, "  " + e.getMessage(), 0);
        }
        dev.dmmodel.lvm.LogicalVolume snap = updated.logicalVolumes().get(updated.logicalVolumes().size() - 1);
        dev.dmmodel.lvm.SegmentType.Thin thin = snap.thin().orElseThrow();
        long originId = vg.logicalVolume(lvName).orElseThrow().thin().orElseThrow().deviceId();
        String pool = poolDevice(vgName, thin.pool());
        if (pool == null) {
            return new CommandResult(s, 5, "  Thin pool " + vgName + "/" + thin.pool() + " is not active in the"
                    + " model: the snapshot needs its pool's metadata", 0);
        }
        try {
            long tid = kernel.thin.transactionId(pool);
            kernel.thin.message(pool, List.of("create_snap", Long.toString(thin.deviceId()), Long.toString(originId)));
            kernel.thin.message(pool, List.of("set_transaction_id", Long.toString(tid), Long.toString(tid + 1)));
        } catch (IllegalArgumentException | IllegalStateException e) {
            return new CommandResult(s, 5, "  device-mapper: message ioctl on " + pool + " failed: " + e.getMessage(),
                    0);
        }
        volumeGroups.put(vgName, updated);
        refreshLayout();
        return new CommandResult(s, 0, "  Logical volume \"" + snap.name() + "\" created.", 0);
    }

    /** The kernel name of the device holding a pool LV's thin-pool target (vg-pool-tpool, or vg-pool), or null. */
    private String poolDevice(String vgName, String poolName) {
        for (String dmName : List.of(dev.dmmodel.lvm.LogicalVolume.dmName(vgName, poolName, "tpool"),
                dev.dmmodel.lvm.LogicalVolume.dmName(vgName, poolName))) {
            BlockDevice d = layout.find("/dev/mapper/" + dmName).orElse(null);
            if (d instanceof dev.dmmodel.device.DmDevice dm && dm.table().targets().stream()
                    .anyMatch(t -> t instanceof dev.dmmodel.dm.ThinPoolTarget)) {
                return d.name();
            }
        }
        return null;
    }

    /*
     * tools/lvcreate.c (-V -T): LVM queues "create_thin ID" with the transaction id step, then activates the
     * LV: a new dm device "vg-lv" with the table "thin <tpool> ID" (libdm: _thin_emit_segment_line) at the
     * lowest free dm minor (dm.c: next_free_minor takes the lowest free one).
     */
    private CommandResult lvcreateThin(Command.LvcreateThin c) {
        dev.dmmodel.lvm.VolumeGroup vg = volumeGroups.get(c.volumeGroup());
        if (vg == null) {
            return new CommandResult(c, 5, "  Volume group \"" + c.volumeGroup() + "\" not found", 0);
        }
        dev.dmmodel.lvm.VolumeGroup updated;
        try {
            updated = dev.dmmodel.impl.lvm.ThinPools.lvcreateThin(vg,
                    new dev.dmmodel.lvm.ThinLvRequest(c.name(), c.virtualSize(), c.pool()));
        } catch (dev.dmmodel.layout.LayoutException e) {
            return new CommandResult(c, 5, "  " + e.getMessage(), 0);
        }
        dev.dmmodel.lvm.LogicalVolume lv = updated.logicalVolumes().get(updated.logicalVolumes().size() - 1);
        String tpool = layout.find("/dev/mapper/" + dev.dmmodel.lvm.LogicalVolume.dmName(vg.name(), c.pool(),
                "tpool")).map(BlockDevice::name).orElse(null);
        if (tpool == null) {
            // lib/activate/dev_manager.c: the first thin LV of a fresh pool relayers it as vg-pool-tpool
            throw new UnsupportedOperationException("the engine does not model relayering thin pool "
                    + vg.name() + "/" + c.pool() + " (no " + dev.dmmodel.lvm.LogicalVolume.dmName(vg.name(),
                    c.pool(), "tpool") + " device) for '" + c.line() + "' yet");
        }
        long id = lv.thin().orElseThrow().deviceId();
        try {
            long tid = kernel.thin.transactionId(tpool);
            kernel.thin.message(tpool, List.of("create_thin", Long.toString(id)));
            kernel.thin.message(tpool, List.of("set_transaction_id", Long.toString(tid), Long.toString(tid + 1)));
        } catch (IllegalArgumentException | IllegalStateException e) {
            return new CommandResult(c, 5, "  device-mapper: message ioctl on " + tpool + " failed: " + e.getMessage(),
                    0);
        }
        dev.dmmodel.device.DmDevice dm = activate(lv.dmName(),
                dev.dmmodel.impl.lvm.LvTables.dmUuid(vg.name(), lv.name()),
                dev.dmmodel.impl.lvm.ThinPools.thinTable(updated, lv, tpool));
        List<dev.dmmodel.lvm.LogicalVolume> lvs = new ArrayList<>(updated.logicalVolumes());
        lvs.set(lvs.size() - 1, lv.withDmDevice(dm.name()));
        volumeGroups.put(vg.name(), new dev.dmmodel.lvm.VolumeGroup(updated.name(), updated.extentSize(),
                updated.physicalVolumes(), lvs, updated.allocationPolicy()));
        refreshLayout();
        return new CommandResult(c, 0, "  Logical volume \"" + lv.name() + "\" created.", 0);
    }

    // a dm device loaded while the workload runs, its limits stacked from the devices below as now
    private dev.dmmodel.device.DmDevice activate(String dmName, String uuid, dev.dmmodel.dm.DmTable table) {
        int minor = dev.dmmodel.impl.dm.DmMinors.nextFreeMinor(current.stream().map(BlockDevice::devNumber).toList());
        String name = "dm-" + minor;
        dev.dmmodel.impl.block.Limits limits = dev.dmmodel.impl.dm.DmTableLimits.compute(dmName, table, kernelView(),
                kernel.profile);
        dev.dmmodel.device.DmDevice dm = new dev.dmmodel.device.DmDevice(name,
                new dev.dmmodel.device.DevNumber(dev.dmmodel.impl.dm.DmMinors.DM_MAJOR, minor), dmName, uuid, table, limits.toQueueLimits());
        kernel.addDm(dm, limits);
        current.add(dm);
        return dm;
    }

    /** The kernel's devices as dm's limit stacking sees them. */
    private dev.dmmodel.impl.dm.DeviceView kernelView() {
        return new dev.dmmodel.impl.dm.DeviceView() {
            @Override
            public boolean exists(String device) {
                return kernel.device(device) != null;
            }

            @Override
            public dev.dmmodel.impl.block.Limits queueLimits(String device) {
                return kernel.queueLimits(device);
            }

            @Override
            public long startSector(String device) {
                return kernel.device(device) instanceof dev.dmmodel.device.Partition p ? p.start().count() : 0;
            }

            @Override
            public long size(String device) {
                return kernel.device(device).size().count();
            }

            @Override
            public java.util.Optional<dev.dmmodel.dm.ThinPoolTarget> poolTarget(String device) {
                return kernel.device(device) instanceof dev.dmmodel.device.DmDevice dm
                        ? dev.dmmodel.impl.dm.DmTableLimits.poolTarget(dm.table()) : java.util.Optional.empty();
            }
        };
    }

    /*
     * tools/lvremove.c: an active LV is deactivated (its dm device removed) after the question LVM asks
     * unless -y or -f is given; a thin LV's removal queues "delete ID" with the transaction id step.
     */
    private CommandResult lvremove(Command.Lvremove r) {
        StringBuilder out = new StringBuilder();
        for (String vgLv : r.logicalVolumes()) {
            String vgName = vgLv.substring(0, vgLv.indexOf('/'));
            String lvName = vgLv.substring(vgLv.indexOf('/') + 1);
            dev.dmmodel.lvm.VolumeGroup vg = volumeGroups.get(vgName);
            if (vg == null) {
                return new CommandResult(r, 5, out + "  Volume group \"" + vgName + "\" not found", 0);
            }
            dev.dmmodel.lvm.LogicalVolume lv = vg.logicalVolume(lvName).orElse(null);
            if (lv == null) {
                return new CommandResult(r, 5, out + "  Failed to find logical volume \"" + vgLv + "\"", 0);
            }
            if (lv.thin().isEmpty()) {
                throw new UnsupportedOperationException("the engine does not model removing " + vgLv + " ("
                        + lv.role() + ") in '" + r.line() + "' yet: only thin volumes");
            }
            String device = lv.dmDevice().isEmpty() || kernel.device(lv.dmDevice()) == null ? null : lv.dmDevice();
            if (device != null && !r.assumeYes()) {
                // lib/misc/lvm-wrappers.c: yes_no_prompt reads end of file as "no"
                return new CommandResult(r, 5, out + "Do you really want to remove active logical volume " + vgLv
                        + "? [y/n]: \n  Logical volume " + lvName + " not removed.", 0);
            }
            dev.dmmodel.lvm.VolumeGroup updated;
            try {
                updated = dev.dmmodel.impl.lvm.ThinPools.lvremoveThin(vg, lvName);
            } catch (dev.dmmodel.layout.LayoutException e) {
                return new CommandResult(r, 5, out + "  " + e.getMessage(), 0);
            }
            String pool = poolDevice(vgName, lv.thin().get().pool());
            if (pool == null) {
                return new CommandResult(r, 5, out + "  Thin pool " + vgName + "/" + lv.thin().get().pool()
                        + " is not active in the model: the removal needs its pool's metadata", 0);
            }
            if (device != null) {
                release(device);
                if (mounted.containsKey(device)) {
                    return new CommandResult(r, 5, out + "  Logical volume " + vgLv + " contains a filesystem in use.",
                            0);
                }
                try {
                    kernel.removeDm(device);
                } catch (IllegalStateException e) {
                    return new CommandResult(r, 5, out + "  Logical volume " + vgLv + " is used by another device.",
                            0);
                }
                caches.remove(device);
                current.removeIf(d -> d.name().equals(device));
            }
            try {
                long tid = kernel.thin.transactionId(pool);
                kernel.thin.message(pool, List.of("delete", Long.toString(lv.thin().get().deviceId())));
                kernel.thin.message(pool, List.of("set_transaction_id", Long.toString(tid), Long.toString(tid + 1)));
            } catch (IllegalArgumentException | IllegalStateException e) {
                return new CommandResult(r, 5, out + "  device-mapper: message ioctl on " + pool + " failed: "
                        + e.getMessage(), 0);
            }
            volumeGroups.put(vgName, updated);
            refreshLayout();
            out.append("  Logical volume \"").append(lvName).append("\" successfully removed.\n");
        }
        return new CommandResult(r, 0, out.toString().stripTrailing(), 0);
    }

    // the layout as sysfs shows it now: tunables written since the start
    private void refreshLayout() {
        List<BlockDevice> devices = new ArrayList<>();
        for (BlockDevice d : current) {
            dev.dmmodel.limits.QueueLimits q = kernel.queueLimits(d.name()).toQueueLimits();
            if (d instanceof dev.dmmodel.device.Disk disk) {
                devices.add(new dev.dmmodel.device.Disk(disk.name(), disk.devNumber(), disk.size(), disk.driver(), q));
            } else if (d instanceof dev.dmmodel.device.Partition p) {
                devices.add(new dev.dmmodel.device.Partition(p.name(), p.devNumber(), p.disk(), p.number(), p.start(),
                        p.size(), q.toBuilder().alignmentOffset(p.limits().alignmentOffset())
                        .misaligned(p.limits().misaligned()).discardAlignment(p.limits().discardAlignment()).build()));
            } else {
                dev.dmmodel.device.DmDevice dm = (dev.dmmodel.device.DmDevice) d;
                devices.add(new dev.dmmodel.device.DmDevice(dm.name(), dm.devNumber(), dm.dmName(), dm.uuid(),
                        dm.table(), q));
            }
        }
        layout = Layout.of(original.profile(), devices, original.physicalVolumes(), List.copyOf(volumeGroups.values()));
    }

    static CommandResult ok(Command c) {
        return new CommandResult(c, 0, "", 0);
    }

    BlockDevice device(String path) {
        return layout.device(path);
    }

    Kernel kernel() {
        return kernel;
    }

    UserBuffer buffer() {
        return buffer;
    }

    /** The device's page cache, created with its initial soft block size on first open. */
    PageCache cache(BlockDevice d) {
        return caches.computeIfAbsent(d.name(), n -> new PageCache(n, d.size().count() * 512,
                PageCache.initialBlockSize(d.limits().logicalBlockSize(), d.size().count() * 512,
                        kernel.profile.pageSize()), kernel.raPages(d)));
    }

    boolean isMounted(String device) {
        return mounted.containsKey(device);
    }

    // block/bdev.c: blkdev_put -> blkdev_flush_mapping — the last close writes back and drops the cache
    void release(String device) {
        if (mounted.containsKey(device)) {
            return;
        }
        PageCache c = caches.remove(device);
        if (c != null) {
            writeback(c, Bio.SYNC);
        }
    }

    /** Writes back every dirty buffer of a device ({@link Writeback}). */
    void writeback(PageCache c, int flags) {
        Writeback.writeback(c, kernel.block, buffer, flags);
    }

    // sys-utils/blkdiscard.c + block/ioctl.c: blk_ioctl_discard — aligned to the logical block size
    private CommandResult blkdiscard(Command.Blkdiscard b) {
        BlockDevice d = device(b.device());
        long size = d.size().count() * 512;
        long lbs = d.limits().logicalBlockSize();
        if (b.offset() % lbs != 0) {
            return new CommandResult(b, 1, "blkdiscard: " + b.device() + ": offset " + b.offset()
                    + " is not aligned to sector size " + lbs, 0);
        }
        if (b.offset() > size) {
            return new CommandResult(b, 1, "blkdiscard: " + b.device() + ": offset is greater than device size", 0);
        }
        long end = b.length().isPresent() ? b.offset() + b.length().getAsLong() : size;
        if (end < b.offset() || end > size) {
            end = size;
        }
        long len = end - b.offset();
        if (len % lbs != 0) {
            return new CommandResult(b, 1, "blkdiscard: " + b.device() + ": length " + len
                    + " is not aligned to sector size " + lbs, 0);
        }
        if (!kernel.supportsDiscard(d.name(), 1)) {
            return new CommandResult(b, 1, "blkdiscard: " + b.device() + ": BLKDISCARD ioctl failed: Operation not "
                    + "supported", 0);
        }
        if (len > 0) {
            // blkdev_issue_discard: chained bios, the last one waited for (submit_bio_wait sets REQ_SYNC)
            kernel.block.issueDiscard(d.name(), b.offset() / 512, len / 512, Bio.SYNC);
            kernel.completeAll();
        }
        String err = kernel.takeIoError();
        return err == null ? new CommandResult(b, 0, "", len)
                : new CommandResult(b, 1, "blkdiscard: " + b.device() + ": BLKDISCARD ioctl failed: " + err, 0);
    }

    /**
     * Before 4.3 ({@code fs/direct-io.c: dio_new_bio}, {@code dio_bio_add_page} → {@code bio_add_page}):
     * a bio is allocated with {@code bio_get_nr_vecs} vectors of the top device's queue
     * (min(max_segments, max_sectors / 8 + 1, 256)) and takes pages while they fit its size limit
     * ({@code max_sectors}, dm's {@code merge_bvec_fn}) and its segment count.
     */
    private List<Bio> shapedBios(String device, Op op, int flags, long pos, long bytes) {
        List<Bio> out = new ArrayList<>();
        long done = 0;
        for (long[] piece : kernel.buildPieces(device, pos / 512, bytes / 512)) {
            out.add(new Bio(device, op, flags, piece[0], piece[1], buffer.vectors(done, piece[1] * 512)));
            done += piece[1] * 512;
        }
        return out;
    }

    private CommandResult sysfs(Command.SysfsWrite w) {
        String[] parts = w.path().split("/");
        // /sys/block/DEV/queue/ATTR
        if (parts.length == 6 && parts[1].equals("sys") && parts[2].equals("block") && parts[4].equals("queue")) {
            BlockDevice d = device(parts[3]);
            if (!parts[5].equals("max_sectors_kb") && !parts[5].equals("read_ahead_kb")) {
                throw new UnsupportedOperationException("the engine does not model writes to " + w.path() + " yet");
            }
            long value;
            try {
                // queue_var_store: kstrtoul, so a non-number is EINVAL
                value = Long.parseLong(w.value().strip());
            } catch (NumberFormatException e) {
                return new CommandResult(w, 1, "echo: write error: Invalid argument", 0);
            }
            switch (parts[5]) {
                case "max_sectors_kb":
                    if (!kernel.storeMaxSectorsKb(d.name(), value)) {
                        return new CommandResult(w, 1, "echo: write error: Invalid argument", 0);
                    }
                    refreshLayout();
                    return ok(w);
                case "read_ahead_kb":
                    kernel.storeReadAheadKb(d.name(), value);
                    PageCache c = caches.get(d.name());
                    if (c != null) {
                        c.readahead.raPages = value / 4;
                    }
                    refreshLayout();
                    return ok(w);
                default:
                    break;
            }
        }
        throw new UnsupportedOperationException("the engine does not model writes to " + w.path() + " yet");
    }

    // block/bdev.c: set_blocksize — a power of two from the logical block size to a page; drops the cache
    private CommandResult setBlockSize(Command c, BlockDevice d, long size) {
        if (Long.bitCount(size) != 1 || size < d.limits().logicalBlockSize() || size > kernel.profile.pageSize()) {
            return new CommandResult(c, 1, "blockdev: ioctl error on BLKBSZSET: Invalid argument", 0);
        }
        PageCache cache = cache(d);
        writeback(cache, Bio.SYNC);
        cache.dropClean();
        cache.blockSize = size;
        return ok(c);
    }

    /** Builds the direct-I/O bios of one read or write ({@code blkdev_direct_IO}). */
    List<Bio> directBios(String device, Op op, int flags, long pos, long bytes) {
        if (kernel.atBuild()) {
            return shapedBios(device, op, flags, pos, bytes);
        }
        List<Bio> out = new ArrayList<>();
        long pages = UserBuffer.pages(0, bytes);
        if (pages <= Bios.BIO_MAX_VECS) {
            out.add(new Bio(device, op, flags, pos / 512, bytes / 512, buffer.vectors(0, bytes)));
            return out;
        }
        // block/fops.c: __blkdev_direct_IO — bios of BIO_MAX_VECS vectors each
        long done = 0;
        while (done < bytes) {
            // a bio has BIO_MAX_VECS vectors; physically contiguous pages share one
            long len = Math.min(bytes - done, Bios.BIO_MAX_VECS * buffer.runBytes());
            out.add(new Bio(device, op, flags, (pos + done) / 512, len / 512, buffer.vectors(done, len)));
            done += len;
        }
        return out;
    }
}
