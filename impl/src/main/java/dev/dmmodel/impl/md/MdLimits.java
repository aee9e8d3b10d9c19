package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.impl.block.BlockLimits;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.LimitsObserver;
import dev.dmmodel.impl.dm.DeviceView;
import dev.dmmodel.limits.KernelProfile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** An md array's queue limits: the personality's, stacked from every member at its data offset. */
public final class MdLimits {
    private static final Logger LOG = LoggerFactory.getLogger(MdLimits.class);

    private MdLimits() {
    }

    /**
     * The limits of array {@code name}: {@code md_init_stacking_limits}, the personality's settings, every member's
     * queue stacked at the member's start plus its data offset ({@code mddev_stack_rdev_limits}), the
     * personality's overrides, then the commit's validation and read-ahead.
     *
     * @param spec the array, members by kernel name
     * @param view the devices below
     */
    // drivers/md/md.c: md_init_stacking_limits, mddev_stack_rdev_limits (queue_limits_stack_bdev at data_offset)
    public static Limits compute(String name, MdArraySpec spec, DeviceView view, KernelProfile p) {
        return compute(name, spec, view, p, LimitsObserver.NONE);
    }

    /** {@link #compute(String, MdArraySpec, DeviceView, KernelProfile)}, each step shown to {@code obs}. */
    public static Limits compute(String name, MdArraySpec spec, DeviceView view, KernelProfile p,
                                 LimitsObserver obs) {
        boolean watch = obs != LimitsObserver.NONE;
        MdPersonality pers = MdPersonality.of(spec.level());
        Limits lim = BlockLimits.stackingDefaults(p);
        if (watch) {
            obs.defaults(lim.copy());
        }
        pers.setLimits(lim, spec, p);
        if (watch) {
            obs.personality(lim.copy());
        }
        int index = 0;
        for (MdMember m : spec.members()) {
            index++;
            long start = Math.addExact(view.startSector(m.device()), m.dataOffset().count());
            if (!BlockLimits.stack(lim, view.queueLimits(m.device()), start, p)) {
                LOG.debug("{}: member {} at sector {} is misaligned with the other members", name, m.device(), start);
            }
            if (watch) {
                obs.stacked(index, m.device(), start, lim.copy());
            }
        }
        Limits before = watch ? lim.copy() : null;
        pers.afterStacking(lim, spec, p);
        if (watch) {
            obs.afterStacking(before, lim.copy());
            before = lim.copy();
        }
        BlockLimits.validateOnCommit(lim, p, obs);
        if (watch) {
            obs.committed(before, lim.copy());
            before = lim.copy();
        }
        BlockLimits.updateReadAhead(lim, p, obs);
        if (watch) {
            obs.readAhead(before, lim.copy());
        }
        return lim;
    }
}
