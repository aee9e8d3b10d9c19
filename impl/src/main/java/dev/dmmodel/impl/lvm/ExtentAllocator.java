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
 * LVM's extent allocator for a new LV (no mirror, no previous segment to follow): the free-space maps of
 * {@code pv_map.c} and the passes of {@code lv_manip.c}, including the way LVM walks and re-sorts its linked
 * lists while it reserves space, so that placements come out as LVM's do.
 *
 * <p>A linear or striped LV has no log area. A new thin pool has one: LVM's allocator handles the pool's
 * metadata ({@code _tmeta}) as a "log" ({@code _alloc_init}: a thin pool passes its metadata extents as
 * {@code log_len}, one log area, metadata on separate PVs not required). The log changes the passes: each
 * candidate reserves at least the log length, a pass needs one candidate more than there are stripes (or an
 * extra walk over the PVs already chosen), the log takes the smallest candidate still big enough for it and
 * goes directly after the data when both come from the same free run, and cling passes wait until the log is
 * placed. The log is placed by the first pass that allocates anything.
 */
final class ExtentAllocator {

    /** A PV's free runs open to this allocation, in the order LVM builds its areas from them. */
    record FreeSpace(String pv, List<ExtentRange> runs) {
    }

    /** What one pass allocated: one run of {@code areaLength} extents per stripe. */
    record Pass(long areaLength, List<StripeArea> stripes) {
    }

    /** What was allocated with a log: the data passes (one segment each before merging) and the log's area. */
    record Result(List<Pass> data, StripeArea metadata) {
    }

    /**
     * What a RAID allocation placed: the data passes (one run per device each, metadata excluded) and each device's
     * metadata area, split from the front of its first run.
     */
    record RaidResult(List<Pass> data, List<StripeArea> metadata) {
    }

    private enum Verdict { PREFERRED, NEXT_PV, NEXT_AREA, USE_AREA }

    private final String lvName;
    private final int areaCount;
    private final long needed;
    private final long logLen;
    private final List<PvMap> maps = new ArrayList<>();
    private final List<Set<String>> allocatedPvs = new ArrayList<>();
    private final List<Pass> passes = new ArrayList<>();
    /** {@code ah->area_multiple}: extents of the LV per extent of each area (the data stripes). */
    private int areaMultiple;
    /** {@code ah->parity_count}: the parity areas among {@link #areaCount}. */
    private int parityCount;
    /** {@code ah->log_len} with {@code alloc_and_split_meta}: each RAID area's metadata, split from its front. */
    private long splitMetaLen;
    private boolean splitMetaAllocated = true;
    private final List<StripeArea> splitMeta = new ArrayList<>();
    private long allocated;
    private int logStillNeeded;
    private StripeArea metadata;

    private AllocationPolicy alloc;
    private boolean canSplit;
    private boolean clingToAllocated;
    private boolean positionalFill;
    private int positionalAreas;
    private Area[] slotArea;
    private long[] slotUsed;

    private ExtentAllocator(String lvName, List<FreeSpace> space, int stripes, long extents, long logLen) {
        this.lvName = lvName;
        this.areaCount = stripes;
        this.needed = extents;
        this.logLen = logLen;
        this.logStillNeeded = logLen > 0 ? 1 : 0;
        this.areaMultiple = stripes;
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
        // lib/metadata/lv_manip.c: _allocate (at least one slot per stripe and one for the log, if any)
        int slots = Math.max(Math.max(maps.size(), stripes + logStillNeeded), 1);
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
        ExtentAllocator a = new ExtentAllocator(lvName, space, stripes, extents, 0);
        a.run(policy);
        return List.copyOf(a.passes);
    }

    /**
     * Allocates {@code extents} data extents in {@code stripes} parallel areas and {@code logExtents} extents
     * in one log area (a new thin pool's metadata).
     *
     * @param policy the resolved policy (never INHERIT)
     * @throws IllegalArgumentException if {@code logExtents} is not positive
     * @throws LayoutException with LVM's message when the space cannot be found
     */
    static Result allocateWithLog(String lvName, List<FreeSpace> space, int stripes, long extents, long logExtents,
                                  AllocationPolicy policy) {
        if (logExtents <= 0) {
            throw new IllegalArgumentException("a log of " + logExtents + " extents for " + lvName);
        }
        ExtentAllocator a = new ExtentAllocator(lvName, space, stripes, extents, logExtents);
        a.run(policy);
        return new Result(List.copyOf(a.passes), a.metadata);
    }

