package dev.dmmodel.impl.lvm.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mutated real metadata: every input either reads to a {@link VolumeGroup} or fails with an
 * {@link LvmMetadataException} (never a NullPointerException, NumberFormatException, ArithmeticException,
 * IndexOutOfBoundsException, StackOverflowError...). Inputs come from the three fixtures with a fixed seed:
 * every truncation, then random character edits, token edits (huge and negative numbers, strings where
 * integers go, brackets, braces), removed and duplicated lines and sections, and combinations of these.
 */
class VgMetadataFuzzTest {

    private static final long SEED = 0x1f_2e_3d_4c_5b_6aL;
    private static final int RANDOM_INPUTS_PER_FIXTURE = 22_000;
    private static final Pattern TOKEN = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|[^\\s=\\{\\}\\[\\],\"#]+|[=\\{\\}\\[\\],]");
    private static final String CHARS = "{}[]=,\"'\\#\n\t 0123456789-+.abcxyz_\0\u00e9\u2028";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "-1", "0", "1", "2097153", "16777216", "\"x\"", "\"\"", "\"pv0\"", "\"pv9\"",
            "[]", "[1]", "[\"VISIBLE\"]", "{", "}", "{}", "=", ",", "\"striped\"", "\"thin\"", "\"thin-pool\"",
            "\"raid1\"", "\"pool\"", "\"thin\"", "\"lvol0_pmspare\"", "1.5", "0x10", "010", "'single'", "\"\\\"\"",
            "segment2 { }", "#", "\"ACTIVATION_SKIP\"", "\"pool_tmeta\"", "\"pool_tdata\"");
    /**
     * Characters deleted, duplicated, replaced; tokens deleted, duplicated, replaced (twice as often; a number
     * quoted half the time); lines removed, duplicated; and whole sections removed.
     */
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS)
            .withWeights(1, 1, 0, 1, 1, 1, 2, 1, 1, 0)
            .withReplacer((m, token, text, r) -> r.nextBoolean() && token.matches("-?[0-9]+")
                    ? "\"" + token + "\"" : m.replacement(r))
            .withEdit(1, VgMetadataFuzzTest::removeSection);

    @Test
    void everyMutationParsesOrThrowsLvmMetadataException() {
        Random random = new Random(SEED);
        FuzzTally tally = new FuzzTally();
        for (String name : VgMetadataReaderTest.FIXTURES) {
            String text = VgMetadataReaderTest.fixture(name);
            TextMutator.truncations(text, input -> run(input, tally));
            for (int i = 0; i < RANDOM_INPUTS_PER_FIXTURE; i++) {
                run(MUTATOR.mutate(text, random), tally);
            }
        }
        System.out.println("VgMetadataFuzzTest: " + tally);
        assertThat(tally.problems()).as("inputs that failed otherwise than with LvmMetadataException").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.parsed() + tally.rejected()).isEqualTo(tally.total());
        // both outcomes occur: harmless edits (comments, ids) still read, most others are rejected
        assertThat(tally.parsed()).isGreaterThan(1_000);
        assertThat(tally.rejected()).isGreaterThan(50_000);
    }

    private static void run(String input, FuzzTally tally) {
        tally.run(input, () -> {
            VolumeGroup vg = VgMetadataReader.read(input, "fuzz.vg");
            assertThat(vg).isNotNull();
            return FuzzTally.PARSED;
        }, LvmMetadataException.class, e -> e.line() >= 1 && e.column() >= 1 && e.getMessage() != null
                && e.getMessage().startsWith("fuzz.vg:"));
    }

    /** Removes a section: from a line ending in '{' to its matching '}'. */
    private static String removeSection(String text, Random r) {
        String[] lines = text.split("\n", -1);
        List<Integer> opens = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].trim().endsWith("{")) {
                opens.add(i);
            }
        }
        if (opens.isEmpty()) {
            return text;
        }
        int start = opens.get(r.nextInt(opens.size()));
        int depth = 0;
        int end = start;
        for (int i = start; i < lines.length; i++) {
            depth += count(lines[i], '{') - count(lines[i], '}');
            end = i;
            if (depth <= 0) {
                break;
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (i < start || i > end) {
                out.add(lines[i]);
            }
        }
        return String.join("\n", out);
    }

    private static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                n++;
            }
        }
        return n;
    }
}
