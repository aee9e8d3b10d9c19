package dev.dmmodel.plan;

import dev.dmmodel.io.FormatException;

/**
 * A plan dmmodel cannot read: a line or entry that is not one of its format's documented forms, or a shell
 * construct the dry run does not evaluate (loops, command substitution, functions). The message names the plan's
 * file, line and column, what was found and what was expected, e.g.
 * {@code plan.sh:4:1: shell construct "for" (a loop): expected plain commands, literal assignments, && or ; lists}.
 * Nothing of a plan that throws this is applied.
 */
public class PlanException extends FormatException {

    private static final long serialVersionUID = 1L;

    /**
     * @param source the plan's file name
     * @param line the 1-based line, or 0 for the whole plan
     * @param column the 1-based column, or 0 when unknown
     * @param problem what was found and what was expected
     */
    public PlanException(String source, int line, int column, String problem) {
        super(source, line, column, problem);
    }
}
