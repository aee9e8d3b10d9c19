package dev.dmmodel.impl.sgdisk;

import dev.dmmodel.impl.sfdisk.ToolFuzz;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Mutated sgdisk command lines: read, or a PlanException. */
class SgdiskFuzzTest {

    @Test
    void everyMutationReadsOrThrowsPlanException() {
        ToolFuzz.run("sgdisk", SgdiskCommand::parse, List.of(
                "sgdisk -Z -o -a 2048 -n 1:0:+512M -t 1:ef00 -c 1:EFI -n 2:0:0 -t 2:8e00 /dev/sda\n",
                "sgdisk --zap-all --clear --new=1:2048:4095 --typecode=1:ef02 --change-name=1:'BIOS boot' /dev/sdb\n"
                        + "sgdisk -n 0:0:-100M -N 3 -d 3 -I -g /dev/sdb\n",
                "sgdisk -n1:63:+1.5G -t1:fd00 -a896 -p /dev/sda && sgdisk --set-alignment=8 -n 2:0:0 /dev/sda\n"),
                0x73_67_64_69_73_6bL, 34_000);
    }
}
