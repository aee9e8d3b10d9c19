package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.*;
import static org.assertj.core.api.Assertions.*;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import java.util.List;
import org.junit.jupiter.api.Test;

class FindingsAssertTest {

    private final List<Finding> findings = Fixtures.raid5AtSector63().findings();
    private final Finding io = findings.stream().filter(f -> f.type() == FindingType.PARTITION_MISALIGNED_IO_MIN)
            .findFirst().orElseThrow();

    @Test
    void listChecksPassAndFailWithTheOffendingFindings() {
        assertThatFindings(findings)
                .hasFinding(FindingType.PARTITION_MISALIGNED_IO_MIN)
                .hasFindingWithId("align.pv.full-stripe")
                .hasNoFinding(FindingType.THIN_OVERPROVISIONED)
                .hasNoFindingsOfSeverity(Severity.ERROR);
        assertThatFindings(Fixtures.plainSas().findings()).hasNoFindings();

        assertThatThrownBy(() -> assertThatFindings(findings).hasNoFindings())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("WARNING align.partition.io-min [sda1] " + io.message());
        assertThatThrownBy(() -> assertThatFindings(findings).hasNoFindingsOfSeverity(Severity.WARNING))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("severity WARNING or worse")
                .hasMessageContaining("align.partition.io-min [sda1]");
        assertThatThrownBy(() -> assertThatFindings(findings).hasFinding(FindingType.THIN_OVERPROVISIONED))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting a finding thin.pool.overprovisioned");
        assertThatThrownBy(() -> assertThatFindings(findings).hasFindingWithId("no.such.id"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting a finding with id no.such.id but the findings were:");
        assertThatThrownBy(() -> assertThatFindings(findings).hasNoFinding(FindingType.PARTITION_MISALIGNED_IO_MIN))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting no finding align.partition.io-min but found 1:");
    }

    @Test
    void oneFindingsChecksShowTheWholeFinding() {
        assertThat(io).hasType(FindingType.PARTITION_MISALIGNED_IO_MIN).hasId("align.partition.io-min")
                .hasSeverity(FindingType.PARTITION_MISALIGNED_IO_MIN.defaultSeverity()).isOnDevice("sda1")
                .hasMessageContaining("starts at sector " + Fixtures.PARTITION_START);

        assertThatThrownBy(() -> assertThat(io).hasType(FindingType.DEVICE_MISALIGNED))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting finding\n    " + io + "\nto be of type align.device.misaligned");
        assertThatThrownBy(() -> assertThat(io).hasId("align.pv.io-min"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("to have id align.pv.io-min");
        assertThatThrownBy(() -> assertThat(io).hasSeverity(Severity.ERROR))
                .isInstanceOf(AssertionError.class).hasMessageContaining("to have severity ERROR");
        assertThatThrownBy(() -> assertThat(io).isOnDevice("sda"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Fix: " + io.fix())
                .hasMessageContaining("to concern device sda");
        assertThatThrownBy(() -> assertThat(io).hasMessageContaining("sector 2048"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("to have a message containing \"sector 2048\"");
    }

    @Test
    void nullsAreRejectedTheAssertJWay() {
        assertThatThrownBy(() -> assertThatFindings(null).hasNoFindings())
                .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting actual not to be null");
        assertThatThrownBy(() -> assertThat((Finding) null).hasId("x"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting actual not to be null");
    }
}
