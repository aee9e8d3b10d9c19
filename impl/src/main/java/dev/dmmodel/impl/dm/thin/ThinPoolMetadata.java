package dev.dmmodel.impl.dm.thin;

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
    private final BlockRuns refcounts = new BlockRuns();
    /** Per thin device id: virtual block runs to (data block - virtual block). */
    private final Map<Long, BlockRuns> devices = new TreeMap<>();
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
        devices.put(id, new BlockRuns());
    }

    // dm-thin-metadata.c: dm_pool_create_snap — the snapshot shares every block of its origin
    public void createSnap(long id, long origin) {
        BlockRuns o = devices.get(origin);
        if (o == null) {
            throw new IllegalStateException("create_snap " + id + " " + origin + ": origin " + origin
                    + " does not exist (No data available)");
        }
        if (devices.containsKey(id)) {
            throw new IllegalStateException("create_snap " + id + " " + origin + ": device id already exists (File exists)");
        }
        BlockRuns copy = new BlockRuns();
        for (long[] r : o.all()) {
            copy.put(r[0], r[1], r[2]);
            addRefs(r[0] + r[2], r[1] + r[2], 1);
        }
        devices.put(id, copy);
    }

    // dm-thin-metadata.c: dm_pool_delete_thin_device — its blocks are released
    public void delete(long id) {
        BlockRuns m = devices.remove(id);
        if (m == null) {
            throw new IllegalStateException("delete " + id + ": no such device (No data available)");
        }
        for (long[] r : m.all()) {
            addRefs(r[0] + r[2], r[1] + r[2], -1);
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
        long[] r = device(id).find(virtualBlock);
        if (r == null) {
            return Optional.empty();
        }
        long data = virtualBlock + r[2];
        long[] refs = refcounts.find(data);
        return Optional.of(new Lookup(data, refs != null && refs[2] > 1));
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
        refcounts.put(b, b + 1, 1L);
        allocated++;
        cursor = b + 1 >= dataBlocks ? 0 : b + 1;
        return b;
    }

    private long firstFree(long from, long to) {
        long b = from;
        while (b < to) {
            long[] r = refcounts.find(b);
            if (r == null) {
                return b;
            }
            b = r[1];
        }
        return -1;
    }

    /**
     * Maps a virtual block to a freshly allocated data block (dm_thin_insert_block); a block it mapped
     * before loses this reference.
     */
    public void insert(long id, long virtualBlock, long dataBlock) {
        BlockRuns m = device(id);
        long[] old = m.find(virtualBlock);
        if (old != null) {
            long was = virtualBlock + old[2];
            addRefs(was, was + 1, -1);
        }
        m.put(virtualBlock, virtualBlock + 1, dataBlock - virtualBlock);
    }

    /**
     * Unmaps virtual blocks {@code [begin, end)} ({@code dm_thin_remove_range}) and returns the data blocks
     * that became free, as runs {@code [start, end)} in order.
     */
    public List<long[]> removeRange(long id, long begin, long end) {
        BlockRuns m = device(id);
        List<long[]> freed = new ArrayList<>();
        for (long[] e : m.within(begin, end)) {
            long dataFrom = e[0] + e[2];
            long dataTo = e[1] + e[2];
            for (long b = dataFrom; b < dataTo; ) {
                long[] rc = refcounts.find(b);
                long runEnd = Math.min(rc[1], dataTo);
                if (rc[2] == 1) {
                    if (!freed.isEmpty() && freed.get(freed.size() - 1)[1] == b) {
                        freed.get(freed.size() - 1)[1] = runEnd;
                    } else {
                        freed.add(new long[] {b, runEnd});
                    }
                }
                b = runEnd;
            }
            addRefs(dataFrom, dataTo, -1);
        }
        m.remove(begin, end);
        return freed;
    }

    /** Mapped virtual blocks of a device. */
    public long mappedBlocks(long id) {
        return device(id).covered();
    }

    /** The highest mapped virtual block of a device, or -1 when it maps none ({@code dm_thin_get_highest_mapped_block}). */
    public long highestMappedBlock(long id) {
        long end = device(id).upperEnd();
        return end < 0 ? -1 : end - 1;
    }

    /** Entries of the run-length structures, for memory checks. */
    public long runs() {
        long n = refcounts.size();
        for (BlockRuns m : devices.values()) {
            n += m.size();
        }
        return n;
    }

    /** The reference count of a data block (0 = free). */
    public long refcount(long dataBlock) {
        Long v = refcounts.get(dataBlock);
        return v == null ? 0 : v;
    }

    private BlockRuns device(long id) {
        BlockRuns m = devices.get(id);
        if (m == null) {
            throw new IllegalStateException("thin device " + id + " does not exist in the pool");
        }
        return m;
    }

    // adds delta to the count of every block of [from, to); counts reaching 0 free the block, blocks without a count
    // become referenced when delta is positive
    private void addRefs(long from, long to, long delta) {
        List<long[]> existing = refcounts.within(from, to);
        long covered = 0;
        for (long[] e : existing) {
            long len = e[1] - e[0];
            covered += len;
            long v = e[2] + delta;
            if (v <= 0) {
                refcounts.remove(e[0], e[1]);
                allocated -= len;
            } else {
                refcounts.put(e[0], e[1], v);
            }
        }
        if (covered < to - from && delta > 0) {
            // the gaps between the runs that had counts
            long b = from;
            for (long[] e : existing) {
                if (b < e[0]) {
                    refcounts.put(b, e[0], delta);
                    allocated += e[0] - b;
                }
                b = e[1];
            }
            if (b < to) {
                refcounts.put(b, to, delta);
                allocated += to - b;
            }
        }
    }
}
