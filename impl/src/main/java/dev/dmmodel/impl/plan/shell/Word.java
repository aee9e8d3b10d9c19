package dev.dmmodel.impl.plan.shell;

import java.util.Objects;

/**
 * One word of a shell command after quote removal and variable expansion.
 *
 * @param text the word
 * @param line the 1-based line where it starts
 * @param column the 1-based column where it starts
 */
public record Word(String text, int line, int column) {
    /** Rejects a null text. */
    public Word {
        Objects.requireNonNull(text, "text");
    }
}