    /**
     * Allocates a new RAID LV ({@code lib/metadata/lv_manip.c: _alloc_init} for a RAID type with metadata areas):
     * {@code devices} parallel areas ({@code parity} of them parity) of {@code extents / areaMultiple} data extents
     * each, plus {@code metaExtents} of metadata at the front of each area ({@code alloc_and_split_meta}).
     *
     * @param extents the LV's extents (a multiple of {@code areaMultiple})
     * @param areaMultiple {@code _calc_area_multiple}: the data stripes (1 for raid1)
     * @param policy the resolved policy (never INHERIT)
     * @throws LayoutException with LVM's message when the space cannot be found
     */
    static RaidResult allocateRaid(String lvName, List<FreeSpace> space, int devices, int parity, int areaMultiple,
                                   long extents, long metaExtents, AllocationPolicy policy) {
        // _alloc_init: total_extents += log_len * (raid1 ? 1 : area_multiple)
        long total = Math.addExact(extents, Math.multiplyExact(metaExtents, areaMultiple));
        ExtentAllocator a = new ExtentAllocator(lvName, space, devices, total, 0);
        a.areaMultiple = areaMultiple;
        a.parityCount = parity;
        a.splitMetaLen = metaExtents;
        a.splitMetaAllocated = false;
        a.run(policy);
        return new RaidResult(List.copyOf(a.passes), List.copyOf(a.splitMeta));
    }

    // lib/metadata/lv_manip.c: _allocate (each policy from contiguous up to the requested one)
    private void run(AllocationPolicy requested) {
        canSplit = requested != AllocationPolicy.CONTIGUOUS;
        AllocationPolicy top = requested;
        for (AllocationPolicy p : List.of(AllocationPolicy.CONTIGUOUS, AllocationPolicy.CLING, AllocationPolicy.NORMAL,
                AllocationPolicy.ANYWHERE)) {
            if (p.compareTo(top) > 0) {
                break;
            }
            long before = allocated;
            checkSufficientFree();
            initPolicy(p);
            findMaxParallelSpace();
            // lib/metadata/lv_manip.c: _allocate (only the log missing: carry on up to normal)
            if (allocated == needed && logStillNeeded > 0 && top.compareTo(AllocationPolicy.NORMAL) < 0) {
                top = AllocationPolicy.NORMAL;
                continue;
            }
            if ((allocated == needed && logStillNeeded == 0) || (!canSplit && allocated != before)) {
                break;
            }
        }
        if (allocated != needed) {
            throw new LayoutException(lvName, "extents", Long.toString(needed - allocated), "Insufficient suitable "
                    + (canSplit ? "" : "contiguous ") + "allocatable extents for logical volume " + lvName + ": "
                    + (needed - allocated) + " more required");
        }
        if (logStillNeeded > 0) {
            throw new LayoutException(lvName, "poolmetadatasize", Long.toString(logLen),
                    "Insufficient free space for log allocation for logical volume " + lvName + ".");
        }
    }

    // lib/metadata/lv_manip.c: _sufficient_pes_free (a thin pool's metadata is not counted here, nor RAID metadata
    // split from the areas)
    private void checkSufficientFree() {
        long free = 0;
        for (PvMap m : maps) {
            free += m.free;
        }
        long rest = needed - allocated;
        long areaExtents = Math.multiplyExact(rest, areaCount - parityCount) / areaMultiple;
        long parityExtents = Math.multiplyExact(rest, parityCount) / areaMultiple;
        long total = Math.addExact(areaExtents, parityExtents);
        if (total > free) {
            throw new LayoutException(lvName, "extents", Long.toString(total), "Insufficient free space: "
                    + total + " extents needed, but only " + free + " available");
        }
    }

