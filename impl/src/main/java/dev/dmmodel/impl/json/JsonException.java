package dev.dmmodel.impl.json;

import java.util.Objects;

/**
 * Malformed JSON, or JSON of the wrong shape for the report being read: the message is
 * {@code source:line:column: problem}, with the 1-based line and column of the offending character or value.
 */
public final class JsonException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final int column;
    private final String problem;

    /**
     * A problem at one place of a JSON text.
     *
     * @param source the file name or {@code <input>}
     * @param line the 1-based line
     * @param column the 1-based column
     * @param problem what was found and what was expected
     */
    public JsonException(String source, int line, int column, String problem) {
        super(Objects.requireNonNull(source, "source") + ":" + line + ":" + column + ": "
                + Objects.requireNonNull(problem, "problem"));
        this.source = source;
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    /** The file name or {@code <input>}. */
    public String source() {
        return source;
    }

    /** The 1-based line. */
    public int line() {
        return line;
    }

    /** The 1-based column. */
    public int column() {
        return column;
    }

    /** The message without the location. */
    public String problem() {
        return problem;
    }
}
