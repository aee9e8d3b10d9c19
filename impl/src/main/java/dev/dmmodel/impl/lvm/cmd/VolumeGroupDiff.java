package dev.dmmodel.impl.lvm.cmd;

import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What differs between two volume groups in what LVM commands decide: name, extent size, allocation policy,
 * the PVs in VG order (device, {@code dev_size}, {@code pe_start}, {@code pe_count}) and every LV by name
 * (its segments with their extents, stripes and areas, thin-pool chunk size, discards, zeroing, transaction
 * id, thin device ids and origins, its role and flags). Not compared: the order LVs are listed in, the dm
 * devices LVs are active as, and metadata area sizes (not in LVM's text metadata).
 */
public final class VolumeGroupDiff {

    private VolumeGroupDiff() {
    }

    /**
     * The differences, one line each; empty when the two agree.
     *
     * @param expected the volume group wanted
     * @param actual the volume group found
     * @return lines naming the VG, PV or LV, the field and both values
     */
    public static List<String> differences(VolumeGroup expected, VolumeGroup actual) {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(actual, "actual");
        List<String> out = new ArrayList<>();
        String vg = expected.name();
        field(out, vg, "name", expected.name(), actual.name());
        field(out, vg, "extent_size", expected.extentSize(), actual.extentSize());
        field(out, vg, "alloc", expected.allocationPolicy(), actual.allocationPolicy());
        field(out, vg, "PV count", expected.physicalVolumes().size(), actual.physicalVolumes().size());
        for (int i = 0; i < Math.min(expected.physicalVolumes().size(), actual.physicalVolumes().size()); i++) {
            PhysicalVolume e = expected.physicalVolumes().get(i);
            PhysicalVolume a = actual.physicalVolumes().get(i);
            String where = vg + " pv" + i;
            field(out, where, "device", e.device(), a.device());
            field(out, where, "dev_size", e.devSize(), a.devSize());
            field(out, where, "pe_start", e.peStart(), a.peStart());
            field(out, where, "pe_count", e.peCount(), a.peCount());
        }
        TreeSet<String> names = new TreeSet<>();
        expected.logicalVolumes().forEach(l -> names.add(l.name()));
        actual.logicalVolumes().forEach(l -> names.add(l.name()));
        for (String name : names) {
            Optional<LogicalVolume> e = expected.logicalVolume(name);
            Optional<LogicalVolume> a = actual.logicalVolume(name);
            String where = vg + "/" + name;
            if (e.isEmpty() || a.isEmpty()) {
                out.add(where + ": " + (e.isEmpty() ? "not expected, but found" : "expected, but missing"));
                continue;
            }
            field(out, where, "role", e.get().role(), a.get().role());
            field(out, where, "flags", new TreeSet<>(e.get().flags()), new TreeSet<>(a.get().flags()));
            field(out, where, "segments", e.get().segments(), a.get().segments());
        }
        return List.copyOf(out);
    }

    private static void field(List<String> out, String where, String field, Object expected, Object actual) {
        if (!expected.equals(actual)) {
            out.add(where + ": " + field + " expected " + expected + " but was " + actual);
        }
    }
}
