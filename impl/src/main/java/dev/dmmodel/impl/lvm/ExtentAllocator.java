package dev.dmmodel.impl.lvm;

import dev.dmmodel.impl.lvm.PvMap.Area;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.StripeArea;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * LVM's extent allocator for a new linear or striped LV (no log, no mirror, no previous segment to follow):
 * the free-space maps of {@code pv_map.c} and the passes of {@code lv_manip.c}, including the way LVM walks
 * and re-sorts its linked lists while it reserves space, so that placements come out as LVM's do.
 */
final class ExtentAllocator {

    /** A PV's free runs open to this allocation, in the order LVM builds its areas from them. */
    record FreeSpace(String pv, List<ExtentRange> runs) {
    }

    /** What one pass allocated: one run of {@code areaLength} extents per stripe. */
    record Pass(long areaLength, List<StripeArea> stripes) {
    }

    private enum Verdict { PREFERRED, NEXT_PV, NEXT_AREA, USE_AREA }

    private final String lvName;
    private final int areaCount;
    private final long needed;
    private final List<PvMap> maps = new ArrayList<>();
    private final List<Set<String>> allocatedPvs = new ArrayList<>();
    private final List<Pass> passes = new ArrayList<>();
    private long allocated;

    private AllocationPolicy alloc;
    private boolean canSplit;
    private boolean clingToAllocated;
    private boolean positionalFill;
    private int positionalAreas;
    private Area[] slotArea;
    private long[] slotUsed;

    private ExtentAllocator(String lvName, List<FreeSpace> space, int stripes, long extents) {
        this.lvName = lvName;
        this.areaCount = stripes;
        this.needed = extents;
        for (int s = 0; s < stripes; s++) {
            allocatedPvs.add(new HashSet<>());
        }
        // lib/metadata/pv_map.c: create_pv_maps
        for (FreeSpace f : space) {
            PvMap map = new PvMap(f.pv());
            for (ExtentRange r : f.runs()) {
                map.insert(new Area(map, r.start(), r.count()), false);
            }
            maps.add(map);
        }
        int slots = Math.max(Math.max(maps.size(), stripes), 1);
        slotArea = new Area[slots];
        slotUsed = new long[slots];
    }

    /**
     * Allocates {@code extents} logical extents in {@code stripes} parallel areas.
     *
     * @param policy the resolved policy (never INHERIT)
     * @return the passes in allocation order, each becoming one segment before merging
     * @throws LayoutException with LVM's message when the space cannot be found
     */
    static List<Pass> allocate(String lvName, List<FreeSpace> space, int stripes, long extents,
                               AllocationPolicy policy) {
        ExtentAllocator a = new ExtentAllocator(lvName, space, stripes, extents);
        a.run(policy);
        return List.copyOf(a.passes);
    }

    // lib/metadata/lv_manip.c: _allocate (each policy from contiguous up to the requested one)
    private void run(AllocationPolicy requested) {
        canSplit = requested != AllocationPolicy.CONTIGUOUS;
        for (AllocationPolicy p : List.of(AllocationPolicy.CONTIGUOUS, AllocationPolicy.CLING, AllocationPolicy.NORMAL,
                AllocationPolicy.ANYWHERE)) {
            if (p.compareTo(requested) > 0) {
                break;
            }
            long before = allocated;
            checkSufficientFree();
            initPolicy(p);
            findMaxParallelSpace();
            if (allocated == needed || (!canSplit && allocated != before)) {
                break;
            }
        }
        if (allocated != needed) {
            throw new LayoutException(lvName, "extents", Long.toString(needed - allocated), "Insufficient suitable "
                    + (canSplit ? "" : "contiguous ") + "allocatable extents for logical volume " + lvName + ": "
                    + (needed - allocated) + " more required");
        }
    }

    // lib/metadata/lv_manip.c: _sufficient_pes_free
    private void checkSufficientFree() {
        long free = 0;
        for (PvMap m : maps) {
            free += m.free;
        }
        if (needed - allocated > free) {
            throw new LayoutException(lvName, "extents", Long.toString(needed - allocated), "Insufficient free space: "
                    + (needed - allocated) + " extents needed, but only " + free + " available");
        }
    }

    // lib/metadata/lv_manip.c: _init_alloc_parms (a new LV has no previous segment to follow)
    private void initPolicy(AllocationPolicy p) {
        alloc = p;
        positionalFill = p == AllocationPolicy.CLING;
        // cling: only PVs this allocation already used; normal (maximise_cling): try those first
        clingToAllocated = p == AllocationPolicy.CLING || (p == AllocationPolicy.NORMAL && allocated != needed);
    }

    // lib/metadata/lv_manip.c: _find_max_parallel_space_for_one_policy
    private void findMaxParallelSpace() {
        do {
            long before = allocated;
            findSomeParallelSpace(needed - allocated);
            if (before == allocated) {
                if (alloc == AllocationPolicy.NORMAL && clingToAllocated) {
                    clingToAllocated = false; // nothing on the PVs already used: try every PV
                } else {
                    break;
                }
            } else if (alloc == AllocationPolicy.NORMAL && !clingToAllocated) {
                clingToAllocated = true; // keep later passes on the PVs just used
            }
        } while (alloc != AllocationPolicy.CONTIGUOUS && allocated != needed && canSplit);
    }

