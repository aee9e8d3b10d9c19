package dev.dmmodel.plan;

import java.util.Objects;

/**
 * One command of a plan as read: a shell command line (continuations joined), a kickstart command, a curtin
 * {@code config:} entry or an Ansible task.
 *
 * @param line the 1-based line where it starts
 * @param tool the tool or entry type that applies it ({@code sfdisk}, {@code lvcreate}, {@code part},
 *     {@code lvm_partition}, {@code community.general.lvol})
 * @param text the command as written (for a YAML entry, its id or name)
 */
public record PlanCommand(int line, String tool, String text) {
    /** Rejects nulls and a line below 1. */
    public PlanCommand {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(text, "text");
        if (line < 1) {
            throw new IllegalArgumentException("plan command line must be 1 or more, got " + line);
        }
    }
}
