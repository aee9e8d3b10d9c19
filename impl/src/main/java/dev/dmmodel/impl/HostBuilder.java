package dev.dmmodel.impl;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.impl.dm.DeviceView;
import dev.dmmodel.impl.dm.DmTableLimits;
import dev.dmmodel.impl.block.BlockLimits;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.partition.PartitionPlacer;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays layout steps as a host would execute them: devices appear in order, each dm device's limits
 * are computed from what exists below it at the moment its table is loaded.
 */
final class HostBuilder implements DeviceView {
    private static final Logger LOG = LoggerFactory.getLogger(HostBuilder.class);
    private static final Pattern KERNEL_NAME = Pattern.compile("[A-Za-z0-9_.+-]{1,32}");
    // drivers/md/dm-ioctl.c: check_name — up to DM_NAME_LEN - 1 characters, no '/'
    private static final Pattern DM_NAME = Pattern.compile("[^/\\s]{1,127}");
    private static final int DM_MAJOR = dev.dmmodel.impl.dm.DmMinors.DM_MAJOR;
    private static final int BLKEXT_MAJOR = 259;

    private final KernelProfile profile;
    private final Map<String, BlockDevice> devices = new LinkedHashMap<>();
    private final Map<String, Limits> queues = new HashMap<>();
    private final Map<String, String> aliases = new HashMap<>();
    private final Map<String, List<String>> holders = new HashMap<>();
    private final Map<DiskDriver, Integer> diskCount = new HashMap<>();
    private final LvmSteps lvm;
    private int nextBlkExtMinor;

    HostBuilder(KernelProfile profile) {
        this.profile = profile;
        this.lvm = new LvmSteps(this);
    }

    KernelProfile profile() {
        return profile;
    }

    Layout replay(List<LayoutStep> steps) {
        for (LayoutStep step : steps) {
            apply(step);
        }
        return layout();
    }

    /** The host as the steps so far made it. */
    Layout layout() {
        return Layout.of(profile, List.copyOf(devices.values()), lvm.physicalVolumes(), lvm.volumeGroups());
    }

    /**
     * Replays one step. A step that throws may have changed the builder half-way: it is not to be used after.
     */
    void apply(LayoutStep step) {
        LOG.debug("replaying {}", step);
        if (step instanceof LayoutStep.AddDisk s) {
            addDisk(s);
        } else if (step instanceof LayoutStep.CreatePartitionTable s) {
            createPartitionTable(s);
        } else if (step instanceof LayoutStep.AddPartition s) {
            addPartition(s.disk(), s.number(), s.start().count(), s.size().count(), s.kernelName(), s.devNumber());
        } else if (step instanceof LayoutStep.SetMaxSectorsKb s) {
            setMaxSectorsKb(s);
        } else if (step instanceof LayoutStep.PvCreate s) {
            lvm.pvcreate(s);
        } else if (step instanceof LayoutStep.VgCreate s) {
            lvm.vgcreate(s);
        } else if (step instanceof LayoutStep.VgExtend s) {
            lvm.vgextend(s);
        } else if (step instanceof LayoutStep.LvCreate s) {
            lvm.lvcreate(s);
        } else if (step instanceof LayoutStep.LvExtend s) {
            lvm.lvextend(s);
        } else if (step instanceof LayoutStep.ThinPoolConvert s) {
            lvm.lvconvertThinPool(s);
        } else if (step instanceof LayoutStep.ThinPoolCreate s) {
            lvm.lvcreateThinPool(s);
        } else if (step instanceof LayoutStep.ThinLvCreate s) {
            lvm.lvcreateThin(s);
        } else if (step instanceof LayoutStep.ThinSnapshotCreate s) {
            lvm.lvcreateSnapshot(s);
        } else if (step instanceof LayoutStep.CowSnapshotCreate s) {
            lvm.lvcreateCowSnapshot(s);
        } else if (step instanceof LayoutStep.RaidLvCreate s) {
            lvm.lvcreateRaid(s);
        } else if (step instanceof LayoutStep.ImportVolumeGroup s) {
            lvm.importVolumeGroup(s);
        } else if (step instanceof LayoutStep.AddMdArray s) {
            addMdArray(s);
        } else if (step instanceof LayoutStep.MdadmCreate s) {
            mdadmCreate(s);
        } else if (step instanceof LayoutStep.DmCreate s) {
            dmCreate(s.name(), s.uuid(), s.table(), s.kernelName(), s.devNumber(), false);
        } else {
            throw new IllegalArgumentException("unknown layout step " + step);
        }
    }

