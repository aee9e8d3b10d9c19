package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.*;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.units.Bytes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's acceptance: seed 003's provisioning (a partition at sector 63, LVM's defaults) as the shipped plans
 * {@code examples/plans/seed003-*.sh}, dry-run on a blank 4 GiB hardware RAID 5 (7+1, 64 KiB chunks: io_min 64 KiB,
 * io_opt 448 KiB = 896 sectors).
 */
class Seed003PlanTest {

    private final Layout blankRaid5 = Layout.builder(KernelProfile.LINUX_6_12)
            .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
            .build();

    private static Plan plan(String name) {
        return Plan.read(Path.of("..", "examples", "plans", name));
    }

    @Test
    void theDefaultPlanGivesSeed003sAlignmentFindings() {
        // sfdisk keeps the explicit start 63 (line 5); pvcreate aligns to io_opt 896 plus the partition's
        // alignment_offset (128 - 63) x 512 = 33280 bytes = 65 sectors: pe_start 3 x 896 + 65 = 2753 (line 9);
        // the data starts at 63 + 2753 = 2816 = 3 x 896 + 128 on the disk: 64 KiB into a stripe
        assertThatPlan(plan("seed003-default.sh")).on(blankRaid5)
                .succeeds()
                .hasResultAtLine(5, "partition 1: start 63, size 8388545")
                .hasResultAtLine(9, "pe_start 2753s")
                .hasFinding(FindingType.PARTITION_MISALIGNED_IO_MIN)
                .hasFinding(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE)
                .hasFinding(FindingType.EXTENT_SIZE_NOT_FULL_STRIPE_MULTIPLE);
    }

    @Test
    void theAlignedPlanGivesNone() {
        // the partition at 2688 = 3 x 896, --dataalignment 448k: pe_start 2688 (5 x 896 = 5376 on the disk);
        // 7 MiB extents = 14336 sectors = 16 x 896
        assertThatPlan(plan("seed003-aligned.sh")).on(blankRaid5)
                .succeeds()
                .hasResultAtLine(10, "pe_start 2688s")
                .hasNoFindingsOfSeverity(Severity.INFO);
    }

    @Test
    void anOversizedLvcreateFailsAtItsLine() {
        // the whole disk as the PV: (8388608 - 2688) / 8192 = 1023 extents; 100 GiB = 25600
        assertThatPlan(plan("too-big.sh")).on(blankRaid5)
                .failsAtLine(7)
                .withFailureMessageContaining("Volume group \"vg0\" has insufficient free space (1023 extents): "
                        + "25600 required.");
    }
}
