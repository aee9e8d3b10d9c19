package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;

/**
 * A linear or striped logical volume and the dm device it is active as.
 *
 * @param vgName the volume group
 * @param name the LV name
 * @param segments segments covering logical extents 0..n without gaps
 * @param dmDevice kernel name of its dm device ({@code dm-0})
 */
public record LogicalVolume(String vgName, String name, List<LvSegment> segments, String dmDevice) {

    /** Checks that the segments cover the LV without gaps ({@code check_lv_segments}). */
    public LogicalVolume {
        Objects.requireNonNull(vgName, "vgName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dmDevice, "dmDevice");
        segments = List.copyOf(segments);
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("LV " + vgName + "/" + name + " has no segment.");
        }
        long le = 0;
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i).startExtent() != le) {
                throw new IllegalArgumentException("LV " + vgName + "/" + name + " invalid: segment " + (i + 1)
                        + " should begin at LE " + le + " (found " + segments.get(i).startExtent() + ").");
            }
            le = segments.get(i).endExtent();
        }
    }

    /** Logical extents of the LV ({@code le_count}). */
    public long extentCount() {
        return segments.get(segments.size() - 1).endExtent();
    }

    /** The dm name LVM gives it: hyphens in both names doubled ({@code my--vg-my--lv}). */
    public String dmName() {
        return dmName(vgName, name);
    }

    /** The dm name for a VG and LV ({@code dm_build_dm_name}). */
    public static String dmName(String vg, String lv) {
        return vg.replace("-", "--") + "-" + lv.replace("-", "--");
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