    // ---- disks and partitions

    private void addDisk(LayoutStep.AddDisk s) {
        String name = s.name();
        checkNewName(name);
        Limits l = BlockLimits.disk(name, s.spec(), profile);
        int index = diskCount.merge(s.spec().driver(), 1, Integer::sum) - 1;
        DevNumber dev = s.devNumber().orElseGet(() -> diskNumber(s.spec().driver(), index));
        Disk disk = new Disk(name, dev, s.spec().size(), s.spec().driver(), l.toQueueLimits());
        register(disk, l);
    }

    private DevNumber diskNumber(DiskDriver driver, int index) {
        switch (driver) {
            case SD:
                return new DevNumber(8, index * 16);
            case VIRTIO_BLK:
                return new DevNumber(254, index * 16);
            case NVME:
                return new DevNumber(BLKEXT_MAJOR, nextBlkExtMinor++);
            default:
                return new DevNumber(driver.major(), index);
        }
    }

    private void createPartitionTable(LayoutStep.CreatePartitionTable s) {
        BlockDevice disk = resolve(s.disk(), "disk");
        if (!(disk instanceof Disk) && !(disk instanceof dev.dmmodel.device.MdDevice)) {
            throw new LayoutException(s.disk(), "disk", s.disk(), s.disk() + " is not a whole disk or md array: only "
                    + "those take a partition table here");
        }
        if (devices.values().stream().anyMatch(x -> x instanceof Partition p && p.disk().equals(disk.name()))) {
            throw new LayoutException(disk.name(), "partition table", s.type().toString(), disk.name()
                    + " already has partitions");
        }
        checkUnused(disk.name(), "partition it");
        for (PartitionPlacer.Placed p : PartitionPlacer.place(disk.name(), disk.size().count(),
                queues.get(disk.name()), s.type(), s.partitions())) {
            addPartition(disk.name(), p.number(), p.start(), p.size(), Optional.empty(), Optional.empty());
        }
    }

    private void addPartition(String diskRef, int number, long start, long size, Optional<String> kernelName,
                              Optional<DevNumber> devNumber) {
        BlockDevice disk = resolve(diskRef, "disk");
        if (!(disk instanceof Disk) && !(disk instanceof dev.dmmodel.device.MdDevice)) {
            throw new LayoutException(diskRef, "disk", diskRef, diskRef + " is not a whole disk or md array");
        }
        // compared without start + size, which a start near Long.MAX_VALUE would wrap
        if (size <= 0 || start < 0 || start > disk.size().count() - size) {
            throw new LayoutException(disk.name() + " partition " + number, "size", Long.toString(size), disk.name()
                    + " partition " + number + ": " + size + " sectors from sector " + start
                    + " lie beyond the end of the disk (" + disk.size().count() + " sectors)");
        }
        String name = kernelName.orElseGet(() -> partitionName(disk.name(), number));
        checkNewName(name);
        DevNumber dev = devNumber.orElseGet(() -> partitionNumber(disk, number));
        Limits l = BlockLimits.partition(queues.get(disk.name()), start, profile);
        Partition part = new Partition(name, dev, disk.name(), number, Sectors.of(start), Sectors.of(size),
                l.toQueueLimits());
        register(part, l);
    }

    // block/partitions/core.c: a disk name ending in a digit gets "p" before the partition number
    static String partitionName(String disk, int number) {
        return Character.isDigit(disk.charAt(disk.length() - 1)) ? disk + "p" + number : disk + number;
    }

    // md arrays and NVMe namespaces have one minor each: their partitions get extended numbers (259:N)
    private DevNumber partitionNumber(BlockDevice whole, int number) {
        if (whole instanceof Disk disk && (disk.driver() == DiskDriver.SD || disk.driver() == DiskDriver.VIRTIO_BLK)
                && number < 16) {
            return new DevNumber(disk.devNumber().major(), disk.devNumber().minor() + number);
        }
        return new DevNumber(BLKEXT_MAJOR, nextBlkExtMinor++);
    }

