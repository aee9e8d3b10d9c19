package dev.dmmodel.impl.engine;

import com.google.common.collect.Range;
import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Bios;
import dev.dmmodel.impl.block.Bvecs;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.lvm.ThinLvCommands;
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
 * advances), and LVM's thin commands ({@code lvcreate -V -T}, {@code lvcreate -s}, {@code lvremove}), which
 * {@link ThinLvCommands} runs against this host: the new volume group metadata, pool messages and dm devices.
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
        kernel.events.explain = options.explainSplits();
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
    public List<dev.dmmodel.finding.Finding> findings() {
        List<dev.dmmodel.finding.Finding> out = new ArrayList<>();
        for (dev.dmmodel.engine.SnapshotStats s : snapshotStats()) {
            out.addAll(dev.dmmodel.impl.dm.snapshot.SnapshotFindings.of(s));
        }
        for (dev.dmmodel.impl.md.MdArray md : kernel.mdArrays.values()) {
            out.addAll(dev.dmmodel.impl.md.MdFindings.of(md.name(), md.spec(), md.stats()));
        }
        for (BlockDevice d : layout.devices()) {
            for (dev.dmmodel.impl.dm.TargetModel m : kernel.dm.models(d.name())) {
                if (m instanceof dev.dmmodel.impl.dm.raid.RaidModel r) {
                    r.array().ifPresent(md -> out.addAll(dev.dmmodel.impl.md.MdFindings.of(d.name(), md.spec(),
                            md.stats())));
                }
            }
        }
        // most severe first; within a severity the layout's device order (stable sort)
        out.sort(java.util.Comparator.comparing((dev.dmmodel.finding.Finding f) -> -f.severity().ordinal()));
        return List.copyOf(out);
    }

    @Override
    public List<dev.dmmodel.engine.SnapshotStats> snapshotStats() {
        List<dev.dmmodel.engine.SnapshotStats> out = new ArrayList<>();
        for (BlockDevice d : layout.devices()) {
            if (d instanceof dev.dmmodel.device.DmDevice dm) {
                for (dev.dmmodel.dm.DmTarget t : dm.table().targets()) {
                    if (t instanceof dev.dmmodel.dm.SnapshotTarget st) {
                        out.add(kernel.snapshots.stats(d.name(), st));
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    @Override
    public List<dev.dmmodel.engine.CacheStats> cacheStats() {
        List<dev.dmmodel.engine.CacheStats> out = new ArrayList<>();
        for (BlockDevice d : layout.devices()) {
            for (dev.dmmodel.impl.dm.TargetModel m : kernel.dm.models(d.name())) {
                if (m instanceof dev.dmmodel.impl.dm.cache.CacheModel c) {
                    out.add(c.stats(d.name(), kernel.block));
                }
            }
        }
        return List.copyOf(out);
    }

    @Override
    public List<dev.dmmodel.engine.WritecacheStats> writecacheStats() {
        List<dev.dmmodel.engine.WritecacheStats> out = new ArrayList<>();
        for (BlockDevice d : layout.devices()) {
            for (dev.dmmodel.impl.dm.TargetModel m : kernel.dm.models(d.name())) {
                if (m instanceof dev.dmmodel.impl.dm.writecache.WritecacheModel w) {
                    out.add(w.stats(d.name()));
                }
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
        try {
            return executeModelled(command, listener);
        } catch (dev.dmmodel.impl.dm.opaque.UnmodelledTargetException e) {
            // I/O reached a target the model does not implement: this command fails, the next ones still run
            return new CommandResult(command, 1, e.getMessage(), 0);
        }
    }

    private CommandResult executeModelled(Command command, TraceListener listener) {
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
                return ThinLvCommands.lvcreateSnapshot(lvmHost(), s);
            }
            if (command instanceof Command.LvcreateCowSnapshot c) {
                return lvcreateCowSnapshot(c);
            }
            if (command instanceof Command.LvcreateThin c) {
                return ThinLvCommands.lvcreateThin(lvmHost(), c);
            }
            if (command instanceof Command.Lvremove r) {
                return ThinLvCommands.lvremove(lvmHost(), r);
            }
            if (command instanceof Command.MdadmCreate m) {
                return mdadmCreate(m);
            }
            if (command instanceof Command.Sleep s) {
                // time passes: the dm targets' timers and periodic work that fall due run (dm-cache's waker,
                // dm-writecache's autocommit), and their I/O completes while the shell sleeps
                long from = clockNanos;
                clockNanos = Math.addExact(clockNanos, s.duration().toNanos());
                kernel.dm.clockAdvanced(from, clockNanos);
                kernel.completeAll();
                return ok(command);
            }
            throw new UnsupportedOperationException("the engine does not model '" + command.line() + "' yet");
        } finally {
            kernel.events.listener(TraceListener.NONE);
        }
    }

    /*
     * tools/lvcreate.c on a running host: the metadata as LvmSteps writes it for a plan (CowSnapshots), then the
     * activation LVM does — vg-origin-real with the origin's table (first snapshot only), vg-snap-cow, vg-snap, and
     * vg-origin reloaded as snapshot-origin while I/O may run (suspend, load, resume).
     */
    private CommandResult lvcreateCowSnapshot(Command.LvcreateCowSnapshot c) {
        String vgName = c.origin().substring(0, c.origin().indexOf('/'));
        dev.dmmodel.lvm.VolumeGroup vg = volumeGroups.get(vgName);
        if (vg == null) {
            return new CommandResult(c, 5, "  Volume group \"" + vgName + "\" not found", 0);
        }
        dev.dmmodel.lvm.VolumeGroup updated;
        try {
            updated = dev.dmmodel.impl.lvm.CowSnapshots.lvcreate(vg, c.request(), List.of(), List.of());
        } catch (dev.dmmodel.layout.LayoutException e) {
            return new CommandResult(c, 5, "  " + e.getMessage(), 0);
        }
        dev.dmmodel.lvm.LogicalVolume origin = updated.logicalVolume(c.request().origin()).orElseThrow();
        java.util.Optional<BlockDevice> originDev = layout.find("/dev/mapper/" + origin.dmName())
                .filter(d -> d instanceof dev.dmmodel.device.DmDevice);
        if (originDev.isEmpty()) {
            return new CommandResult(c, 5, "  Snapshot origin LV " + c.origin() + " is not active", 0);
        }
        dev.dmmodel.device.DmDevice originDm = (dev.dmmodel.device.DmDevice) kernel.device(originDev.get().name());
        dev.dmmodel.lvm.LogicalVolume cow = updated.logicalVolumes().get(updated.logicalVolumes().size() - 2);
        dev.dmmodel.device.DmDevice snapDm = dev.dmmodel.impl.lvm.CowSnapshots.activate(updated, originDm,
                new dev.dmmodel.impl.lvm.CowSnapshots.Activation() {
                    @Override
                    public dev.dmmodel.device.DmDevice create(String dmName, String uuid, dev.dmmodel.dm.DmTable t) {
                        return activate(dmName, uuid, t);
                    }

                    @Override
                    public void reload(String device, dev.dmmodel.dm.DmTable t) {
                        HostSimulation.this.reload((dev.dmmodel.device.DmDevice) kernel.device(device), t);
                    }
                });
        List<dev.dmmodel.lvm.LogicalVolume> withDevice = new ArrayList<>();
        for (dev.dmmodel.lvm.LogicalVolume lv : updated.logicalVolumes()) {
            withDevice.add(lv.name().equals(cow.name()) ? lv.withDmDevice(snapDm.name()) : lv);
        }
        volumeGroups.put(vgName, new dev.dmmodel.lvm.VolumeGroup(vgName, updated.extentSize(),
                updated.physicalVolumes(), withDevice, updated.allocationPolicy()));
        refreshLayout();
        return new CommandResult(c, 0, "  Logical volume \"" + cow.name() + "\" created.", 0);
    }

    /*
     * mdadm --create on a running host: mdadm's choices over the members as they are now (impl.mdadm), the
     * personality's checks, size and limits, and the array running (assumed in sync: the model does not resync).
     */
    private CommandResult mdadmCreate(Command.MdadmCreate c) {
        dev.dmmodel.device.MdadmCreateRequest r = c.request();
        try {
            String name = dev.dmmodel.impl.mdadm.MdadmCreate.kernelName(r);
            if (kernel.device(name) != null) {
                return new CommandResult(c, 1, "mdadm: " + r.name() + " is already in use.", 0);
            }
            List<String> devices = new ArrayList<>();
            for (String d : r.devices()) {
                if (d.equals("missing")) {
                    devices.add(d);
                    continue;
                }
                java.util.Optional<BlockDevice> dev = layout.find(d);
                if (dev.isEmpty()) {
                    return new CommandResult(c, 1, "mdadm: cannot open " + d + ": No such file or directory", 0);
                }
                if (holds(dev.get().name())) {
                    return new CommandResult(c, 1, "mdadm: cannot open " + d + ": Device or resource busy", 0);
                }
                devices.add(dev.get().name());
            }
            dev.dmmodel.device.MdArraySpec spec = dev.dmmodel.impl.mdadm.MdadmCreate.spec(new dev.dmmodel.device.MdadmCreateRequest(r.name(),
                    r.level(), devices, r.chunk(), r.layout(), r.metadata(), r.dataOffset(), r.assumeClean()),
                    d -> kernel.device(d).size().count());
            dev.dmmodel.impl.md.MdRun.Started started = dev.dmmodel.impl.md.MdRun.start(name, spec, kernelView(),
                    kernel.profile, java.util.Optional.empty(), current.stream().map(BlockDevice::devNumber).toList());
            kernel.addMd(started.device(), started.limits());
            current.add(started.device());
        } catch (dev.dmmodel.layout.LayoutException e) {
            return new CommandResult(c, 1, e.getMessage(), 0);
        }
        refreshLayout();
        return new CommandResult(c, 0, "mdadm: array " + r.name() + " started.", 0);
    }

    // whether a device is in use: a member of an array, a PV, or below a dm table
    private boolean holds(String device) {
        for (BlockDevice d : current) {
            if (d instanceof dev.dmmodel.device.MdDevice md
                    && md.spec().members().stream().anyMatch(x -> x.device().equals(device))) {
                return true;
            }
            if (d instanceof dev.dmmodel.device.DmDevice dm && dm.table().devices().contains(device)) {
                return true;
            }
            if (d instanceof dev.dmmodel.device.Partition p && p.disk().equals(device)) {
                return true;
            }
        }
        return layout.physicalVolume(device).isPresent();
    }

    // dmsetup reload + resume of a device while the workload runs: same device, the new table's limits
    private void reload(dev.dmmodel.device.DmDevice old, dev.dmmodel.dm.DmTable table) {
        dev.dmmodel.impl.block.Limits limits = dev.dmmodel.impl.dm.DmTableLimits.compute(old.dmName(), table,
                kernelView(), kernel.profile);
        dev.dmmodel.device.DmDevice dm = new dev.dmmodel.device.DmDevice(old.name(), old.devNumber(), old.dmName(),
                old.uuid(), table, limits.toQueueLimits());
        kernel.reloadDm(dm, limits);
        current.replaceAll(d -> d.name().equals(dm.name()) ? dm : d);
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

    /** The host as LVM's thin commands see it ({@link ThinLvCommands}). */
    private ThinLvCommands.Host lvmHost() {
        return new ThinLvCommands.Host() {
            @Override
            public java.util.Optional<dev.dmmodel.lvm.VolumeGroup> volumeGroup(String name) {
                return java.util.Optional.ofNullable(volumeGroups.get(name));
            }

            @Override
            public void commit(dev.dmmodel.lvm.VolumeGroup vg) {
                volumeGroups.put(vg.name(), vg);
                refreshLayout();
            }

            @Override
            public java.util.Optional<String> dmDevice(String dmName) {
                return layout.find("/dev/mapper/" + dmName).filter(d -> d instanceof dev.dmmodel.device.DmDevice)
                        .map(BlockDevice::name);
            }

            @Override
            public boolean active(String device) {
                return kernel.device(device) != null;
            }

            @Override
            public boolean holdsThinPool(String device) {
                return layout.find(device).orElse(null) instanceof dev.dmmodel.device.DmDevice dm
                        && dm.table().targets().stream().anyMatch(t -> t instanceof dev.dmmodel.dm.ThinPoolTarget);
            }

            @Override
            public long transactionId(String pool) {
                return kernel.thin.transactionId(pool);
            }

            @Override
            public void poolMessage(String pool, List<String> args) {
                kernel.thin.message(pool, args);
            }

            @Override
            public dev.dmmodel.device.DmDevice activate(String dmName, String uuid, dev.dmmodel.dm.DmTable table) {
                return HostSimulation.this.activate(dmName, uuid, table);
            }

            @Override
            public java.util.Optional<String> removeDevice(String device, String vgLv) {
                release(device);
                if (mounted.containsKey(device)) {
                    return java.util.Optional.of("Logical volume " + vgLv + " contains a filesystem in use.");
                }
                try {
                    kernel.removeDm(device);
                } catch (IllegalStateException e) {
                    return java.util.Optional.of("Logical volume " + vgLv + " is used by another device.");
                }
                caches.remove(device);
                current.removeIf(d -> d.name().equals(device));
                return java.util.Optional.empty();
            }
        };
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
            } else if (d instanceof dev.dmmodel.device.MdDevice md) {
                devices.add(new dev.dmmodel.device.MdDevice(md.name(), md.devNumber(), md.size(), md.spec(), q));
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
            Bio bio = new Bio(device, op, flags, piece[0], piece[1], buffer.vectors(done, piece[1] * 512));
            if (kernel.events.explain && piece[2] != BlockLayer.BUILT_WHOLE) {
                bio.why = kernel.buildWhy(device, piece);
            }
            out.add(bio);
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
