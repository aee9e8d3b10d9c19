package dev.dmmodel.units;

/** Formatting of byte counts for messages. */
public final class Sizes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Sizes() {
    }

    /**
     * Formats bytes with the largest binary unit that divides them exactly ({@code 1048576 -> 1MiB},
     * {@code 33280 -> 32.5KiB}: one decimal only where exact, else the smaller unit).
     */
    public static String format(long bytes) {
        if (bytes == 0) {
            return "0B";
        }
        int u = 0;
        long v = bytes;
        while (u < UNITS.length - 1 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        if (u < UNITS.length - 1 && v >= 1024 && (v * 10) % 1024 == 0) {
            return (v / 1024) + "." + ((v * 10 / 1024) % 10) + UNITS[u + 1];
        }
        return v + UNITS[u];
    }

    /** Formats a sector count with its size: {@code 2753 sectors (1.3MiB)}. */
    public static String sectors(long sectors) {
        return sectors + " sectors (" + format(sectors * 512) + ")";
    }
}
