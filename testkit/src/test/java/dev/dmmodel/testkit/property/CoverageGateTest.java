package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class CoverageGateTest {

    @Test
    void fewerTriesThanTheMinimumSkipTheRestOfTheTestSayingSo() {
        assertThatThrownBy(() -> CoverageGate.assumeEnoughTries("splits-respect-limits", 199))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("splits-respect-limits: the property held over 199 tries; its coverage checks"
                        + " need at least 200 (dmmodel.tries) and were skipped");
    }

    @Test
    void theMinimumIsEnough() {
        assertThatCode(() -> CoverageGate.assumeEnoughTries("p", 200)).doesNotThrowAnyException();
        assertThatCode(() -> CoverageGate.assumeEnoughTries("p", 100_000)).doesNotThrowAnyException();
    }
}
