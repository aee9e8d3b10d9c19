package dev.dmmodel.impl.format.snapshot;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A malformed or incomplete host snapshot (see {@code docs/snapshot-format.md}): a required file is
 * missing, a value does not parse, a dm table line names an unknown device or target, and so on. The
 * message names the file (and the line, for {@code dmsetup-table.txt}), what was found there and what was
 * expected:
 *
 * <pre>{@code
 * /host/snap/block/sda/dev: found no file; expected the device number as major:minor
 * /host/snap/dmsetup-table.txt line 3: found target type 'crypt' in 'secret: 0 2048 crypt ...'; expected one of linear, striped, thin-pool, thin, zero, error
 * }</pre>
 */
public final class SnapshotException extends dev.dmmodel.io.FormatException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String found;
    private final String expected;

    /**
     * A problem with a whole file.
     *
     * @param file the file (or directory) at fault
     * @param found what was found there
     * @param expected what the format requires
     */
    public SnapshotException(Path file, String found, String expected) {
        this(file, 0, found, expected, null);
    }

    /**
     * A problem with a whole file, caused by another exception.
     *
     * @param file the file (or directory) at fault
     * @param found what was found there
     * @param expected what the format requires
     * @param cause the underlying exception
     */
    public SnapshotException(Path file, String found, String expected, Throwable cause) {
        this(file, 0, found, expected, cause);
    }

    /**
     * A problem with one line of a file.
     *
     * @param file the file
     * @param line the 1-based line number, or 0 for the whole file
     * @param found what was found there
     * @param expected what the format requires
     * @param cause the underlying exception, or null
     */
    public SnapshotException(Path file, int line, String found, String expected, Throwable cause) {
        super(format(file, line, found, expected), String.valueOf(file), Math.max(line, 0), 0,
                "found " + found + "; expected " + expected, cause);
        this.file = file;
        this.found = Objects.requireNonNull(found, "found");
        this.expected = Objects.requireNonNull(expected, "expected");
    }

    private static String format(Path file, int line, String found, String expected) {
        Objects.requireNonNull(file, "file");
        return file + (line > 0 ? " line " + line : "") + ": found " + found + "; expected " + expected;
    }

    /** The file (or directory) at fault. */
    public Path file() {
        return file;
    }

    /** What was found. */
    public String found() {
        return found;
    }

    /** What the format requires. */
    public String expected() {
        return expected;
    }
}
