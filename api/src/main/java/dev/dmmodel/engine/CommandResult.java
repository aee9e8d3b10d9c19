package dev.dmmodel.engine;

import dev.dmmodel.workload.Command;
import java.util.Objects;

/**
 * What running one command did, as the shell would show it.
 *
 * @param command the command
 * @param exitStatus 0 on success; dd's 1 when the kernel refused the I/O
 * @param message what the tool would print on error ({@code dd: error writing '/dev/vg/lv': Invalid
 *     argument}), empty on success
 * @param bytes bytes the command transferred (dd), 0 for others
 */
public record CommandResult(Command command, int exitStatus, String message, long bytes) {
    /** Rejects nulls. */
    public CommandResult {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(message, "message");
    }

    /** Whether the command succeeded. */
    public boolean ok() {
        return exitStatus == 0;
    }
}