    // lib/metadata/lv_manip.c: _init_alloc_parms (a new LV has no previous segment to follow)
    private void initPolicy(AllocationPolicy p) {
        alloc = p;
        positionalFill = p == AllocationPolicy.CLING;
        clingToAllocated = p == AllocationPolicy.CLING || (p == AllocationPolicy.NORMAL && allocated != needed);
    }

    // lib/metadata/lv_manip.c: _find_max_parallel_space_for_one_policy
    private void findMaxParallelSpace() {
        do {
            long before = allocated;
            findSomeParallelSpace(needed - allocated);
            if (before == allocated) {
                if (alloc == AllocationPolicy.NORMAL && clingToAllocated) {
                    clingToAllocated = false;
                } else {
                    break;
                }
            } else if (alloc == AllocationPolicy.NORMAL && !clingToAllocated) {
                clingToAllocated = true;
            }
        } while (alloc != AllocationPolicy.CONTIGUOUS && allocated != needed && canSplit);
    }

    // lib/metadata/lv_manip.c: _find_some_parallel_space
    private void findSomeParallelSpace(long maxToAllocate) {
        Arrays.fill(slotArea, null);
        resetUnreserved();
        positionalAreas = positionalFill ? areaCount : 0;
        boolean anywhere = alloc == AllocationPolicy.ANYWHERE;
        int devices = areaCount;
        int ix = 0;
        int preferred = 0;
        int logIteration = 0;
        int lastIx;
        do {
            lastIx = ix;
            for (PvMap map : maps) {
                if (map.isEmpty() || (!anywhere && logIteration > 0 && isLogCandidate(map, devices, ix))) {
                    continue;
                }
                boolean foundOne = false;
                scan:
                for (Area a = map.head.next; a != map.head; a = a.next) {
                    switch (check(a, maxToAllocate, foundOne, logIteration)) {
                        case PREFERRED:
                            preferred++;
                            break scan;
                        case NEXT_PV:
                            break scan;
                        case NEXT_AREA:
                            continue;
                        case USE_AREA:
                        default:
                            if (!foundOne || anywhere) {
                                ix++;
                                foundOne = true;
                            }
                            int slot = ix + positionalAreas - 1;
                            reserve(slot, a, required(a, slot, maxToAllocate));
                            break;
                    }
                }
                if ((anywhere && ix + positionalAreas >= devices + logStillNeeded)
                        || (preferred == positionalAreas && positionalAreas == devices + logStillNeeded)) {
                    break;
                }
            }
            // (the second walk that fills gaps among cling slots cannot apply: a new LV's normal passes have no
            // positional slots)
        } while ((anywhere && lastIx != ix && ix < devices + logStillNeeded)
                // one more walk, over the PVs already holding data, to find the log a place
                || (alloc == AllocationPolicy.NORMAL && preferred == positionalAreas && ix + preferred >= devices
                    && ix + preferred < devices + logStillNeeded && logIteration++ == 0));

        if (preferred < positionalAreas && !clingToAllocated && ix == 0) {
            return;
        }
        if (ix + preferred < devices + logStillNeeded) {
            return;
        }
        if (logIteration > 0) {
            if (ix > devices + 1) {
                sortLargestFirst(devices, ix - devices); // only the log candidates of the extra walk
            }
        } else if (ix > 1) {
            sortLargestFirst(positionalAreas, ix);
        }
        // the log goes to the last-ranked candidate that can hold it
        int logOffset = 0;
        if (logStillNeeded > 0) {
            int tooSmall = 0;
            while (tooSmall < positionalAreas + ix && slotUsed[positionalAreas + ix - 1 - tooSmall] < logLen) {
                tooSmall++;
            }
            if (positionalAreas + ix < tooSmall + 1) {
                return;
            }
            logOffset = positionalAreas + ix - (tooSmall + 1);
        }
        if (ix + positionalAreas < devices) {
            return;
        }
        allocateParallelArea(maxToAllocate, logOffset);
        logStillNeeded = 0; // the log is always placed by the first allocation
    }

    // lib/metadata/lv_manip.c: _find_some_parallel_space (the extra walk skips PVs set aside for the log)
    private boolean isLogCandidate(PvMap map, int devices, int ix) {
        for (int s = devices; s < ix + positionalAreas; s++) {
            if (slotArea[s] != null && slotArea[s].map == map) {
                return true;
            }
        }
        return false;
    }

