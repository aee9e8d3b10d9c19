package dev.dmmodel.trace;

/**
 * A trace file that does not follow the normalized trace format ({@link TraceFormat#readCsv}): the message
 * names the line, the column and what was expected there, e.g. {@code line 7, column 5 (sector): expected a
 * sector number (digits), found '12x'}.
 */
public final class TraceFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final long lineNumber;
    private final int column;
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
        super("line " + lineNumber + ", column " + column + " (" + columnName + "): " + reason, cause);
        this.lineNumber = lineNumber;
        this.column = column;
        this.columnName = columnName;
    }

    /** The 1-based line number. */
    public long lineNumber() {
        return lineNumber;
    }

    /** The 1-based column number. */
    public int column() {
        return column;
    }

    /** The column's name ({@code sector}). */
    public String columnName() {
        return columnName;
    }
}
