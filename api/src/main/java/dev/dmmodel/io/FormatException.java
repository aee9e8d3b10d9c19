package dev.dmmodel.io;

import java.util.Objects;

/**
 * Text or files in one of the formats dmmodel reads (a host snapshot, LVM text metadata, {@code dmsetup table}
 * output, LVM JSON reports, {@code lsblk --json}, a layout file, LVM commands) that cannot be read. Every reader
 * throws a subclass of this and nothing else for bad input, and reads nothing half: either the whole input is
 * imported or this is thrown.
 *
 * <p>The message names the source, the place and what was found and expected, e.g.
 * <code>vg0.vg:12:9: expected '=' or '&#123;' after "extent_size", found "8192"</code>. The parts are also available
 * separately for tools that point at the place themselves.
 */
public class FormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final int column;
    private final String problem;

    /**
     * @param message the whole message, with the source and place
     * @param source the file name or path, or {@code <input>}
     * @param line the 1-based line, or 0 when the problem concerns the whole source
     * @param column the 1-based column, or 0 when unknown
     * @param problem what is wrong, without the source and place
     * @param cause the underlying exception, or null
     * @throws IllegalArgumentException if line or column is negative
     */
    protected FormatException(String message, String source, int line, int column, String problem, Throwable cause) {
        super(Objects.requireNonNull(message, "message"));
        if (cause != null) {
            initCause(cause);
        }
        this.source = Objects.requireNonNull(source, "source");
        this.problem = Objects.requireNonNull(problem, "problem");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column must be 0 (unknown) or more, got " + line + ":"
                    + column);
        }
        this.line = line;
        this.column = column;
    }

    /**
     * A problem at {@code source:line:column}; the message is {@code source:line:column: problem}, with the
     * column (or line and column) left out where 0.
     *
     * @param source the file name or path, or {@code <input>}
     * @param line the 1-based line, or 0 for the whole source
     * @param column the 1-based column, or 0 when unknown
     * @param problem what was found and what was expected
     */
    public FormatException(String source, int line, int column, String problem) {
        this(location(source, line, column) + ": " + Objects.requireNonNull(problem, "problem"), source, line, column,
                problem, null);
    }

    /** {@code source}, {@code source:line} or {@code source:line:column}, leaving out what is 0. */
    static String location(String source, int line, int column) {
        Objects.requireNonNull(source, "source");
        if (line <= 0) {
            return source;
        }
        return column <= 0 ? source + ":" + line : source + ":" + line + ":" + column;
    }

    /** The file name or path, or {@code <input>}. */
    public String source() {
        return source;
    }

    /** The 1-based line, or 0 when the problem concerns the whole source. */
    public int line() {
        return line;
    }

    /** The 1-based column, or 0 when unknown. */
    public int column() {
        return column;
    }

    /** What is wrong, without the source and place. */
    public String problem() {
        return problem;
    }
}
