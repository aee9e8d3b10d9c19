package dev.dmmodel.impl.dm.cache;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.CacheTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sizes;
import java.util.ArrayList;
import java.util.List;

/** Checks of dm-cache devices, with one factory per kind of finding. */
public final class CacheFindings {

    /** The I/O size the block-split finding also quotes: a 1 MiB direct write (dd bs=1M). */
    static final long MIB_SECTORS = 2048;

    private CacheFindings() {
    }

    /** The findings of cache device {@code dm} whose table is the one cache target {@code t}. */
    public static void check(Layout layout, DmDevice dm, CacheTarget t, List<Finding> out) {
        blockSplitsIo(dm, t, out);
        cacheLimitsCutOrigin(layout, dm, t, out);
    }

    // dm-cache-target.c: dm_set_target_max_io_len(ti, sectors_per_block) — dm core cuts bios at block boundaries
    static void blockSplitsIo(DmDevice dm, CacheTarget t, List<Finding> out) {
        long bs = t.blockSectors();
        long maxSectors = dm.limits().maxSectors();
        if (bs >= maxSectors) {
            return;
        }
        FindingType type = FindingType.CACHE_BLOCK_SPLITS_IO;
        out.add(new Finding(type, type.defaultSeverity(), dm.name(), dm.name() + " (" + dm.dmName() + ") caches in "
                + Sizes.format(bs * 512) + " blocks: dm core cuts every bio at block boundaries, so a request of "
                + Sizes.format(maxSectors * 512) + " (max_sectors_kb " + maxSectors / 2 + ") reaches the cache as "
                + pieces(maxSectors, bs) + " bios of " + Sizes.format(bs * 512) + " and a 1 MiB direct write as "
                + pieces(MIB_SECTORS, bs) + ", each looked up, counted and promoted on its own",
                "a larger cache block (lvcreate --type cache-pool --chunksize " + Sizes.format(Math.min(maxSectors,
                        CacheTarget.MAX_BLOCK_SECTORS) * 512) + ") if the workload's I/O is that large; smaller blocks "
                        + "cache small random I/O more precisely", List.of(new LimitRef(dm.name(),
                        LimitField.MAX_SECTORS_KB))));
    }

    private static long pieces(long sectors, long bs) {
        return (sectors + bs - 1) / bs;
    }

    // dm-cache-target.c: cache_iterate_devices — the cache device's limits are stacked with the origin's
    static void cacheLimitsCutOrigin(Layout layout, DmDevice dm, CacheTarget t, List<Finding> out) {
        QueueLimits cache = layout.device(t.cacheDevice()).limits();
        QueueLimits origin = layout.device(t.originDevice()).limits();
        List<String> cuts = new ArrayList<>();
        if (cache.maxSectors() < origin.maxSectors()) {
            cuts.add("max_sectors_kb " + cache.maxSectors() / 2 + " (the origin's " + origin.maxSectors() / 2 + ")");
        }
        if (cache.maxSegments() < origin.maxSegments()) {
            cuts.add("max_segments " + cache.maxSegments() + " (" + origin.maxSegments() + ")");
        }
        if (cache.virtBoundaryMask() != 0 && cache.virtBoundaryMask() != origin.virtBoundaryMask()) {
            cuts.add("virt_boundary_mask " + cache.virtBoundaryMask() + " (" + origin.virtBoundaryMask() + ")");
        }
        if (cuts.isEmpty()) {
            return;
        }
        List<LimitRef> basis = new ArrayList<>();
        for (LimitField f : List.of(LimitField.MAX_SECTORS_KB, LimitField.MAX_SEGMENTS, LimitField.VIRT_BOUNDARY_MASK)) {
            if (f.valueOf(cache) != f.valueOf(origin)) {
                basis.add(new LimitRef(t.cacheDevice(), f));
                basis.add(new LimitRef(t.originDevice(), f));
            }
        }
        FindingType type = FindingType.CACHE_DEVICE_LIMITS_CUT_ORIGIN_IO;
        out.add(new Finding(type, type.defaultSeverity(), dm.name(), dm.name() + " (" + dm.dmName()
                + ") takes the limits of its cache device " + t.cacheDevice() + ": " + String.join(", ", cuts)
                + "; I/O to the cached volume is cut to them, also what goes on to the origin " + t.originDevice()
                + " (misses, writethrough writes), which could take " + Sizes.format(origin.maxSectors() * 512)
                + " at once",
                "put the cache on a device whose limits are at least the origin's, or accept requests of at most "
                        + Sizes.format(cache.maxSectors() * 512) + " to the origin", basis));
    }
}