    // lib/metadata/lv_manip.c: _find_some_parallel_space
    private void findSomeParallelSpace(long maxToAllocate) {
        Arrays.fill(slotArea, null);
        resetUnreserved();
        positionalAreas = positionalFill ? areaCount : 0;
        boolean anywhere = alloc == AllocationPolicy.ANYWHERE;
        int ix = 0;
        int preferred = 0;
        int lastIx;
        do {
            lastIx = ix;
            for (PvMap map : maps) {
                if (map.isEmpty()) {
                    continue;
                }
                boolean foundOne = false;
                scan:
                for (Area a = map.head.next; a != map.head; a = a.next) {
                    switch (check(a, maxToAllocate, foundOne)) {
                        case PREFERRED:
                            preferred++;
                            break scan;
                        case NEXT_PV:
                            break scan;
                        case NEXT_AREA:
                            continue;
                        case USE_AREA:
                        default:
                            // a later, smaller area that still fits replaces this PV's candidate
                            if (!foundOne || anywhere) {
                                ix++;
                                foundOne = true;
                            }
                            int slot = ix + positionalAreas - 1;
                            reserve(slot, a, required(a, slot, maxToAllocate));
                            break;
                    }
                }
                if ((anywhere && ix + positionalAreas >= areaCount)
                        || (preferred == positionalAreas && positionalAreas == areaCount)) {
                    break;
                }
            }
        } while (anywhere && lastIx != ix && ix < areaCount);

        if (preferred < positionalAreas && !clingToAllocated && ix == 0) {
            return;
        }
        if (ix + preferred < areaCount) {
            return;
        }
        if (ix > 1) {
            sortLargestFirst(positionalAreas, ix);
        }
        // (gaps among positional slots cannot occur here: cling passes of a new LV fill all or nothing)
        if (ix + positionalAreas < areaCount) {
            return;
        }
        allocateParallelArea(maxToAllocate);
    }

    // lib/metadata/lv_manip.c: _check_pva
    private Verdict check(Area a, long stillNeeded, boolean foundOne) {
        if (a.unreserved == 0) {
            return Verdict.NEXT_AREA;
        }
        if (clingToAllocated) {
            if (!clingsToAllocated(a)) {
                return Verdict.NEXT_PV; // every area of this PV gives the same answer
            }
        } else if (Math.multiplyExact(a.unreserved, areaCount) < stillNeeded
                && (!canSplit || (foundOne && alloc != AllocationPolicy.ANYWHERE))) {
            return Verdict.NEXT_PV;
        }
        return positionalFill ? Verdict.PREFERRED : Verdict.USE_AREA;
    }

    // lib/metadata/lv_manip.c: _check_cling_to_alloced
    private boolean clingsToAllocated(Area a) {
        for (int s = 0; s < areaCount; s++) {
            if (positionalFill && slotArea[s] != null) {
                continue;
            }
            if (allocatedPvs.get(s).contains(a.map.pv)) {
                if (positionalFill) {
                    reserve(s, a, a.count);
                }
                return true;
            }
        }
        return false;
    }

    // lib/metadata/lv_manip.c: _calc_required_extents
    private long required(Area a, int slot, long maxToAllocate) {
        long required = maxToAllocate / areaCount;
        if (alloc == AllocationPolicy.ANYWHERE && slot >= areaCount) {
            required = 0; // slots beyond the stripes would hold a log; there is none
        }
        if (required >= a.unreserved) {
            required = a.unreserved;
            a.unreserved = 0;
        } else {
            a.unreserved -= required;
            a.map.reinsert(a);
        }
        return required;
    }

    // lib/metadata/lv_manip.c: _reserve_required_area
    private void reserve(int slot, Area a, long used) {
        if (slot >= slotArea.length) {
            int size = Math.max(slot + 1, slotArea.length * 2);
            slotArea = Arrays.copyOf(slotArea, size);
            slotUsed = Arrays.copyOf(slotUsed, size);
        }
        slotArea[slot] = a;
        slotUsed[slot] = used;
    }

    // lib/metadata/lv_manip.c: _reset_unreserved
    private void resetUnreserved() {
        for (PvMap map : maps) {
            for (Area a = map.head.next; a != map.head; a = a.next) {
                if (a.unreserved != a.count) {
                    a.unreserved = a.count;
                    map.reinsert(a);
                }
            }
        }
    }

    // lib/metadata/lv_manip.c: _comp_area with qsort (stable: equal sizes keep PV order)
    private void sortLargestFirst(int from, int n) {
        List<Integer> order = new ArrayList<>(n);
        for (int i = from; i < from + n; i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong((Integer i) -> slotUsed[i]).reversed());
        Area[] areas = new Area[n];
        long[] used = new long[n];
        for (int k = 0; k < n; k++) {
            areas[k] = slotArea[order.get(k)];
            used[k] = slotUsed[order.get(k)];
        }
        System.arraycopy(areas, 0, slotArea, from, n);
        System.arraycopy(used, 0, slotUsed, from, n);
    }

    // lib/metadata/lv_manip.c: _alloc_parallel_area (every stripe gets the smallest reserved length)
    private void allocateParallelArea(long maxToAllocate) {
        long areaLength = maxToAllocate / areaCount;
        for (int s = 0; s < areaCount; s++) {
            areaLength = Math.min(areaLength, slotUsed[s]);
        }
        if (areaLength == 0) {
            return;
        }
        List<StripeArea> stripes = new ArrayList<>(areaCount);
        for (int s = 0; s < areaCount; s++) {
            Area a = slotArea[s];
            stripes.add(new StripeArea(a.map.pv, a.start));
            allocatedPvs.get(s).add(a.map.pv);
            consume(a, areaLength);
        }
        passes.add(new Pass(areaLength, List.copyOf(stripes)));
        allocated = Math.addExact(allocated, Math.multiplyExact(areaLength, areaCount));
    }

    // lib/metadata/pv_map.c: consume_pv_area (from the lowest extent up)
    private static void consume(Area a, long n) {
        a.map.remove(a);
        if (n < a.count) {
            a.start += n;
            a.count -= n;
            a.unreserved = a.count;
            a.map.insert(a, false);
        }
    }
}
