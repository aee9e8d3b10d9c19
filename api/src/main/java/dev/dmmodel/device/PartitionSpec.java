package dev.dmmodel.device;

import dev.dmmodel.units.Sectors;
import java.util.Objects;
import java.util.Optional;

/**
 * One partition to create: at an explicit start (sector 63 is expressible), or placed the way parted
 * places it from the disk's topology ({@code align-check minimal|optimal}): after the previous partition,
 * rounded up to the alignment grain. Starts and sizes are in 512-byte sectors whatever the logical block
 * size.
 *
 * @param placement how the start is chosen
 * @param start the explicit start (only with {@link Placement#EXPLICIT})
 * @param size the size, or empty for "to the end of the disk"
 */
public record PartitionSpec(Placement placement, Optional<Sectors> start, Optional<Sectors> size) {

    /** How a partition's start is chosen. */
    public enum Placement {
        /** At the given start. */
        EXPLICIT,
        /** parted's minimal alignment: io_min (and alignment_offset) of the disk. */
        MINIMAL,
        /** parted's optimal alignment: 1 MiB unless io_opt/io_min do not divide it, then io_opt. */
        OPTIMAL
    }

    /** Checks that a start is given exactly for explicit placement. */
    public PartitionSpec {
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(size, "size");
        if ((placement == Placement.EXPLICIT) != start.isPresent()) {
            throw new IllegalArgumentException("a partition has an explicit start exactly when its placement is EXPLICIT");
        }
        size.ifPresent(s -> {
            if (s.count() == 0) {
                throw new IllegalArgumentException("partition size must be at least one sector");
            }
        });
    }

    /** A partition at {@code start} of {@code size} sectors. */
    public static PartitionSpec at(Sectors start, Sectors size) {
        return new PartitionSpec(Placement.EXPLICIT, Optional.of(start), Optional.of(size));
    }

    /** A partition at {@code start} up to the end of the disk (or of the usable area for GPT). */
    public static PartitionSpec atToEnd(Sectors start) {
        return new PartitionSpec(Placement.EXPLICIT, Optional.of(start), Optional.empty());
    }

    /** A partition placed by parted's optimal alignment; empty size = to the end. */
    public static PartitionSpec optimal(Optional<Sectors> size) {
        return new PartitionSpec(Placement.OPTIMAL, Optional.empty(), size);
    }

    /** A partition placed by parted's minimal alignment; empty size = to the end. */
    public static PartitionSpec minimal(Optional<Sectors> size) {
        return new PartitionSpec(Placement.MINIMAL, Optional.empty(), size);
    }
}
