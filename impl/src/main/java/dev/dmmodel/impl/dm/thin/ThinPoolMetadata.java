package dev.dmmodel.impl.dm.thin;

import com.google.common.collect.Range;
import com.google.common.collect.RangeMap;
import com.google.common.collect.TreeRangeMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A thin pool's metadata as dm-thin keeps it ({@code drivers/md/dm-thin-metadata.c}): thin devices with
 * their virtual-to-data block mappings, data-block reference counts (shared by snapshots), the allocator
 * and the transaction id. Mappings and counts are kept as runs, never per block, so a petabyte mapped by
 * a sequential workload costs a few entries.
 */
final class ThinPoolMetadata {

    /**
     * A lookup result.
     *
     * @param dataBlock the data block
     * @param shared whether another device maps it too
     */
    public record Lookup(long dataBlock, boolean shared) {
    }

    private final long dataBlocks;
    /** Reference counts of data blocks, as runs; a block without an entry is free. */
    private final TreeRangeMap<Long, Long> refcounts = TreeRangeMap.create();
    /** Per thin device id: virtual block runs to (data block - virtual block). */
    private final Map<Long, TreeRangeMap<Long, Long>> devices = new TreeMap<>();
    private long allocated;
    private long cursor;
    private long transactionId;

    /**
     * A fresh pool.
     *
     * @param dataBlocks data blocks on the data device
     */
    public ThinPoolMetadata(long dataBlocks) {
        if (dataBlocks < 1) {
            throw new IllegalArgumentException("a thin pool needs at least one data block, not " + dataBlocks);
        }
        this.dataBlocks = dataBlocks;
    }

    /** Total data blocks. */
    public long dataBlocks() {
        return dataBlocks;
    }

    /** Data blocks in use (mapped by at least one device). */
    public long usedBlocks() {
        return allocated;
    }

    /** Free data blocks. */
    public long freeBlocks() {
        return dataBlocks - allocated;
    }

    /** The transaction id ({@code set_transaction_id}). */
    public long transactionId() {
        return transactionId;
    }

    /** Whether a thin device exists. */
    public boolean exists(long id) {
        return devices.containsKey(id);
    }

    /** The thin device ids. */
    public List<Long> deviceIds() {
        return List.copyOf(devices.keySet());
    }

    // dm-thin-metadata.c: dm_pool_create_thin — "File exists" for a used id
    public void createThin(long id) {
        if (devices.containsKey(id)) {
            throw new IllegalStateException("create_thin " + id + ": device id already exists (File exists)");
        }
        devices.put(id, TreeRangeMap.create());
    }

    // dm-thin-metadata.c: dm_pool_create_snap — the snapshot shares every block of its origin
    public void createSnap(long id, long origin) {
        TreeRangeMap<Long, Long> o = devices.get(origin);
        if (o == null) {
            throw new IllegalStateException("create_snap " + id + " " + origin + ": origin " + origin
                    + " does not exist (No data available)");
        }
        if (devices.containsKey(id)) {
            throw new IllegalStateException("create_snap " + id + " " + origin + ": device id already exists (File exists)");
        }
        TreeRangeMap<Long, Long> copy = TreeRangeMap.create();
        for (Map.Entry<Range<Long>, Long> e : o.asMapOfRanges().entrySet()) {
            copy.putCoalescing(e.getKey(), e.getValue());
            Range<Long> data = shift(e.getKey(), e.getValue());
            addRefs(data, 1);
        }
        devices.put(id, copy);
    }

    // dm-thin-metadata.c: dm_pool_delete_thin_device — its blocks are released
    public void delete(long id) {
        TreeRangeMap<Long, Long> m = devices.remove(id);
        if (m == null) {
            throw new IllegalStateException("delete " + id + ": no such device (No data available)");
        }
        for (Map.Entry<Range<Long>, Long> e : m.asMapOfRanges().entrySet()) {
            addRefs(shift(e.getKey(), e.getValue()), -1);
        }
    }

    /** {@code set_transaction_id OLD NEW}. */
    public void setTransactionId(long expected, long next) {
        if (expected != transactionId) {
            throw new IllegalStateException("set_transaction_id " + expected + " " + next
                    + ": the current transaction id is " + transactionId + " (Invalid argument)");
        }
        transactionId = next;
    }

    // dm-thin-metadata.c: dm_thin_find_block
    public Optional<Lookup> lookup(long id, long virtualBlock) {
        TreeRangeMap<Long, Long> m = device(id);
        Map.Entry<Range<Long>, Long> e = m.getEntry(virtualBlock);
        if (e == null) {
            return Optional.empty();
        }
        long data = virtualBlock + e.getValue();
        Long refs = refcounts.get(data);
        return Optional.of(new Lookup(data, refs != null && refs > 1));
    }

    // dm-space-map-disk.c: sm_disk_new_block — the first free block from the last allocation on, wrapping
    public long allocate() {
        if (allocated >= dataBlocks) {
            return -1;
        }
        long b = firstFree(cursor, dataBlocks);
        if (b < 0) {
            b = firstFree(0, cursor);
        }
        refcounts.putCoalescing(Range.closedOpen(b, b + 1), 1L);
        allocated++;
        cursor = b + 1 >= dataBlocks ? 0 : b + 1;
        return b;
    }

