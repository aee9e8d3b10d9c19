package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A logical volume and the dm device it is active as: a linear or striped LV, a thin pool, a thin volume
 * (or thin snapshot), or one of a pool's hidden sub-LVs.
 *
 * @param vgName the volume group
 * @param name the LV name
 * @param segments segments covering logical extents 0..n without gaps; a thin pool or thin volume has one
 * @param dmDevice kernel name of its dm device ({@code dm-0}), or empty if the LV is not active (a pool
 *     metadata spare, a thin snapshot skipped from activation)
 * @param role what the LV is for; also decides its visibility
 * @param flags its LV flags ({@code ACTIVATION_SKIP}, {@code ERROR_WHEN_FULL})
 */
public record LogicalVolume(String vgName, String name, List<LvSegment> segments, String dmDevice, LvRole role,
                            Set<LvFlag> flags) {

    /**
     * Checks that the segments cover the LV without gaps ({@code check_lv_segments}) and agree with the
     * role: a thin pool, thin volume, snapshot, cache pool, cached, write-cached or RAID LV has exactly one
     * segment of its type, the others only striped ones;
     * hidden sub-LVs carry the suffix LVM gives them.
     */
    public LogicalVolume {
        Objects.requireNonNull(vgName, "vgName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dmDevice, "dmDevice");
        Objects.requireNonNull(role, "role");
        segments = List.copyOf(segments);
        flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
        String lv = vgName + "/" + name;
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("LV " + lv + " has no segment.");
        }
        long le = 0;
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i).startExtent() != le) {
                throw new IllegalArgumentException("LV " + lv + " invalid: segment " + (i + 1)
                        + " should begin at LE " + le + " (found " + segments.get(i).startExtent() + ").");
            }
            le = segments.get(i).endExtent();
        }
        checkRole(lv, name, segments, role);
    }

    /** A visible LV whose role follows from its segments (thin pool, thin volume, else a public LV). */
    public LogicalVolume(String vgName, String name, List<LvSegment> segments, String dmDevice) {
        this(vgName, name, segments, dmDevice, roleOf(segments), Set.of());
    }

    private static LvRole roleOf(List<LvSegment> segments) {
        if (segments.isEmpty()) {
            return LvRole.PUBLIC;
        }
        SegmentType t = segments.get(0).type();
        if (t instanceof SegmentType.ThinPool) {
            return LvRole.THIN_POOL;
        } else if (t instanceof SegmentType.Thin) {
            return LvRole.THIN_VOLUME;
        } else if (t instanceof SegmentType.Snapshot) {
            return LvRole.SNAPSHOT;
        } else if (t instanceof SegmentType.CachePool) {
            return LvRole.CACHE_POOL;
        } else if (t instanceof SegmentType.Cache) {
            return LvRole.CACHED;
        } else if (t instanceof SegmentType.Writecache) {
            return LvRole.WRITECACHED;
        } else if (t instanceof SegmentType.Raid) {
            return LvRole.RAID;
        }
        return LvRole.PUBLIC;
    }

    // the segment type an LV of the role has: the pool and cache types have exactly one segment of it
    private static Optional<Class<? extends SegmentType>> singleSegmentType(LvRole role) {
        return Optional.ofNullable(switch (role) {
            case THIN_POOL -> SegmentType.ThinPool.class;
            case THIN_VOLUME -> SegmentType.Thin.class;
            case SNAPSHOT -> SegmentType.Snapshot.class;
            case CACHE_POOL, CACHE_POOL_IN_USE -> SegmentType.CachePool.class;
            case CACHED -> SegmentType.Cache.class;
            case WRITECACHED -> SegmentType.Writecache.class;
            case RAID -> SegmentType.Raid.class;
            default -> null;
        });
    }

    // lib/metadata/merge.c: check_lv_segments_complete_vg (pool segments), with the names LVM gives sub-LVs
    private static void checkRole(String lv, String name, List<LvSegment> segments, LvRole role) {
        Optional<Class<? extends SegmentType>> single = singleSegmentType(role);
        if (single.isPresent() && segments.size() != 1) {
            String noun = switch (role) {
                case THIN_POOL -> "a thin pool";
                case THIN_VOLUME -> "a thin volume";
                case SNAPSHOT -> "a snapshot";
                case CACHE_POOL, CACHE_POOL_IN_USE -> "a cache pool";
                case CACHED -> "a cached LV";
                case RAID -> "a RAID LV";
                default -> "a write-cached LV";
            };
            throw new IllegalArgumentException("LV " + lv + ": " + noun + " must have exactly one segment (found "
                    + segments.size() + ")");
        }
        for (LvSegment s : segments) {
            boolean fits = single.map(c -> c.isInstance(s.type())).orElse(s.isStriped());
            if (!fits) {
                throw new IllegalArgumentException("LV " + lv + ": a " + s.type().typeName()
                        + " segment does not fit an LV of role " + role);
            }
        }
        String suffix = switch (role) {
            case THIN_POOL_DATA -> "_tdata";
            case THIN_POOL_METADATA -> "_tmeta";
            case POOL_METADATA_SPARE -> "_pmspare";
            case CACHE_POOL_IN_USE -> "_cpool";
            case CACHE_POOL_DATA -> "_cdata";
            case CACHE_POOL_METADATA -> "_cmeta";
            case CACHE_ORIGIN -> "_corig";
            case WRITECACHE_ORIGIN -> "_wcorig";
            case CACHE_VOLUME -> "_cvol";
            default -> null;
        };
        if (suffix != null && !name.endsWith(suffix)) {
            throw new IllegalArgumentException("LV " + lv + ": an LV of role " + role + " is named *" + suffix);
        }
        // lib/metadata/raid_manip.c: _generate_raid_name — <lv>_rimage_N and <lv>_rmeta_N
        String raidInfix = role == LvRole.RAID_IMAGE ? "_rimage_" : role == LvRole.RAID_METADATA ? "_rmeta_" : null;
        if (raidInfix != null && !name.matches(".+" + raidInfix + "[0-9]+")) {
            throw new IllegalArgumentException("LV " + lv + ": an LV of role " + role + " is named *" + raidInfix + "N");
        }
    }

    /** Logical extents of the LV ({@code le_count}); for a thin volume its virtual size in extents. */
    public long extentCount() {
        return segments.get(segments.size() - 1).endExtent();
    }

    /** Whether the LV is visible ({@code VISIBLE} status); hidden sub-LVs and the spare are not. */
    public boolean visible() {
        return role.visible();
    }

    /** Whether the LV has a dm device. */
    public boolean isActive() {
        return !dmDevice.isEmpty();
    }

    /** Whether the LV carries the flag. */
    public boolean hasFlag(LvFlag flag) {
        return flags.contains(flag);
    }

    /** The thin-pool details of a thin pool LV. */
    public Optional<SegmentType.ThinPool> thinPool() {
        return segments.get(0).thinPool();
    }

    /** The thin-volume details of a thin LV. */
    public Optional<SegmentType.Thin> thin() {
        return segments.get(0).thin();
    }

    /** This LV active as another dm device (or inactive, with an empty name). */
    public LogicalVolume withDmDevice(String device) {
        return new LogicalVolume(vgName, name, segments, device, role, flags);
    }

    /** This LV with other segments (same role and flags). */
    public LogicalVolume withSegments(List<LvSegment> newSegments) {
        return new LogicalVolume(vgName, name, newSegments, dmDevice, role, flags);
    }

    /** The dm name LVM gives it: hyphens in both names doubled ({@code my--vg-my--lv}). */
    public String dmName() {
        return dmName(vgName, name);
    }

    /** The dm name for a VG and LV ({@code dm_build_dm_name}). */
    public static String dmName(String vg, String lv) {
        return vg.replace("-", "--") + "-" + lv.replace("-", "--");
    }

    /**
     * The dm name for a VG, LV and layer ({@code dm_build_dm_name}): {@code vg-pool-tpool}; no separating
     * hyphen before a layer starting with {@code _}. An empty layer gives {@link #dmName(String, String)}.
     */
    public static String dmName(String vg, String lv, String layer) {
        if (layer.isEmpty()) {
            return dmName(vg, lv);
        }
        return dmName(vg, lv) + (layer.startsWith("_") ? "" : "-") + layer.replace("-", "--");
    }

    /**
     * The VG and LV names of an LVM dm name, split at its one single hyphen as {@code dm_split_lvm_name} does
     * ({@code my--vg-my--lv} gives {@code [my-vg, my-lv]}); empty when the name has no single hyphen, more than
     * one, or an empty side (a name with a layer, such as {@code vg-pool-tpool}, is not an LV's own name).
     *
     * @return a list of the two names, or empty
     */
    public static java.util.Optional<List<String>> splitDmName(String dmName) {
        java.util.Objects.requireNonNull(dmName, "dmName");
        int split = -1;
        for (int i = 0; i < dmName.length(); i++) {
            if (dmName.charAt(i) != '-') {
                continue;
            }
            if (i + 1 < dmName.length() && dmName.charAt(i + 1) == '-') {
                i++;
                continue;
            }
            if (split >= 0) {
                return java.util.Optional.empty();
            }
            split = i;
        }
        if (split <= 0 || split == dmName.length() - 1) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(List.of(dmName.substring(0, split).replace("--", "-"),
                dmName.substring(split + 1).replace("--", "-")));
    }

    /** The LV's path, {@code /dev/vg/lv}. */
    public String path() {
        return "/dev/" + vgName + "/" + name;
    }

    /** Size in sectors, given the VG's extent size. */
    public Sectors size(Sectors extentSize) {
        return extentSize.times(extentCount());
    }
}
