package dev.dmmodel.impl.dm.raid;

import dev.dmmodel.dm.RaidTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.opaque.UnmodelledTargetException;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What dm-raid's {@code struct target_type} contributes besides its I/O: the data devices it stacks on
 * ({@code raid_iterate_devices}: each data device from sector 0 over the per-device size), its {@code io_hints}
 * (the chunk as {@code io_min}, a full stripe of data as {@code io_opt}), discards passed down except for
 * raid4/5/6 ({@code configure_discard_support}: {@code devices_handle_discard_safely} is off by default), no
 * write-zeroes, {@code max_io_len} (the chunk, else the region size given), and the status of an idle array.
 *
 * <p>I/O ({@code raid_map} into {@code md_handle_request}) is the md personalities' (raid1, raid10, raid4/5/6),
 * which are not wired to dm-raid yet: {@link #map(MapContext, Bio, Bio, long)} refuses it.
 */
public final class RaidModel implements TargetModel {

    /** The refusal of dm-raid I/O until the md personalities are wired. */
    public static final String NOT_WIRED = "dm-raid I/O is modelled through the md personalities (impl.md), not yet "
            + "wired";

    private final RaidTarget target;

    RaidModel(RaidTarget target) {
        this.target = target;
    }

    /**
     * {@code mddev->dev_sectors} as {@code rs_set_dev_and_array_sectors} sets it for a new array: raid1 the target's
     * length, raid4/5/6 the length over the data devices, raid10 the length times the copies over the devices.
     */
    public long deviceSectors() {
        long len = target.length().count();
        int level = RaidTarget.level(target.raidType());
        if (level == 1) {
            return len;
        }
        if (level == 10) {
            long copies = target.param("raid10_copies").map(Long::parseLong).orElse(2L);
            return Math.multiplyExact(len, copies) / target.dataStripes();
        }
        return len / target.dataStripes();
    }

    // drivers/md/dm-raid.c: rs_set_dev_and_array_sectors -> _check_data_dev_sectors
    @Override
    public void checkDevices(Function<String, Long> size, Function<String, Limits> limits) {
        long dev = deviceSectors();
        for (RaidTarget.Device d : target.raidDevices()) {
            if (d.data().isPresent() && size.apply(d.data().get()) < dev) {
                throw new IllegalArgumentException("data device " + d.data().get() + " has "
                        + size.apply(d.data().get()) + " sectors, less than the " + dev + " of each raid device "
                        + "(raid_ctr: Component device(s) too small)");
            }
        }
    }

    // drivers/md/dm-raid.c: raid_iterate_devices — the data devices, no offset, dev_sectors each
    @Override
    public List<DeviceArea> iterateDevices() {
        List<DeviceArea> out = new ArrayList<>();
        long dev = deviceSectors();
        for (RaidTarget.Device d : target.raidDevices()) {
            d.data().ifPresent(name -> out.add(new DeviceArea(name, 0, dev)));
        }
        return out;
    }

    // drivers/md/dm-raid.c: raid_io_hints — io_min the chunk (never below the block sizes), io_opt the chunk times
    // mddev_data_stripes (0 for raid1, which has no chunk)
    @Override
    public void ioHints(Limits l, Function<String, Limits> deviceLimits, KernelProfile profile) {
        long chunkBytes = Math.multiplyExact(target.chunkSectors(), 512L);
        l.ioMin = Math.max(chunkBytes, Math.max(l.logicalBlockSize, l.physicalBlockSize));
        l.ioOpt = Math.multiplyExact(chunkBytes, target.dataStripes());
    }

    // drivers/md/dm-raid.c: configure_discard_support — num_discard_bios 1 unless raid4/5/6 (without
    // dm-raid.devices_handle_discard_safely); a data device without discards makes dm core drop them anyway
    @Override
    public int numDiscardBios() {
        int level = RaidTarget.level(target.raidType());
        return level >= 4 && level <= 6 ? 0 : 1;
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    // raid_ctr sets no num_write_zeroes_bios
    @Override
    public int numWriteZeroesBios() {
        return 0;
    }

    // drivers/md/dm-raid.c: parse_raid_params — dm_set_target_max_io_len(chunk_sectors, else the region_size given)
    @Override
    public long maxIoLen() {
        return target.chunkSectors() != 0 ? target.chunkSectors() : target.regionSize().orElse(0);
    }

    // an empty flush is the md personality's too (md_handle_request): nothing is sent until it is wired
    @Override
    public List<DeviceArea> flushAreas() {
        return List.of();
    }

    @Override
    public Remap map(long offset) {
        throw new UnsupportedOperationException(NOT_WIRED);
    }

    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        // as for a target the model does not implement: the command that sent the I/O ends, the others run
        throw new UnmodelledTargetException(ctx.device(), target.type(), ctx.device() + ": " + NOT_WIRED);
    }

    /**
     * {@code raid_status} ({@code STATUSTYPE_INFO}) of an array created {@code nosync} and idle: {@code <type>
     * <#devices> <health> <in sync>/<dev_sectors> idle 0 <data_offset 0> -}, every present device {@code A}, a
     * missing one {@code -}. Empty for an array that resyncs, whose progress the model does not follow.
     */
    @Override
    public String status(Function<String, String> device) {
        if (!target.nosync()) {
            return "";
        }
        StringBuilder health = new StringBuilder();
        for (RaidTarget.Device d : target.raidDevices()) {
            health.append(d.data().isPresent() ? 'A' : '-');
        }
        long dev = deviceSectors();
        return target.raidType() + " " + target.raidDevices().size() + " " + health + " " + dev + "/" + dev
                + " idle 0 0 -";
    }
}
