package dev.dmmodel.impl.dm.multipath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** multipath.path-limits-differ. */
class MultipathFindingsTest {

    private static Layout layout(dev.dmmodel.device.DiskSpec a, dev.dmmodel.device.DiskSpec b) {
        MultipathTarget t = new MultipathTarget(Sectors.ZERO, Sectors.of(2097152),
                MultipathTarget.QueueMode.REQUEST_BASED, false, false, 0, OptionalInt.empty(), Optional.empty(),
                List.of(), 1, List.of(new MultipathTarget.PriorityGroup("round-robin", List.of(
                        new MultipathTarget.Path("sda", List.of("1")), new MultipathTarget.Path("sdb", List.of("1"))))));
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", a.withSize(Bytes.gib(1)))
                .disk("sdb", b.withSize(Bytes.gib(1)))
                .dmsetupCreate("mp", new DmTable(List.of(t)))
                .build();
    }

    @Test
    void pathsWithDifferentLimitsAreNamedWithTheirValuesAndTheStackedOne() {
        // a SAS disk (128 segments, dma_alignment 3) and an AHCI disk (AHCI_MAX_SG 168 segments, dma_alignment
        // 511) as two paths: blk_stack_limits takes min(128, 168) = 128 segments and max(3, 511) = 511
        Layout l = layout(DiskPresets.sasDisk(), DiskPresets.ahciSata());
        List<Finding> f = l.findings().stream().filter(x -> x.type() == FindingType.MULTIPATH_PATH_LIMITS_DIFFER)
                .toList();
        assertThat(f).extracting(Finding::message)
                .contains("dm-0 (mp): its multipath paths differ in max_segments: sda 128, sdb 168; the multipath"
                        + " device has 128, the most restrictive, whichever path an I/O takes")
                .contains("dm-0 (mp): its multipath paths differ in dma_alignment: sda 3, sdb 511; the multipath"
                        + " device has 511, the most restrictive, whichever path an I/O takes");
        assertThat(f).allMatch(x -> x.severity() == Severity.WARNING && x.device().equals("dm-0"));
        assertThat(FindingType.MULTIPATH_PATH_LIMITS_DIFFER.id()).isEqualTo("multipath.path-limits-differ");
    }

    @Test
    void identicalPathsGiveNoFinding() {
        Layout l = layout(DiskPresets.sasDisk(), DiskPresets.sasDisk());
        assertThat(l.findings()).noneMatch(x -> x.type() == FindingType.MULTIPATH_PATH_LIMITS_DIFFER);
    }
}
