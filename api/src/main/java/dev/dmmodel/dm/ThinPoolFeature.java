package dev.dmmodel.dm;

import java.util.Locale;

/** Feature words of a {@code thin-pool} table line ({@code dm-thin.c: parse_pool_features}). */
public enum ThinPoolFeature {
    /** Provision new blocks without zeroing them first. */
    SKIP_BLOCK_ZEROING,
    /** Ignore discards. */
    IGNORE_DISCARD,
    /** Process discards but do not pass them down to the data device. */
    NO_DISCARD_PASSDOWN,
    /** Open the pool read-only. */
    READ_ONLY,
    /** Fail writes at once when the data device is full instead of queueing them. */
    ERROR_IF_NO_SPACE;

    /** The word in the table: {@code skip_block_zeroing} ... */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The feature a table word names.
     *
     * @throws IllegalArgumentException naming the word and the known words
     */
    public static ThinPoolFeature ofWord(String word) {
        for (ThinPoolFeature f : values()) {
            if (f.word().equals(word)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown thin-pool feature '" + word + "' (known: skip_block_zeroing, "
                + "ignore_discard, no_discard_passdown, read_only, error_if_no_space)");
    }
}
