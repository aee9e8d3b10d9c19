package dev.dmmodel.impl.lvm.cmd;

import java.util.Objects;

/**
 * A line of an LVM command script that {@link LvmCommandParser} cannot read: an unknown command or option, a
 * value of the wrong form or out of range, or a command form the model does not have. The message names the
 * source, line and column, the field, the value found and what was expected.
 */
public final class LvmCommandException extends dev.dmmodel.io.FormatException {
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String found;

    /**
     * Creates the exception.
     *
     * @param source the script's name (a file name, or {@code <string>})
     * @param lineNumber 1-based line number
     * @param column 1-based column of the offending token (1 for a whole line)
     * @param field the command, option or argument
     * @param found the text found
     * @param expected what was expected instead
     */
    public LvmCommandException(String source, int lineNumber, int column, String field, String found,
                               String expected) {
        super(Objects.requireNonNull(source, "source") + ":" + lineNumber + ":" + column + ": "
                + problem(field, found, expected), source, Math.max(lineNumber, 0), Math.max(column, 0),
                problem(field, found, expected), null);
        this.field = field;
        this.found = found;
    }

    private static String problem(String field, String found, String expected) {
        return Objects.requireNonNull(field, "field") + ": found '" + Objects.requireNonNull(found, "found")
                + "', expected " + Objects.requireNonNull(expected, "expected");
    }

    /** The 1-based line number (the same as {@link #line()}). */
    public int lineNumber() {
        return line();
    }

    /** The command, option or argument at fault. */
    public String field() {
        return field;
    }

    /** The text found. */
    public String found() {
        return found;
    }
}
