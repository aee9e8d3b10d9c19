package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.impl.block.BlockLimits;
import dev.dmmodel.impl.block.Limits;
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
        MdPersonality pers = MdPersonality.of(spec.level());
        Limits lim = BlockLimits.stackingDefaults(p);
        pers.setLimits(lim, spec, p);
        for (MdMember m : spec.members()) {
            long start = Math.addExact(view.startSector(m.device()), m.dataOffset().count());
            if (!BlockLimits.stack(lim, view.queueLimits(m.device()), start, p)) {
                LOG.debug("{}: member {} at sector {} is misaligned with the other members", name, m.device(), start);
            }
        }
        pers.afterStacking(lim, spec, p);
        BlockLimits.validateOnCommit(lim, p);
        BlockLimits.updateReadAhead(lim, p);
        return lim;
    }
}
