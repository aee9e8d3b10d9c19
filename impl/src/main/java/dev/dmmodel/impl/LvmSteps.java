package dev.dmmodel.impl;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.impl.limits.Limits;
import dev.dmmodel.impl.lvm.LvAllocator;
import dev.dmmodel.impl.lvm.LvTables;
import dev.dmmodel.impl.lvm.PvCreate;
import dev.dmmodel.impl.lvm.PvTopology;
import dev.dmmodel.impl.lvm.VgCreate;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The LVM commands of a layout: {@code pvcreate} reads the device's topology as sysfs reports it,
 * {@code vgcreate} groups PVs, {@code lvcreate} allocates extents and activates the LV as a dm device
 * whose table LVM would load.
 */
final class LvmSteps {
    private final HostBuilder host;
    private final Map<String, PhysicalVolume> orphans = new LinkedHashMap<>();
    private final List<PhysicalVolume> allPvs = new ArrayList<>();
    private final Map<String, VolumeGroup> vgs = new LinkedHashMap<>();
    private final Map<String, String> pvOwner = new HashMap<>();

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
        Limits l = Limits.of(d.limits());
        PvTopology topo = new PvTopology(l.ioMin, l.ioOpt, l.misaligned ? -1 : l.alignmentOffset,
                l.logicalBlockSize, host.profile().pageSize(), 0);
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
        vgs.put(vg.name(), vg);
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
        List<LogicalVolume> lvs = new ArrayList<>(updated.logicalVolumes());
        lvs.set(lvs.size() - 1, new LogicalVolume(lv.vgName(), lv.name(), lv.segments(), dm.name()));
        VolumeGroup finalVg = new VolumeGroup(updated.name(), updated.extentSize(), updated.physicalVolumes(),
                lvs, updated.allocationPolicy());
        vgs.put(vg.name(), finalVg);
        host.alias(lv.path(), dm.name());
        host.alias(vg.name() + "/" + lv.name(), dm.name());
        for (PhysicalVolume pv : finalVg.physicalVolumes()) {
            host.hold(pv.device(), dm.name());
        }
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

    // lib/misc/lvm-string.c: build_dm_uuid — "LVM-" + VG uuid + LV uuid; ours are derived from the names
    private static String uuid(String vg, String lv) {
        return "LVM-" + token(vg, 32) + token(vg + "/" + lv, 32);
    }

    private static String token(String seed, int length) {
        String alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        byte[] hash = com.google.common.hash.Hashing.sha256().hashString(seed, StandardCharsets.UTF_8).asBytes();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt((hash[i % hash.length] & 0xFF) % alphabet.length()));
        }
        return sb.toString();
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
