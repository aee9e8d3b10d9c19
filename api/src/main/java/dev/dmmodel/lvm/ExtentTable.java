package dev.dmmodel.lvm;

import com.google.common.collect.ImmutableRangeMap;
import com.google.common.collect.Range;
import com.google.common.collect.RangeMap;
import com.google.common.collect.RangeSet;
import com.google.common.collect.TreeRangeMap;
import com.google.common.collect.TreeRangeSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A VG's extent table: which physical extents carry which logical extents, queryable both ways, and the
 * free space as ranges. Built from segments, never per extent, so its size is proportional to the number
 * of segments. Construction rejects an area beyond its PV's extents, any extent used twice, and thin
 * segments that name LVs the VG does not have. Thin-pool and thin segments have no PV areas: a pool's
 * logical extents are those of its data LV, a thin volume's are provisioned by its pool at run time. Each PV's
 * runs are an immutable range map of closed-open extent ranges (decision record 0002).
 */
public final class ExtentTable {

    private record Run(long start, long count, String lv, int segment, int stripe, long segmentStartLe, int stripes) {
        long end() {
            return start + count;
        }
    }

    private final List<PhysicalVolume> pvs;
    private final Map<String, ImmutableRangeMap<Long, Run>> runsByPv = new HashMap<>();
    private final Map<String, LogicalVolume> lvs = new HashMap<>();

    ExtentTable(List<PhysicalVolume> pvs, List<LogicalVolume> logicalVolumes) {
        this.pvs = List.copyOf(pvs);
        Map<String, PhysicalVolume> byDevice = new HashMap<>();
        Map<String, RangeMap<Long, Run>> building = new HashMap<>();
        for (PhysicalVolume pv : pvs) {
            byDevice.put(pv.device(), pv);
            building.put(pv.device(), TreeRangeMap.create());
        }
        for (LogicalVolume lv : logicalVolumes) {
            lvs.put(lv.name(), lv);
            for (int s = 0; s < lv.segments().size(); s++) {
                LvSegment seg = lv.segments().get(s);
                for (int i = 0; i < seg.areas().size(); i++) {
                    StripeArea a = seg.areas().get(i);
                    PhysicalVolume pv = byDevice.get(a.pv());
                    if (pv == null) {
                        throw new IllegalArgumentException("LV " + lv.name() + " segment " + (s + 1)
                                + ": Couldn't find physical volume '" + a.pv() + "' in the volume group");
                    }
                    long end = a.startPe() + seg.areaLength();
                    if (end > pv.peCount()) {
                        throw new IllegalArgumentException("LV " + lv.name() + " segment " + (s + 1) + ": extents "
                                + a.startPe() + "-" + (end - 1) + " lie beyond the " + pv.peCount()
                                + " extents of PV " + pv.device());
                    }
                    RangeMap<Long, Run> runs = building.get(a.pv());
                    Range<Long> area = Range.closedOpen(a.startPe(), end);
                    if (!runs.subRangeMap(area).asMapOfRanges().isEmpty()) {
                        Run r = runs.subRangeMap(area).asMapOfRanges().values().iterator().next();
                        throw new IllegalArgumentException("PV " + a.pv() + ": extents " + a.startPe() + "-" + (end - 1)
                                + " of LV " + lv.name() + " overlap extents " + r.start() + "-" + (r.end() - 1)
                                + " of LV " + r.lv());
                    }
                    runs.put(area, new Run(a.startPe(), seg.areaLength(), lv.name(), s, i, seg.startExtent(),
                            seg.stripes()));
                }
            }
        }
        for (Map.Entry<String, RangeMap<Long, Run>> e : building.entrySet()) {
            runsByPv.put(e.getKey(), ImmutableRangeMap.copyOf(e.getValue()));
        }
        for (LogicalVolume lv : logicalVolumes) {
            checkThinReferences(lv);
        }
    }

