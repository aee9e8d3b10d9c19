package dev.dmmodel.impl.plan.shell;

import dev.dmmodel.impl.plan.PlanOp;

/** The readers of the storage commands other than the partitioning tools. */
final class ShellTools {

    private ShellTools() {
    }

    static PlanOp lvm(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }

    static PlanOp wipefs(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }

    static PlanOp mkfs(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }

    static PlanOp mount(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }

    static PlanOp dmsetup(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }

    static PlanOp mdadm(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }

    static PlanOp cryptsetup(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }

    static PlanOp blockdev(ShellCommand c) {
        throw c.error(c.name() + " is not read yet");
    }
}
