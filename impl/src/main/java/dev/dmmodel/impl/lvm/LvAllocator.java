package dev.dmmodel.impl.lvm;

import dev.dmmodel.impl.lvm.ExtentAllocator.FreeSpace;
import dev.dmmodel.impl.lvm.ExtentAllocator.Pass;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.ExtentTable;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code lvcreate} of a linear or striped LV: its checks, its size in extents and where its extents go. */
public final class LvAllocator {

    private static final Logger LOG = LoggerFactory.getLogger(LvAllocator.class);

    /** {@code metadata/stripesize} default: 64 KiB. */
    static final long DEFAULT_STRIPE_SIZE_SECTORS = 128;
    /** {@code STRIPE_SIZE_MIN}: one 4 KiB page. */
    static final long MIN_STRIPE_SIZE_SECTORS = 8;
    /** Largest stripe size accepted: 2^31 sectors. */
    static final long MAX_STRIPE_SIZE_SECTORS = 1L << 31;

    private LvAllocator() {
    }

    /**
     * Creates LV {@code req.name()} in {@code vg}.
     *
     * @param vg the volume group
     * @param req the request ({@code -n -L/-l -i -I --alloc} and PVs)
     * @param dmDeviceName kernel name of the LV's dm device ({@code dm-0})
     * @return the VG with the new LV appended
     * @throws LayoutException with LVM's message when lvcreate would refuse
     */
    public static VolumeGroup lvcreate(VolumeGroup vg, LvCreateRequest req, String dmDeviceName) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(req, "req");
        Objects.requireNonNull(dmDeviceName, "dmDeviceName");
        String name = req.name();
        String where = vg.name() + "/" + name;
        checkName(vg, name, where);
        long extentSize = vg.extentSize().count();
        int stripes = req.stripes();
        long stripeSize = stripeSize(where, req, extentSize);
        long extents = extents(where, req, extentSize);
        // lib/metadata/lv_manip.c: _lv_create_an_lv (an LV needs extents)
        if (extents == 0) {
            throw new LayoutException(where, "extents", "0", "Unable to create new logical volume with no extents.");
        }
        // lib/metadata/lv_manip.c: _lv_create_an_lv (striped length rounded up to whole rows)
        if (extents % stripes != 0) {
            long rounded = Math.multiplyExact(Math.addExact(extents, stripes - 1) / stripes, stripes);
            LOG.debug("Rounding size {} ({} extents) up to stripe boundary size {} ({} extents).",
                    DisplaySize.sectors(Math.multiplyExact(extents, extentSize)), extents,
                    DisplaySize.sectors(Math.multiplyExact(rounded, extentSize)), rounded);
            extents = rounded;
        }
        AllocationPolicy policy = req.policy() == AllocationPolicy.INHERIT ? vg.allocationPolicy() : req.policy();
        List<FreeSpace> space = freeSpace(vg, req);
        // tools/lvcreate.c: _lvcreate_params (parallel stripes need distinct PVs)
        if (stripes > space.size() && policy != AllocationPolicy.ANYWHERE) {
            throw new LayoutException(where, "stripes", Integer.toString(stripes), "Number of stripes (" + stripes
                    + ") must not exceed number of physical volumes (" + space.size() + ")");
        }
        // lib/metadata/lv_manip.c: _lv_create_an_lv (VG free space)
        long free = vg.freeCount();
        if (free < extents) {
            throw new LayoutException(where, "extents", Long.toString(extents), "Volume group \"" + vg.name()
                    + "\" has insufficient free space (" + free + " extents): " + extents + " required.");
        }
        List<Pass> passes = ExtentAllocator.allocate(name, space, stripes, extents, policy);
        LogicalVolume lv = new LogicalVolume(vg.name(), name, segments(passes, stripeSize), dmDeviceName);
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        lvs.add(lv);
        return new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(), lvs, vg.allocationPolicy());
    }

    /**
     * Extends linear or striped LV {@code req.name()} of {@code vg} by {@code req.extents()} extents: stripes
     * and stripe size default to the LV's last segment's, the new extents are allocated from the named PVs or
     * ranges (any PV of the VG if none), and a new segment that continues the last one is merged into it.
     *
     * @param vg the volume group
     * @param req the request ({@code -l +N -i -I --alloc} and PVs, PV references as kernel names)
     * @return the VG with the LV's segments grown, the LV in its place
     * @throws LayoutException with LVM's message when lvextend would refuse
     */
    // tools/lvresize.c + lib/metadata/lv_manip.c: lv_resize (_lvresize_adjust_extents, lv_extend)
    public static VolumeGroup lvextend(VolumeGroup vg, LvExtendRequest req) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(req, "req");
        String where = vg.name() + "/" + req.name();
        LogicalVolume lv = vg.logicalVolume(req.name()).orElseThrow(() -> new LayoutException(where, "lvextend",
                req.name(), "Failed to find logical volume \"" + where + "\""));
        if (lv.role() != dev.dmmodel.lvm.LvRole.PUBLIC) {
            throw new LayoutException(where, "lvextend", lv.role().toString(), "Can't resize " + where
                    + ": only a visible linear or striped LV is modelled (" + lv.role() + ")");
        }
        LvSegment last = lv.segments().get(lv.segments().size() - 1);
        int stripes = req.stripes() == 0 ? last.stripes() : req.stripes();
        Bytes stripeSizeArg = req.stripeSize();
        if (stripeSizeArg == null && stripes > 1 && last.stripes() > 1) {
            stripeSizeArg = last.stripeSize().toBytes();
        }
        LvCreateRequest asCreate = new LvCreateRequest(req.name(), null, req.extents(), stripes, stripeSizeArg,
                req.policy(), req.pvs(), req.pvRanges());
        long extentSize = vg.extentSize().count();
        long stripeSize = stripeSize(where, asCreate, extentSize);
        long extents = req.extents();
        // lib/metadata/lv_manip.c: _lvresize_adjust_extents (rounded up to whole rows of stripes)
        if (extents % stripes != 0) {
            extents = Math.multiplyExact(Math.addExact(extents, stripes - 1) / stripes, stripes);
        }
        AllocationPolicy policy = req.policy() == AllocationPolicy.INHERIT ? vg.allocationPolicy() : req.policy();
        List<FreeSpace> space = freeSpace(vg, asCreate);
        if (stripes > space.size() && policy != AllocationPolicy.ANYWHERE) {
            throw new LayoutException(where, "stripes", Integer.toString(stripes), "Number of stripes (" + stripes
                    + ") must not exceed number of physical volumes (" + space.size() + ")");
        }
        long free = vg.freeCount();
        if (free < extents) {
            throw new LayoutException(where, "extents", Long.toString(extents), "Insufficient free space: "
                    + extents + " extents needed, but only " + free + " available");
        }
        if (Math.addExact(lv.extentCount(), extents) > VgCreate.MAX_EXTENT_COUNT) {
            throw new LayoutException(where, "extents", Long.toString(extents), "Logical volume " + where
                    + " would have more than " + VgCreate.MAX_EXTENT_COUNT + " extents.");
        }
        List<Pass> passes = ExtentAllocator.allocate(req.name(), space, stripes, extents, policy);
        List<LvSegment> added = segments(passes, stripeSize);
        List<LvSegment> all = new ArrayList<>(lv.segments());
        long le = lv.extentCount();
        for (LvSegment s : added) {
            LvSegment next = new LvSegment(le, s.extentCount(), s.stripeSize(), s.areas());
            LvSegment prev = all.get(all.size() - 1);
            if (continues(prev, next)) {
                all.set(all.size() - 1, new LvSegment(prev.startExtent(), prev.extentCount() + next.extentCount(),
                        prev.stripeSize(), prev.areas()));
            } else {
                all.add(next);
            }
            le += s.extentCount();
        }
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        lvs.set(lvs.indexOf(lv), lv.withSegments(all));
        return new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(), lvs, vg.allocationPolicy());
    }

    static void checkName(VolumeGroup vg, String name, String where) {
        // tools/toollib.c: validate_lvname_param
        if (LvmNames.invalidReason(name).isPresent()) {
            throw new LayoutException(where, "lv_name", name, "Logical volume name \"" + name + "\" is invalid.");
        }
        // lib/misc/lvm-string.c: apply_lvname_restrictions
        Optional<String> reserved = LvmNames.reservedLvName(name);
        if (reserved.isPresent()) {
            throw new LayoutException(where, "lv_name", name, reserved.get());
        }
        // lib/metadata/lv_manip.c: _lv_create_an_lv (name taken)
        if (vg.logicalVolume(name).isPresent()) {
            throw new LayoutException(where, "lv_name", name, "Logical Volume \"" + name
                    + "\" already exists in volume group \"" + vg.name() + "\"");
        }
    }

    // tools/lvcreate.c: _read_stripe_params, and lib/metadata/lv_manip.c: _lv_create_an_lv (reduction)
    static long stripeSize(String where, LvCreateRequest req, long extentSize) {
        if (req.stripes() == 1) {
            if (req.stripeSize() != null) {
                LOG.debug("Ignoring stripesize argument with single stripe.");
            }
            return 0;
        }
        long sectors;
        if (req.stripeSize() == null) {
            sectors = DEFAULT_STRIPE_SIZE_SECTORS;
            LOG.debug("Using default stripesize {}.", DisplaySize.sectors(sectors));
        } else {
            Bytes size = req.stripeSize();
            String shown = DisplaySize.bytes(BigInteger.valueOf(size.count()));
            if (size.isWholeSectors() && size.count() / Sectors.SECTOR_SIZE > MAX_STRIPE_SIZE_SECTORS) {
                throw new LayoutException(where, "stripesize", shown, "Stripe size cannot be larger than "
                        + DisplaySize.sectors(MAX_STRIPE_SIZE_SECTORS) + ".");
            }
            sectors = size.count() / Sectors.SECTOR_SIZE;
            if (!size.isWholeSectors() || sectors < MIN_STRIPE_SIZE_SECTORS || Long.bitCount(sectors) != 1) {
                throw new LayoutException(where, "stripesize", shown, "Invalid stripe size " + shown + ".");
            }
        }
        if (sectors > extentSize) {
            LOG.debug("Reducing requested stripe size {} to maximum, physical extent size {}.",
                    DisplaySize.sectors(sectors), DisplaySize.sectors(extentSize));
            sectors = extentSize;
        }
        return sectors;
    }

    // lib/metadata/metadata.c: extents_from_size (-L rounded up to whole extents)
    static long extents(String where, LvCreateRequest req, long extentSize) {
        if (req.size() == null) {
            return req.extents();
        }
        long bytes = req.size().count();
        if (!req.size().isWholeSectors()) {
            long down = bytes - bytes % Sectors.SECTOR_SIZE;
            throw new LayoutException(where, "size", bytes + "B", "Size is not a multiple of 512. Try using " + down
                    + " or " + Math.addExact(down, Sectors.SECTOR_SIZE) + ".");
        }
        long sectors = bytes / Sectors.SECTOR_SIZE;
        BigInteger limit = BigInteger.valueOf(VgCreate.MAX_EXTENT_COUNT).multiply(BigInteger.valueOf(extentSize));
        if (BigInteger.valueOf(sectors).compareTo(limit) > 0) {
            throw new LayoutException(where, "size", bytes + "B", "Volume too large (" + DisplaySize.sectors(sectors)
                    + ") for extent size " + DisplaySize.sectors(extentSize) + ". Upper limit is less than "
                    + DisplaySize.sectors(limit) + ".");
        }
        long extents = sectors / extentSize;
        if (sectors % extentSize != 0) {
            extents++;
            LOG.debug("Rounding up size to full physical extent {}",
                    DisplaySize.sectors(Math.multiplyExact(extents, extentSize)));
        }
        return extents;
    }

    // lib/metadata/pv_list.c: create_pv_list (PVs and PE ranges named on the command line)
    static List<FreeSpace> freeSpace(VolumeGroup vg, LvCreateRequest req) {
        ExtentTable table = vg.extentTable();
        List<FreeSpace> out = new ArrayList<>();
        if (req.pvs().isEmpty() && req.pvRanges().isEmpty()) {
            for (PhysicalVolume pv : vg.physicalVolumes()) {
                out.add(new FreeSpace(pv.device(), table.freeRanges(pv.device())));
            }
            return out;
        }
        Map<String, List<ExtentRange>> ranges = new LinkedHashMap<>();
        for (String device : req.pvs()) {
            PhysicalVolume pv = namedPv(vg, device);
            if (hasFreeExtents(table, device)) {
                addRange(ranges, new ExtentRange(device, 0, pv.peCount()));
            }
        }
        for (ExtentRange r : req.pvRanges()) {
            PhysicalVolume pv = namedPv(vg, r.pv());
            if (!hasFreeExtents(table, r.pv())) {
                continue;
            }
            // lib/metadata/pv_list.c: _parse_pes (range inside the PV)
            if (r.end() > pv.peCount()) {
                throw new LayoutException(r.pv(), "pe_range", r.toString(), "PE range error: start extent "
                        + r.start() + " to end extent " + (r.end() - 1) + ".");
            }
            addRange(ranges, r);
        }
        if (ranges.isEmpty()) {
            throw new LayoutException(vg.name(), "pvs", req.pvs() + " " + req.pvRanges(),
                    "No specified PVs have space available.");
        }
        for (Map.Entry<String, List<ExtentRange>> e : ranges.entrySet()) {
            out.add(new FreeSpace(e.getKey(), freeWithin(e.getValue(), table.freeRanges(e.getKey()))));
        }
        return out;
    }

    private static PhysicalVolume namedPv(VolumeGroup vg, String device) {
        return vg.physicalVolume(device).orElseThrow(() -> new LayoutException(device, "pvs", device,
                "Physical Volume \"" + device + "\" not found in Volume Group \"" + vg.name() + "\"."));
    }

    // lib/metadata/pv_list.c: _create_pv_entry (a full PV is left out with a warning)
    private static boolean hasFreeExtents(ExtentTable table, String device) {
        if (table.freeRanges(device).isEmpty()) {
            LOG.debug("WARNING: No free extents on physical volume \"{}\".", device);
            return false;
        }
        return true;
    }

    // lib/metadata/pv_list.c: _add_pe_range (no overlapping ranges on one PV)
    private static void addRange(Map<String, List<ExtentRange>> ranges, ExtentRange r) {
        List<ExtentRange> list = ranges.computeIfAbsent(r.pv(), k -> new ArrayList<>());
        for (ExtentRange old : list) {
            if (r.start() < old.end() && old.start() < r.end()) {
                throw new LayoutException(r.pv(), "pe_range", r.toString(), "Overlapping PE ranges specified ("
                        + r.start() + "-" + (r.end() - 1) + ", " + old.start() + "-" + (old.end() - 1) + ") on "
                        + r.pv() + ".");
            }
        }
        list.add(r);
    }

    // lib/metadata/pv_map.c: _create_alloc_areas_for_pv (free runs clipped to each range, range by range)
    private static List<ExtentRange> freeWithin(List<ExtentRange> ranges, List<ExtentRange> free) {
        List<ExtentRange> out = new ArrayList<>();
        for (ExtentRange r : ranges) {
            for (ExtentRange f : free) {
                long start = Math.max(r.start(), f.start());
                long end = Math.min(r.end(), f.end());
                if (start < end) {
                    out.add(new ExtentRange(f.pv(), start, end - start));
                }
            }
        }
        return out;
    }

    // lib/metadata/merge.c: lv_merge_segments with lib/striped/striped.c: _striped_segments_compatible
    static List<LvSegment> segments(List<Pass> passes, long stripeSize) {
        List<LvSegment> out = new ArrayList<>();
        long le = 0;
        for (Pass p : passes) {
            long count = Math.multiplyExact(p.areaLength(), p.stripes().size());
            LvSegment next = new LvSegment(le, count, Sectors.of(stripeSize), p.stripes());
            LvSegment last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && continues(last, next)) {
                out.set(out.size() - 1, new LvSegment(last.startExtent(), last.extentCount() + count,
                        last.stripeSize(), last.areas()));
            } else {
                out.add(next);
            }
            le += count;
        }
        return out;
    }

    private static boolean continues(LvSegment first, LvSegment second) {
        if (first.stripes() != second.stripes() || !first.stripeSize().equals(second.stripeSize())) {
            return false;
        }
        for (int s = 0; s < first.stripes(); s++) {
            StripeArea a = first.areas().get(s);
            StripeArea b = second.areas().get(s);
            if (!a.pv().equals(b.pv()) || a.startPe() + first.areaLength() != b.startPe()) {
                return false;
            }
        }
        return true;
    }
}
