package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.*;
import static org.assertj.core.api.Assertions.*;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.testkit.property.StackPlan;
import org.junit.jupiter.api.Test;

// both static imports on purpose: DmAssertions' names must not clash with AssertJ's
class LayoutAssertTest {

    private final Layout raid = Fixtures.raid5AtSector63();
    private final Layout plain = Fixtures.plainSas();

    private Finding first(FindingType type) {
        return raid.findings().stream().filter(f -> f.type() == type).findFirst().orElseThrow();
    }

    @Test
    void hasNoFindingsPassesOnACleanLayoutAndListsTheFindingsAndTheLayoutOtherwise() {
        assertThat(plain.findings()).isEmpty();
        assertThat(plain).hasNoFindings();

        Finding io = first(FindingType.PARTITION_MISALIGNED_IO_MIN);
        assertThatThrownBy(() -> assertThat(raid).hasNoFindings())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting no findings but found " + raid.findings().size())
                .hasMessageContaining("WARNING align.partition.io-min [sda1] " + io.message())
                .hasMessageContaining(StackPlan.describe(raid));
    }

    @Test
    void hasNoFindingsOfSeverityMeansThatSeverityOrWorse() {
        // the README stack has WARNING and INFO findings, no ERROR
        assertThat(raid.findings()).extracting(Finding::severity).contains(Severity.WARNING, Severity.INFO)
                .doesNotContain(Severity.ERROR);
        assertThat(raid).hasNoFindingsOfSeverity(Severity.ERROR);

        Finding extent = first(FindingType.EXTENT_SIZE_NOT_FULL_STRIPE_MULTIPLE);
        assertThat(extent.severity()).isEqualTo(Severity.INFO);
        long warnings = raid.findings().stream().filter(f -> f.severity() == Severity.WARNING).count();
        assertThatThrownBy(() -> assertThat(raid).hasNoFindingsOfSeverity(Severity.WARNING))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no findings of severity WARNING or worse but found " + warnings + ":")
                .hasMessageContaining("align.pv.full-stripe [sda1]")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(extent.message()));
        assertThatThrownBy(() -> assertThat(raid).hasNoFindingsOfSeverity(Severity.INFO))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("INFO lvm.vg.extent-size-full-stripe [vg] " + extent.message());
    }

    @Test
    void hasFindingAndHasFindingWithId() {
        assertThat(raid).hasFinding(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE)
                .hasFindingWithId(FindingType.PARTITION_MISALIGNED_IO_MIN.id());

        assertThatThrownBy(() -> assertThat(raid).hasFinding(FindingType.DEVICE_MISALIGNED))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting a finding align.device.misaligned (DEVICE_MISALIGNED)")
                .hasMessageContaining("align.pv.full-stripe [sda1]")
                .hasMessageContaining("partition sda1 start=" + Fixtures.PARTITION_START);
        assertThatThrownBy(() -> assertThat(plain).hasFindingWithId("align.pv.io-min"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting a finding with id align.pv.io-min but the findings were:\n"
                        + "    (no findings)")
                .hasMessageContaining("disk sda");
    }

    @Test
    void hasNoFinding() {
        assertThat(raid).hasNoFinding(FindingType.DEVICE_MISALIGNED);

        Finding pv = first(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE);
        assertThatThrownBy(() -> assertThat(raid).hasNoFinding(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting no finding align.pv.full-stripe but found 1:")
                .hasMessageContaining("[sda1] " + pv.message())
                .hasMessageContaining("vg-lv: ");
    }

    @Test
    void hasDeviceTakesEveryReferenceFormAndNamesTheKnownDevices() {
        String dm = raid.device("/dev/vg/lv").name();
        assertThat(raid).hasDevice("sda").hasDevice("/dev/sda1").hasDevice("/dev/vg/lv").hasDevice("vg-lv")
                .hasDevice(dm);

        assertThatThrownBy(() -> assertThat(raid).hasDevice("/dev/vg/nope"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting a device '/dev/vg/nope' but there is none (devices: [sda, sda1, "
                        + dm + "])");
    }

    @Test
    void hasDmsetupTableComparesWithTheLvmPlacement() {
        // the linear LV starts at the PV's pe_start on sda1 (8:1); 1 GiB is 2097152 sectors
        PhysicalVolume pv = raid.physicalVolume("sda1").orElseThrow();
        String devNo = raid.device("sda1").devNumber().toString();
        String expected = "vg-lv: 0 " + (1L << 30) / 512 + " linear " + devNo + " " + pv.peStart().count();
        assertThat(raid).hasDmsetupTable(expected).hasDmsetupTable(expected + "\n");

        assertThatThrownBy(() -> assertThat(raid).hasDmsetupTable("vg-lv: 0 2097152 linear " + devNo + " 2048"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting dmsetup table:\n    vg-lv: 0 2097152 linear " + devNo + " 2048\n"
                        + "but was:\n    " + expected)
                .hasMessageContaining("pv sda1 pe_start=" + pv.peStart().count());
    }

    @Test
    void deviceGivesTheLimitsAssertionOfThatDeviceOrFails() {
        // a partition's alignment_offset: bytes from its start to the next multiple of max(pbs, io_min) of the disk
        var disk = raid.limits("sda");
        long granularity = Math.max(disk.physicalBlockSize(), disk.ioMin());
        long offset = (granularity - Fixtures.PARTITION_START * 512 % granularity) % granularity;
        assertThat(raid).device("/dev/sda1").hasAlignmentOffset(offset).hasMinimumIoSize(disk.ioMin());

        assertThatThrownBy(() -> assertThat(raid).device("/dev/sda1").isAligned())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting /dev/sda1 (sda1) to be aligned (alignment_offset 0) but its"
                        + " alignment_offset was " + offset)
                .hasMessageContaining("queue limits of /dev/sda1 (sda1):");
        assertThatThrownBy(() -> assertThat(raid).device("sdb"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting a device 'sdb' but there is none");
    }

    @Test
    void aNullLayoutIsRejectedTheAssertJWay() {
        assertThatThrownBy(() -> assertThat((Layout) null).hasNoFindings())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting actual not to be null");
        assertThatThrownBy(() -> assertThat((Layout) null).device("sda"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting actual not to be null");
    }

    @Test
    void aDescriptionIsKept() {
        assertThatThrownBy(() -> assertThat(raid).as("README stack").hasNoFindings())
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("[README stack] ");
    }
}
