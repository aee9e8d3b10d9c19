package dev.dmmodel.impl.plan;

import dev.dmmodel.plan.PlanException;
import java.util.Objects;

/**
 * Where a plan command was written.
 *
 * @param source the plan's file name
 * @param line the 1-based line where the command starts
 * @param column the 1-based column of its first word
 * @param text the command as written (continuations joined; for a YAML entry its id or name)
 */
public record Origin(String source, int line, int column, String text) {
    /** Rejects nulls and places below 1. */
    public Origin {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(text, "text");
        if (line < 1 || column < 1) {
            throw new IllegalArgumentException("origin line and column must be 1 or more, got " + line + ":" + column);
        }
    }

    /** A read error at a place of this command: {@code source:line:column: problem}. */
    public PlanException error(int atLine, int atColumn, String problem) {
        return new PlanException(source, atLine, atColumn, problem);
    }

    /** A read error at this command's first word. */
    public PlanException error(String problem) {
        return error(line, column, problem);
    }
}
