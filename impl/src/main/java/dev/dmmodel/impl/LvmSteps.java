package dev.dmmodel.impl;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.impl.lvm.LvAllocator;
import dev.dmmodel.impl.lvm.LvTables;
import dev.dmmodel.impl.lvm.PvCreate;
import dev.dmmodel.impl.lvm.PvTopology;
import dev.dmmodel.impl.lvm.ThinPools;
import dev.dmmodel.impl.lvm.VgCreate;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The LVM commands of a layout: {@code pvcreate} reads the device's topology as sysfs reports it,
 * {@code vgcreate} groups PVs, {@code lvcreate} allocates extents and activates the LV as a dm device
 * whose table LVM would load. Thin pools are activated as LVM activates them: {@code vg-pool_tmeta},
 * {@code vg-pool_tdata}, then the {@code thin-pool} table itself as {@code vg-pool} while the pool is new
 * (transaction id 0); once a thin LV exists that device becomes {@code vg-pool-tpool} under a read-only
 * linear {@code vg-pool}, and thin LVs map onto the {@code -tpool} device.
 */
final class LvmSteps {
    private final HostBuilder host;
    private final Map<String, PhysicalVolume> orphans = new LinkedHashMap<>();
    private final List<PhysicalVolume> allPvs = new ArrayList<>();
    private final Map<String, VolumeGroup> vgs = new LinkedHashMap<>();
    private final Map<String, String> pvOwner = new HashMap<>();
    /** vg/pool to the kernel name of the device with the pool's thin-pool table. */
    private final Map<String, String> thinPoolDevices = new HashMap<>();
    /** vg/pool of the pools already layered as vg-pool-tpool under vg-pool. */
    private final Set<String> layeredPools = new HashSet<>();

    LvmSteps(HostBuilder host) {
        this.host = host;
    }

    // tools/pvcreate.c — topology from sysfs: io_min/io_opt of the queue, alignment_offset of the device
    void pvcreate(LayoutStep.PvCreate s) {
        BlockDevice d = host.resolve(s.device(), "pvcreate");
        if (isPhysicalVolume(d.name())) {
            throw new LayoutException(d.name(), "pvcreate", d.path(), "Can't initialize physical volume \""
                    + d.path() + "\": it is already a physical volume");
        }
        if (host.isHeld(d.name())) {
            throw new LayoutException(d.name(), "pvcreate", d.path(), "Can't open " + d.path()
                    + " exclusively.  Mounted filesystem?");
        }
        // lib/filters/filter-partitioned.c: a disk with a partition table is not a PV candidate
        if (host.isPartitioned(d.name())) {
            throw new LayoutException(d.name(), "pvcreate", d.path(), "Cannot use " + d.path()
                    + ": device is partitioned");
        }
        PvTopology topo = PvTopology.of(d.limits(), host.profile().pageSize());
        PhysicalVolume pv = PvCreate.pvcreate(d.name(), d.size(), topo, s.options());
        orphans.put(d.name(), pv);
        allPvs.add(pv);
    }

