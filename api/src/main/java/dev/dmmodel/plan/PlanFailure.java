package dev.dmmodel.plan;

import java.util.Objects;

/**
 * The plan command that would fail on the host, in the tool's own wording, e.g.
 * {@code too-big.sh:7: lvcreate: Volume group "vg0" has insufficient free space (255 extents): 25600 required.}
 *
 * @param source the plan's file name
 * @param line the command's 1-based line
 * @param tool the tool
 * @param command the command as written
 * @param message what the tool would report
 */
public record PlanFailure(String source, int line, String tool, String command, String message) {
    /** Rejects nulls. */
    public PlanFailure {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(message, "message");
    }

    /** {@code source:line: tool: message}. */
    @Override
    public String toString() {
        return source + ":" + line + ": " + tool + ": " + message;
    }
}
