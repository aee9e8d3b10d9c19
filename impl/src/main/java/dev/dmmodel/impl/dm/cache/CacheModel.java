package dev.dmmodel.impl.dm.cache;

import dev.dmmodel.dm.CacheTarget;
import dev.dmmodel.engine.CacheStats;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * dm-cache ({@code drivers/md/dm-cache-target.c}) with the smq policy ({@link SmqPolicy}): limits, where each bio
 * goes, promotions, and the counters {@code dmsetup status} prints. One instance per loaded table, holding the
 * cache's state (mappings, dirty blocks, the policy's queues).
 *
 * <p>The I/O path: dm core cuts every bio at cache block boundaries ({@code max_io_len} = the block size).
 * {@code cache_map} looks each piece up in the policy. A miss goes to the origin at the same sector; the policy may
 * queue a promotion, which the migration worker performs as a kcopyd copy of the whole block (read from the origin,
 * write to the cache device; {@code mg_copy}) after which the block is mapped. A read hit goes to the cache device;
 * a write hit in writethrough mode to both (a clone for the origin, {@code remap_to_origin_and_cache}), in writeback
 * mode to the cache, marking the block dirty; in writeback mode a write covering a whole block not cached is
 * written to a new cache block at once (fast promotion, {@code optimisable_bio}). Passthrough sends everything to
 * the origin and drops written blocks from the cache. Discards go to the origin (unless passdown is off); empty
 * flushes to the origin and the cache device.
 *
 * <p>Not modelled: the metadata commits (none appear in the recordings, whose traced phases promoted 16 blocks
 * each; the metadata device's used blocks are reported as a fresh format's, {@link #FRESH_METADATA_BLOCKS}),
 * background writeback of dirty blocks and demotion when the cache is full.
 */
public final class CacheModel implements TargetModel {

    /** {@code DM_CACHE_METADATA_BLOCK_SIZE}: metadata blocks of 4 KiB (8 sectors). */
    static final long METADATA_BLOCK_SECTORS = 8;

    /** {@code DM_CACHE_METADATA_MAX_SECTORS}: the metadata device is used up to 255 * 2^14 blocks of 4 KiB. */
    static final long METADATA_MAX_SECTORS = 255L * (1 << 14) * METADATA_BLOCK_SECTORS;

    /**
     * Metadata blocks a freshly formatted cache uses, as every recording shows (11 of 2048, unchanged by 32
     * promotions): the model does not keep the metadata's btrees.
     */
    static final long FRESH_METADATA_BLOCKS = 11;

    /** {@code DEFAULT_MIGRATION_THRESHOLD}: 2048 sectors. */
    static final long DEFAULT_MIGRATION_THRESHOLD = 2048;

    /** dm-kcopyd's sub-job ({@link dev.dmmodel.impl.dm.Kcopyd#SUB_JOB_SECTORS}). */
    static final long KCOPYD_SUB_JOB_SECTORS = dev.dmmodel.impl.dm.Kcopyd.SUB_JOB_SECTORS;

    /** The waker's period ({@code COMMIT_PERIOD}, HZ): the policy ticks once a second. */
    static final long TICK_NANOS = 1_000_000_000L;

    private final CacheTarget target;
    private final long cacheSectors;
    private final long cacheBlocks;
    private final long originBlocks;
    private final long metadataBlocks;
    private final long migrationThreshold;
    private final SmqPolicy policy;
    private final Set<Long> dirty = new HashSet<>();
    private long readHits;
    private long readMisses;
    private long writeHits;
    private long writeMisses;
    private long demotions;
    private long promotions;

    CacheModel(CacheTarget target, Function<String, Long> deviceSize) {
        this.target = target;
        this.cacheSectors = deviceSize.apply(target.cacheDevice());
        long bs = target.blockSectors();
        // cache_create: the cache's blocks (cache device / block size), the origin's (target length / block size)
        this.cacheBlocks = cacheSectors / bs;
        this.originBlocks = target.length().count() / bs;
        this.metadataBlocks = Math.min(deviceSize.apply(target.metadataDevice()), METADATA_MAX_SECTORS)
                / METADATA_BLOCK_SECTORS;
        long mt = DEFAULT_MIGRATION_THRESHOLD;
        for (int i = 0; i + 1 < target.policyArgs().size(); i += 2) {
            if (target.policyArgs().get(i).equalsIgnoreCase("migration_threshold")) {
                mt = Long.parseLong(target.policyArgs().get(i + 1));
            }
        }
        this.migrationThreshold = mt;
        // cache_create: passthrough disallows migrations; the cleaner policy never promotes
        boolean promotes = target.ioMode() != CacheTarget.IoMode.PASSTHROUGH && !target.policy().equals("cleaner");
        this.policy = new SmqPolicy(cacheBlocks, target.length().count(), bs, promotes);
    }

    /** The policy (for tests). */
    SmqPolicy policy() {
        return policy;
    }

    // dm-cache-target.c: parse_origin_dev ("Device size larger than cached device"), parse_block_size ("Data block
    // size is larger than the cache device")
    @Override
    public void checkDevices(Function<String, Long> size, Function<String, Limits> limits) {
        long origin = size.apply(target.originDevice());
        if (target.length().count() > origin) {
            throw new IllegalArgumentException("the target's " + target.length().count() + " sectors exceed the "
                    + origin + " of origin device " + target.originDevice() + " (parse_origin_dev: Device size "
                    + "larger than cached device)");
        }
        if (target.blockSectors() > cacheSectors) {
            throw new IllegalArgumentException("the block size of " + target.blockSectors() + " sectors exceeds the "
                    + cacheSectors + " of cache device " + target.cacheDevice() + " (parse_block_size: Data block "
                    + "size is larger than the cache device)");
        }
    }

    // dm-cache-target.c: cache_iterate_devices — the whole cache device, then the origin for the target's length
    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of(new DeviceArea(target.cacheDevice(), 0, cacheSectors),
                new DeviceArea(target.originDevice(), 0, target.length().count()));
    }

    // dm-cache-target.c: cache_io_hints — io_min and io_opt become the block size unless io_opt is a multiple of
    // it (blk_limits_io_min keeps io_min at least a block); set_discard_limits — the origin's discard limits with
    // passdown, the cache's own (discard blocks of up to 1024 times) without
    @Override
    public void ioHints(Limits l, Function<String, Limits> deviceLimits, KernelProfile profile) {
        long bs = target.blockSectors();
        long ioOptSectors = l.ioOpt / 512;
        if (ioOptSectors < bs || ioOptSectors % bs != 0) {
            l.ioMin = Math.max(bs * 512, Math.max(l.logicalBlockSize, l.physicalBlockSize));
            l.ioOpt = bs * 512;
        }
        Limits origin = deviceLimits.apply(target.originDevice());
        if (origin != null && passdown(origin)) {
            l.maxHwDiscardSectors = origin.maxHwDiscardSectors;
            l.maxDiscardSectors = origin.maxDiscardSectors;
            l.discardGranularity = origin.discardGranularity;
        } else {
            long dbs = discardBlockSectors();
            l.maxHwDiscardSectors = Math.min(Math.multiplyExact(dbs, 1024), target.length().count());
            l.maxDiscardSectors = l.maxHwDiscardSectors;
            l.discardGranularity = dbs * 512;
        }
    }

    // dm-cache-target.c: disable_passdown_if_not_supported — the origin must take discards of a whole block
    private boolean passdown(Limits origin) {
        return target.discardPassdown() && origin.maxDiscardSectors != 0 && origin.maxDiscardSectors >= target.blockSectors();
    }

    // dm-cache-target.c: calculate_discard_block_size — the block size, doubled while the origin has more than 2^14
    long discardBlockSectors() {
        long d = target.blockSectors();
        while (target.length().count() / d > (1L << 14)) {
            d = Math.multiplyExact(d, 2);
        }
        return d;
    }

    // dm-cache-target.c: cache_create — num_discard_bios = 1, discards_supported
    @Override
    public int numDiscardBios() {
        return 1;
    }

    @Override
    public boolean discardsSupported() {
        return true;
    }

    // cache_create leaves num_write_zeroes_bios 0
    @Override
    public int numWriteZeroesBios() {
        return 0;
    }

    // dm-cache-target.c: cache_create — dm_set_target_max_io_len(ti, sectors_per_block)
    @Override
    public long maxIoLen() {
        return target.blockSectors();
    }

    // dm-cache-target.c: num_flush_bios = 2 — process_flush_bio sends bio 0 to the origin, bio 1 to the cache
    @Override
    public List<DeviceArea> flushAreas() {
        return List.of(new DeviceArea(target.originDevice(), 0, target.length().count()),
                new DeviceArea(target.cacheDevice(), 0, cacheSectors));
    }

    // dm-cache-target.c: remap_to_cache(bio, 0) — cache block 0 plus the offset into a block
    @Override
    public long emptyFlushSector(DeviceArea area, long bioSector, KernelProfile profile) {
        return area.device().equals(target.cacheDevice()) && !area.device().equals(target.originDevice())
                ? bioSector % target.blockSectors() : bioSector;
    }

    // dm-cache-target.c: cache_map / map_bio
    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        long bs = target.blockSectors();
        // get_bio_block: the bio's own sector (dm-cache does not subtract the target's start)
        long sector = clone.sector;
        long block = sector / bs;
        if (block >= originBlocks) {
            // a partial block at the origin's end is never cached
            clone.device = target.originDevice();
            return MapResult.REMAPPED;
        }
        if (clone.op == Op.DISCARD) {
            // discard_or_flush -> defer_bio -> process_discard_bio
            ctx.block().defer(() -> discard(ctx, bio, clone));
            return MapResult.SUBMITTED;
        }
        boolean write = clone.op != Op.READ;
        if (write && target.ioMode() == CacheTarget.IoMode.WRITEBACK && policy.mapping(block).isEmpty()
                && sector % bs == 0 && clone.sectors == bs) {
            // optimisable_bio: a whole-block write in writeback mode is promoted by writing it to the cache
            long cblock = policy.fastPromote(block);
            if (cblock >= 0) {
                policy.promoted(block);
                promotions++;
                dirty.add(cblock);
                toCache(clone, cblock, sector);
                return MapResult.REMAPPED;
            }
            writeMisses++;
            clone.device = target.originDevice();
            return MapResult.REMAPPED;
        }
        SmqPolicy.Lookup l = policy.lookup(block, write);
        if (!l.hit()) {
            // inc_miss_counter, remap_to_origin_clear_discard
            if (write) {
                writeMisses++;
            } else {
                readMisses++;
            }
            if (l.promote()) {
                long cblock = l.cblock();
                // wake_migration_worker -> mg_start -> mg_copy: kcopyd copies the block from the origin
                ctx.block().defer(() -> promote(ctx, block, cblock));
            }
            clone.device = target.originDevice();
            return MapResult.REMAPPED;
        }
        long cblock = l.cblock();
        if (write) {
            writeHits++;
        } else {
            readHits++;
        }
        switch (target.ioMode()) {
            case PASSTHROUGH:
                if (write) {
                    // invalidate_start: the block leaves the cache, the write goes to the origin
                    demotions++;
                    policy.invalidate(block);
                    dirty.remove(cblock);
                }
                clone.device = target.originDevice();
                return MapResult.REMAPPED;
            case WRITETHROUGH:
                if (write && !dirty.contains(cblock)) {
                    // remap_to_origin_and_cache: a clone chained to this one goes to the origin (submit_bio)
                    Bio origin = clone.clone(0, clone.sectors);
                    origin.device = target.originDevice();
                    origin.parent = clone;
                    clone.remaining++;
                    ctx.block().submitBioNoacct(origin);
                    toCache(clone, cblock, sector);
                    return MapResult.REMAPPED;
                }
                break;
            default:
                break;
        }
        // remap_to_cache_dirty: a write marks the block dirty
        if (write) {
            dirty.add(cblock);
        }
        toCache(clone, cblock, sector);
        return MapResult.REMAPPED;
    }

    // dm-cache-target.c: remap_to_cache — the cache block plus the offset into the block
    private void toCache(Bio clone, long cblock, long sector) {
        long bs = target.blockSectors();
        clone.device = target.cacheDevice();
        clone.sector = Math.addExact(Math.multiplyExact(cblock, bs), sector % bs);
    }

    // dm-cache-target.c: process_discard_bio — the discard goes to the origin (dm_submit_bio_remap) with passdown
    private void discard(MapContext ctx, Bio bio, Bio clone) {
        Limits origin = ctx.block().queueLimits(target.originDevice());
        if (!passdown(origin)) {
            ctx.block().complete(clone);
            return;
        }
        clone.device = target.originDevice();
        if (ctx.block().events.enabled()) {
            ctx.block().events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, clone.sectors,
                    "from=" + ctx.device() + ":" + clone.sector);
        }
        ctx.block().submitBioNoacct(clone);
    }

    // dm-cache-target.c: mg_copy -> copy — kcopyd reads the origin block, writes it to the cache block;
    // mg_complete counts the promotion and the policy maps the block (__complete_background_work)
    private void promote(MapContext ctx, long oblock, long cblock) {
        long bs = target.blockSectors();
        BlockLayer block = ctx.block();
        for (long s = 0; s < bs; s += KCOPYD_SUB_JOB_SECTORS) {
            long len = Math.min(KCOPYD_SUB_JOB_SECTORS, bs - s);
            block.startPlug();
            block.submitRegion(target.originDevice(), Op.READ, 0, oblock * bs + s, len);
            block.finishPlug();
            block.startPlug();
            block.submitRegion(target.cacheDevice(), Op.WRITE, 0, cblock * bs + s, len);
            block.finishPlug();
        }
        policy.promoted(oblock);
        promotions++;
    }

    // dm-cache-target.c: do_waker -> policy_tick, once a second of the host's clock
    @Override
    public void clockAdvanced(MapContext ctx, long fromNanos, long toNanos) {
        long ticks = toNanos / TICK_NANOS - fromNanos / TICK_NANOS;
        for (long i = 0; i < ticks; i++) {
            policy.tick();
        }
    }

    /** The cache block holding origin block {@code oblock}, if it is cached. */
    OptionalLong cached(long oblock) {
        return policy.mapping(oblock);
    }

    /** What {@code dmsetup status} shows of this cache now, as the device below is ({@code block}'s limits). */
    public CacheStats stats(String device, BlockLayer block) {
        return new CacheStats(device, target.blockSectors(), FRESH_METADATA_BLOCKS, metadataBlocks,
                policy.residency(), cacheBlocks, readHits, readMisses, writeHits, writeMisses, demotions, promotions,
                dirty.size(), status(block.queueLimits(target.originDevice())));
    }

    // dm-cache-target.c: cache_status (STATUSTYPE_INFO) and emit_flags; the policy's name (an alias prints its real
    // policy) and config values (policy_emit_config_values: "0 " unless the policy emits its own, as mq does)
    String status(Limits origin) {
        StringBuilder sb = new StringBuilder();
        sb.append(METADATA_BLOCK_SECTORS).append(' ').append(FRESH_METADATA_BLOCKS).append('/').append(metadataBlocks)
                .append(' ').append(target.blockSectors()).append(' ').append(policy.residency()).append('/')
                .append(cacheBlocks);
        for (long v : new long[] {readHits, readMisses, writeHits, writeMisses, demotions, promotions, dirty.size()}) {
            sb.append(' ').append(v);
        }
        boolean passdown = origin != null && passdown(origin);
        sb.append(' ').append((target.metadata2() ? 1 : 0) + (passdown ? 0 : 1) + 1);
        if (target.metadata2()) {
            sb.append(" metadata2");
        }
        sb.append(' ').append(target.ioMode().name().toLowerCase(Locale.ROOT));
        if (!passdown) {
            sb.append(" no_discard_passdown");
        }
        sb.append(" 2 migration_threshold ").append(migrationThreshold);
        String name = target.policy().equals("default") ? "smq" : target.policy();
        sb.append(' ').append(name).append(' ');
        if (name.equals("mq")) {
            sb.append("10");
            for (String k : CacheTargetType.MQ_KEYS) {
                sb.append(' ').append(k).append(" 0");
            }
        } else {
            sb.append('0');
        }
        return sb.append(" rw - ").toString();
    }
}
