package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A segment of an LV: logical extents {@code [startExtent, startExtent + extentCount)}. A striped (or
 * linear) segment spreads them over {@code areas.size()} stripes of {@code extentCount / stripes}
 * physical extents each ({@code striped.c}); a {@code thin-pool} or {@code thin} segment has no PV areas
 * and says what it maps in its {@link #type()}.
 *
 * @param startExtent first logical extent ({@code start_extent})
 * @param extentCount logical extents ({@code extent_count})
 * @param stripeSize the stripe size in sectors (0 for a linear segment and for the thin types)
 * @param areas one area per stripe; none for the thin types
 * @param type what the segment maps onto
 */
public record LvSegment(long startExtent, long extentCount, Sectors stripeSize, List<StripeArea> areas,
                        SegmentType type) {

    /** Checks what {@code _striped_text_import}, the thin importers and {@code check_lv_segments} check. */
    public LvSegment {
        Objects.requireNonNull(stripeSize, "stripeSize");
        Objects.requireNonNull(type, "type");
        areas = List.copyOf(areas);
        if (startExtent < 0 || extentCount <= 0) {
            throw new IllegalArgumentException("LV segment at LE " + startExtent + " with " + extentCount
                    + " extents: the start must not be negative and the count must be positive");
        }
        if (type instanceof SegmentType.Striped) {
            if (areas.isEmpty()) {
                throw new IllegalArgumentException("Zero areas not allowed for segment at LE " + startExtent);
            }
            if (extentCount % areas.size() != 0) {
                throw new IllegalArgumentException("LV segment at LE " + startExtent + ": extent count " + extentCount
                        + " is not divisible by the " + areas.size() + " stripes");
            }
            if (areas.size() > 1 && stripeSize.count() == 0) {
                throw new IllegalArgumentException("LV segment at LE " + startExtent
                        + ": a striped segment needs a stripe size");
            }
        } else if (!areas.isEmpty() || stripeSize.count() != 0) {
            throw new IllegalArgumentException("LV segment at LE " + startExtent + ": a " + type.typeName()
                    + " segment has no PV areas and no stripe size");
        }
    }

    /** A striped segment ({@code stripeSize} 0 and one area for linear). */
    public LvSegment(long startExtent, long extentCount, Sectors stripeSize, List<StripeArea> areas) {
        this(startExtent, extentCount, stripeSize, areas, SegmentType.STRIPED);
    }

    /** The single segment of a thin pool of {@code extentCount} extents. */
    public static LvSegment thinPool(long extentCount, SegmentType.ThinPool pool) {
        return new LvSegment(0, extentCount, Sectors.ZERO, List.of(), pool);
    }

    /** The single segment of a thin volume of {@code extentCount} virtual extents. */
    public static LvSegment thin(long extentCount, SegmentType.Thin thin) {
        return new LvSegment(0, extentCount, Sectors.ZERO, List.of(), thin);
    }

    /** The number of stripes (1 = linear; 0 for the thin types, which have no PV areas). */
    public int stripes() {
        return areas.size();
    }

    /**
     * Physical extents used on each stripe ({@code area_len}); for a thin pool the length of its one data-LV
     * area, which is the segment's length, and likewise for a thin volume.
     */
    public long areaLength() {
        return areas.isEmpty() ? extentCount : extentCount / areas.size();
    }

    /** The logical extent after the last one. */
    public long endExtent() {
        return startExtent + extentCount;
    }

    /** Whether the segment maps PV extents (striped or linear), as opposed to a thin pool or thin volume. */
    public boolean isStriped() {
        return type instanceof SegmentType.Striped;
    }

    /** The thin-pool details, if this is a {@code thin-pool} segment. */
    public Optional<SegmentType.ThinPool> thinPool() {
        return type instanceof SegmentType.ThinPool p ? Optional.of(p) : Optional.empty();
    }

    /** The thin-volume details, if this is a {@code thin} segment. */
    public Optional<SegmentType.Thin> thin() {
        return type instanceof SegmentType.Thin t ? Optional.of(t) : Optional.empty();
    }

    /** {@code linear}, {@code striped}, {@code thin-pool} or {@code thin}, as {@code lvs -o segtype} reports it. */
    public String segType() {
        if (isStriped()) {
            return areas.size() == 1 ? "linear" : "striped";
        }
        return type.typeName();
    }
}
