package dev.dmmodel.impl.lvm;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The device-mapper table LVM loads for a linear or striped LV. */
public final class LvTables {

    private LvTables() {
    }

    /**
     * One target per segment: {@code linear} for one stripe, {@code striped} otherwise.
     *
     * @throws IllegalArgumentException if the LV is not in the VG or uses a PV the VG does not have
     */
    // lib/activate/dev_manager.c: add_areas_line, with libdm/libdm-deptree.c: _emit_segment_line
    public static DmTable table(VolumeGroup vg, LogicalVolume lv) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(lv, "lv");
        if (!lv.vgName().equals(vg.name())) {
            throw new IllegalArgumentException("LV " + lv.name() + " belongs to VG " + lv.vgName() + ", not " + vg.name());
        }
        Sectors extent = vg.extentSize();
        List<DmTarget> targets = new ArrayList<>();
        for (LvSegment seg : lv.segments()) {
            if (!seg.isStriped()) {
                throw new IllegalArgumentException("LV " + vg.name() + "/" + lv.name() + ": the table of a "
                        + seg.type().typeName() + " segment is not made here (only linear and striped segments)");
            }
            Sectors start = extent.times(seg.startExtent());
            Sectors length = extent.times(seg.extentCount());
            if (seg.stripes() == 1) {
                // activation/use_linear_target=1: a one-stripe segment is a linear target
                targets.add(new LinearTarget(start, length, seg.areas().get(0).pv(), offset(vg, lv, seg.areas().get(0))));
            } else {
                List<StripedTarget.Stripe> stripes = new ArrayList<>();
                for (StripeArea a : seg.areas()) {
                    stripes.add(new StripedTarget.Stripe(a.pv(), offset(vg, lv, a)));
                }
                targets.add(new StripedTarget(start, length, seg.stripeSize().count(), stripes));
            }
        }
        return new DmTable(targets);
    }

    // lib/activate/dev_manager.c: add_areas_line (PV area offset = pe_start + pe * extent_size)
    private static Sectors offset(VolumeGroup vg, LogicalVolume lv, StripeArea area) {
        PhysicalVolume pv = vg.physicalVolume(area.pv()).orElseThrow(() -> new IllegalArgumentException(
                "LV " + lv.name() + " uses PV " + area.pv() + ", which is not in VG " + vg.name()));
        return pv.extentStart(area.startPe());
    }

    // lib/misc/lvm-string.c: build_dm_uuid — "LVM-" + VG uuid + LV uuid; ours are derived from the names
    /** The dm uuid LVM gives an LV's device; real uuids are random, the model's are derived from the names. */
    public static String dmUuid(String vg, String lv) {
        return "LVM-" + token(vg, 32) + token(vg + "/" + lv, 32);
    }

    private static String token(String seed, int length) {
        String alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        byte[] hash = com.google.common.hash.Hashing.sha256().hashString(seed, java.nio.charset.StandardCharsets.UTF_8).asBytes();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt((hash[i % hash.length] & 0xFF) % alphabet.length()));
        }
        return sb.toString();
    }
}
