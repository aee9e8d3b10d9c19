package dev.dmmodel.lvm;

import dev.dmmodel.units.Bytes;
import java.util.List;
import java.util.Objects;

/**
 * An {@code lvcreate --type raid1|raid4|raid5*|raid6*} of a RAID LV: its segment type, a size ({@code -L}) or an
 * extent count ({@code -l}), the mirrors ({@code -m}, raid1), data stripes ({@code -i}) and stripe size
 * ({@code -I}, raid4/5/6), region size ({@code -R}), {@code --nosync}, the allocation policy and the PVs to use.
 *
 * @param name the LV name
 * @param raidType LVM's segment type: {@code raid1}, {@code raid4}, {@code raid5} or a raid5 layout, {@code raid6}
 *     or a raid6 layout (not raid10, whose layout is not modelled yet)
 * @param size {@code -L}, or null when {@code extents} is given
 * @param extents {@code -l}, or 0 when {@code size} is given
 * @param mirrors {@code -m}: additional copies (raid1; 0 = not given, the default 1)
 * @param stripes {@code -i}: data stripes (raid4/5/6; 0 = not given: 2 for raid4/5, 3 for raid6)
 * @param stripeSize {@code -I}, or null for the default 64 KiB (raid4/5/6)
 * @param regionSize {@code -R}, or null for {@code activation/raid_region_size} (2 MiB)
 * @param nosync {@code --nosync}: skip the initial synchronisation ({@code NOTSYNCED})
 * @param policy {@code --alloc}
 * @param pvs the PVs to allocate from, in command-line order; empty = every PV of the VG
 */
public record RaidLvRequest(String name, String raidType, Bytes size, long extents, int mirrors, int stripes,
                            Bytes stripeSize, Bytes regionSize, boolean nosync, AllocationPolicy policy,
                            List<String> pvs) {

    /** Rejects nulls, a request with neither or both of size and extents, and negative counts. */
    public RaidLvRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(raidType, "raidType");
        Objects.requireNonNull(policy, "policy");
        pvs = List.copyOf(Objects.requireNonNull(pvs, "pvs"));
        if ((size == null) == (extents == 0)) {
            throw new IllegalArgumentException("lvcreate " + name + ": give exactly one of a size (-L) and an extent "
                    + "count (-l)");
        }
        if (extents < 0 || mirrors < 0 || stripes < 0) {
            throw new IllegalArgumentException("lvcreate " + name + ": extents, mirrors and stripes may not be "
                    + "negative");
        }
    }

    /** {@code lvcreate --type raid1 -m MIRRORS -L SIZE -n NAME}. */
    public static RaidLvRequest raid1(String name, Bytes size, int mirrors) {
        return new RaidLvRequest(name, "raid1", size, 0, mirrors, 0, null, null, false, AllocationPolicy.INHERIT,
                List.of());
    }

    /** {@code lvcreate --type TYPE -i STRIPES -I STRIPESIZE -L SIZE -n NAME} (raid4/5/6). */
    public static RaidLvRequest striped(String name, String raidType, Bytes size, int stripes, Bytes stripeSize) {
        return new RaidLvRequest(name, raidType, size, 0, 0, stripes, stripeSize, null, false,
                AllocationPolicy.INHERIT, List.of());
    }

    /** This request with {@code --nosync}. */
    public RaidLvRequest withNosync() {
        return new RaidLvRequest(name, raidType, size, extents, mirrors, stripes, stripeSize, regionSize, true, policy,
                pvs);
    }

    /** This request allocating from these PVs, in this order. */
    public RaidLvRequest onPvs(String... devices) {
        return new RaidLvRequest(name, raidType, size, extents, mirrors, stripes, stripeSize, regionSize, nosync,
                policy, List.of(devices));
    }

    /** This request with {@code -R}. */
    public RaidLvRequest withRegionSize(Bytes region) {
        return new RaidLvRequest(name, raidType, size, extents, mirrors, stripes, stripeSize,
                Objects.requireNonNull(region, "region"), nosync, policy, pvs);
    }
}