    private long firstFree(long from, long to) {
        long b = from;
        while (b < to) {
            Map.Entry<Range<Long>, Long> e = refcounts.getEntry(b);
            if (e == null) {
                return b;
            }
            b = e.getKey().upperEndpoint();
        }
        return -1;
    }

    /**
     * Maps a virtual block to a freshly allocated data block (dm_thin_insert_block); a block it mapped
     * before loses this reference.
     */
    public void insert(long id, long virtualBlock, long dataBlock) {
        TreeRangeMap<Long, Long> m = device(id);
        Map.Entry<Range<Long>, Long> old = m.getEntry(virtualBlock);
        if (old != null) {
            addRefs(Range.closedOpen(virtualBlock + old.getValue(), virtualBlock + old.getValue() + 1), -1);
        }
        m.putCoalescing(Range.closedOpen(virtualBlock, virtualBlock + 1), dataBlock - virtualBlock);
    }

    /**
     * Unmaps virtual blocks {@code [begin, end)} ({@code dm_thin_remove_range}) and returns the data blocks
     * that became free, as runs {@code [start, end)} in order.
     */
    public List<long[]> removeRange(long id, long begin, long end) {
        TreeRangeMap<Long, Long> m = device(id);
        Range<Long> r = Range.closedOpen(begin, end);
        List<long[]> freed = new ArrayList<>();
        for (Map.Entry<Range<Long>, Long> e : List.copyOf(m.subRangeMap(r).asMapOfRanges().entrySet())) {
            Range<Long> data = shift(e.getKey(), e.getValue());
            for (long b = data.lowerEndpoint(); b < data.upperEndpoint(); ) {
                Map.Entry<Range<Long>, Long> rc = refcounts.getEntry(b);
                long runEnd = Math.min(rc.getKey().upperEndpoint(), data.upperEndpoint());
                if (rc.getValue() == 1) {
                    if (!freed.isEmpty() && freed.get(freed.size() - 1)[1] == b) {
                        freed.get(freed.size() - 1)[1] = runEnd;
                    } else {
                        freed.add(new long[] {b, runEnd});
                    }
                }
                b = runEnd;
            }
            addRefs(data, -1);
        }
        m.remove(r);
        return freed;
    }

    /** Mapped virtual blocks of a device. */
    public long mappedBlocks(long id) {
        long n = 0;
        for (Range<Long> r : device(id).asMapOfRanges().keySet()) {
            n += r.upperEndpoint() - r.lowerEndpoint();
        }
        return n;
    }

    /** The highest mapped virtual block of a device, or -1 when it maps none ({@code dm_thin_get_highest_mapped_block}). */
    public long highestMappedBlock(long id) {
        TreeRangeMap<Long, Long> m = device(id);
        return m.asMapOfRanges().isEmpty() ? -1 : m.span().upperEndpoint() - 1;
    }

    /** Entries of the run-length structures, for memory checks. */
    public long runs() {
        long n = refcounts.asMapOfRanges().size();
        for (TreeRangeMap<Long, Long> m : devices.values()) {
            n += m.asMapOfRanges().size();
        }
        return n;
    }

    /** The reference count of a data block (0 = free). */
    public long refcount(long dataBlock) {
        Long v = refcounts.get(dataBlock);
        return v == null ? 0 : v;
    }

    private TreeRangeMap<Long, Long> device(long id) {
        TreeRangeMap<Long, Long> m = devices.get(id);
        if (m == null) {
            throw new IllegalStateException("thin device " + id + " does not exist in the pool");
        }
        return m;
    }

    private static Range<Long> shift(Range<Long> r, long delta) {
        return Range.closedOpen(r.lowerEndpoint() + delta, r.upperEndpoint() + delta);
    }

    // adds delta to the count of every block of the range; counts reaching 0 free the block
    private void addRefs(Range<Long> range, long delta) {
        RangeMap<Long, Long> sub = refcounts.subRangeMap(range);
        List<Map.Entry<Range<Long>, Long>> existing = List.copyOf(sub.asMapOfRanges().entrySet());
        long covered = 0;
        for (Map.Entry<Range<Long>, Long> e : existing) {
            long len = e.getKey().upperEndpoint() - e.getKey().lowerEndpoint();
            covered += len;
            long v = e.getValue() + delta;
            if (v <= 0) {
                refcounts.remove(e.getKey());
                allocated -= len;
            } else {
                refcounts.putCoalescing(e.getKey(), v);
            }
        }
        long total = range.upperEndpoint() - range.lowerEndpoint();
        if (covered < total && delta > 0) {
            // blocks without a count become referenced
            long b = range.lowerEndpoint();
            while (b < range.upperEndpoint()) {
                Map.Entry<Range<Long>, Long> e = refcounts.getEntry(b);
                if (e != null && e.getValue() != null && existingContains(existing, b)) {
                    b = Math.min(e.getKey().upperEndpoint(), range.upperEndpoint());
                    continue;
                }
                long end = b + 1;
                while (end < range.upperEndpoint() && !existingContains(existing, end)) {
                    end++;
                }
                refcounts.putCoalescing(Range.closedOpen(b, end), delta);
                allocated += end - b;
                b = end;
            }
        }
    }

    private static boolean existingContains(List<Map.Entry<Range<Long>, Long>> existing, long b) {
        for (Map.Entry<Range<Long>, Long> e : existing) {
            if (e.getKey().contains(b)) {
                return true;
            }
        }
        return false;
    }
}
