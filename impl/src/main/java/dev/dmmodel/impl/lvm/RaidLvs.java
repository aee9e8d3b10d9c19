package dev.dmmodel.impl.lvm;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.RaidTarget;
import dev.dmmodel.impl.lvm.ExtentAllocator.FreeSpace;
import dev.dmmodel.impl.lvm.ExtentAllocator.Pass;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.RaidLvRequest;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code lvcreate --type raid1|raid4|raid5|raid6} as LVM 2.03.16 does it ({@code tools/lvcreate.c:
 * _read_mirror_and_raid_params}, {@code _read_raid_params}; {@code lib/metadata/lv_manip.c: _lv_create_an_lv},
 * {@code lv_extend}, {@code _alloc_init}; {@code lib/metadata/raid_manip.c}), and the table LVM loads for the RAID
 * LV ({@code lib/raid/raid.c: _raid_add_target_line}, {@code libdm: _raid_emit_segment_line}).
 *
 * <p>Layout: one image per device ({@code raid1}: {@code -m + 1}; raid4/5: data stripes + 1; raid6: + 2), each with
 * a metadata LV of {@code _raid_rmeta_extents} extents (1 for images up to ~16 GiB with 4 MiB extents) allocated at
 * the front of the image's space on the same PV, the image after it; the images on distinct PVs, in PV order when
 * the free runs are alike. raid1 images hold all the LV's extents, raid4/5/6 images the LV's extents over the data
 * stripes. raid10 is not modelled yet.
 */
public final class RaidLvs {

    private static final Logger LOG = LoggerFactory.getLogger(RaidLvs.class);

    /** {@code activation/raid_region_size}: 2048 KiB = 4096 sectors ({@code DEFAULT_RAID_REGION_SIZE}). */
    public static final long DEFAULT_REGION_SECTORS = 4096;
    /** {@code DEFAULT_RAID1_MAX_IMAGES}, {@code DEFAULT_RAID_MAX_IMAGES}. */
    static final int MAX_IMAGES = 64;

    private RaidLvs() {
    }