    void vgcreate(LayoutStep.VgCreate s) {
        if (vgs.containsKey(s.name())) {
            throw new LayoutException(s.name(), "vgcreate", s.name(), "A volume group called " + s.name()
                    + " already exists.");
        }
        List<PhysicalVolume> pvs = new ArrayList<>();
        Map<String, Long> lbs = new HashMap<>();
        for (String ref : s.pvs()) {
            BlockDevice d = host.resolve(ref, "vgcreate");
            PhysicalVolume pv = orphans.get(d.name());
            if (pv == null) {
                String owner = pvOwner.get(d.name());
                throw new LayoutException(d.name(), "vgcreate", d.path(), owner != null
                        ? "Physical volume '" + d.path() + "' is already in volume group '" + owner + "'"
                        : "No physical volume label read from " + d.path() + " (run pvcreate first)");
            }
            pvs.add(pv);
            lbs.put(d.name(), d.limits().logicalBlockSize());
        }
        VolumeGroup vg = VgCreate.vgcreate(s.name(), s.options(), pvs, lbs);
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            orphans.remove(pv.device());
            pvOwner.put(pv.device(), vg.name());
            replacePv(pv);
        }
        commit(vg);
    }

    // tools/vgextend.c: vgextend_single (PVs must be orphans; extents counted with the VG's extent size)
    void vgextend(LayoutStep.VgExtend s) {
        VolumeGroup vg = vgs.get(s.vg());
        if (vg == null) {
            throw new LayoutException(s.vg(), "vgextend", s.vg(), "Volume group \"" + s.vg() + "\" not found");
        }
        List<PhysicalVolume> pvs = new ArrayList<>();
        Map<String, Long> lbs = new HashMap<>();
        for (String ref : s.pvs()) {
            BlockDevice d = host.resolve(ref, "vgextend");
            PhysicalVolume pv = orphans.get(d.name());
            if (pv == null) {
                String owner = pvOwner.get(d.name());
                throw new LayoutException(d.name(), "vgextend", d.path(), owner != null
                        ? "Physical volume '" + d.path() + "' is already in volume group '" + owner + "'"
                        : "No physical volume label read from " + d.path() + " (run pvcreate first)");
            }
            pvs.add(pv);
            lbs.put(d.name(), d.limits().logicalBlockSize());
        }
        VolumeGroup extended = VgCreate.vgextend(vg, pvs, lbs);
        for (PhysicalVolume pv : extended.physicalVolumes()) {
            if (orphans.remove(pv.device()) != null) {
                pvOwner.put(pv.device(), vg.name());
                replacePv(pv);
            }
        }
        commit(extended);
    }

    // lib/format_text/import_vsn1.c + activation: a VG read from its metadata, LVs active where vg-lv exists
    void importVolumeGroup(LayoutStep.ImportVolumeGroup s) {
        VolumeGroup vg = s.volumeGroup();
        if (vgs.containsKey(vg.name())) {
            throw new LayoutException(vg.name(), "volume group", vg.name(), "A volume group called " + vg.name()
                    + " already exists.");
        }
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            BlockDevice d = host.resolve(pv.device(), "volume group " + vg.name());
            if (!d.name().equals(pv.device())) {
                throw new LayoutException(vg.name(), "pv device", pv.device(), "PV " + pv.device() + " of volume group "
                        + vg.name() + " is device " + d.name() + ": name PVs by their kernel names");
            }
            if (isPhysicalVolume(d.name())) {
                String owner = pvOwner.get(d.name());
                throw new LayoutException(d.name(), "pv", d.path(), owner != null
                        ? "Physical volume '" + d.path() + "' is already in volume group '" + owner + "'"
                        : "Physical volume '" + d.path() + "' is already an orphan physical volume, not one of "
                                + vg.name());
            }
            if (pv.devSize().count() > d.size().count()) {
                throw new LayoutException(d.name(), "dev_size", pv.devSize().toString(), "PV " + d.name() + " of"
                        + " volume group " + vg.name() + " claims " + pv.devSize() + " but the device has " + d.size());
            }
        }
        List<LogicalVolume> activeLvs = new ArrayList<>();
        for (LogicalVolume lv : vg.logicalVolumes()) {
            java.util.Optional<BlockDevice> dm = host.find("/dev/mapper/" + LogicalVolume.dmName(vg.name(), lv.name()))
                    .filter(d -> d instanceof dev.dmmodel.device.DmDevice);
            // active where vg-lv exists now; whatever device the metadata's source had in mind does not count
            activeLvs.add(lv.withDmDevice(dm.map(BlockDevice::name).orElse("")));
            if (lv.thinPool().isPresent()) {
                for (String layer : List.of(LogicalVolume.dmName(vg.name(), lv.name(), "tpool"),
                        LogicalVolume.dmName(vg.name(), lv.name()))) {
                    host.find("/dev/mapper/" + layer).filter(d -> d instanceof dev.dmmodel.device.DmDevice x
                            && x.table().targets().stream().anyMatch(t -> t instanceof dev.dmmodel.dm.ThinPoolTarget))
                            .ifPresent(d -> thinPoolDevices.putIfAbsent(vg.name() + "/" + lv.name(), d.name()));
                }
            }
        }
        // one VG with every LV's device: rebuilding it (and its extent table) per LV made an import quadratic
        VolumeGroup active = new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(), activeLvs,
                vg.allocationPolicy());
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            pvOwner.put(pv.device(), vg.name());
            allPvs.add(pv);
        }
        for (LogicalVolume lv : active.logicalVolumes()) {
            if (!lv.dmDevice().isEmpty()) {
                publish(active, lv, lv.dmDevice());
            }
        }
        commit(active);
    }

    void lvcreate(LayoutStep.LvCreate s) {
        VolumeGroup vg = vgs.get(s.vg());
        if (vg == null) {
            throw new LayoutException(s.vg(), "lvcreate", s.vg(), "Volume group \"" + s.vg() + "\" not found");
        }
        String dmName = LogicalVolume.dmName(vg.name(), s.request().name());
        VolumeGroup updated = LvAllocator.lvcreate(vg, resolvePvs(s), "pending");
        LogicalVolume lv = updated.logicalVolume(s.request().name()).orElseThrow();
        DmDevice dm = host.dmCreate(dmName, uuid(vg.name(), lv.name()), LvTables.table(updated, lv),
                Optional.empty(), Optional.empty(), true);
        VolumeGroup finalVg = withDevice(updated, lv.name(), dm.name());
        commit(finalVg);
        publish(finalVg, lv, dm.name());
    }

    // tools/lvcreate.c with lib/metadata/lv_manip.c: lv_create_single for a RAID type; activation as
    // lib/activate/dev_manager.c builds the tree: each metadata LV then its image, then the RAID LV
    void lvcreateRaid(LayoutStep.RaidLvCreate s) {
        VolumeGroup vg = volumeGroup(s.vg());
        dev.dmmodel.lvm.RaidLvRequest r = s.request();
        List<String> pvs = new ArrayList<>();
        for (String p : r.pvs()) {
            pvs.add(host.resolve(p, "lvcreate").name());
        }
        dev.dmmodel.lvm.RaidLvRequest resolved = new dev.dmmodel.lvm.RaidLvRequest(r.name(), r.raidType(), r.size(),
                r.extents(), r.mirrors(), r.stripes(), r.stripeSize(), r.regionSize(), r.nosync(), r.policy(), pvs);
        VolumeGroup updated = dev.dmmodel.impl.lvm.RaidLvs.lvcreate(vg, resolved);
        LogicalVolume lv = updated.logicalVolume(r.name()).orElseThrow();
        SegmentType.Raid seg = (SegmentType.Raid) lv.segments().get(0).type();
        java.util.Map<String, String> devices = new java.util.HashMap<>();
        for (int i = 0; i < seg.deviceCount(); i++) {
            for (String sub : List.of(seg.metadataLvs().get(i), seg.imageLvs().get(i))) {
                LogicalVolume x = updated.logicalVolume(sub).orElseThrow();
                DmDevice dm = host.dmCreate(x.dmName(), uuid(vg.name(), sub), LvTables.table(updated, x),
                        Optional.empty(), Optional.empty(), true);
                devices.put(sub, dm.name());
                updated = withDevice(updated, sub, dm.name());
            }
        }
        DmDevice top = host.dmCreate(lv.dmName(), uuid(vg.name(), lv.name()),
                dev.dmmodel.impl.lvm.RaidLvs.table(updated, lv, devices::get), Optional.empty(), Optional.empty(),
                true);
        updated = withDevice(updated, lv.name(), top.name());
        commit(updated);
        publish(updated, lv, top.name());
    }

    // tools/lvresize.c: lvextend; the active LV's table is reloaded (lib/activate/activate.c: lv_resume)
    void lvextend(LayoutStep.LvExtend s) {
        VolumeGroup vg = volumeGroup(s.vg());
        dev.dmmodel.lvm.LvExtendRequest r = s.request();
        List<String> pvs = new ArrayList<>();
        for (String p : r.pvs()) {
            pvs.add(host.resolve(p, "lvextend").name());
        }
        VolumeGroup updated = LvAllocator.lvextend(vg, new dev.dmmodel.lvm.LvExtendRequest(r.name(), r.extents(),
                r.stripes(), r.stripeSize(), r.policy(), pvs, resolveRanges(r.pvRanges(), "lvextend")));
        LogicalVolume lv = updated.logicalVolume(r.name()).orElseThrow();
        if (lv.isActive()) {
            host.dmReload(lv.dmDevice(), LvTables.table(updated, lv));
        }
        commit(updated);
    }

    /*
     * tools/lvconvert.c: _lvconvert_to_pool — the data and metadata LVs' devices become vg-pool_tdata and
     * vg-pool_tmeta (same tables), then the new pool (transaction_id 0) is loaded as vg-pool.
     */
    void lvconvertThinPool(LayoutStep.ThinPoolConvert s) {
        VolumeGroup vg = volumeGroup(s.vg());
        dev.dmmodel.lvm.ThinPoolConvertRequest r = s.request();
        List<String> pvs = new ArrayList<>();
        for (String p : r.pvs()) {
            pvs.add(host.resolve(p, "lvconvert").name());
        }
        dev.dmmodel.lvm.ThinPoolConvertRequest resolved = new dev.dmmodel.lvm.ThinPoolConvertRequest(r.dataLv(),
                r.metadataLv(), r.chunkSize(), r.zero(), r.discards(), r.errorWhenFull(), r.chunkPolicy(),
                r.poolMetadataSpare(), pvs, resolveRanges(r.pvRanges(), "lvconvert"));
        VolumeGroup updated = ThinPools.lvconvertThinPool(vg, resolved, this::topology);
        LogicalVolume oldData = vg.logicalVolume(r.dataLv()).orElseThrow();
        LogicalVolume oldMeta = vg.logicalVolume(r.metadataLv()).orElseThrow();
        LogicalVolume pool = updated.logicalVolume(r.dataLv()).orElseThrow();
        SegmentType.ThinPool seg = pool.thinPool().orElseThrow();
        LogicalVolume tmeta = updated.logicalVolume(seg.metadataLv()).orElseThrow();
        LogicalVolume tdata = updated.logicalVolume(seg.dataLv()).orElseThrow();
        host.unalias(oldMeta.path());
        host.unalias(vg.name() + "/" + oldMeta.name());
        String meta = subLv(updated, tmeta, oldMeta, uuid(vg.name(), pool.name()) + "-tmeta");
        String data = subLv(updated, tdata, oldData, uuid(vg.name(), pool.name()) + "-tdata");
        DmDevice top = host.dmCreate(pool.dmName(), uuid(vg.name(), pool.name()) + "-tpool",
                ThinPools.poolTable(updated, pool, meta, data), Optional.empty(), Optional.empty(), true);
        updated = withDevice(updated, tmeta.name(), meta);
        updated = withDevice(updated, tdata.name(), data);
        updated = withDevice(updated, pool.name(), top.name());
        commit(updated);
        thinPoolDevices.put(vg.name() + "/" + pool.name(), top.name());
        publish(updated, pool, top.name());
    }

    // an LV that became a pool's sub-LV: its active device renamed, else a new device for it
    private String subLv(VolumeGroup vg, LogicalVolume sub, LogicalVolume old, String uuid) {
        if (old.isActive()) {
            host.dmRename(old.dmDevice(), sub.dmName());
            return old.dmDevice();
        }
        return host.dmCreate(sub.dmName(), uuid, LvTables.table(vg, sub), Optional.empty(), Optional.empty(), true)
                .name();
    }

    private List<dev.dmmodel.lvm.ExtentRange> resolveRanges(List<dev.dmmodel.lvm.ExtentRange> in, String field) {
        List<dev.dmmodel.lvm.ExtentRange> ranges = new ArrayList<>();
        for (dev.dmmodel.lvm.ExtentRange e : in) {
            ranges.add(new dev.dmmodel.lvm.ExtentRange(host.resolve(e.pv(), field).name(), e.start(), e.count()));
        }
        return ranges;
    }

    // tools/lvcreate.c: lvcreate --type thin-pool, then lib/activate/dev_manager.c: _add_new_lv_to_dtree
    void lvcreateThinPool(LayoutStep.ThinPoolCreate s) {
        VolumeGroup vg = volumeGroup(s.vg());
        ThinPoolRequest r = s.request();
        List<String> pvs = new ArrayList<>();
        for (String p : r.pvs()) {
            pvs.add(host.resolve(p, "lvcreate").name());
        }
        ThinPoolRequest resolved = new ThinPoolRequest(r.name(), r.size(), r.extents(), r.chunkSize(),
                r.poolMetadataSize(), r.zero(), r.discards(), r.errorWhenFull(), r.stripes(), r.stripeSize(),
                r.chunkPolicy(), r.poolMetadataSpare(), r.policy(), pvs);
        VolumeGroup updated = ThinPools.lvcreateThinPool(vg, resolved, this::topology);
        LogicalVolume pool = updated.logicalVolume(r.name()).orElseThrow();
        SegmentType.ThinPool seg = pool.thinPool().orElseThrow();
        LogicalVolume tmeta = updated.logicalVolume(seg.metadataLv()).orElseThrow();
        LogicalVolume tdata = updated.logicalVolume(seg.dataLv()).orElseThrow();
        // the hidden sub-LVs first (metadata, then data), each as vg-<lv>
        DmDevice meta = host.dmCreate(tmeta.dmName(), uuid(vg.name(), pool.name()) + "-tmeta",
                LvTables.table(updated, tmeta), Optional.empty(), Optional.empty(), true);
        DmDevice data = host.dmCreate(tdata.dmName(), uuid(vg.name(), pool.name()) + "-tdata",
                LvTables.table(updated, tdata), Optional.empty(), Optional.empty(), true);
        // a new pool (transaction_id 0) is loaded directly as vg-pool; its uuid still carries -tpool
        DmDevice top = host.dmCreate(pool.dmName(), uuid(vg.name(), pool.name()) + "-tpool",
                ThinPools.poolTable(updated, pool, meta.name(), data.name()), Optional.empty(), Optional.empty(),
                true);
        updated = withDevice(updated, tmeta.name(), meta.name());
        updated = withDevice(updated, tdata.name(), data.name());
        updated = withDevice(updated, pool.name(), top.name());
        commit(updated);
        thinPoolDevices.put(vg.name() + "/" + pool.name(), top.name());
        publish(updated, pool, top.name());
    }

    // tools/lvcreate.c: lvcreate -V --thinpool; the thin LV is activated over the pool's -tpool device
    void lvcreateThin(LayoutStep.ThinLvCreate s) {
        VolumeGroup updated = ThinPools.lvcreateThin(volumeGroup(s.vg()), s.request());
        LogicalVolume thin = updated.logicalVolumes().get(updated.logicalVolumes().size() - 1);
        updated = layerPool(updated, thin.thin().orElseThrow().pool());
        String tpool = thinPoolDevices.get(updated.name() + "/" + thin.thin().orElseThrow().pool());
        DmDevice dm = host.dmCreate(thin.dmName(), uuid(updated.name(), thin.name()),
                ThinPools.thinTable(updated, thin, tpool), Optional.empty(), Optional.empty(), true);
        updated = withDevice(updated, thin.name(), dm.name());
        commit(updated);
        publish(updated, thin, dm.name());
    }

    // tools/lvcreate.c: lvcreate -s VG/THIN; ACTIVATION_SKIP leaves the snapshot inactive
    void lvcreateSnapshot(LayoutStep.ThinSnapshotCreate s) {
        VolumeGroup updated = ThinPools.lvcreateSnapshot(volumeGroup(s.vg()), s.request());
        LogicalVolume snap = updated.logicalVolumes().get(updated.logicalVolumes().size() - 1);
        commit(layerPool(updated, snap.thin().orElseThrow().pool()));
    }

    /*
     * tools/lvcreate.c + lib/activate/dev_manager.c: a classic snapshot's activation — the origin's table moves to
     * a new vg-origin-real (the first snapshot of that origin only), the COW store is vg-snap-cow, the snapshot
     * vg-snap ("snapshot <real> <cow> P <chunk>"), created in that order, and vg-origin is reloaded as
     * "snapshot-origin <real>" (suspend, load, resume).
     */
    void lvcreateCowSnapshot(LayoutStep.CowSnapshotCreate s) {
        VolumeGroup vg = volumeGroup(s.vg());
        dev.dmmodel.lvm.CowSnapshotRequest r = s.request();
        List<String> pvs = new ArrayList<>();
        for (String p : r.pvs()) {
            pvs.add(host.resolve(p, "lvcreate").name());
        }
        VolumeGroup updated = dev.dmmodel.impl.lvm.CowSnapshots.lvcreate(vg, r, pvs,
                resolveRanges(r.pvRanges(), "lvcreate"));
        LogicalVolume origin = updated.logicalVolume(r.origin()).orElseThrow();
        LogicalVolume cow = updated.logicalVolumes().get(updated.logicalVolumes().size() - 2);
        if (!origin.isActive()) {
            throw new LayoutException(vg.name() + "/" + origin.name(), "origin", origin.name(), "Snapshot origin LV "
                    + vg.name() + "/" + origin.name() + " is not active: the model activates snapshots of active"
                    + " origins only");
        }
        DmDevice originDm = (DmDevice) host.resolve(origin.dmDevice(), "lvcreate");
        DmDevice snapDm = dev.dmmodel.impl.lvm.CowSnapshots.activate(updated, originDm,
                new dev.dmmodel.impl.lvm.CowSnapshots.Activation() {
                    @Override
                    public DmDevice create(String dmName, String uuid, dev.dmmodel.dm.DmTable table) {
                        return host.dmCreate(dmName, uuid, table, Optional.empty(), Optional.empty(), true);
                    }

                    @Override
                    public void reload(String device, dev.dmmodel.dm.DmTable table) {
                        host.dmReload(device, table);
                    }
                });
        VolumeGroup finalVg = withDevice(updated, cow.name(), snapDm.name());
        commit(finalVg);
        publish(finalVg, finalVg.logicalVolume(cow.name()).orElseThrow(), snapDm.name());
    }

    /*
     * lib/activate/dev_manager.c: _add_new_lv_to_dtree — a pool with transaction_id > 0 is vg-pool-tpool
     * (the thin-pool table) under a read-only vg-pool "0 <len> linear <tpool> 0". The device that held the
     * new pool keeps its number and uuid (…-tpool) and is renamed; vg-pool is created next.
     */
    private VolumeGroup layerPool(VolumeGroup vg, String poolName) {
        String key = vg.name() + "/" + poolName;
        if (layeredPools.contains(key)) {
            return vg;
        }
        LogicalVolume pool = vg.logicalVolume(poolName).orElseThrow();
        String tpool = thinPoolDevices.get(key);
        host.dmRename(tpool, LogicalVolume.dmName(vg.name(), poolName, "tpool"));
        DmDevice top = host.dmCreate(pool.dmName(), uuid(vg.name(), poolName) + "-pool",
                ThinPools.poolLayerTable(vg, pool, tpool), Optional.empty(), Optional.empty(), true);
        layeredPools.add(key);
        VolumeGroup updated = withDevice(vg, poolName, top.name());
        publish(updated, pool, top.name());
        return updated;
    }

    private VolumeGroup volumeGroup(String name) {
        VolumeGroup vg = vgs.get(name);
        if (vg == null) {
            throw new LayoutException(name, "lvcreate", name, "Volume group \"" + name + "\" not found");
        }
        return vg;
    }

    // the VG with one LV active as another dm device
    private static VolumeGroup withDevice(VolumeGroup vg, String lvName, String device) {
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        for (int i = 0; i < lvs.size(); i++) {
            if (lvs.get(i).name().equals(lvName)) {
                lvs.set(i, lvs.get(i).withDmDevice(device));
            }
        }
        return new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(), lvs, vg.allocationPolicy());
    }

    // /dev/vg/lv and vg/lv name the LV's device; its VG's PVs are in use
    /** The volume group's metadata as LVM commits it, with every active LV's read-ahead as LVM sets it. */
    private void commit(VolumeGroup vg) {
        vgs.put(vg.name(), vg);
        for (LogicalVolume lv : vg.logicalVolumes()) {
            long sectors = dev.dmmodel.impl.lvm.LvReadAhead.autoSectors(vg, lv,
                    pv -> host.queueLimits(pv).readAheadKb * 2);
            if (sectors == 0) {
                continue;
            }
            // the LV's device and, for a thin pool, its -tpool layer: each node LVM loads gets the read-ahead
            for (String dmName : List.of(LogicalVolume.dmName(vg.name(), lv.name()),
                    LogicalVolume.dmName(vg.name(), lv.name(), "tpool"))) {
                host.find("/dev/mapper/" + dmName).filter(d -> d instanceof dev.dmmodel.device.DmDevice)
                        .ifPresent(d -> host.raiseReadAhead(d.name(), sectors / 2));
            }
        }
    }

    private void publish(VolumeGroup vg, LogicalVolume lv, String device) {
        host.alias(lv.path(), device);
        host.alias(vg.name() + "/" + lv.name(), device);
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            host.hold(pv.device(), device);
        }
    }

    // lib/device/dev-type.c: the PV's queue topology as sysfs shows it now (chunk size hints of a new pool)
    private PvTopology topology(String device) {
        return PvTopology.of(host.resolve(device, "lvcreate").limits(), host.profile().pageSize());
    }

    // PV references in lvcreate name devices; the allocator works on kernel names
    private dev.dmmodel.lvm.LvCreateRequest resolvePvs(LayoutStep.LvCreate s) {
        dev.dmmodel.lvm.LvCreateRequest r = s.request();
        List<String> pvs = new ArrayList<>();
        for (String p : r.pvs()) {
            pvs.add(host.resolve(p, "lvcreate").name());
        }
        List<dev.dmmodel.lvm.ExtentRange> ranges = new ArrayList<>();
        for (dev.dmmodel.lvm.ExtentRange e : r.pvRanges()) {
            ranges.add(new dev.dmmodel.lvm.ExtentRange(host.resolve(e.pv(), "lvcreate").name(), e.start(), e.count()));
        }
        return new dev.dmmodel.lvm.LvCreateRequest(r.name(), r.size(), r.extents(), r.stripes(), r.stripeSize(),
                r.policy(), pvs, ranges);
    }

    private static String uuid(String vg, String lv) {
        return LvTables.dmUuid(vg, lv);
    }

    private void replacePv(PhysicalVolume pv) {
        for (int i = 0; i < allPvs.size(); i++) {
            if (allPvs.get(i).device().equals(pv.device())) {
                allPvs.set(i, pv);
            }
        }
    }

    boolean isPhysicalVolume(String device) {
        return orphans.containsKey(device) || pvOwner.containsKey(device);
    }

    List<PhysicalVolume> physicalVolumes() {
        return List.copyOf(allPvs);
    }

    List<VolumeGroup> volumeGroups() {
        return List.copyOf(vgs.values());
    }
}
