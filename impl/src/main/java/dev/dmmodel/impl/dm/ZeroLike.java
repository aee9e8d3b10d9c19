package dev.dmmodel.impl.dm;

import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/**
 * A target that completes I/O itself, with no device below: dm-zero or dm-error. Neither iterates devices nor
 * sets io_hints, discard or write-zeroes bios ({@code dm-zero.c: zero_ctr}, {@code dm-target.c: io_err_ctr}).
 */
public interface ZeroLike extends TargetModel {
    /** Whether I/O fails (dm-error) rather than succeeding with zeroes (dm-zero). */
    boolean fails();

    // dm-zero.c: zero_map (reads zero-filled, writes dropped) / dm-target.c: io_err_map (DM_MAPIO_KILL): the clone
    // completes without I/O below
    @Override
    default MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        if (fails()) {
            ctx.block().fail(clone, ctx.device() + ": Input/output error (error target)");
        } else {
            ctx.block().complete(clone);
        }
        return MapResult.SUBMITTED;
    }

    @Override
    default List<DeviceArea> iterateDevices() {
        return List.of();
    }

    @Override
    default void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile) {
    }

    @Override
    default int numDiscardBios() {
        return 0;
    }

    @Override
    default boolean discardsSupported() {
        return false;
    }

    @Override
    default int numWriteZeroesBios() {
        return 0;
    }
}
