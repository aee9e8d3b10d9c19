package dev.dmmodel.impl.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FuzzTallyTest {

    @Test
    void countsOutcomesAndKeepsTheFirstFiveProblems() {
        FuzzTally tally = new FuzzTally();
        tally.run("ok", () -> FuzzTally.PARSED, IllegalStateException.class, e -> true);
        tally.run("other", () -> "other", IllegalStateException.class, e -> true);
        tally.run("refused", () -> {
            throw new IllegalStateException("in:1:1: refused");
        }, IllegalStateException.class, e -> e.getMessage().startsWith("in:"));
        tally.run("no place", () -> {
            throw new IllegalStateException("refused");
        }, IllegalStateException.class, e -> e.getMessage().startsWith("in:"));
        for (int i = 0; i < 6; i++) {
            tally.run("npe " + i, () -> {
                throw new NullPointerException("x");
            }, IllegalStateException.class, e -> true);
        }
        assertThat(tally.total()).isEqualTo(10);
        assertThat(tally.parsed()).isEqualTo(1);
        assertThat(tally.count("other")).isEqualTo(1);
        // the badly formed documented exception counts as rejected and as a problem
        assertThat(tally.rejected()).isEqualTo(2);
        assertThat(tally.counted()).isEqualTo(4);
        // 1 badly formed + 6 others: the first five kept, then "..."
        assertThat(tally.problems()).hasSize(6);
        assertThat(tally.problems().get(0)).contains("IllegalStateException: refused").endsWith("--- input ---\nno place");
        assertThat(tally.problems().get(4)).contains("NullPointerException").endsWith("npe 3");
        assertThat(tally.problems().get(5)).isEqualTo("...");
        assertThat(tally.toString()).startsWith("10 inputs: 1 other, 1 parsed, 2 rejected, 7 problems, ");
    }
}
