package dev.dmmodel.impl.parted;

import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.shell.ShellCommand;

/** Reads a {@code parted} command line of a provisioning script (not yet: refused). */
public final class PartedCommand {

    private PartedCommand() {
    }

    /**
     * Reads one {@code parted} command.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp parse(ShellCommand command) {
        throw command.error("parted is not read yet");
    }
}
