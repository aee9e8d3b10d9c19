package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * An LVM physical volume: a block device with a label, metadata area(s) and a data area of extents.
 *
 * @param device kernel name of the block device
 * @param devSize the device size in sectors ({@code dev_size})
 * @param peStart first sector of the data area ({@code pe_start})
 * @param mdaSize size of the first metadata area in sectors ({@code pv_mda_size}; 0 with no metadata copy)
 * @param mda1Size size of the second metadata area at the end of the device (0 if none)
 * @param vgName the volume group, empty for an orphan PV
 * @param peCount extents in the data area (0 for an orphan)
 * @param extentSize the VG's extent size (zero for an orphan)
 */
public record PhysicalVolume(String device, Sectors devSize, Sectors peStart, Sectors mdaSize, Sectors mda1Size,
                             String vgName, long peCount, Sectors extentSize) {

    /** Rejects nulls and negative counts. */
    public PhysicalVolume {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(devSize, "devSize");
        Objects.requireNonNull(peStart, "peStart");
        Objects.requireNonNull(mdaSize, "mdaSize");
        Objects.requireNonNull(mda1Size, "mda1Size");
        Objects.requireNonNull(vgName, "vgName");
        Objects.requireNonNull(extentSize, "extentSize");
        if (peCount < 0) {
            throw new IllegalArgumentException("PV " + device + ": pe_count (" + peCount + ") must not be negative");
        }
    }

    /** Whether the PV belongs to no volume group. */
    public boolean isOrphan() {
        return vgName.isEmpty();
    }

    /** First sector of physical extent {@code pe} on the device. */
    public Sectors extentStart(long pe) {
        if (pe < 0 || pe > peCount) {
            throw new IllegalArgumentException("PV " + device + ": extent " + pe + " is outside 0.." + peCount);
        }
        return peStart.plus(extentSize.times(pe));
    }

    /** This PV as a member of a VG. */
    public PhysicalVolume inVolumeGroup(String vg, Sectors extent, long count) {
        return new PhysicalVolume(device, devSize, peStart, mdaSize, mda1Size, vg, count, extent);
    }
}
