package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.Objects;

final class Targets {
    private Targets() {
    }

    static void requirePositive(String type, Sectors length) {
        Objects.requireNonNull(length, "length");
        if (length.count() == 0) {
            throw new IllegalArgumentException(type + " target: length must be at least one sector");
        }
    }
}
