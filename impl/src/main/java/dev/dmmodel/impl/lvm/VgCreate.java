package dev.dmmodel.impl.lvm;

import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** {@code vgcreate}: name and extent-size checks, and each PV's extent count. */
public final class VgCreate {

    /** {@code MAX_EXTENT_SIZE}: 2^32 - 1 sectors. */
    static final long MAX_EXTENT_SIZE = 0xFFFF_FFFFL;
    /** {@code MAX_EXTENT_COUNT}: 2^32 - 1 extents, per PV and per VG. */
    static final long MAX_EXTENT_COUNT = 0xFFFF_FFFFL;
    /** {@code MIN_NON_POWER2_EXTENT_SIZE}: 128 KiB. */
    static final long MIN_NON_POWER2_EXTENT_SIZE = 256;

    private VgCreate() {
    }

    /**
     * Creates volume group {@code name} from orphan PVs.
     *
     * @param name the VG name
     * @param opts {@code -s} and {@code --alloc}
     * @param orphanPvs the PVs, in command-line order (they become pv0, pv1 ...)
     * @param logicalBlockSizeByDevice each PV device's logical block size in bytes
     * @return the VG with its PVs and no LVs
     * @throws LayoutException with LVM's message when vgcreate would refuse
     * @throws IllegalArgumentException if a PV's logical block size is not given
     */
    public static VolumeGroup vgcreate(String name, VgCreateOptions opts, List<PhysicalVolume> orphanPvs,
                                       Map<String, Long> logicalBlockSizeByDevice) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(opts, "opts");
        Objects.requireNonNull(orphanPvs, "orphanPvs");
        Objects.requireNonNull(logicalBlockSizeByDevice, "logicalBlockSizeByDevice");
        // lib/metadata/metadata.c: validate_new_vg_name
        Optional<String> badName = LvmNames.invalidReason(name);
        if (badName.isPresent()) {
            throw new LayoutException(name, "vg_name", name,
                    badName.get() + " New volume group name \"" + name + "\" is invalid.");
        }
        // tools/toollib.c: vgcreate_params_validate (allocation policy)
        if (opts.allocationPolicy() == AllocationPolicy.INHERIT) {
            throw new LayoutException(name, "--alloc", "inherit",
                    "Volume Group allocation policy cannot inherit from anything");
        }
        long extent = opts.extentSize().count();
        checkExtentSize(name, extent);
        // tools/vgcreate.c: vgcreate (no PV named)
        if (orphanPvs.isEmpty()) {
            throw new LayoutException(name, "pvs", "", "Please enter physical volume name(s)");
        }
        List<PhysicalVolume> members = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        long vgExtents = 0;
        for (PhysicalVolume pv : orphanPvs) {
            Objects.requireNonNull(pv, "pv");
            // lib/metadata/metadata.c: add_pv_to_vg (PV must be an orphan)
            if (!pv.isOrphan()) {
                throw new LayoutException(pv.device(), "vg_name", pv.vgName(), "Physical volume '" + pv.device()
                        + "' is already in volume group '" + pv.vgName() + "'");
            }
            // lib/metadata/metadata.c: add_pv_to_vg (each PV once)
            if (!seen.add(pv.device())) {
                throw new LayoutException(pv.device(), "pvs", pv.device(),
                        "Physical volume '" + pv.device() + "' listed more than once.");
            }
            checkLogicalBlockSize(name, extent, pv.device(), logicalBlockSizeByDevice);
            long count = extentCount(pv, extent);
            // lib/metadata/metadata.c: add_pv_to_vg (VG extent limit)
            long total = Math.addExact(vgExtents, count);
            if (total > MAX_EXTENT_COUNT) {
                throw new LayoutException(pv.device(), "pe_count", Long.toString(total), "Unable to add " + pv.device()
                        + " to " + name + ": new extent count (" + total + ") exceeds limit (" + MAX_EXTENT_COUNT + ").");
            }
            vgExtents = total;
            members.add(pv.inVolumeGroup(name, opts.extentSize(), count));
        }
        return new VolumeGroup(name, opts.extentSize(), members, List.of(), opts.allocationPolicy());
    }

    /**
     * {@code vgextend}: the VG with orphan PVs added, each counted in the VG's extent size.
     *
     * @throws LayoutException with LVM's message when vgextend would refuse
     */
    // tools/vgextend.c: vgextend_single, and lib/metadata/metadata.c: add_pv_to_vg
    public static VolumeGroup vgextend(VolumeGroup vg, List<PhysicalVolume> orphanPvs,
                                       Map<String, Long> logicalBlockSizeByDevice) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(orphanPvs, "orphanPvs");
        Objects.requireNonNull(logicalBlockSizeByDevice, "logicalBlockSizeByDevice");
        if (orphanPvs.isEmpty()) {
            throw new LayoutException(vg.name(), "pvs", "", "Please enter physical volume(s)");
        }
        long extent = vg.extentSize().count();
        List<PhysicalVolume> members = new ArrayList<>(vg.physicalVolumes());
        Set<String> seen = new HashSet<>();
        long vgExtents = 0;
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            vgExtents = Math.addExact(vgExtents, pv.peCount());
        }
        for (PhysicalVolume pv : orphanPvs) {
            Objects.requireNonNull(pv, "pv");
            if (!pv.isOrphan()) {
                throw new LayoutException(pv.device(), "vg_name", pv.vgName(), "Physical volume '" + pv.device()
                        + "' is already in volume group '" + pv.vgName() + "'");
            }
            if (!seen.add(pv.device())) {
                throw new LayoutException(pv.device(), "pvs", pv.device(),
                        "Physical volume '" + pv.device() + "' listed more than once.");
            }
            checkLogicalBlockSize(vg.name(), extent, pv.device(), logicalBlockSizeByDevice);
            long count = extentCount(pv, extent);
            long total = Math.addExact(vgExtents, count);
            if (total > MAX_EXTENT_COUNT) {
                throw new LayoutException(pv.device(), "pe_count", Long.toString(total), "Unable to add " + pv.device()
                        + " to " + vg.name() + ": new extent count (" + total + ") exceeds limit (" + MAX_EXTENT_COUNT
                        + ").");
            }
            vgExtents = total;
            members.add(pv.inVolumeGroup(vg.name(), vg.extentSize(), count));
        }
        return new VolumeGroup(vg.name(), vg.extentSize(), members, vg.logicalVolumes(), vg.allocationPolicy());
    }

    // lib/metadata/vg.c: vg_check_new_extent_size, and tools/toollib.c: vgcreate_params_set_from_args (maximum)
    static void checkExtentSize(String vg, long extent) {
        if (extent == 0) {
            throw new LayoutException(vg, "extent_size", "0", "Physical extent size may not be zero");
        }
        if (extent > MAX_EXTENT_SIZE) {
            throw new LayoutException(vg, "extent_size", extent + "s",
                    "Physical extent size must be smaller than " + DisplaySize.sectors(MAX_EXTENT_SIZE) + ".");
        }
        if (Long.bitCount(extent) != 1 && extent % MIN_NON_POWER2_EXTENT_SIZE != 0) {
            throw new LayoutException(vg, "extent_size", extent + "s", "Physical Extent size must be a multiple of "
                    + DisplaySize.sectors(MIN_NON_POWER2_EXTENT_SIZE) + " when not a power of 2.");
        }
    }

    // lib/metadata/metadata.c: check_dev_block_size_for_vg
    private static void checkLogicalBlockSize(String vg, long extent, String device, Map<String, Long> sizes) {
        Long blockSize = sizes.get(device);
        if (blockSize == null) {
            throw new IllegalArgumentException("no logical block size given for PV device " + device);
        }
        if (Sectors.of(extent).toBytes().count() < blockSize) {
            throw new LayoutException(device, "extent_size", extent + "s", "Physical extent size used for volume group "
                    + vg + " is less than logical block size (" + blockSize + " bytes) that " + device + " uses.");
        }
    }

    // lib/format_text/format-text.c: _text_pv_setup (pe_count excludes pe_start and an mda at the end)
    static long extentCount(PhysicalVolume pv, long extent) {
        long usable = pv.devSize().minus(pv.peStart()).minus(pv.mda1Size()).count();
        long count = usable / extent;
        if (count > MAX_EXTENT_COUNT) {
            throw new LayoutException(pv.device(), "extent_size", extent + "s", "PV " + pv.device()
                    + " too large for extent size " + DisplaySize.sectors(extent) + ".");
        }
        return count;
    }
}
