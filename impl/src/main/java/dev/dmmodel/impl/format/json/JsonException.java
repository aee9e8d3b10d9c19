package dev.dmmodel.impl.format.json;

import java.util.Objects;

/**
 * Malformed JSON, or JSON of the wrong shape for the report being read: the message is
 * {@code source:line:column: problem}, with the 1-based line and column of the offending character or value.
 */
public final class JsonException extends dev.dmmodel.io.FormatException {
    private static final long serialVersionUID = 1L;

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
                + Objects.requireNonNull(problem, "problem"), source, Math.max(line, 0), Math.max(column, 0), problem,
                null);
    }
}