    // lib/metadata/lv_manip.c: _check_pva
    private Verdict check(Area a, long stillNeeded, boolean foundOne, int logIteration) {
        if (a.unreserved == 0) {
            return Verdict.NEXT_AREA;
        }
        if (logIteration == 0 && clingToAllocated) {
            return clingsToAllocated(a) ? found() : Verdict.NEXT_PV;
        }
        // too small for the rest on its own: without a log, contiguous allocation cannot use it; with one, it
        // is still a candidate for the first pass (!can_split && !log_area_count)
        if (Math.multiplyExact(a.unreserved, areaMultiple) < stillNeeded
                && ((!canSplit && logLen == 0) || (foundOne && alloc != AllocationPolicy.ANYWHERE))) {
            return Verdict.NEXT_PV;
        }
        return found();
    }

    private Verdict found() {
        return positionalFill ? Verdict.PREFERRED : Verdict.USE_AREA;
    }

    // lib/metadata/lv_manip.c: _check_cling_to_alloced (nothing clings before the log is placed)
    private boolean clingsToAllocated(Area a) {
        if (logStillNeeded > 0) {
            return false;
        }
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

    // lib/metadata/lv_manip.c: _calc_required_extents (every candidate reserves at least the log length)
    private long required(Area a, int slot, long maxToAllocate) {
        long required = maxToAllocate / areaMultiple;
        long logLength = logLen > 0 ? logLen : splitMetaLen;
        if (alloc == AllocationPolicy.ANYWHERE) {
            if (slot >= areaCount) {
                required = logLength;
            }
        } else if (required < logLength) {
            required = logLength;
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

    // lib/metadata/lv_manip.c: _alloc_parallel_area (data stripes first, then the log, each from the lowest
    // extent of its run)
    private void allocateParallelArea(long maxToAllocate, int logOffset) {
        long areaLength = maxToAllocate / areaMultiple;
        for (int s = 0; s < areaCount; s++) {
            areaLength = Math.min(areaLength, slotUsed[s]);
        }
        // alloc_and_split_meta: the first batch gives each area its metadata first, from the front of its run
        long meta = splitMetaAllocated ? 0 : splitMetaLen;
        List<StripeArea> stripes = new ArrayList<>(areaCount);
        int total = areaCount + logStillNeeded;
        int skip = 0;
        long length = areaLength;
        for (int s = 0; s < total; s++) {
            if (s == areaCount) {
                skip = logOffset - areaCount;
                length = logLen;
            }
            Area a = slotArea[s + skip];
            if (s < areaCount && meta > 0) {
                if (a.count < meta) {
                    throw new LayoutException(lvName, "extents", Long.toString(meta), "Metadata does not fit on a "
                            + "single PV.");
                }
                splitMeta.add(new StripeArea(a.map.pv, a.start));
                consume(a, meta);
            }
            long dataLength = s < areaCount ? length - meta : length;
            if (dataLength == 0) {
                continue;
            }
            if (a.count < dataLength) {
                // LVM would place the log over the data run it shares when that run is used up (a candidate
                // smaller than the log ranks last); refuse instead of overlapping
                throw new LayoutException(lvName, "poolmetadatasize", Long.toString(logLen),
                        "Insufficient free space for log allocation for logical volume " + lvName + ".");
            }
            StripeArea placed = new StripeArea(a.map.pv, a.start);
            if (s < areaCount) {
                stripes.add(placed);
                allocatedPvs.get(s).add(a.map.pv);
            } else {
                metadata = placed;
            }
            consume(a, dataLength);
        }
        if (areaLength - meta > 0) {
            passes.add(new Pass(areaLength - meta, List.copyOf(stripes)));
        }
        splitMetaAllocated = true;
        allocated = Math.addExact(allocated, Math.multiplyExact(areaLength, areaMultiple));
    }

    // lib/metadata/pv_map.c: consume_pv_area (from the lowest extent up; a used-up run leaves the list)
    private static void consume(Area a, long n) {
        a.map.remove(a);
        a.start += n;
        a.count -= n;
        a.unreserved = a.count;
        if (a.count > 0) {
            a.map.insert(a, false);
        }
    }
}
