package dev.dmmodel.impl.dm.thin;

import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/** dm-thin's thin target ({@code drivers/md/dm-thin.c}, {@code thin_*}). */
public final class ThinModel implements TargetModel {
    private final ThinTarget target;
    private final Function<String, Long> deviceSize;
    private long blockSectors;
    private boolean discardEnabled = true;

    /** The model of one thin table target; {@code deviceSize} gives the pool's size. */
    public ThinModel(ThinTarget target, Function<String, Long> deviceSize) {
        this.target = target;
        this.deviceSize = deviceSize;
    }

    /** The pool's block size and discard switch, which thin_ctr takes from the bound pool. */
    public void bindPool(long blockSectors, boolean discardEnabled) {
        this.blockSectors = blockSectors;
        this.discardEnabled = discardEnabled;
    }

    // dm-thin.c: thin_iterate_devices — the pool device from 0 for its whole blocks
    @Override
    public List<DeviceArea> iterateDevices() {
        long poolLen = deviceSize.apply(target.poolDevice());
        long blocks = blockSectors == 0 ? 0 : poolLen / blockSectors;
        if (blocks == 0) {
            return List.of();
        }
        return List.of(new DeviceArea(target.poolDevice(), 0, blocks * blockSectors));
    }

    // dm-thin.c: thin_io_hints — discard granularity = block; max discard 16 GiB (6.1) or 1024 blocks (6.12)
    @Override
    public void ioHints(Limits l, Function<String, Limits> deviceLimits, KernelProfile p) {
        if (!discardEnabled) {
            return;
        }
        switch (p.thinDiscardLimit()) {
            case FIXED_16_GIB:
                l.discardGranularity = blockSectors * 512;
                l.maxDiscardSectors = 2048L * 1024 * 16;
                break;
            case BIO_PRISON_RANGE:
                l.discardGranularity = blockSectors * 512;
                l.maxHwDiscardSectors = blockSectors * 1024;
                break;
            default:
                break;
        }
        if (p.thinPoolIoHints() == KernelProfile.ThinPoolIoHints.IO_OPT_IS_BLOCK) {
            // 3.x thin_io_hints: io_min reset, io_opt = block, max discard = one block
            l.ioMin = Math.max(l.logicalBlockSize, l.physicalBlockSize);
            l.ioOpt = blockSectors * 512;
            l.maxDiscardSectors = blockSectors;
        }
    }

    // dm-thin.c: thin_map — the pool's worker may provision, zero, copy or defer: the bio is the pool's now
    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        ctx.thin().map(ctx.device(), target, bio, clone, offset);
        return MapResult.SUBMITTED;
    }

    // dm-thin.c: thin_ctr — dm_set_target_max_io_len(ti, sectors_per_block): no clone crosses a pool block
    @Override
    public long maxIoLen(MapContext ctx) {
        return ctx.thin().blockSectors(target.poolDevice());
    }

    // drivers/md/dm.c: __process_abnormal_io — since 6.5 a thin target (max_discard_granularity) also cuts a
    // discard at multiples of its max_discard_sectors
    @Override
    public long abnormalIoLen(MapContext ctx, long offset, long len) {
        if (ctx.block().profile.thinDiscardLimit() != KernelProfile.ThinDiscardLimit.BIO_PRISON_RANGE) {
            return len;
        }
        long max = ctx.block().queueLimits(ctx.device()).maxDiscardSectors;
        return Math.min(len, max - offset % max);
    }

    // dm-thin.c: thin_map — an empty flush is deferred to the worker, which commits the pool's metadata (not
    // modelled as data I/O): no clone goes to the pool
    @Override
    public List<DeviceArea> flushAreas() {
        return List.of();
    }

    // dm-thin.c: thin_ctr — discards handled by the pool when it has them enabled
    @Override
    public int numDiscardBios() {
        return discardEnabled ? 1 : 0;
    }

    @Override
    public boolean discardsSupported() {
        return discardEnabled;
    }

    @Override
    public int numWriteZeroesBios() {
        return 0;
    }
}
