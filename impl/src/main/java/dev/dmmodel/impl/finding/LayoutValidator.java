package dev.dmmodel.impl.finding;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.impl.dm.thin.ThinFindings;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Layout checks. Each rule is one method producing {@link Finding} values (never exceptions); the
 * wording of each kind of finding lives in {@link AlignmentFindings}.
 */
public final class LayoutValidator {
    private LayoutValidator() {
    }

    /** The findings of a layout: most severe first, then in device order. */
    public static List<Finding> validate(Layout layout) {
        List<Finding> out = new ArrayList<>();
        for (Partition p : layout.partitions()) {
            partitionAlignment(layout, p, out);
        }
        for (BlockDevice d : layout.devices()) {
            if (d instanceof dev.dmmodel.device.Disk disk) {
                UnmodelledDevices.check(disk, out);
            }
        }
        for (VolumeGroup vg : layout.volumeGroups()) {
            for (PhysicalVolume pv : vg.physicalVolumes()) {
                pvDataAlignment(layout, pv, out);
            }
            mixedBlockSizes(layout, vg, out);
            extentSizeVsStripe(layout, vg, out);
            ThinFindings.metadataSpare(vg, out);
        }
        for (dev.dmmodel.device.MdDevice md : layout.mdDevices()) {
            deviceAlignment(md, out);
        }
        for (DmDevice dm : layout.dmDevices()) {
            deviceAlignment(dm, out);
            tableBlockSizes(layout, dm, out);
            dev.dmmodel.impl.dm.opaque.OpaqueFindings.check(dm, out);
            dev.dmmodel.impl.dm.crypt.CryptFindings.check(layout, dm, out);
            dev.dmmodel.impl.dm.multipath.MultipathFindings.check(layout, dm, out);
            if (dm.table().targets().size() == 1 && dm.table().targets().get(0) instanceof dev.dmmodel.dm.ThinPoolTarget t) {
                ThinFindings.check(layout, dm, t, out);
            }
            if (dm.table().targets().size() == 1 && dm.table().targets().get(0) instanceof dev.dmmodel.dm.CacheTarget c) {
                dev.dmmodel.impl.dm.cache.CacheFindings.check(layout, dm, c, out);
            }
        }
        OverlapFindings.check(layout, out);
        Map<String, Integer> order = new HashMap<>();
        for (BlockDevice d : layout.devices()) {
            order.put(d.name(), order.size());
        }
        out.sort(Comparator.comparing((Finding f) -> -f.severity().ordinal())
                .thenComparing(f -> order.getOrDefault(f.device(), Integer.MAX_VALUE))
                .thenComparing(Finding::id));
        return List.copyOf(out);
    }

    // a partition should start on the disk's physical block, io_min and io_opt boundaries
    static void partitionAlignment(Layout layout, Partition p, List<Finding> out) {
        QueueLimits l = layout.device(p.disk()).limits();
        l.misalignmentAt(p.start().count() * 512).ifPresent(m -> out.add(switch (m.grain()) {
            case PHYSICAL_BLOCK -> AlignmentFindings.partitionPhysicalBlock(p, l, m.offsetBytes());
            case IO_MIN -> AlignmentFindings.partitionIoMin(p, l, m.offsetBytes());
            case IO_OPT -> AlignmentFindings.partitionIoOpt(p, l, m.offsetBytes());
        }));
    }

    // the PV's data area (pe_start, plus the partition's start on the disk) against io_min and the full stripe
    static void pvDataAlignment(Layout layout, PhysicalVolume pv, List<Finding> out) {
        BlockDevice d = layout.device(pv.device());
        long base = d instanceof Partition p ? p.start().count() * 512 : 0;
        QueueLimits l = d instanceof Partition p ? layout.device(p.disk()).limits() : d.limits();
        long ao = l.misaligned() ? 0 : l.alignmentOffset();
        l.misalignmentAt(base + pv.peStart().count() * 512).ifPresent(m -> out.add(m.grain() == QueueLimits.Grain.IO_OPT
                ? AlignmentFindings.pvFullStripe(pv, d, l, base, ao, m.offsetBytes(), layout.profile().pageSize())
                : AlignmentFindings.pvIoMin(pv, d, l, base, m.offsetBytes())));
    }

    // drivers/md/dm-table.c reports the stacked alignment_offset; non-zero or -1 means LV sector 0 is off the grain
    static void deviceAlignment(BlockDevice dm, List<Finding> out) {
        QueueLimits l = dm.limits();
        if (l.misaligned()) {
            out.add(AlignmentFindings.deviceMisaligned(dm));
        } else if (l.alignmentOffset() != 0) {
            out.add(AlignmentFindings.deviceOffset(dm, l));
        }
    }

    // a VG should not mix PVs of different logical block sizes
    static void mixedBlockSizes(Layout layout, VolumeGroup vg, List<Finding> out) {
        Map<Long, List<String>> byLbs = new TreeMap<>();
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            byLbs.computeIfAbsent(layout.device(pv.device()).limits().logicalBlockSize(), k -> new ArrayList<>())
                    .add(pv.device());
        }
        if (byLbs.size() > 1) {
            out.add(AlignmentFindings.vgMixedBlockSizes(vg, byLbs));
        }
    }

    // a dm table should not mix devices of different logical block sizes
    static void tableBlockSizes(Layout layout, DmDevice dm, List<Finding> out) {
        Map<Long, List<String>> byLbs = new TreeMap<>();
        for (String d : dm.table().devices()) {
            List<String> list = byLbs.computeIfAbsent(layout.device(d).limits().logicalBlockSize(),
                    k -> new ArrayList<>());
            if (!list.contains(d)) {
                list.add(d);
            }
        }
        if (byLbs.size() > 1) {
            out.add(AlignmentFindings.tableMixedBlockSizes(dm, byLbs));
        }
    }

    // extents that are whole full stripes keep every LV segment boundary on a stripe boundary
    static void extentSizeVsStripe(Layout layout, VolumeGroup vg, List<Finding> out) {
        long extentBytes = vg.extentSize().count() * 512;
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            QueueLimits l = layout.device(pv.device()).limits();
            if (l.ioOpt() > 0 && extentBytes % l.ioOpt() != 0) {
                out.add(AlignmentFindings.extentSizeVsStripe(vg, pv, l));
                return;
            }
        }
    }
}
