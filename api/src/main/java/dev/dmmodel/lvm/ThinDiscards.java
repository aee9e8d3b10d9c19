package dev.dmmodel.lvm;

import java.util.Locale;

/**
 * How a thin pool treats discards ({@code --discards}, {@code allocation/thin_pool_discards},
 * {@code lib/thin/thin.c}); the default is {@link #PASSDOWN}.
 */
public enum ThinDiscards {
    /** Discards are ignored: table feature {@code ignore_discard}. */
    IGNORE,
    /** Discards free pool blocks but are not passed to the data device: {@code no_discard_passdown}. */
    NOPASSDOWN,
    /** Discards free pool blocks and are passed down (no table feature). */
    PASSDOWN;

    /** The word in metadata and on the command line: {@code ignore}, {@code nopassdown}, {@code passdown}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The discards mode a word names, case-insensitively ({@code set_pool_discards}).
     *
     * @throws IllegalArgumentException with LVM's message for an unknown word
     */
    public static ThinDiscards ofWord(String word) {
        for (ThinDiscards d : values()) {
            if (d.word().equalsIgnoreCase(word)) {
                return d;
            }
        }
        throw new IllegalArgumentException("Thin pool discards type \"" + word + "\" is unknown.");
    }
}
