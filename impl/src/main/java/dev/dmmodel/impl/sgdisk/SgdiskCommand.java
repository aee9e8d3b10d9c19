package dev.dmmodel.impl.sgdisk;

import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.shell.ShellCommand;

/** Reads a {@code sgdisk} command line of a provisioning script (not yet: refused). */
public final class SgdiskCommand {

    private SgdiskCommand() {
    }

    /**
     * Reads one {@code sgdisk} command.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp parse(ShellCommand command) {
        throw command.error("sgdisk is not read yet");
    }
}