    private void setMaxSectorsKb(LayoutStep.SetMaxSectorsKb s) {
        BlockDevice d = resolve(s.device(), "device");
        if (d instanceof Partition) {
            throw new LayoutException(d.name(), "max_sectors_kb", Long.toString(s.kb()), "/sys/block/" + d.name()
                    + "/queue/max_sectors_kb does not exist: a partition shares its disk's queue");
        }
        Limits l = queues.get(d.name()).copy();
        BlockLimits.storeMaxSectorsKb(d.name(), l, s.kb(), profile);
        replaceLimits(d, l);
    }

    /**
     * libdm's {@code _set_dev_node_read_ahead} with {@code DM_READ_AHEAD_MINIMUM_FLAG}: the device's read-ahead
     * is raised to {@code kb} unless it is larger already.
     */
    void raiseReadAhead(String kernelName, long kb) {
        Limits l = queues.get(kernelName);
        if (l != null && l.readAheadKb < kb) {
            Limits raised = l.copy();
            raised.readAheadKb = kb;
            replaceLimits(devices.get(kernelName), raised);
        }
    }

    private void replaceLimits(BlockDevice d, Limits l) {
        queues.put(d.name(), l);
        BlockDevice updated;
        if (d instanceof Disk disk) {
            updated = new Disk(disk.name(), disk.devNumber(), disk.size(), disk.driver(), l.toQueueLimits());
            replacePartitionLimits(disk.name(), l);
        } else if (d instanceof DmDevice dm) {
            updated = new DmDevice(dm.name(), dm.devNumber(), dm.dmName(), dm.uuid(), dm.table(), l.toQueueLimits());
        } else if (d instanceof dev.dmmodel.device.MdDevice md) {
            updated = new dev.dmmodel.device.MdDevice(md.name(), md.devNumber(), md.size(), md.spec(),
                    l.toQueueLimits());
            replacePartitionLimits(md.name(), l);
        } else {
            throw new IllegalStateException(d.name());
        }
        devices.put(d.name(), updated);
    }

    private void replacePartitionLimits(String whole, Limits l) {
        for (BlockDevice x : List.copyOf(devices.values())) {
            if (x instanceof Partition p && p.disk().equals(whole)) {
                Limits pl = BlockLimits.partition(l, p.start().count(), profile);
                devices.put(p.name(), new Partition(p.name(), p.devNumber(), p.disk(), p.number(), p.start(),
                        p.size(), pl.toQueueLimits()));
            }
        }
    }

    // ---- md

