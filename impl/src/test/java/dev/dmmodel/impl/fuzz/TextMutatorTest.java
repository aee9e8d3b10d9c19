package dev.dmmodel.impl.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.fuzz.TextMutator.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TextMutatorTest {

    private static final TextMutator BASE = TextMutator.of(Pattern.compile("[a-z]+"), "#", List.of("N"));
    private static final String TEXT = "ab cd\nef gh\nij";

    private static TextMutator only(Kind kind) {
        int[] w = new int[Kind.values().length];
        w[kind.ordinal()] = 1;
        return BASE.withWeights(w);
    }

    @Test
    void eachKindMakesItsEdit() {
        Random r = new Random(1);
        for (int i = 0; i < 200; i++) {
            assertThat(only(Kind.DELETE_CHAR).mutate(TEXT, r, 1)).hasSize(TEXT.length() - 1);
            assertThat(only(Kind.DUPLICATE_CHAR).mutate(TEXT, r, 1)).hasSize(TEXT.length() + 1).doesNotContain("#");
            assertThat(only(Kind.INSERT_CHAR).mutate(TEXT, r, 1)).hasSize(TEXT.length() + 1).containsOnlyOnce("#");
            assertThat(only(Kind.REPLACE_CHAR).mutate(TEXT, r, 1)).hasSize(TEXT.length());
            assertThat(only(Kind.DELETE_TOKEN).mutate(TEXT, r, 1)).hasSize(TEXT.length() - 2);
            assertThat(only(Kind.DUPLICATE_TOKEN).mutate(TEXT, r, 1)).hasSize(TEXT.length() + 3);
            assertThat(only(Kind.REPLACE_TOKEN).mutate(TEXT, r, 1)).hasSize(TEXT.length() - 1).containsOnlyOnce("N");
            assertThat(only(Kind.REMOVE_LINE).mutate(TEXT, r, 1).split("\n", -1)).hasSize(2);
            assertThat(only(Kind.DUPLICATE_LINE).mutate(TEXT, r, 1).split("\n", -1)).hasSize(4);
            assertThat(only(Kind.SWAP_LINES).mutate(TEXT, r, 1).split("\n", -1))
                    .containsExactlyInAnyOrder("ab cd", "ef gh", "ij");
        }
        assertThat(only(Kind.DUPLICATE_TOKEN).withTokenSeparator("").mutate("ab", r, 1)).isEqualTo("abab");
        assertThat(only(Kind.REPLACE_TOKEN).withReplacer((m, t, text, rr) -> t.toUpperCase()).mutate("ab", r, 1))
                .isEqualTo("AB");
        assertThat(BASE.mutate("", r, 1)).isEqualTo("#");
    }

    @Test
    void extraEditsAndEditCounts() {
        TextMutator appendX = BASE.withWeights(new int[Kind.values().length]).withEdit(1, (t, r) -> t + "x");
        Random r = new Random(2);
        assertThat(appendX.mutate("a", r, 3)).isEqualTo("axxx");
        int[] byCount = new int[5];
        for (int i = 0; i < 4000; i++) {
            byCount[appendX.mutate("a", r).length() - 1]++;
        }
        // one edit in 13/16 of the mutations, two, three or four in 1/16 each
        assertThat(byCount[0]).isZero();
        assertThat(byCount[1]).isBetween(3000, 3500);
        assertThat(byCount[2]).isBetween(150, 350);
        assertThat(byCount[4]).isBetween(150, 350);
        assertThatThrownBy(() -> BASE.withWeights(1, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void truncationsRunFromEmptyToWhole() {
        List<String> out = new ArrayList<>();
        TextMutator.truncations("abc", out::add);
        assertThat(out).containsExactly("", "a", "ab", "abc");
    }
}
