package dev.dmmodel.lvm;

import java.util.Objects;

/**
 * LVM2 text metadata (a {@code vgcfgbackup} file or on-disk metadata text) that cannot be read: a syntax
 * error, a missing or mistyped key, an inconsistency LVM's importer rejects, or a segment type the model
 * does not have. The message is {@code source:line:column: what}, e.g.
 * <code>vgt.vg:12:9: expected '=' or '&#123;' after "extent_size", found "8192"</code>.
 */
public final class LvmMetadataException extends dev.dmmodel.io.FormatException {

    private static final long serialVersionUID = 1L;

    /**
     * @param source the file name, or {@code <input>}
     * @param line the 1-based line of the offending text
     * @param column the 1-based column of the offending text
     * @param problem what is wrong (found and expected)
     */
    public LvmMetadataException(String source, int line, int column, String problem) {
        super(Objects.requireNonNull(source, "source") + ":" + line + ":" + column + ": "
                + Objects.requireNonNull(problem, "problem"), source, Math.max(line, 0), Math.max(column, 0), problem,
                null);
    }
}
