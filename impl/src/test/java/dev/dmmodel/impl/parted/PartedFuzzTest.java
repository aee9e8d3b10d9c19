package dev.dmmodel.impl.parted;

import dev.dmmodel.impl.sfdisk.ToolFuzz;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Mutated parted command lines: read, or a PlanException. */
class PartedFuzzTest {

    @Test
    void everyMutationReadsOrThrowsPlanException() {
        ToolFuzz.run("parted", PartedCommand::parse, List.of(
                "parted -s -m -a optimal /dev/sdb -- unit KiB mklabel gpt mkpart primary 0% 100% set 1 lvm on\n",
                "parted --script /dev/sda mklabel msdos mkpart primary ext4 1MiB 512MiB set 1 boot on "
                        + "mkpart primary xfs 512MiB 100%\nparted -s /dev/sda print\n",
                "parted -s -a minimal /dev/sda -- mklabel gpt mkpart data xfs 2048s -34s name 1 data unit s rm 1\n"),
                0x70_61_72_74_65_64L, 34_000);
    }
}
