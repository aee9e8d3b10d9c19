package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code linear}: maps the range onto {@code device} from {@code offset} ({@code dm-linear.c}).
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param device kernel name of the underlying device
 * @param offset first sector on the underlying device
 */
public record LinearTarget(Sectors start, Sectors length, String device, Sectors offset) implements DmTarget {

    /** Rejects nulls and empty targets. */
    public LinearTarget {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(length, "length");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(offset, "offset");
        Targets.requirePositive("linear", length);
    }

    @Override
    public String type() {
        return "linear";
    }

    @Override
    public List<String> devices() {
        return List.of(device);
    }

    @Override
    public String arguments(Function<String, String> fmt) {
        return fmt.apply(device) + " " + offset.count();
    }

    @Override
    public LinearTarget at(Sectors newStart) {
        return new LinearTarget(newStart, length, device, offset);
    }
}
