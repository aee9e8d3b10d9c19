package dev.dmmodel.impl.sfdisk;

import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.shell.ShellCommand;

/** Reads a {@code sfdisk} command line of a provisioning script (not yet: refused). */
public final class SfdiskCommand {

    private SfdiskCommand() {
    }

    /**
     * Reads one {@code sfdisk} command.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp parse(ShellCommand command) {
        throw command.error("sfdisk is not read yet");
    }
}
