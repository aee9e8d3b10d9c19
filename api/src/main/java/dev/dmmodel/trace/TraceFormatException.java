package dev.dmmodel.trace;

/**
 * A trace file that does not follow the normalized trace format ({@link TraceFormat#readCsv}): the message
 * names the line, the column and what was expected there, e.g. {@code line 7, column 5 (sector): expected a
 * sector number (digits), found '12x'}. Like every reader's error it is a {@link dev.dmmodel.io.FormatException}
 * (source {@code <input>}).
 */
public final class TraceFormatException extends dev.dmmodel.io.FormatException {
    private static final long serialVersionUID = 1L;

    private final long lineNumber;
    private final String columnName;

    /**
     * Creates the exception.
     *
     * @param lineNumber the 1-based line number (the header is line 1)
     * @param column the 1-based column number
     * @param columnName the column's name in the header ({@code sector}), or a description where the
     *     column is beyond the header
     * @param reason what was expected and what was found
     * @param cause the underlying error, or null
     */
    public TraceFormatException(long lineNumber, int column, String columnName, String reason, Throwable cause) {
        super("line " + lineNumber + ", column " + column + " (" + columnName + "): " + reason, "<input>",
                (int) Math.max(0, Math.min(lineNumber, Integer.MAX_VALUE)), Math.max(column, 0),
                columnName + ": " + reason, cause);
        this.lineNumber = lineNumber;
        this.columnName = columnName;
    }

    /** The 1-based line number. */
    public long lineNumber() {
        return lineNumber;
    }

    /** The column's name ({@code sector}). */
    public String columnName() {
        return columnName;
    }
}
