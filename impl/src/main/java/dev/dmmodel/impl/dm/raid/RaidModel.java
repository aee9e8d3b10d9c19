package dev.dmmodel.impl.dm.raid;

import dev.dmmodel.dm.RaidTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.opaque.UnmodelledTargetException;
import dev.dmmodel.impl.md.raid5.Raid5Geometry;
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
 * <p>I/O ({@code raid_map} into {@code md_handle_request}) is the md personalities' (raid1, raid10, raid4/5/6 of
 * {@code impl.md}) on an mddev without a gendisk, so the members' bios are queued on the rimage devices without a
 * traced remap; writes first update the metadata devices' superblock and bitmap ({@link RaidMetadataWrites}).
 */
public final class RaidModel implements TargetModel {

    private final RaidTarget target;
    private final RaidMetadataWrites metadata;
    /** The array md runs for the target, made on the first I/O (it needs the block layer). */
    private dev.dmmodel.impl.md.MdArray array;

    RaidModel(RaidTarget target) {
        this.target = target;
        this.metadata = new RaidMetadataWrites(target, deviceSectors());
    }

    /**
     * The md array of the target ({@code rs->md}): its level and layout from the raid type ({@code raid_types[]}:
     * raid4 runs as raid5 with the parity on the first device), the chunk, and the data devices as members from
     * sector 0 over {@link #deviceSectors()}.
     */
    /** The md array running the target, once I/O reached it. */
    public java.util.Optional<dev.dmmodel.impl.md.MdArray> array() {
        return java.util.Optional.ofNullable(array);
    }

    // drivers/md/dm-raid.c: raid_types[], parse_raid_params (raid10_copies, raid10_format -> raid10_format_to_md_layout)
    dev.dmmodel.device.MdArraySpec arraySpec() {
        String type = target.raidType();
        int level = RaidTarget.level(type);
        dev.dmmodel.device.MdLevel mdLevel = switch (level) {
            case 1 -> dev.dmmodel.device.MdLevel.RAID1;
            case 5 -> dev.dmmodel.device.MdLevel.RAID5;
            case 6 -> dev.dmmodel.device.MdLevel.RAID6;
            case 10 -> dev.dmmodel.device.MdLevel.RAID10;
            default -> throw new UnsupportedOperationException("dm-raid " + type + " I/O is not modelled");
        };
        int layout = switch (type) {
            case "raid4" -> Raid5Geometry.ALGORITHM_PARITY_0;
            case "raid5_la" -> Raid5Geometry.ALGORITHM_LEFT_ASYMMETRIC;
            case "raid5_ra" -> Raid5Geometry.ALGORITHM_RIGHT_ASYMMETRIC;
            case "raid5_ls" -> Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC;
            case "raid5_rs" -> Raid5Geometry.ALGORITHM_RIGHT_SYMMETRIC;
            case "raid5_n" -> Raid5Geometry.ALGORITHM_PARITY_N;
            case "raid6_zr" -> Raid5Geometry.ALGORITHM_ROTATING_ZERO_RESTART;
            case "raid6_nr" -> Raid5Geometry.ALGORITHM_ROTATING_N_RESTART;
            case "raid6_nc" -> Raid5Geometry.ALGORITHM_ROTATING_N_CONTINUE;
            case "raid6_la_6" -> Raid5Geometry.ALGORITHM_LEFT_ASYMMETRIC_6;
            case "raid6_ra_6" -> Raid5Geometry.ALGORITHM_RIGHT_ASYMMETRIC_6;
            case "raid6_ls_6" -> Raid5Geometry.ALGORITHM_LEFT_SYMMETRIC_6;
            case "raid6_rs_6" -> Raid5Geometry.ALGORITHM_RIGHT_SYMMETRIC_6;
            case "raid6_n_6" -> Raid5Geometry.ALGORITHM_PARITY_N; // ALGORITHM_PARITY_N_6
            default -> level == 10 ? raid10Layout() : 0;
        };
        List<dev.dmmodel.device.MdMember> members = new ArrayList<>();
        long devSectors = deviceSectors();
        List<RaidTarget.Device> devices = target.raidDevices();
        for (int i = 0; i < devices.size(); i++) {
            int slot = i;
            devices.get(i).data().ifPresent(d -> members.add(new dev.dmmodel.device.MdMember(d, slot,
                    dev.dmmodel.units.Sectors.ZERO, dev.dmmodel.units.Sectors.of(devSectors))));
        }
        return new dev.dmmodel.device.MdArraySpec(mdLevel, devices.size(),
                dev.dmmodel.units.Sectors.of(level == 1 ? 0 : target.chunkSectors()), layout, "dm-raid", members);
    }

    // drivers/md/dm-raid.c: parse_raid_params — raid10_copies (2 by default) and raid10_format (near by default)
    private int raid10Layout() {
        return dev.dmmodel.impl.md.Raid10.layout(target.param("raid10_format").orElse("near"),
                target.param("raid10_copies").map(Integer::parseInt).orElse(2));
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

    // drivers/md/dm-raid.c: raid_map -> md_handle_request — the clone goes to the md personality, which submits the
    // members' bios itself; a write first marks the array active and sets its bitmap bits (RaidMetadataWrites)
    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        if (array == null) {
            try {
                array = new dev.dmmodel.impl.md.MdArray(ctx.block(), ctx.device(), arraySpec(), false);
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                throw new UnmodelledTargetException(ctx.device(), target.type(), ctx.device() + ": "
                        + e.getMessage());
            }
        }
        clone.sector = offset;
        if (clone.op == dev.dmmodel.impl.block.Op.WRITE && clone.sectors > 0) {
            metadata.beforeWrite(ctx.block());
        }
        array.handleRequest(clone);
        return MapResult.SUBMITTED;
    }

    @Override
    public void clockAdvanced(MapContext ctx, long fromNanos, long toNanos) {
        metadata.clockAdvanced(ctx.block(), fromNanos, toNanos);
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
