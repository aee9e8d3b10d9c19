package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A volume group: its PVs (in VG order), extent size, logical volumes and allocation policy.
 *
 * @param name the VG name
 * @param extentSize the extent size in sectors
 * @param physicalVolumes member PVs, in VG order ({@code pv0}, {@code pv1} ...)
 * @param logicalVolumes LVs in creation order
 * @param allocationPolicy the VG's allocation policy (never {@code INHERIT})
 */
public record VolumeGroup(String name, Sectors extentSize, List<PhysicalVolume> physicalVolumes,
                          List<LogicalVolume> logicalVolumes, AllocationPolicy allocationPolicy) {

    /** Checks names, membership and the extent table (no extent used twice, none beyond its PV). */
    public VolumeGroup {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(extentSize, "extentSize");
        Objects.requireNonNull(allocationPolicy, "allocationPolicy");
        physicalVolumes = List.copyOf(physicalVolumes);
        logicalVolumes = List.copyOf(logicalVolumes);
        if (allocationPolicy == AllocationPolicy.INHERIT) {
            throw new IllegalArgumentException("Volume Group allocation policy cannot inherit from anything");
        }
        Set<String> lvNames = new HashSet<>();
        for (LogicalVolume lv : logicalVolumes) {
            if (!lv.vgName().equals(name)) {
                throw new IllegalArgumentException("LV " + lv.name() + " names VG " + lv.vgName() + ", not " + name);
            }
            if (!lvNames.add(lv.name())) {
                throw new IllegalArgumentException("Logical Volume \"" + lv.name() + "\" already exists in volume group \""
                        + name + "\"");
            }
        }
        for (PhysicalVolume pv : physicalVolumes) {
            if (!pv.vgName().equals(name)) {
                throw new IllegalArgumentException("PV " + pv.device() + " names VG '" + pv.vgName() + "', not " + name);
            }
        }
        // builds the table, which rejects overlaps and out-of-range areas
        new ExtentTable(physicalVolumes, logicalVolumes);
    }

    /** Total extents ({@code vg_extent_count}). */
    public long extentCount() {
        long n = 0;
        for (PhysicalVolume pv : physicalVolumes) {
            n = Math.addExact(n, pv.peCount());
        }
        return n;
    }

    /** Free extents ({@code vg_free_count}). */
    public long freeCount() {
        return extentTable().freeCount();
    }

    /** The LV of that name. */
    public Optional<LogicalVolume> logicalVolume(String lvName) {
        return logicalVolumes.stream().filter(l -> l.name().equals(lvName)).findFirst();
    }

    /** The PV on that device. */
    public Optional<PhysicalVolume> physicalVolume(String device) {
        return physicalVolumes.stream().filter(p -> p.device().equals(device)).findFirst();
    }

    /** The extent table, queryable both ways. */
    public ExtentTable extentTable() {
        return new ExtentTable(physicalVolumes, logicalVolumes);
    }
}
