package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code error}: every I/O fails ({@code dm-target.c: io_err}).
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 */
public record ErrorTarget(Sectors start, Sectors length) implements DmTarget {

    /** Rejects nulls and empty targets. */
    public ErrorTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("error", length);
    }

    @Override
    public String type() {
        return "error";
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
    public ErrorTarget at(Sectors newStart) {
        return new ErrorTarget(newStart, length);
    }
}