    /**
     * Creates RAID LV {@code req.name()} in {@code vg}: the LV, then per device its {@code _rimage_N} and
     * {@code _rmeta_N} (the order LVM keeps them in the VG), all inactive.
     *
     * @param req the request, PVs named by kernel name
     * @throws LayoutException with LVM's message when lvcreate would refuse
     */
    public static VolumeGroup lvcreate(VolumeGroup vg, RaidLvRequest req) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(req, "req");
        String name = req.name();
        String where = vg.name() + "/" + name;
        String type = req.raidType();
        if (type.startsWith("raid10")) {
            throw new LayoutException(where, "type", type, "lvcreate --type " + type + " is not modelled yet (raid10's "
                    + "image layout)");
        }
        if (!SegmentType.Raid.TYPES.contains(type)) {
            throw new LayoutException(where, "type", type, "Unknown RAID segment type " + type + " (expected one of "
                    + SegmentType.Raid.TYPES + ")");
        }
        boolean raid1 = type.equals("raid1");
        int parity = type.startsWith("raid6") ? 2 : raid1 ? 0 : 1;
        // tools/lvcreate.c: _read_mirror_and_raid_params and _read_raid_params
        int stripes;
        int mirrors;
        if (raid1) {
            if (req.stripes() > 1) {
                throw new LayoutException(where, "stripes", Integer.toString(req.stripes()), "Stripes argument cannot "
                        + "be used with segment type, raid1");
            }
            if (req.stripeSize() != null) {
                throw new LayoutException(where, "stripesize", req.stripeSize().toString(), "Stripe size argument "
                        + "cannot be used with segment type, raid1");
            }
            mirrors = req.mirrors() == 0 ? 2 : req.mirrors() + 1;
            if (mirrors > MAX_IMAGES) {
                throw new LayoutException(where, "mirrors", Integer.toString(req.mirrors()), "Only up to " + MAX_IMAGES
                        + " mirrors in raid1 supported currently.");
            }
            stripes = 1;
        } else {
            if (req.mirrors() != 0) {
                throw new LayoutException(where, "mirrors", Integer.toString(req.mirrors()), "Mirror argument cannot "
                        + "be used with segment type, " + type);
            }
            int min = parity == 2 ? 3 : 2;
            stripes = req.stripes() == 0 ? min : req.stripes();
            if (stripes < min) {
                throw new LayoutException(where, "stripes", Integer.toString(stripes), "Minimum of " + min
                        + " stripes required for " + type + ".");
            }
            if (stripes > MAX_IMAGES - parity) {
                throw new LayoutException(where, "stripes", Integer.toString(stripes), "Only up to "
                        + (MAX_IMAGES - parity) + " stripes in " + type + " supported currently.");
            }
            mirrors = 1;
        }
        if (req.nosync() && parity == 2) {
            throw new LayoutException(where, "nosync", "--nosync", "nosync option prohibited on RAID6.");
        }
        long extentSize = vg.extentSize().count();
        LvCreateRequest asStriped = new LvCreateRequest(name, req.size(), req.extents(), raid1 ? 1 : stripes,
                req.stripeSize(), AllocationPolicy.INHERIT, req.pvs(), List.of());
        // tools/lvcreate.c: get_stripe_params (64 KiB default, checks and the reduction to the extent size)
        long stripeSize = raid1 ? 0 : LvAllocator.stripeSize(where, asStriped, extentSize);
        long extents = LvAllocator.extents(where, asStriped, extentSize);
        if (extents == 0) {
            throw new LayoutException(where, "extents", "0", "Unable to create new logical volume with no extents.");
        }
        // lib/metadata/lv_manip.c: _lv_create_an_lv (_round_to_stripe_boundary over the data stripes)
        if (extents % stripes != 0) {
            long rounded = Math.multiplyExact(Math.addExact(extents, stripes - 1) / stripes, stripes);
            LOG.debug("Rounding size ({} extents) up to stripe boundary size ({} extents).", extents, rounded);
            extents = rounded;
        }
        long region = regionSize(where, req, stripeSize, extents, extentSize);
        int devices = raid1 ? mirrors : stripes + parity;
        LvAllocator.checkName(vg, name, where);
        for (int i = 0; i < devices; i++) {
            // lib/metadata/lv_manip.c: _lv_create_an_lv — the sub-LV names must be free
            for (String sub : List.of(name + "_rimage_" + i, name + "_rmeta_" + i)) {
                if (vg.logicalVolume(sub).isPresent()) {
                    throw new LayoutException(where, "lv_name", sub, "Logical Volume \"" + sub + "\" already exists "
                            + "in volume group \"" + vg.name() + "\"");
                }
            }
        }
        // lib/metadata/raid_manip.c: raid_rimage_extents and _raid_rmeta_extents
        long imageExtents = raid1 ? extents : extents / stripes;
        long metaExtents = rmetaExtents(imageExtents, region, extentSize);
        AllocationPolicy policy = req.policy() == AllocationPolicy.INHERIT ? vg.allocationPolicy() : req.policy();
        List<FreeSpace> space = LvAllocator.freeSpace(vg, asStriped);
        ExtentAllocator.RaidResult r = ExtentAllocator.allocateRaid(name, space, devices, parity, stripes, extents,
                metaExtents, policy);
        List<String> images = new ArrayList<>();
        List<String> metas = new ArrayList<>();
        List<LogicalVolume> subs = new ArrayList<>();
        for (int i = 0; i < devices; i++) {
            String image = name + "_rimage_" + i;
            String meta = name + "_rmeta_" + i;
            images.add(image);
            metas.add(meta);
            List<Pass> own = new ArrayList<>();
            for (Pass p : r.data()) {
                own.add(new Pass(p.areaLength(), List.of(p.stripes().get(i))));
            }
            subs.add(new LogicalVolume(vg.name(), image, LvAllocator.segments(own, 0), "", LvRole.RAID_IMAGE,
                    Set.of()));
            subs.add(new LogicalVolume(vg.name(), meta, List.of(new LvSegment(0, metaExtents, Sectors.ZERO,
                    List.of(r.metadata().get(i)))), "", LvRole.RAID_METADATA, Set.of()));
        }
        SegmentType.Raid seg = new SegmentType.Raid(type, Sectors.of(stripeSize), Sectors.of(region), metas, images,
                OptionalInt.empty());
        LogicalVolume lv = new LogicalVolume(vg.name(), name, List.of(new LvSegment(0, extents, Sectors.ZERO,
                List.of(), seg)), "", LvRole.RAID, req.nosync() ? Set.of(LvFlag.NOTSYNCED) : Set.of());
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        lvs.add(lv);
        lvs.addAll(subs);
        return new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(), lvs, vg.allocationPolicy());
    }

    // -R (tools/lvmcmdline.c: regionsize_arg), tools/lvcreate.c: _read_raid_params (at least the stripe size),
    // lib/metadata/mirror.c: adjusted_mirror_region_size, lib/metadata/raid_manip.c: raid_ensure_min_region_size
    static long regionSize(String where, RaidLvRequest req, long stripeSize, long extents, long extentSize) {
        long region = DEFAULT_REGION_SECTORS;
        if (req.regionSize() != null) {
            Bytes b = req.regionSize();
            if (b.count() == 0) {
                throw new LayoutException(where, "regionsize", "0", "Region size may not be zero.");
            }
            if (b.count() % 4096 != 0) {
                throw new LayoutException(where, "regionsize", b.count() + "B", "Region size must be a multiple of "
                        + "machine memory page size (4096 bytes).");
            }
            region = b.count() / Sectors.SECTOR_SIZE;
            if (Long.bitCount(region) != 1) {
                throw new LayoutException(where, "regionsize", b.count() + "B", "Region size must be a power of 2.");
            }
        }
        if (region < stripeSize) {
            LOG.debug("Adjusting region size to required minimum of stripe size {} sectors.", stripeSize);
            region = stripeSize;
        }
        long max = Math.multiplyExact(extents, extentSize);
        if (max < 0xFFFF_FFFFL && region > max) {
            region = Long.highestOneBit(max);
            LOG.debug("Using reduced mirror region size of {} sectors", region);
        }
        long min = max / (1L << 21);
        while (region < min) {
            region *= 2;
        }
        return region;
    }

    /**
     * {@code lib/metadata/raid_manip.c: _raid_rmeta_extents}: the superblock and bitmap header (8 KiB) and one bit
     * per region of an image, in whole extents.
     */
    static long rmetaExtents(long imageExtents, long regionSectors, long extentSize) {
        long regions = Math.multiplyExact(imageExtents, extentSize) / regionSectors;
        long bytes = 2 * 4096 + (regions + 7) / 8;
        long sectors = (bytes + 511) / 512;
        return (sectors + extentSize - 1) / extentSize;
    }

    /**
     * The {@code raid} table LVM loads for the RAID LV ({@code _raid_add_target_line}): the kernel's raid type, the
     * stripe size as chunk (0 for raid1), {@code nosync} when created so, {@code region_size}, and the metadata and
     * image devices by their kernel names.
     *
     * @param device the kernel name of each sub-LV's device by LV name
     */
    public static DmTable table(VolumeGroup vg, LogicalVolume lv, UnaryOperator<String> device) {
        SegmentType.Raid r = (SegmentType.Raid) lv.segments().get(0).type();
        List<RaidTarget.Param> params = new ArrayList<>();
        if (lv.hasFlag(LvFlag.NOTSYNCED)) {
            params.add(RaidTarget.Param.flag("nosync"));
        }
        params.add(RaidTarget.Param.of("region_size", r.regionSize().count()));
        List<RaidTarget.Device> devices = new ArrayList<>();
        for (int i = 0; i < r.deviceCount(); i++) {
            devices.add(RaidTarget.Device.of(device.apply(r.metadataLvs().get(i)), device.apply(r.imageLvs().get(i))));
        }
        return new DmTable(List.of(new RaidTarget(Sectors.ZERO, lv.size(vg.extentSize()), r.targetType(),
                r.stripeSize().count(), params, devices)));
    }
}
