package dev.dmmodel.io;

import java.util.List;
import java.util.Objects;

/**
 * A shell script of LVM commands that recreates a layout's volume groups on blank devices
 * ({@link LvmCommands#write}), and what it could not express.
 *
 * @param script the script: {@code set -e}, then {@code pvcreate}, {@code vgcreate}, {@code lvcreate},
 *     {@code lvextend} and {@code lvconvert} lines, with a {@link #NOT_EXPRESSIBLE} comment line for each
 *     entry of {@code notExpressible}
 * @param notExpressible what the commands cannot reproduce exactly (a dm device that is not LVM's, a thin
 *     device id LVM would not give, ...), one sentence each; empty when the script is exact
 */
public record LvmScript(String script, List<String> notExpressible) {

    /**
     * What a line of the script starts with for something the commands cannot express:
     * {@value #NOT_EXPRESSIBLE}, then the sentence.
     */
    public static final String NOT_EXPRESSIBLE = "# not expressible: ";

    /** Rejects nulls; copies the list. */
    public LvmScript {
        Objects.requireNonNull(script, "script");
        notExpressible = List.copyOf(notExpressible);
    }

    /** Whether replaying the script gives the layout's volume groups exactly. */
    public boolean isExact() {
        return notExpressible.isEmpty();
    }
}
