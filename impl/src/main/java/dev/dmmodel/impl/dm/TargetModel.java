package dev.dmmodel.impl.dm;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.function.Function;

/**
 * What the kernel's {@code struct target_type} of one dm target contributes: the devices it stacks on
 * ({@code iterate_devices}), its {@code io_hints}, which special operations it passes down, how long a clone
 * may be ({@code max_io_len}) and its {@code map}. One implementation per target type, in the target's package;
 * {@link DmCore} asks these and never the target's type.
 */
public interface TargetModel {

    /**
     * A device area a target uses: {@code length} sectors from {@code start} of {@code device}.
     *
     * @param device kernel name
     * @param start first sector on the device
     * @param length sectors used
     */
    record DeviceArea(String device, long start, long length) {
    }

    /** The areas passed to {@code iterate_devices} callbacks, in order. */
    List<DeviceArea> iterateDevices();

    /**
     * The target's {@code io_hints}, applied to the stacked limits of its devices.
     *
     * @param limits the target's stacked limits, updated in place
     * @param deviceLimits limits of the devices by kernel name (for targets that look below)
     * @param profile the kernel's rules
     */
    void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile);

    /** {@code ti->num_discard_bios}: 0 when the target cannot pass discards. */
    int numDiscardBios();

    /** {@code ti->discards_supported}: discards work even if the devices below lack them. */
    boolean discardsSupported();

    /** {@code ti->num_write_zeroes_bios}: 0 when the target cannot pass write-zeroes. */
    int numWriteZeroesBios();

    /**
     * Where a clone goes: a device and a sector on it.
     *
     * @param device kernel name
     * @param sector sector on the device
     */
    record Remap(String device, long sector) {
    }

    /** {@code ti->max_io_len}: no clone crosses a multiple of it, counted from the target's start (0 = none). */
    default long maxIoLen() {
        return 0;
    }

    /**
     * The target's {@code map} for a clone starting {@code offset} sectors into the target: where a plain remap
     * sends it. {@link #map(MapContext, Bio, Bio, long)} uses it unless the target does more.
     *
     * @throws UnsupportedOperationException for targets whose I/O is not modelled yet
     */
    default Remap map(long offset) {
        throw new UnsupportedOperationException(getClass().getSimpleName().replace("Model", "")
                + " target I/O is not modelled yet");
    }

    /**
     * What dm core gives a target's {@code map}: the block layer below, the dm device, dm-thin's pools,
     * dm-snapshot's origins and exception stores.
     */
    record MapContext(BlockLayer block, String device, DmCore.ThinMapper thin, DmCore.SnapshotMapper snapshots) {
    }

    /** What {@code map} did with the clone ({@code DM_MAPIO_REMAPPED}, {@code DM_MAPIO_SUBMITTED}). */
    enum MapResult {
        /** The clone now points at a device below; dm core traces the remap and submits it ({@code __map_bio}). */
        REMAPPED,
        /** The target took the clone: submitted, deferred or completed it itself. */
        SUBMITTED
    }

    /**
     * {@code target_type->map}: handles the clone of {@code bio} that starts {@code offset} sectors into the target.
     * By default the plain remap of {@link #map(long)}.
     *
     * @param ctx what dm core gives the target
     * @param bio the bio dm core is splitting (the clone's parent)
     * @param clone the clone, of the length dm core allowed
     * @param offset the clone's start, sectors into the target
     */
    default MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        Remap r = map(offset);
        clone.device = r.device();
        clone.sector = r.sector();
        return MapResult.REMAPPED;
    }

    /**
     * {@code dm_accept_partial_bio} in the target's {@code map}: how much of {@code clone} (already cut to
     * {@link #maxIoLen(MapContext)}) the target takes; dm core resubmits the rest. All of it by default.
     */
    default long acceptedLen(MapContext ctx, Bio clone) {
        return clone.sectors;
    }

    /** {@link #maxIoLen()} where it depends on state dm core holds (a thin target's pool block). */
    default long maxIoLen(MapContext ctx) {
        return maxIoLen();
    }

    /**
     * How far a discard or write-zeroes clone starting {@code offset} sectors into the target may go, of the
     * {@code len} sectors to the target's end ({@code __process_abnormal_io}): all of them by default.
     */
    default long abnormalIoLen(MapContext ctx, long offset, long len) {
        return len;
    }

    /** Where {@code __send_empty_flush} sends an empty flush: every device area, unless the target defers it. */
    default List<DeviceArea> flushAreas() {
        return iterateDevices();
    }

    /** The sector an empty flush clone to {@code area} carries: the flush's own, unless the target moves it. */
    default long emptyFlushSector(DeviceArea area, long bioSector, KernelProfile profile) {
        return bioSector;
    }

    /**
     * Whether the target makes its table request-based ({@code dm_table_determine_type}: a target with
     * {@code clone_and_map_rq} in request-based mode, i.e. dm-multipath without {@code queue_mode bio}). False by
     * default.
     */
    default boolean requestBased() {
        return false;
    }

    /**
     * Where a request-based target sends a request's clone, and what runs when the clone completes.
     *
     * @param device kernel name of the device below that takes the clone
     * @param endIo the target's {@code rq_end_io}
     */
    record RqMapping(String device, Runnable endIo) {
    }

    /**
     * {@code target_type->clone_and_map_rq}: the device below that takes the clone of the request at {@code sector}
     * of {@code bytes}, or null when the target kills it ({@code DM_MAPIO_KILL}).
     *
     * @throws UnsupportedOperationException for a target that is not request-based
     */
    default RqMapping cloneAndMapRq(MapContext ctx, long sector, long bytes) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " is not a request-based target");
    }

    /**
     * {@code target_type->status} ({@code STATUSTYPE_INFO}): what {@code dmsetup status} prints after the target's
     * type, with each device written by {@code device}; empty when the model does not say.
     */
    default String status(Function<String, String> device) {
        return "";
    }

    /**
     * The constructor's checks that need the devices below (their sizes in sectors, their limits), which a table
     * line alone cannot settle: nothing by default.
     *
     * @throws IllegalArgumentException with the kernel's {@code ti->error} text
     */
    default void checkDevices(Function<String, Long> size, Function<String, Limits> limits) {
    }

    /**
     * Work the target does itself for an empty flush, besides the clones {@link #flushAreas()} get (dm-writecache's
     * flush bio 0, which commits its metadata): nothing by default.
     */
    default void flushWork(MapContext ctx) {
    }

    /**
     * The host's clock moved from {@code fromNanos} to {@code toNanos} ({@code sleep}): the target's timers and
     * periodic work that fall due in between run (dm-cache's waker, dm-writecache's autocommit timer). Nothing by
     * default.
     */
    default void clockAdvanced(MapContext ctx, long fromNanos, long toNanos) {
    }

    /** The model of a table target, from its type ({@link TargetTypes}). */
    static TargetModel of(DmTarget target, Function<String, Long> deviceSize) {
        return TargetTypes.of(target).model(target, deviceSize);
    }
}
