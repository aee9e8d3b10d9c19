package dev.dmmodel.impl.lvmtext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
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
    private static final int RANDOM_INPUTS_PER_FIXTURE = 36_000;
    private static final Pattern TOKEN = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|[^\\s=\\{\\}\\[\\],\"#]+|[=\\{\\}\\[\\],]");
    private static final String CHARS = "{}[]=,\"'\\#\n\t 0123456789-+.abcxyz_\0\u00e9\u2028";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "-1", "0", "1", "2097153", "16777216", "\"x\"", "\"\"", "\"pv0\"", "\"pv9\"",
            "[]", "[1]", "[\"VISIBLE\"]", "{", "}", "{}", "=", ",", "\"striped\"", "\"thin\"", "\"thin-pool\"",
            "\"raid1\"", "\"pool\"", "\"thin\"", "\"lvol0_pmspare\"", "1.5", "0x10", "010", "'single'", "\"\\\"\"",
            "segment2 { }", "#", "\"ACTIVATION_SKIP\"", "\"pool_tmeta\"", "\"pool_tdata\"");

    private record Outcome(int parsed, int rejected) {
    }

    @Test
    void everyMutationParsesOrThrowsLvmMetadataException() {
        Random random = new Random(SEED);
        int parsed = 0;
        int rejected = 0;
        int total = 0;
        List<String> problems = new ArrayList<>();
        for (String name : VgMetadataReaderTest.FIXTURES) {
            String text = VgMetadataReaderTest.fixture(name);
            for (int cut = 0; cut <= text.length(); cut++) {
                Outcome o = run(text.substring(0, cut), problems);
                parsed += o.parsed();
                rejected += o.rejected();
                total++;
            }
            List<int[]> tokens = tokens(text);
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < RANDOM_INPUTS_PER_FIXTURE; i++) {
                String mutated = text;
                int edits = 1 + (random.nextInt(4) == 0 ? random.nextInt(4) : 0);
                for (int e = 0; e < edits; e++) {
                    mutated = mutate(mutated, e == 0 ? tokens : tokens(mutated), e == 0 ? lines : mutated.split("\n", -1),
                            random);
                }
                Outcome o = run(mutated, problems);
                parsed += o.parsed();
                rejected += o.rejected();
                total++;
            }
        }
        assertThat(problems).as("inputs that failed otherwise than with LvmMetadataException").isEmpty();
        assertThat(total).isGreaterThanOrEqualTo(100_000);
        assertThat(parsed + rejected).isEqualTo(total);
        // both outcomes occur: harmless edits (comments, ids) still read, most others are rejected
        assertThat(parsed).isGreaterThan(1_000);
        assertThat(rejected).isGreaterThan(50_000);
    }

    private static Outcome run(String input, List<String> problems) {
        try {
            VolumeGroup vg = VgMetadataReader.read(input, "fuzz.vg");
            assertThat(vg).isNotNull();
            return new Outcome(1, 0);
        } catch (LvmMetadataException e) {
            if (e.line() < 1 || e.column() < 1 || e.getMessage() == null || !e.getMessage().startsWith("fuzz.vg:")) {
                addProblem(problems, input, e);
            }
            return new Outcome(0, 1);
        } catch (Throwable t) { // the property under test: nothing else may escape
            addProblem(problems, input, t);
            return new Outcome(0, 0);
        }
    }

    private static void addProblem(List<String> problems, String input, Throwable t) {
        if (problems.size() < 5) {
            problems.add(t + "\n--- input ---\n" + input);
        } else if (problems.size() == 5) {
            problems.add("...");
        }
    }

    private static List<int[]> tokens(String text) {
        List<int[]> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            out.add(new int[] {m.start(), m.end()});
        }
        return out;
    }

    private static String mutate(String text, List<int[]> tokens, String[] lines, Random r) {
        if (text.isEmpty()) {
            return String.valueOf(CHARS.charAt(r.nextInt(CHARS.length())));
        }
        int at = r.nextInt(text.length());
        switch (r.nextInt(10)) {
            case 0: // delete a character
                return text.substring(0, at) + text.substring(at + 1);
            case 1: // duplicate a character
                return text.substring(0, at + 1) + text.substring(at);
            case 2: // replace a character
                return text.substring(0, at) + CHARS.charAt(r.nextInt(CHARS.length())) + text.substring(at + 1);
            case 3: { // delete a token
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                return text.substring(0, t[0]) + text.substring(t[1]);
            }
            case 4: { // duplicate a token
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                return text.substring(0, t[1]) + " " + text.substring(t[0]);
            }
            case 5:
            case 6: { // replace a token: huge numbers, wrong types, structure
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                String token = text.substring(t[0], t[1]);
                String with = r.nextBoolean() && token.matches("-?[0-9]+")
                        ? "\"" + token + "\"" : REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()));
                return text.substring(0, t[0]) + with + text.substring(t[1]);
            }
            case 7: { // remove a line
                int l = r.nextInt(lines.length);
                List<String> out = new ArrayList<>(List.of(lines));
                out.remove(l);
                return String.join("\n", out);
            }
            case 8: { // duplicate a line
                int l = r.nextInt(lines.length);
                List<String> out = new ArrayList<>(List.of(lines));
                out.add(l, lines[l]);
                return String.join("\n", out);
            }
            default: { // remove a section: from a line ending in '{' to its matching '}'
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
        }
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
