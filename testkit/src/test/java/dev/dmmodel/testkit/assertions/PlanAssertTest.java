package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.*;
import static org.assertj.core.api.Assertions.*;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import org.junit.jupiter.api.Test;

class PlanAssertTest {

    /** Seed 003's host with its partition: a 4 GiB RAID 5 (7+1, 64 KiB chunks), sda1 at sector 63. */
    private final Layout host = Layout.builder(KernelProfile.LINUX_6_1)
            .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
            .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
            .build();

    private final Plan plan = Plan.parse("""
            pvcreate /dev/sda1
            vgcreate vg0 /dev/sda1
            lvcreate -L 1G -n lv vg0
            """, "lvm.sh");

    @Test
    void aPlanThatAppliesAndItsResultsAndFindings() {
        // pe_start 2753 = 3 x 896 + 65 (io_opt 448 KiB, alignment_offset 33280 B): lp-pe-start-summary.txt
        assertThatPlan(plan).hasCommandCount(3).on(host)
                .succeeds()
                .hasResultAtLine(1, "pe_start 2753s")
                .hasFinding(FindingType.PARTITION_MISALIGNED_IO_MIN)
                .hasNoFinding(FindingType.THIN_OVERPROVISIONED)
                .hasNoFindingsOfSeverity(Severity.ERROR)
                .layout().hasDevice("/dev/vg0/lv");

        assertThatThrownBy(() -> assertThatPlan(plan).on(host).failsAtLine(3))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting the plan to fail at line 3, but every line applies:")
                .hasMessageContaining("lvm.sh:1: pvcreate: /dev/sda1: pe_start 2753s");
        assertThatThrownBy(() -> assertThatPlan(plan).on(host).hasResultAtLine(1, "pe_start 2048s"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting a result at line 1 containing \"pe_start 2048s\"");
        assertThatThrownBy(() -> assertThatPlan(plan).on(host).hasNoFindingsOfSeverity(Severity.WARNING))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("align.partition.io-min [sda1]");
        assertThatThrownBy(() -> assertThatPlan(plan).hasCommandCount(2))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting lvm.sh to have 2 commands but it has 3");
    }

    @Test
    void aPlanThatFailsAtItsLine() {
        // 1023 extents of 4 MiB on sda1 ((8388545 - 2753) / 8192); 100 GiB = 25600 extents
        Plan tooBig = Plan.parse("pvcreate /dev/sda1\nvgcreate vg0 /dev/sda1\nlvcreate -L 100G -n lv vg0\n",
                "too-big.sh");
        assertThatPlan(tooBig).on(host.spec().orElseThrow())
                .failsAtLine(3)
                .withFailureMessageContaining("has insufficient free space (1023 extents): 25600 required.");
        assertThatThrownBy(() -> assertThatPlan(tooBig).on(host).succeeds())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting the plan to apply, but it fails:")
                .hasMessageContaining("too-big.sh:3: lvcreate: Volume group \"vg0\" has insufficient free space");
        assertThatThrownBy(() -> assertThatPlan(tooBig).on(host).failsAtLine(2))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("but it fails at line 3");
        assertThatThrownBy(() -> assertThatPlan(tooBig).on(host).withFailureMessageContaining("Device busy"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting the failure message to contain \"Device busy\"");
    }
}
