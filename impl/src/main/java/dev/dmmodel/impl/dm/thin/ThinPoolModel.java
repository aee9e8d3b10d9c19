package dev.dmmodel.impl.dm.thin;

import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.block.KernelMath;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/** dm-thin's pool target ({@code drivers/md/dm-thin.c}, {@code pool_*}). */
final class ThinPoolModel implements TargetModel {
    private final ThinPoolTarget target;

    /** The model of one thin-pool table target. */
    public ThinPoolModel(ThinPoolTarget target) {
        this.target = target;
    }

    // dm-thin.c: pool_iterate_devices — only the data device; the metadata device is not stacked
    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of(new DeviceArea(target.dataDevice(), 0, target.length().count()));
    }

    // dm-thin.c: pool_io_hints
    @Override
    public void ioHints(Limits l, Function<String, Limits> deviceLimits, KernelProfile p) {
        long bs = target.blockSectors();
        boolean passdown = discardPassdownSupported(deviceLimits.apply(target.dataDevice()));
        switch (p.thinPoolIoHints()) {
            case IO_OPT_IS_BLOCK:
                // 3.2 – 3.18: blk_limits_io_min(limits, 0); blk_limits_io_opt(limits, block); set_discard_limits
                l.ioMin = Math.max(l.logicalBlockSize, l.physicalBlockSize);
                l.ioOpt = bs * 512;
                if (target.discardEnabled()) {
                    l.maxDiscardSectors = bs;
                    l.discardGranularity = passdown ? deviceLimits.apply(target.dataDevice()).discardGranularity
                            : bs * 512;
                } else {
                    l.discardGranularity = 0;
                }
                return;
            case BLOCK_SIZE_HINTS:
                blockSizeHints(l, bs);
                if (!target.discardEnabled()) {
                    // must explicitly disallow stacking the data device's discard limits
                    l.discardGranularity = 0;
                } else if (!passdown && p.validateLimitsOnCommit()) {
                    l.maxHwDiscardSectors = 0;
                }
                return;
            default:
                return;
        }
    }

    // dm-thin.c: pool_io_hints (3.19+) — max_sectors cut to a power-of-two factor of the block; io_min/io_opt hints
    static void blockSizeHints(Limits l, long bs) {
        if (l.maxSectors < bs) {
            while (bs % l.maxSectors != 0) {
                if (KernelMath.isPowerOfTwo(l.maxSectors)) {
                    l.maxSectors--;
                }
                l.maxSectors = KernelMath.roundDownPowerOfTwo(l.maxSectors);
            }
        }
        long ioOptSectors = l.ioOpt / 512;
        if (ioOptSectors < bs || ioOptSectors % bs != 0) {
            long min = bs % l.maxSectors == 0 ? l.maxSectors * 512 : bs * 512;
            l.ioMin = Math.max(min, Math.max(l.logicalBlockSize, l.physicalBlockSize));
            l.ioOpt = bs * 512;
        }
    }

    // dm-thin.c: disable_discard_passdown_if_not_supported — the data device must take discards of a whole block
    private boolean discardPassdownSupported(Limits data) {
        return target.discardPassdown() && data != null && data.maxDiscardSectors != 0
                && data.maxDiscardSectors >= target.blockSectors();
    }

    // dm-thin.c: pool_map — everything goes to the data device at the same sector
    @Override
    public Remap map(long offset) {
        return new Remap(target.dataDevice(), offset);
    }

    // dm-thin.c: pool_ctr — one discard bio; discards_supported so dm core does not require them below
    @Override
    public int numDiscardBios() {
        return target.discardEnabled() ? 1 : 0;
    }

    @Override
    public boolean discardsSupported() {
        return target.discardEnabled();
    }

    @Override
    public int numWriteZeroesBios() {
        return 0;
    }
}
