package dev.dmmodel.impl.sfdisk;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Mutated sfdisk command lines and scripts (input and dump formats): read, or a PlanException. */
class SfdiskFuzzTest {

    @Test
    void everyMutationReadsOrThrowsPlanException() {
        ToolFuzz.run("sfdisk", SfdiskCommand::parse, List.of("""
                sfdisk --wipe always -f /dev/sda <<EOF
                label: gpt
                first-lba: 2048
                size=1G, type=L, name="root"
                start=2099200, size=+, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
                EOF
                """, """
                sfdisk /dev/sda <<'EOF'
                label: dos
                label-id: 0x7e34ba37
                device: /dev/sda
                unit: sectors
                sector-size: 512

                /dev/sda1 : start=        2048, size=     2097152, type=83, bootable
                /dev/sda2 : start=     2099200, size=    10000000, type=8e
                EOF
                echo ',1G,L;' | sfdisk --append -X dos /dev/sda
                printf '2048,+,8e,*\\n,,R\\n' | sfdisk -N 2 --no-reread /dev/sda
                sfdisk --delete /dev/sda 2
                """), 0x73_66_64_69_73_6bL, 51_000);
    }
}
