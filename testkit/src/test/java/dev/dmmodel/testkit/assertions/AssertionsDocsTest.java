package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.*;
import static org.assertj.core.api.Assertions.*;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.testkit.property.DmGens;
import dev.dmmodel.testkit.property.ForAll;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.PropertyTest;
import dev.dmmodel.testkit.property.StackPlan;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

// docs/property-testing.md, "Assertions": this class is quoted there; keep them in step.
class AssertionsDocsTest {

    @Test
    void theReadmeStack() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .pvcreate("/dev/sda1").vgcreate("vg", "/dev/sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();

        assertThat(layout)
                .hasNoFindingsOfSeverity(Severity.ERROR)          // WARNING and INFO findings pass
                .hasFinding(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE)
                .hasDmsetupTable("vg-lv: 0 2097152 linear 8:1 2753");
        assertThat(layout).device("sda1").hasAlignmentOffset(33280);
        assertThat(layout).device("/dev/vg/lv").isAligned().hasMinimumIoSize(65536).hasMaxSectorsKb(448);

        List<TraceEvent> events = new ArrayList<>();
        Simulation.of(layout).run(Script.parse("dd if=/dev/zero of=/dev/vg/lv bs=1M count=4 oflag=direct"),
                events::add);
        assertThatTrace(events).at("dm-0").hasNoSplits().bioSizes().containsOnly(2048L);
        assertThatTrace(events).at("sda").allBiosAlignedTo(128)          // the 64 KiB chunk ...
                .requestSizes().containsOnly(896L, 256L);                // ... split at max_sectors
        assertThatTrace(events).at("sda").splits().hasSize(8);
    }

    Gen<StackPlan> stacks() {
        return DmGens.stacks();
    }

    @PropertyTest(tries = 200)
    void everyGeneratedLvExistsAndNothingIsAnError(@ForAll("stacks") StackPlan plan) {
        Layout layout = plan.build();
        assertThat(layout).hasNoFindingsOfSeverity(Severity.ERROR);
        for (String lv : plan.lvPaths()) {
            assertThat(layout).hasDevice(lv);
        }
    }

    @Test
    void whatAFailureSays() {
        Layout layout = Fixtures.raid5AtSector63();
        assertThatThrownBy(() -> assertThat(layout).hasNoFindingsOfSeverity(Severity.WARNING))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("Expecting no findings of severity WARNING or worse but found 2:\n"
                        + "    WARNING align.partition.io-min [sda1] sda1 starts at sector 63");
    }
}
