package dev.dmmodel.lvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A VG's extent table: which physical extents carry which logical extents, queryable both ways, and the
 * free space as ranges. Built from segments, never per extent, so its size is proportional to the number
 * of segments. Construction rejects an area beyond its PV's extents, any extent used twice, and thin
 * segments that name LVs the VG does not have. Thin-pool and thin segments have no PV areas: a pool's
 * logical extents are those of its data LV, a thin volume's are provisioned by its pool at run time.
 */
public final class ExtentTable {

    private record Run(long start, long count, String lv, int segment, int stripe, long segmentStartLe, int stripes) {
        long end() {
            return start + count;
        }
    }

    private final List<PhysicalVolume> pvs;
    private final Map<String, NavigableMap<Long, Run>> runsByPv = new HashMap<>();
    private final Map<String, LogicalVolume> lvs = new HashMap<>();

    ExtentTable(List<PhysicalVolume> pvs, List<LogicalVolume> logicalVolumes) {
        this.pvs = List.copyOf(pvs);
        Map<String, PhysicalVolume> byDevice = new HashMap<>();
        for (PhysicalVolume pv : pvs) {
            byDevice.put(pv.device(), pv);
            runsByPv.put(pv.device(), new TreeMap<>());
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
                    NavigableMap<Long, Run> runs = runsByPv.get(a.pv());
                    Map.Entry<Long, Run> before = runs.floorEntry(end - 1);
                    if (before != null && before.getValue().end() > a.startPe()) {
                        Run r = before.getValue();
                        throw new IllegalArgumentException("PV " + a.pv() + ": extents " + a.startPe() + "-" + (end - 1)
                                + " of LV " + lv.name() + " overlap extents " + r.start() + "-" + (r.end() - 1)
                                + " of LV " + r.lv());
                    }
                    runs.put(a.startPe(), new Run(a.startPe(), seg.areaLength(), lv.name(), s, i, seg.startExtent(),
                            seg.stripes()));
                }
            }
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
        NavigableMap<Long, Run> runs = runsByPv.get(pv);
        if (runs == null) {
            throw new IllegalArgumentException("no physical volume '" + pv + "' in this volume group");
        }
        Map.Entry<Long, Run> e = runs.floorEntry(pe);
        if (e == null || e.getValue().end() <= pe) {
            return Optional.empty();
        }
        Run r = e.getValue();
        long row = pe - r.start();
        return Optional.of(new ExtentOwner(r.lv(), r.segment(), r.stripe(), r.segmentStartLe() + row * r.stripes(),
                r.stripes()));
    }

    /** Free runs of one PV in extent order. */
    public List<ExtentRange> freeRanges(String pv) {
        PhysicalVolume p = pvs.stream().filter(x -> x.device().equals(pv)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no physical volume '" + pv + "' in this volume group"));
        List<ExtentRange> out = new ArrayList<>();
        long next = 0;
        for (Run r : runsByPv.get(pv).values()) {
            if (r.start() > next) {
                out.add(new ExtentRange(pv, next, r.start() - next));
            }
            next = r.end();
        }
        if (p.peCount() > next) {
            out.add(new ExtentRange(pv, next, p.peCount() - next));
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