    /**
     * An md array assembled over existing, unused members: each member's data area must lie on it; the
     * personality's checks ({@code <pers>_run}), size and limits apply. Numbered {@code 9:N} for {@code mdN}.
     */
    // drivers/md/md.c: md_run — pers->run, the array size, then the limits (mddev_stack_rdev_limits)
    private void addMdArray(LayoutStep.AddMdArray s) {
        String name = s.name();
        checkNewName(name);
        dev.dmmodel.device.MdArraySpec spec = s.spec();
        List<dev.dmmodel.device.MdMember> members = new ArrayList<>();
        for (dev.dmmodel.device.MdMember m : spec.members()) {
            BlockDevice d = resolve(m.device(), "member");
            checkUnused(d.name(), "add it to " + name);
            if (lvm.isPhysicalVolume(d.name())) {
                throw new LayoutException(name, "member", d.name(), name + ": " + d.name()
                        + " is an LVM physical volume");
            }
            long end = Math.addExact(m.dataOffset().count(), m.dataSize().count());
            if (end > d.size().count()) {
                throw new LayoutException(name, "member", d.name(), name + ": member " + d.name() + " (slot "
                        + m.slot() + ") has " + d.size().count() + " sectors, fewer than its data offset "
                        + m.dataOffset().count() + " + data size " + m.dataSize().count() + " = " + end);
            }
            members.add(new dev.dmmodel.device.MdMember(d.name(), m.slot(), m.dataOffset(), m.dataSize()));
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (dev.dmmodel.device.MdMember m : members) {
            if (!seen.add(m.device())) {
                throw new LayoutException(name, "member", m.device(), name + ": " + m.device() + " is named twice");
            }
        }
        dev.dmmodel.device.MdArraySpec resolved = new dev.dmmodel.device.MdArraySpec(spec.level(), spec.raidDisks(),
                spec.chunk(), spec.layout(), spec.metadataVersion(), members);
        dev.dmmodel.impl.md.MdRun.Started started = dev.dmmodel.impl.md.MdRun.start(name, resolved, this, profile,
                s.devNumber(), devices.values().stream().map(BlockDevice::devNumber).toList());
        register(started.device(), started.limits());
        for (dev.dmmodel.device.MdMember m : members) {
            hold(m.device(), name);
        }
    }

    // mdadm --create: mdadm's choices over the members as they are, then the array assembled
    private void mdadmCreate(LayoutStep.MdadmCreate s) {
        dev.dmmodel.device.MdadmCreateRequest r = s.request();
        List<String> devices = new ArrayList<>();
        for (String d : r.devices()) {
            devices.add(d.equals("missing") ? d : resolve(d, "device").name());
        }
        dev.dmmodel.device.MdadmCreateRequest resolved = new dev.dmmodel.device.MdadmCreateRequest(r.name(),
                r.level(), devices, r.chunk(), r.layout(), r.metadata(), r.dataOffset(), r.assumeClean());
        dev.dmmodel.device.MdArraySpec spec = dev.dmmodel.impl.mdadm.MdadmCreate.spec(resolved,
                d -> devices.contains(d) ? this.devices.get(d).size().count() : 0);
        addMdArray(new LayoutStep.AddMdArray(dev.dmmodel.impl.mdadm.MdadmCreate.kernelName(r), spec,
                Optional.empty()));
    }

    // ---- device mapper

    /** {@code dmsetup create}: resolves the table's devices, computes limits, registers dm-N. */
    DmDevice dmCreate(String dmName, String uuid, DmTable table, Optional<String> kernelName,
                      Optional<DevNumber> devNumber, boolean byLvm) {
        if (!DM_NAME.matcher(dmName).matches()) {
            throw new LayoutException(dmName, "name", dmName, "device-mapper name '" + dmName
                    + "' is invalid (1–127 characters, no '/')");
        }
        if (aliases.containsKey(dmName) && devices.get(aliases.get(dmName)) instanceof DmDevice) {
            throw new LayoutException(dmName, "name", dmName, "device-mapper name " + dmName + " is already in use");
        }
        DmTable resolved = resolveTable(dmName, table);
        // the lowest free minor, looked for only when the caller names neither (an imported host names both: a
        // scan of every device per dm device would make an import quadratic)
        int minor = kernelName.isPresent() && devNumber.isPresent() ? -1
                : dev.dmmodel.impl.dm.DmMinors.nextFreeMinor(devices.values().stream()
                        .map(dev.dmmodel.device.BlockDevice::devNumber).toList());
        String name = kernelName.orElseGet(() -> "dm-" + minor);
        DevNumber dev = devNumber.orElseGet(() -> new DevNumber(DM_MAJOR, minor));
        checkNewName(name);
        if (!byLvm) {
            checkExclusive(dmName, resolved);
        }
        Limits l = DmTableLimits.compute(dmName, resolved, this, profile);
        DmDevice dm = new DmDevice(name, dev, dmName, uuid, resolved, l.toQueueLimits());
        register(dm, l);
        aliases.put(dmName, name);
        aliases.put("/dev/mapper/" + dmName, name);
        for (String below : resolved.devices()) {
            holders.computeIfAbsent(below, k -> new ArrayList<>()).add(name);
        }
        return dm;
    }

    /**
     * {@code dmsetup reload} + {@code resume} of a device nothing is stacked on (an LV after lvextend): the
     * device keeps its kernel name, number, name and uuid; its table and limits are replaced.
     */
    void dmReload(String kernelName, DmTable table) {
        if (!(devices.get(kernelName) instanceof DmDevice dm)) {
            throw new IllegalArgumentException("no dm device " + kernelName);
        }
        DmTable resolved = resolveTable(dm.dmName(), table);
        Limits l = DmTableLimits.compute(dm.dmName(), resolved, this, profile);
        devices.put(kernelName, new DmDevice(dm.name(), dm.devNumber(), dm.dmName(), dm.uuid(), resolved,
                l.toQueueLimits()));
        queues.put(kernelName, l);
        for (String below : resolved.devices()) {
            List<String> h = holders.computeIfAbsent(below, k -> new ArrayList<>());
            if (!h.contains(kernelName)) {
                h.add(kernelName);
            }
        }
    }

    /** {@code dmsetup rename}: the device keeps its kernel name, number, uuid and table. */
    void dmRename(String kernelName, String newDmName) {
        if (!(devices.get(kernelName) instanceof DmDevice dm)) {
            throw new IllegalArgumentException("no dm device " + kernelName);
        }
        if (!DM_NAME.matcher(newDmName).matches()) {
            throw new LayoutException(newDmName, "name", newDmName, "device-mapper name '" + newDmName
                    + "' is invalid (1–127 characters, no '/')");
        }
        if (aliases.containsKey(newDmName) && devices.get(aliases.get(newDmName)) instanceof DmDevice) {
            throw new LayoutException(newDmName, "name", newDmName, "device-mapper name " + newDmName
                    + " is already in use");
        }
        aliases.remove(dm.dmName());
        aliases.remove(dm.path());
        DmDevice renamed = new DmDevice(dm.name(), dm.devNumber(), newDmName, dm.uuid(), dm.table(), dm.limits());
        devices.put(kernelName, renamed);
        aliases.put(newDmName, kernelName);
        aliases.put(renamed.path(), kernelName);
    }

    private DmTable resolveTable(String dmName, DmTable table) {
        DmTable.Builder b = DmTable.builder();
        for (DmTarget t : table.targets()) {
            b.add(resolveTarget(dmName, t));
        }
        return b.build();
    }

    private DmTarget resolveTarget(String dmName, DmTarget t) {
        if (t instanceof LinearTarget x) {
            return new LinearTarget(x.start(), x.length(), ref(dmName, x.device()), x.offset());
        }
        if (t instanceof StripedTarget x) {
            List<StripedTarget.Stripe> stripes = new ArrayList<>();
            for (StripedTarget.Stripe s : x.stripes()) {
                stripes.add(new StripedTarget.Stripe(ref(dmName, s.device()), s.offset()));
            }
            return new StripedTarget(x.start(), x.length(), x.chunkSectors(), stripes);
        }
        if (t instanceof ThinPoolTarget x) {
            return new ThinPoolTarget(x.start(), x.length(), ref(dmName, x.metadataDevice()),
                    ref(dmName, x.dataDevice()), x.blockSectors(), x.lowWaterMark(), x.features());
        }
        if (t instanceof ThinTarget x) {
            return new ThinTarget(x.start(), x.length(), ref(dmName, x.poolDevice()), x.deviceId(),
                    x.externalOrigin().map(o -> ref(dmName, o)));
        }
        if (t instanceof dev.dmmodel.dm.SnapshotOriginTarget x) {
            return new dev.dmmodel.dm.SnapshotOriginTarget(x.start(), x.length(), ref(dmName, x.device()));
        }
        if (t instanceof dev.dmmodel.dm.SnapshotTarget x) {
            return new dev.dmmodel.dm.SnapshotTarget(x.start(), x.length(), ref(dmName, x.originDevice()),
                    ref(dmName, x.cowDevice()), x.store(), x.chunkSectors(), x.discardZeroesCow(),
                    x.discardPassdownOrigin());
        }
        if (t instanceof dev.dmmodel.dm.CacheTarget x) {
            return new dev.dmmodel.dm.CacheTarget(x.start(), x.length(), ref(dmName, x.metadataDevice()),
                    ref(dmName, x.cacheDevice()), ref(dmName, x.originDevice()), x.blockSectors(), x.features(),
                    x.policy(), x.policyArgs());
        }
        if (t instanceof dev.dmmodel.dm.RaidTarget x) {
            return x.withDevices(d -> ref(dmName, d));
        }
        if (t instanceof dev.dmmodel.dm.WritecacheTarget x) {
            return new dev.dmmodel.dm.WritecacheTarget(x.start(), x.length(), x.pmem(), ref(dmName, x.originDevice()),
                    ref(dmName, x.cacheDevice()), x.blockSize(), x.options());
        }
        return t;
    }

    private String ref(String dmName, String reference) {
        String name = aliases.get(reference);
        if (name == null) {
            throw new LayoutException(dmName, "device", reference, dmName + ": device " + reference
                    + " not found (known: " + String.join(", ", devices.keySet()) + ")");
        }
        return name;
    }

    // a device given to LVM cannot also be mapped by hand, and two tables may not map the same sectors
    private void checkExclusive(String dmName, DmTable table) {
        for (DmTarget t : table.targets()) {
            if (t instanceof ThinTarget) {
                continue;
            }
            for (String d : t.devices()) {
                if (lvm.isPhysicalVolume(d)) {
                    throw new LayoutException(dmName, "device", d, dmName + ": " + d
                            + " is an LVM physical volume; map its logical volumes instead");
                }
            }
        }
    }

    private void checkUnused(String device, String what) {
        if (holders.containsKey(device)) {
            throw new LayoutException(device, "device", device, "cannot " + what + ": " + device + " is in use by "
                    + String.join(", ", holders.get(device)));
        }
    }

    // ---- shared

    void checkNewName(String name) {
        if (!KERNEL_NAME.matcher(name).matches()) {
            throw new LayoutException(name, "name", name, "kernel name '" + name + "' is invalid");
        }
        if (devices.containsKey(name)) {
            throw new LayoutException(name, "name", name, "a device named " + name + " already exists");
        }
    }

    private void register(BlockDevice d, Limits l) {
        devices.put(d.name(), d);
        queues.put(d.name(), l);
        aliases.put(d.name(), d.name());
        aliases.put(d.path(), d.name());
        aliases.put("/dev/" + d.name(), d.name());
    }

    void alias(String alias, String device) {
        aliases.put(alias, device);
    }

    /** Forgets an alias (an LV's name after lvconvert renamed it). */
    void unalias(String alias) {
        aliases.remove(alias);
    }

    void hold(String below, String holder) {
        holders.computeIfAbsent(below, k -> new ArrayList<>()).add(holder);
    }

    /** Whether a whole disk has partitions (LVM's filter refuses it as a PV). */
    boolean isPartitioned(String device) {
        for (BlockDevice d : devices.values()) {
            if (d instanceof dev.dmmodel.device.Partition p && p.disk().equals(device)) {
                return true;
            }
        }
        return false;
    }

    boolean isHeld(String device) {
        return holders.containsKey(device);
    }

    /** The device a reference names, if any. */
    java.util.Optional<BlockDevice> find(String reference) {
        String name = aliases.get(reference);
        return name == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(devices.get(name));
    }

    BlockDevice resolve(String reference, String field) {
        String name = aliases.get(reference);
        if (name == null) {
            throw new LayoutException(reference, field, reference, "no device '" + reference + "' (known: "
                    + String.join(", ", devices.keySet()) + ")");
        }
        return devices.get(name);
    }

    Limits limitsOf(String device) {
        return queues.get(device);
    }

    // ---- DeviceView

    @Override
    public boolean exists(String device) {
        return devices.containsKey(device);
    }

    @Override
    public Limits queueLimits(String device) {
        BlockDevice d = devices.get(device);
        if (d instanceof Partition p) {
            return queues.get(p.disk());
        }
        return queues.get(device);
    }

    @Override
    public long startSector(String device) {
        return devices.get(device) instanceof Partition p ? p.start().count() : 0;
    }

    @Override
    public long size(String device) {
        return devices.get(device).size().count();
    }

    @Override
    public Optional<ThinPoolTarget> poolTarget(String device) {
        return devices.get(device) instanceof DmDevice dm ? DmTableLimits.poolTarget(dm.table()) : Optional.empty();
    }
}
