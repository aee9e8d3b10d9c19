package dev.dmmodel.impl.layoutfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
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
        int[] outcome = new int[2];
        int total = 0;
        List<String> problems = new ArrayList<>();
        for (Fixture f : fixtures) {
            for (int cut = 0; cut <= f.text().length(); cut++) {
                run(f.text().substring(0, cut), cut % 32 == 0, outcome, problems);
                total++;
            }
        }
        for (int i = 0; total < INPUTS; i++) {
            Fixture f = fixtures.get(random.nextInt(fixtures.size()));
            String mutated = f.text();
            int edits = 1 + (random.nextInt(4) == 0 ? random.nextInt(4) : 0);
            for (int e = 0; e < edits; e++) {
                mutated = mutate(mutated, random);
            }
            run(mutated, i % BUILD_EVERY == 0, outcome, problems);
            total++;
        }
        assertThat(problems).as("inputs that threw something else than LayoutFileException").isEmpty();
        assertThat(total).isEqualTo(INPUTS);
        // both outcomes are exercised: many mutations still read and build, many are refused
        assertThat(outcome[0]).isGreaterThan(5_000);
        assertThat(outcome[1]).isGreaterThan(20_000);
    }

    private static void run(String text, boolean build, int[] outcome, List<String> problems) {
        try {
            LayoutFile file = LayoutFileReader.read(text, "fuzz.yaml");
            if (build) {
                file.build();
            }
            outcome[0]++;
        } catch (LayoutFileException e) {
            outcome[1]++;
            if (!e.getMessage().startsWith("fuzz.yaml:" + e.line() + ":" + e.column() + ": ") || e.line() < 1
                    || e.column() < 1) {
                problems.add("bad message " + e.getMessage());
            }
        } catch (RuntimeException | StackOverflowError e) {
            if (problems.size() < 20) {
                StringBuilder sb = new StringBuilder(e.toString());
                for (StackTraceElement s : e.getStackTrace()) {
                    if (sb.length() > 1500) {
                        break;
                    }
                    sb.append("\n    at ").append(s);
                }
                problems.add(sb + "\n  input:\n" + text);
            }
        }
    }

    private static String mutate(String text, Random r) {
        if (text.isEmpty()) {
            return String.valueOf(CHARS.charAt(r.nextInt(CHARS.length())));
        }
        switch (r.nextInt(7)) {
            case 0: { // a random character edit
                int at = r.nextInt(text.length());
                char c = CHARS.charAt(r.nextInt(CHARS.length()));
                switch (r.nextInt(3)) {
                    case 0:
                        return text.substring(0, at) + c + text.substring(at + 1);
                    case 1:
                        return text.substring(0, at) + c + text.substring(at);
                    default:
                        return text.substring(0, at) + text.substring(at + 1);
                }
            }
            case 1:
            case 2:
            case 3: { // a token replaced
                List<int[]> tokens = new ArrayList<>();
                Matcher m = TOKEN.matcher(text);
                while (m.find()) {
                    tokens.add(new int[] {m.start(), m.end()});
                }
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                int[] other = tokens.get(r.nextInt(tokens.size()));
                String with = r.nextInt(5) == 0 ? text.substring(other[0], other[1])
                        : REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()));
                return text.substring(0, t[0]) + with + text.substring(t[1]);
            }
            case 4: { // a line removed
                List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                lines.remove(r.nextInt(lines.size()));
                return String.join("\n", lines);
            }
            case 5: { // a line duplicated, or moved
                List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                String l = lines.get(r.nextInt(lines.size()));
                if (r.nextBoolean()) {
                    lines.remove(l);
                }
                lines.add(r.nextInt(lines.size() + 1), l);
                return String.join("\n", lines);
            }
            default: { // a run of lines (a step, a section) duplicated or removed
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
    }
}
