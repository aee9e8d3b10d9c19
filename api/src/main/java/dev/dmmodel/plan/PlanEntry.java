package dev.dmmodel.plan;

import java.util.List;
import java.util.Objects;

/**
 * What one plan command did on the host: what the tool prints or decides, e.g.
 * {@code pvcreate /dev/sda1: pe_start 2753s, data alignment from optimal_io_size 448KiB}.
 *
 * @param source the plan's file name
 * @param line the command's 1-based line
 * @param tool the tool ({@code pvcreate}, {@code part}, ...)
 * @param command the command as written
 * @param results what it did, one decision a string, in order (empty for a command without effect on the stack,
 *     such as {@code set -e})
 */
public record PlanEntry(String source, int line, String tool, String command, List<String> results) {
    /** Rejects nulls; copies the results. */
    public PlanEntry {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(command, "command");
        results = List.copyOf(results);
    }

    /** {@code source:line: tool: result; result} ({@code no effect on the block stack} without results). */
    @Override
    public String toString() {
        return source + ":" + line + ": " + tool + ": " + (results.isEmpty() ? "no effect on the block stack" : String.join("; ", results));
    }
}
