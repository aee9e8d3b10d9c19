package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;

/**
 * One md personality ({@code struct md_personality}): what {@code <pers>_run} checks, the array size, the limits it
 * sets before and after stacking its members, and its request path.
 */
public interface MdPersonality {

    /** The level this personality runs. */
    MdLevel level();

    /**
     * {@code <pers>_run}'s checks of an array's configuration.
     *
     * @throws dev.dmmodel.layout.LayoutException naming the array, the field, the value and the rule
     */
    void check(String array, MdArraySpec spec);

    /** {@code <pers>_size}: the array's size in sectors. */
    long size(MdArraySpec spec);

    /** What {@code <pers>_set_limits} sets before the members are stacked ({@code mddev_stack_rdev_limits}). */
    void setLimits(Limits lim, MdArraySpec spec, KernelProfile p);

    /** What {@code <pers>_set_limits} sets after the members are stacked: nothing by default. */
    default void afterStacking(Limits lim, MdArraySpec spec, KernelProfile p) {
    }

    /** {@code <pers>_run}: the array's private state ({@code r0conf}, {@code r1conf}, ...) with its request path. */
    Conf run(MdArray array);

    /** A running array's personality state ({@code mddev->private}). */
    interface Conf {
        /** {@code pers->make_request}: a bio that passed {@code md_submit_bio}'s split to the array's limits. */
        void makeRequest(Bio bio);
    }

    /** The personality of a level. */
    static MdPersonality of(MdLevel level) {
        return switch (level) {
            case RAID0 -> Raid0.INSTANCE;
            case RAID1 -> Raid1.INSTANCE;
            case RAID10 -> Raid10.INSTANCE;
            case RAID4, RAID5, RAID6 -> Raid5.forLevel(level);
        };
    }
}