    // lib/format_text/import_vsn1.c and lib/metadata/merge.c: the LVs a thin-pool or thin segment names
    private void checkThinReferences(LogicalVolume lv) {
        LvSegment seg = lv.segments().get(0);
        if (seg.thinPool().isPresent()) {
            SegmentType.ThinPool p = seg.thinPool().get();
            LogicalVolume data = referenced(lv, p.dataLv());
            referenced(lv, p.metadataLv());
            if (data.extentCount() != seg.extentCount()) {
                throw new IllegalArgumentException("LV " + lv.name() + ": segment 1 with len=" + seg.extentCount()
                        + " has inconsistent area_len " + data.extentCount() + " (data LV " + data.name() + ")");
            }
        }
        if (seg.thin().isPresent()) {
            SegmentType.Thin t = seg.thin().get();
            if (referenced(lv, t.pool()).thinPool().isEmpty()) {
                throw new IllegalArgumentException("LV " + lv.name() + ": thin pool " + t.pool()
                        + " is not a thin pool");
            }
            if (t.origin().isPresent()) {
                referenced(lv, t.origin().get());
            }
        }
    }

    private LogicalVolume referenced(LogicalVolume user, String name) {
        LogicalVolume v = lvs.get(name);
        if (v == null) {
            throw new IllegalArgumentException("Couldn't find volume '" + name + "' for segment 'segment1' of LV "
                    + user.name() + ".");
        }
        return v;
    }

    /**
     * The physical extents that carry logical extent {@code le} of {@code lv}: one for a linear
     * segment, one per stripe for a striped one (each holding 1/n of the extent's data). A thin pool's
     * extent is its data LV's extent {@code le}; a thin volume has none (its pool maps its blocks when
     * they are written), so the list is empty.
     *
     * @throws IllegalArgumentException if the LV does not exist or has no such extent
     */
    public List<PhysicalExtent> physicalExtents(String lv, long le) {
        LogicalVolume v = lvs.get(lv);
        if (v == null) {
            throw new IllegalArgumentException("no logical volume '" + lv + "' in this volume group");
        }
        for (LvSegment seg : v.segments()) {
            if (le >= seg.startExtent() && le < seg.endExtent()) {
                if (seg.thinPool().isPresent()) {
                    return physicalExtents(seg.thinPool().get().dataLv(), le);
                }
                if (!seg.isStriped()) {
                    return List.of();
                }
                long row = (le - seg.startExtent()) / seg.stripes();
                List<PhysicalExtent> out = new ArrayList<>(seg.stripes());
                for (StripeArea a : seg.areas()) {
                    out.add(new PhysicalExtent(a.pv(), a.startPe() + row));
                }
                return List.copyOf(out);
            }
        }
        throw new IllegalArgumentException("LV " + lv + " has no logical extent " + le + " (it has " + v.extentCount() + ")");
    }

    /** Who owns physical extent {@code pe} of {@code pv}; empty if it is free. */
    public Optional<ExtentOwner> owner(String pv, long pe) {
        ImmutableRangeMap<Long, Run> runs = runsByPv.get(pv);
        if (runs == null) {
            throw new IllegalArgumentException("no physical volume '" + pv + "' in this volume group");
        }
        Run r = runs.get(pe);
        if (r == null) {
            return Optional.empty();
        }
        long row = pe - r.start();
        return Optional.of(new ExtentOwner(r.lv(), r.segment(), r.stripe(), r.segmentStartLe() + row * r.stripes(),
                r.stripes()));
    }

    /** Free runs of one PV in extent order. */
    public List<ExtentRange> freeRanges(String pv) {
        PhysicalVolume p = pvs.stream().filter(x -> x.device().equals(pv)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no physical volume '" + pv + "' in this volume group"));
        // the PV's extents less the used runs: RangeSet.complement within [0, pe_count)
        RangeSet<Long> used = TreeRangeSet.create(runsByPv.get(pv).asMapOfRanges().keySet());
        List<ExtentRange> out = new ArrayList<>();
        for (Range<Long> free : used.complement().subRangeSet(Range.closedOpen(0L, p.peCount())).asRanges()) {
            out.add(new ExtentRange(pv, free.lowerEndpoint(), free.upperEndpoint() - free.lowerEndpoint()));
        }
        return List.copyOf(out);
    }

    /** Free runs of every PV, PVs in VG order. */
    public List<ExtentRange> freeRanges() {
        List<ExtentRange> out = new ArrayList<>();
        for (PhysicalVolume pv : pvs) {
            out.addAll(freeRanges(pv.device()));
        }
        return List.copyOf(out);
    }

    /** Number of free extents in the VG. */
    public long freeCount() {
        long n = 0;
        for (ExtentRange r : freeRanges()) {
            n += r.count();
        }
        return n;
    }
}
