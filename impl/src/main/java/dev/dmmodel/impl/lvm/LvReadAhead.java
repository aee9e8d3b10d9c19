package dev.dmmodel.impl.lvm;

import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The read-ahead LVM gives an LV it activates with {@code read_ahead auto} (the default; {@code lvchange -r}
 * sets another, which the metadata model does not keep): twice the widest stripe of the LV's segments (a RAID
 * segment's stripe size times its devices, parity included), or, for
 * an LV without stripes, the largest read-ahead of the PV under the first segment of the LV and of every LV it
 * depends on (a thin LV's pool, a pool's data and metadata LVs, a RAID LV's images and metadata LVs). libdm applies it as a minimum
 * ({@code DM_READ_AHEAD_MINIMUM_FLAG}): a device whose kernel read-ahead is larger keeps its own.
 */
public final class LvReadAhead {

    private LvReadAhead() {
    }

    /**
     * The read-ahead in sectors LVM asks for the LV ({@code lib/activate/dev_manager.c: _add_new_lv_to_dtree},
     * {@code lib/metadata/metadata.c: lv_calculate_readahead}); 0 when it asks for none.
     *
     * @param pvReadAheadSectors the read-ahead of a PV device by kernel name, in sectors ({@code BLKRAGET})
     */
    public static long autoSectors(VolumeGroup vg, LogicalVolume lv, ToLongFunction<String> pvReadAheadSectors) {
        // _add_new_lv_to_dtree: "we need RA at least twice a whole stripe" — max of stripe_size x area_count
        long widest = 0;
        for (LvSegment seg : lv.segments()) {
            // exact: a stripe is at most an extent and a segment has at most one area per PV
            widest = Math.max(widest, seg.stripeSize().count() * seg.areas().size());
            // _add_segment_to_dtree: a RAID segment's stripe_size times its area_count (parity devices included)
            if (seg.type() instanceof SegmentType.Raid r) {
                widest = Math.max(widest, Math.multiplyExact(r.stripeSize().count(), r.deviceCount()));
            }
        }
        if (widest > 0) {
            return widest * 2;
        }
        // lv_calculate_readahead -> _lv_postorder(_lv_read_ahead_single): the first segment's first PV of the LV
        // and of each LV below it, the largest
        long max = 0;
        List<LogicalVolume> todo = new ArrayList<>(List.of(lv));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            LogicalVolume x = todo.remove(todo.size() - 1);
            if (!seen.add(x.name())) {
                continue;
            }
            if (!x.segments().isEmpty() && !x.segments().get(0).areas().isEmpty()) {
                max = Math.max(max, pvReadAheadSectors.applyAsLong(x.segments().get(0).areas().get(0).pv()));
            }
            for (String below : dependencies(x)) {
                vg.logicalVolume(below).ifPresent(todo::add);
            }
        }
        return max;
    }

    // lib/metadata/metadata.c: _lv_each_dependency — a thin LV's pool, a thin pool's metadata and data LVs, a RAID
    // LV's images and metadata LVs
    private static List<String> dependencies(LogicalVolume lv) {
        List<String> out = new ArrayList<>();
        for (LvSegment seg : lv.segments()) {
            Optional<SegmentType.ThinPool> pool = seg.thinPool();
            pool.ifPresent(p -> {
                out.add(p.metadataLv());
                out.add(p.dataLv());
            });
            seg.thin().ifPresent(t -> out.add(t.pool()));
            // a RAID LV's image areas (seg_lv) and metadata areas (seg_metalv)
            if (seg.type() instanceof SegmentType.Raid r) {
                out.addAll(r.imageLvs());
                out.addAll(r.metadataLvs());
            }
        }
        return out;
    }
}
