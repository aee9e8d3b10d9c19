package dev.dmmodel.impl.lvmcmd;

import java.util.Objects;

/**
 * A line of an LVM command script that {@link LvmCommandParser} cannot read: an unknown command or option, a
 * value of the wrong form or out of range, or a command form the model does not have. The message names the
 * source, line and column, the field, the value found and what was expected.
 */
public final class LvmCommandException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int lineNumber;
    private final int column;
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
                + Objects.requireNonNull(field, "field") + ": found '" + Objects.requireNonNull(found, "found")
                + "', expected " + Objects.requireNonNull(expected, "expected"));
        this.source = source;
        this.lineNumber = lineNumber;
        this.column = column;
        this.field = field;
        this.found = found;
    }

    /** The script's name. */
    public String source() {
        return source;
    }

    /** The 1-based line number. */
    public int lineNumber() {
        return lineNumber;
    }

    /** The 1-based column. */
    public int column() {
        return column;
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
