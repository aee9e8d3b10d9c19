package dev.dmmodel.impl.format.layoutfile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mutated layout files, YAML and JSON: every input either reads (and, one in sixteen, builds), or fails with a
 * {@link LayoutFileException} (never a NullPointerException, ClassCastException, NumberFormatException,
 * ArithmeticException, one of SnakeYAML's own exceptions, StackOverflowError...). Inputs come from docs/examples and
 * the every-key fixture with a fixed seed, 100,000 in all: every truncation, then random character edits, token edits (huge and
 * negative numbers, wrong types, YAML syntax), removed and duplicated lines, and combinations of these.
 */
class LayoutFileFuzzTest {

    private static final long SEED = 0x1a_2b_3c_4d_5e_6fL;
    /** Inputs in all: every truncation of every fixture, then random mutations up to this count. */
    private static final int INPUTS = 100_000;
    /** Every this many inputs is also built (building takes ten times as long as reading). */
    private static final int BUILD_EVERY = 16;
    private static final Pattern TOKEN = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|[^\\s:,\\[\\]{}\"#]+|[:,\\[\\]{}#-]");
    private static final String CHARS = "{}[]:,-\"'\\#&*!|>%@`?\n\t 0123456789.abcsxyzGKiB_\0\u00e9\u2028\uFEFF";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "-1", "0", "1", "2", "128", "4097", "0x", "0xffffffffffffffffff", "1.5", "1e3",
            "9223372036854775807s", "8589934591GiB", "16EiB", "0s", "1s", "63s", "100G", "1.5KiB", "512B", "3kB",
            "null", "~", "\"\"", "''", "true", "no", "[]", "{}", "[1, 2]", "{a: 1}", "\"8:0\"", "\"4095:1048575\"",
            "\"4096:0\"", "sda", "sda1", "dm-0", "/dev/vg/lv", "vg", "pool", "t", "linear", "striped", "thin-pool",
            "thin", "zero", "error", "msdos", "gpt", "optimal", "minimal", "raid5", "sd", "loop", "scsi-debug",
            "hardware-raid", "3ware", "disk", "pvcreate", "lvcreate", "thin_pool", "snapshot", "queue", "partition",
            "import_vg", "dmsetup_create", "&a", "*a", "!!str", "!x", "|", ">", "---", "...", "? ", "%YAML 1.1", "#",
            "\"\\u0000\"", "\"\\x\"", "'a''b'", "\"lvm_version\"", "\"2.00\"", "\"6.1\"", "\"2.6.0\"");
    /**
     * In 21sts: a character replaced, inserted or deleted (1 each), a token replaced (9; one in five by another
     * token of the text), a line removed (3), a line duplicated or moved (3), a run of lines (a step, a section)
     * duplicated or removed (3).
     */
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS)
            .withWeights(1, 0, 1, 1, 0, 0, 9, 3, 0, 0)
            .withReplacer((m, token, text, r) -> {
                if (r.nextInt(5) != 0) {
                    return m.replacement(r);
                }
                List<int[]> tokens = m.tokens(text);
                int[] other = tokens.get(r.nextInt(tokens.size()));
                return text.substring(other[0], other[1]);
            })
            .withEdit(3, LayoutFileFuzzTest::duplicateOrMoveLine)
            .withEdit(3, LayoutFileFuzzTest::duplicateOrRemoveLines);

    record Fixture(String name, String text) {
    }

    static List<Fixture> fixtures() throws IOException {
        List<Fixture> out = new ArrayList<>();
        for (Path f : LayoutFileReaderTest.exampleFiles()) {
            out.add(new Fixture(f.getFileName().toString(), Files.readString(f)));
        }
        out.add(new Fixture("every-key.yaml", LayoutFileReaderTest.EVERY_KEY));
        out.add(new Fixture("lvextend.yaml", LayoutFileReaderTest.LVEXTEND_AND_CONVERT));
        return out;
    }

    @Test
    void everyMutationReadsOrThrowsLayoutFileException() throws IOException {
        Random random = new Random(SEED);
        List<Fixture> fixtures = fixtures();
        assertThat(fixtures.stream().filter(f -> f.name().endsWith(".json"))).isNotEmpty();
        FuzzTally tally = new FuzzTally();
        for (Fixture f : fixtures) {
            String text = f.text();
            for (int cut = 0; cut <= text.length(); cut++) {
                run(text.substring(0, cut), cut % 32 == 0, tally);
            }
        }
        for (int i = 0; tally.total() < INPUTS; i++) {
            Fixture f = fixtures.get(random.nextInt(fixtures.size()));
            run(MUTATOR.mutate(f.text(), random), i % BUILD_EVERY == 0, tally);
        }
        System.out.println("LayoutFileFuzzTest: " + tally);
        assertThat(tally.problems()).as("inputs that threw something else than LayoutFileException").isEmpty();
        assertThat(tally.total()).isEqualTo(INPUTS);
        assertThat(tally.parsed() + tally.rejected()).isEqualTo(tally.total());
        // both outcomes are exercised: many mutations still read and build, many are refused
        assertThat(tally.parsed()).isGreaterThan(5_000);
        assertThat(tally.rejected()).isGreaterThan(20_000);
    }

    private static void run(String text, boolean build, FuzzTally tally) {
        tally.run(text, () -> {
            LayoutFile file = LayoutFileReader.read(text, "fuzz.yaml");
            if (build) {
                file.build();
            }
            return FuzzTally.PARSED;
        }, LayoutFileException.class, e -> e.line() >= 1 && e.column() >= 1
                && e.getMessage().startsWith("fuzz.yaml:" + e.line() + ":" + e.column() + ": "));
    }

    /** A line duplicated, or moved, to a random place. */
    private static String duplicateOrMoveLine(String text, Random r) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        String l = lines.get(r.nextInt(lines.size()));
        if (r.nextBoolean()) {
            lines.remove(l);
        }
        lines.add(r.nextInt(lines.size() + 1), l);
        return String.join("\n", lines);
    }

    /** A run of up to eight lines (a step, a section) duplicated or removed. */
    private static String duplicateOrRemoveLines(String text, Random r) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int from = r.nextInt(lines.size());
        int to = Math.min(lines.size(), from + 1 + r.nextInt(8));
        List<String> run = new ArrayList<>(lines.subList(from, to));
        if (r.nextBoolean()) {
            lines.subList(from, to).clear();
        } else {
            lines.addAll(to, run);
        }
        return String.join("\n", lines);
    }
}
