package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code zero}: reads return zeroes, writes are discarded ({@code dm-zero.c}).
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 */
public record ZeroTarget(Sectors start, Sectors length) implements DmTarget {

    /** Rejects nulls and empty targets. */
    public ZeroTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("zero", length);
    }

    @Override
    public String type() {
        return "zero";
    }

    @Override
    public List<String> devices() {
        return List.of();
    }

    @Override
    public String arguments(Function<String, String> fmt) {
        return "";
    }

    @Override
    public ZeroTarget at(Sectors newStart) {
        return new ZeroTarget(newStart, length);
    }
}
