package dev.dmmodel.impl.dm.table;

import dev.dmmodel.io.FormatException;
import java.util.Objects;

/**
 * A device-mapper table text that {@code dmsetup} or the kernel would refuse, or that the model cannot hold:
 * a line that is not {@code [<name>: ]<start> <length> <target> <args...>}, a target type the model does not
 * know, arguments the target's constructor ({@code linear_ctr}, {@code stripe_ctr}, {@code pool_ctr},
 * {@code thin_ctr}, {@code zero_ctr}) rejects, or a table {@code dm_table_add_target} rejects (a gap, a
 * zero-length target, a thin-pool that is not alone). The message names the source, the 1-based line and
 * column, what was found and what was expected:
 *
 * <pre>{@code
 * tables.txt:3:14: found target type 'crypt' in 'secret: 0 2048 crypt aes-xts-plain64 0 0 8:1 0'; expected one of linear, striped, thin-pool, thin, zero, error
 * }</pre>
 *
 * Line and column are 0 when the problem concerns the whole text (a cycle between devices, say).
 * It is an impl-level type under the api's {@link FormatException}: callers of the api catch that; the api has
 * no table parser of its own.
 */
public final class DmTableException extends FormatException {
    private static final long serialVersionUID = 1L;

    private final String found;
    private final String expected;

    /**
     * A problem at a place of the text.
     *
     * @param source the name of the text (a file name, {@code dmsetup table})
     * @param line the 1-based line, or 0 for the whole text
     * @param column the 1-based column in that line, or 0 for the whole line
     * @param found what was found there
     * @param expected what the format or the kernel requires
     */
    public DmTableException(String source, int line, int column, String found, String expected) {
        super(Objects.requireNonNull(source, "source"), line, column, problem(found, expected));
        this.found = found;
        this.expected = expected;
    }

    private static String problem(String found, String expected) {
        return "found " + Objects.requireNonNull(found, "found") + "; expected "
                + Objects.requireNonNull(expected, "expected");
    }

    /** What was found. */
    public String found() {
        return found;
    }

    /** What was expected. */
    public String expected() {
        return expected;
    }

    /** Text for a message: quoted, newlines shown as \n, at most 80 characters. */
    public static String quote(String text) {
        String t = text.replace("\n", "\\n");
        if (t.length() > 80) {
            t = t.substring(0, 77) + "...";
        }
        return "'" + t + "'";
    }
}
