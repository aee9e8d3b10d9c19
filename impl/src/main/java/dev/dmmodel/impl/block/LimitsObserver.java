package dev.dmmodel.impl.block;

import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.LimitField;

/**
 * Watches a queue-limits computation step by step, so that an explanation can say which step set a value
 * ({@code dev.dmmodel.impl.explain}). The computations call it only when it is not {@link #NONE}, handing it
 * copies; the rules themselves stay where they are.
 */
public interface LimitsObserver {
    /** Watches nothing. */
    LimitsObserver NONE = new LimitsObserver() {
    };

    /** The limits a stacking computation starts from ({@code blk_set_stacking_limits}). */
    default void defaults(Limits start) {
    }

    /** An md personality's settings before stacking. */
    default void personality(Limits after) {
    }

    /** One lower device stacked into table line {@code line} (md: member {@code line}) at {@code start}. */
    default void stacked(int line, String device, long start, Limits after) {
    }

    /** A dm target's {@code io_hints} applied to its line's limits. */
    default void hinted(int line, String targetType, Limits before, Limits after) {
    }

    /** Table line {@code line}'s limits combined into the table's. */
    default void combined(int line, Limits after) {
    }

    /** An md personality's overrides after stacking. */
    default void afterStacking(Limits before, Limits after) {
    }

    /** {@code dm_table_set_restrictions}: what not every target passes down cleared. */
    default void restricted(Limits before, Limits after) {
    }

    /** {@code blk_validate_limits} on commit. */
    default void committed(Limits before, Limits after) {
    }

    /** {@code disk_update_readahead}. */
    default void readAhead(Limits before, Limits after) {
    }

    /**
     * A rule inside a computation set {@code field} to {@code value} (sysfs units): which rule and why, in words with
     * the numbers.
     */
    default void note(LimitField field, long value, Derivation.Source source, String rule, String detail) {
    }
}
