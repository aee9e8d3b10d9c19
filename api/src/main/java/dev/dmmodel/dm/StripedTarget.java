package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code striped}: {@code stripes.size()} stripes of {@code chunkSectors} ({@code dm-stripe.c}).
 * The constructor checks what {@code stripe_ctr} checks: the length divides into the stripes and each
 * stripe's width into whole chunks.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param chunkSectors the chunk size in sectors
 * @param stripes the stripes in order
 */
public record StripedTarget(Sectors start, Sectors length, long chunkSectors, List<Stripe> stripes)
        implements DmTarget {

    /**
     * One stripe: a device and the first sector used on it.
     *
     * @param device kernel name
     * @param offset first sector on the device
     */
    public record Stripe(String device, Sectors offset) {
        /** Rejects nulls. */
        public Stripe {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(offset, "offset");
        }
    }

    /** Validates the geometry as {@code stripe_ctr} does. */
    public StripedTarget {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(length, "length");
        stripes = List.copyOf(stripes);
        Targets.requirePositive("striped", length);
        if (stripes.isEmpty()) {
            throw new IllegalArgumentException("striped target: at least one stripe is required");
        }
        if (chunkSectors < 8) {
            throw new IllegalArgumentException("striped target: chunk size (" + chunkSectors
                    + " sectors) must be at least one page (8 sectors)");
        }
        if (length.count() % stripes.size() != 0) {
            throw new IllegalArgumentException("striped target: length (" + length.count()
                    + " sectors) is not divisible by the number of stripes (" + stripes.size() + ")");
        }
        long width = length.count() / stripes.size();
        if (width % chunkSectors != 0) {
            throw new IllegalArgumentException("striped target: stripe width (" + width
                    + " sectors) is not divisible by the chunk size (" + chunkSectors + " sectors)");
        }
    }

    /** Sectors mapped on each stripe ({@code stripe_width}). */
    public long stripeWidth() {
        return length.count() / stripes.size();
    }

    @Override
    public String type() {
        return "striped";
    }

    @Override
    public List<String> devices() {
        return stripes.stream().map(Stripe::device).toList();
    }

    @Override
    public String arguments(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder().append(stripes.size()).append(' ').append(chunkSectors);
        for (Stripe s : stripes) {
            sb.append(' ').append(fmt.apply(s.device())).append(' ').append(s.offset().count());
        }
        return sb.toString();
    }

    @Override
    public StripedTarget at(Sectors newStart) {
        return new StripedTarget(newStart, length, chunkSectors, stripes);
    }
}
