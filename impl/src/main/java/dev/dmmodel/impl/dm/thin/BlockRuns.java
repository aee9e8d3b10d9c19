package dev.dmmodel.impl.dm.thin;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs of blocks with a value, coalesced: {@code [start, end) -> value}, no two runs overlapping and no two adjacent
 * runs with the same value. The thin pool's mappings and reference counts (dm-thin's btrees hold them per block;
 * a sequential workload makes a few runs). The run touched last is remembered, so extending it by the next block
 * — what sequential provisioning does for every block — costs no search.
 */
final class BlockRuns {

    /** By start: {start, end, value}. */
    private final TreeMap<Long, long[]> runs = new TreeMap<>();
    /** The run touched last, or null. */
    private long[] last;

    /** The run holding {@code block}, as {start, end, value} (not to be changed), or null. */
    long[] find(long block) {
        long[] l = last;
        if (l != null && l[0] <= block && block < l[1]) {
            return l;
        }
        Map.Entry<Long, long[]> e = runs.floorEntry(block);
        if (e == null || e.getValue()[1] <= block) {
            return null;
        }
        last = e.getValue();
        return last;
    }

    /** The value of {@code block}, or null. */
    Long get(long block) {
        long[] r = find(block);
        return r == null ? null : r[2];
    }

    /** Sets {@code [from, to)} to {@code value}, coalescing with equal neighbours. */
    void put(long from, long to, long value) {
        if (from >= to) {
            return;
        }
        long[] l = last;
        if (l != null && l[1] == from && l[2] == value) {
            // extending the last run: nothing may start inside [from, to)
            Map.Entry<Long, long[]> next = runs.ceilingEntry(from);
            if (next == null || next.getKey() >= to) {
                l[1] = to;
                mergeRight(l);
                return;
            }
        }
        remove(from, to);
        long[] run = {from, to, value};
        Map.Entry<Long, long[]> left = runs.lowerEntry(from);
        if (left != null && left.getValue()[1] == from && left.getValue()[2] == value) {
            run = left.getValue();
            run[1] = to;
        } else {
            runs.put(from, run);
        }
        mergeRight(run);
        last = run;
    }

    private void mergeRight(long[] run) {
        long[] right = runs.get(run[1]);
        if (right != null && right[2] == run[2]) {
            runs.remove(right[0]);
            run[1] = right[1];
            if (last == right) {
                last = run;
            }
        }
    }

    /** Clears {@code [from, to)}, cutting runs that overlap its ends. */
    void remove(long from, long to) {
        if (from >= to) {
            return;
        }
        last = null;
        Map.Entry<Long, long[]> left = runs.lowerEntry(from);
        if (left != null && left.getValue()[1] > from) {
            long[] r = left.getValue();
            long end = r[1];
            r[1] = from;
            if (end > to) {
                runs.put(to, new long[] {to, end, r[2]});
                return;
            }
        }
        Iterator<long[]> it = runs.subMap(from, true, to, false).values().iterator();
        long[] tail = null;
        while (it.hasNext()) {
            long[] r = it.next();
            if (r[1] > to) {
                tail = new long[] {to, r[1], r[2]};
            }
            it.remove();
        }
        if (tail != null) {
            runs.put(to, tail);
        }
    }

    /** Copies of the runs overlapping {@code [from, to)}, cut to it, in order. */
    List<long[]> within(long from, long to) {
        List<long[]> out = new ArrayList<>();
        Map.Entry<Long, long[]> left = runs.lowerEntry(from);
        if (left != null && left.getValue()[1] > from) {
            long[] r = left.getValue();
            out.add(new long[] {from, Math.min(r[1], to), r[2]});
        }
        for (long[] r : runs.subMap(from, true, to, false).values()) {
            out.add(new long[] {r[0], Math.min(r[1], to), r[2]});
        }
        return out;
    }

    /** Copies of all runs, in order. */
    List<long[]> all() {
        List<long[]> out = new ArrayList<>(runs.size());
        for (long[] r : runs.values()) {
            out.add(r.clone());
        }
        return out;
    }

    /** Blocks covered. */
    long covered() {
        long n = 0;
        for (long[] r : runs.values()) {
            n += r[1] - r[0];
        }
        return n;
    }

    /** The end of the last run, or -1 when there is none. */
    long upperEnd() {
        return runs.isEmpty() ? -1 : runs.lastEntry().getValue()[1];
    }

    /** Runs held. */
    int size() {
        return runs.size();
    }
}
