package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A device-mapper table: targets back to back from sector 0 without gaps or overlaps
 * ({@code dm_table_add_target}: "Gap in table").
 *
 * @param targets the targets in order
 */
public record DmTable(List<DmTarget> targets) {

    /** Checks that the targets are contiguous from sector 0. */
    public DmTable {
        targets = List.copyOf(targets);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a dm table needs at least one target");
        }
        long next = 0;
        for (DmTarget t : targets) {
            if (t.start().count() != next) {
                throw new IllegalArgumentException("dm table: Gap in table: target " + t.type() + " starts at sector "
                        + t.start().count() + ", expected " + next);
            }
            next = t.end().count();
        }
    }

    /** The table's size: the end of its last target. */
    public Sectors size() {
        return targets.get(targets.size() - 1).end();
    }

    /** Every device the table uses, in table order, with repeats. */
    public List<String> devices() {
        List<String> out = new ArrayList<>();
        for (DmTarget t : targets) {
            out.addAll(t.devices());
        }
        return List.copyOf(out);
    }

    /** The table as {@code dmsetup table} prints it (one line per target, no name prefix). */
    public String format(Function<String, String> device) {
        StringBuilder sb = new StringBuilder();
        for (DmTarget t : targets) {
            sb.append(t.start().count()).append(' ').append(t.length().count()).append(' ').append(t.type());
            String args = t.arguments(device);
            if (!args.isEmpty()) {
                sb.append(' ').append(args);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A builder that places targets back to back. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a table by appending targets; each starts where the previous one ended. */
    public static final class Builder {
        private final List<DmTarget> targets = new ArrayList<>();
        private Sectors next = Sectors.ZERO;

        Builder() {
        }

        /** Appends any target, moved to the current end of the table. */
        public Builder add(DmTarget target) {
            DmTarget t = target.at(next);
            targets.add(t);
            next = t.end();
            return this;
        }

        /** Appends {@code linear device offset}. */
        public Builder linear(Sectors length, String device, Sectors offset) {
            return add(new LinearTarget(next, length, device, offset));
        }

        /** Appends {@code striped}: stripes given as alternating device names and offsets via {@link StripedTarget.Stripe}. */
        public Builder striped(Sectors length, long chunkSectors, List<StripedTarget.Stripe> stripes) {
            return add(new StripedTarget(next, length, chunkSectors, stripes));
        }

        /** Appends {@code zero}. */
        public Builder zero(Sectors length) {
            return add(new ZeroTarget(next, length));
        }

        /** Appends {@code error}. */
        public Builder error(Sectors length) {
            return add(new ErrorTarget(next, length));
        }

        /** Appends {@code thin-pool}. */
        public Builder thinPool(Sectors length, String metadataDevice, String dataDevice, long blockSectors,
                                long lowWaterMark, ThinPoolFeature... features) {
            return add(new ThinPoolTarget(next, length, metadataDevice, dataDevice, blockSectors, lowWaterMark,
                    features.length == 0 ? java.util.Set.of() : java.util.EnumSet.copyOf(List.of(features))));
        }

        /** Appends {@code thin}. */
        public Builder thin(Sectors length, String poolDevice, long deviceId) {
            return add(new ThinTarget(next, length, poolDevice, deviceId, java.util.Optional.empty()));
        }

        /** Builds the table. */
        public DmTable build() {
            return new DmTable(targets);
        }
    }
}
