package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;

/**
 * A segment of a linear or striped LV: logical extents {@code [startExtent, startExtent + extentCount)}
 * spread over {@code areas.size()} stripes, each of {@code extentCount / stripes} physical extents
 * ({@code striped.c}).
 *
 * @param startExtent first logical extent ({@code start_extent})
 * @param extentCount logical extents ({@code extent_count})
 * @param stripeSize the stripe size in sectors (0 for a linear segment)
 * @param areas one area per stripe
 */
public record LvSegment(long startExtent, long extentCount, Sectors stripeSize, List<StripeArea> areas) {

    /** Checks what {@code _striped_text_import} and {@code check_lv_segments} check. */
    public LvSegment {
        Objects.requireNonNull(stripeSize, "stripeSize");
        areas = List.copyOf(areas);
        if (startExtent < 0 || extentCount <= 0) {
            throw new IllegalArgumentException("LV segment at LE " + startExtent + " with " + extentCount
                    + " extents: the start must not be negative and the count must be positive");
        }
        if (areas.isEmpty()) {
            throw new IllegalArgumentException("Zero areas not allowed for segment at LE " + startExtent);
        }
        if (extentCount % areas.size() != 0) {
            throw new IllegalArgumentException("LV segment at LE " + startExtent + ": extent count " + extentCount
                    + " is not divisible by the " + areas.size() + " stripes");
        }
        if (areas.size() > 1 && stripeSize.count() == 0) {
            throw new IllegalArgumentException("LV segment at LE " + startExtent + ": a striped segment needs a stripe size");
        }
    }

    /** The number of stripes (1 = linear). */
    public int stripes() {
        return areas.size();
    }

    /** Physical extents used on each stripe ({@code area_len}). */
    public long areaLength() {
        return extentCount / areas.size();
    }

    /** The logical extent after the last one. */
    public long endExtent() {
        return startExtent + extentCount;
    }

    /** {@code linear} or {@code striped}, as {@code lvs -o segtype} reports it. */
    public String segType() {
        return areas.size() == 1 ? "linear" : "striped";
    }
}
