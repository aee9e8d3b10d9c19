package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.io.FormatException;
import java.util.Objects;

/**
 * A layout file (docs/layout-format.md) that cannot be read or built: YAML or JSON that does not parse, an
 * unknown or missing key, a value of the wrong type or out of range, an anchor, alias or tag, or a step the
 * model refuses when the layout is built ({@link dev.dmmodel.layout.LayoutException}, reported at the step
 * that caused it). The message is {@code source:line:column: what was found; expected what}, e.g.
 * {@code stack.yaml:7:5: unknown key 'strips' in an lvcreate step; expected one of lvcreate, vg, size, ...}.
 * Nothing of a file that throws this is returned.
 */
public final class LayoutFileException extends FormatException {

    private static final long serialVersionUID = 1L;

    private final String found;
    private final String expected;

    /**
     * Creates the exception.
     *
     * @param source the file name, or {@code <input>}
     * @param line the 1-based line
     * @param column the 1-based column
     * @param found what the file has there
     * @param expected what the format allows there
     * @param cause the underlying exception, or null
     */
    public LayoutFileException(String source, int line, int column, String found, String expected, Throwable cause) {
        super(Objects.requireNonNull(source, "source") + ":" + line + ":" + column + ": "
                + Objects.requireNonNull(found, "found") + "; expected " + Objects.requireNonNull(expected, "expected"),
                source, line, column, found + "; expected " + expected, cause);
        this.found = found;
        this.expected = expected;
    }

    /** What the file has at that place. */
    public String found() {
        return found;
    }

    /** What the format allows at that place. */
    public String expected() {
        return expected;
    }
}
