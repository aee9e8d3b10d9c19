package dev.dmmodel.impl.lsblk;

import dev.dmmodel.io.LsblkImport;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.json.JsonException;
import dev.dmmodel.impl.json.JsonMutator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Mutated lsblk output: every input either reads to an {@link LsblkImport} whose problems each name the source
 * with a line and column, or fails with a {@link JsonException} (never a NullPointerException,
 * NumberFormatException, ArithmeticException, IndexOutOfBoundsException, StackOverflowError...). Inputs, fixed
 * seed, from the two fixtures of {@link LsblkReaderTest} and a list-form text: every truncation of the list form,
 * then random character edits, token edits (huge, negative and quoted numbers, wrong types, human sizes, other
 * device types and names), removed and duplicated lines, deep nesting, and combinations of these.
 */
class LsblkFuzzTest {

    private static final long SEED = 0x15b1_4_2e_3dL;
    private static final int RANDOM_INPUTS = 100_000;
    private static final String LIST = """
            {"blockdevices": [
              {"name":"nvme0n1", "kname":"nvme0n1", "maj:min":"259:0", "size":512110190592, "type":"disk",
               "log-sec":4096, "phy-sec":4096, "min-io":4096, "opt-io":0, "alignment":0, "disc-aln":0,
               "disc-gran":4096, "disc-max":2199023255040, "rota":false, "ra":128, "wsame":0, "rq-size":1023},
              {"name":"nvme0n1p1", "kname":"nvme0n1p1", "maj:min":"259:1", "size":1048576, "type":"part",
               "pkname":"nvme0n1", "start":2048, "partn":1},
              {"name":"vg-lv", "kname":"dm-0", "maj:min":"253:0", "size":1048576, "type":"lvm", "pkname":"nvme0n1p1"}
            ]}
            """;

    @Test
    void everyMutationReadsOrThrowsJsonException() {
        List<String> bases = List.of(LsblkReaderTest.resource("lp-raid-part63-2.38.json"),
                LsblkReaderTest.resource("lp-raid-part63-2.32.json"), LIST);
        for (String b : bases) {
            assertThat(LsblkReader.read(b, "fuzz.json").steps()).isNotEmpty();
        }
        List<List<int[]>> baseTokens = bases.stream().map(JsonMutator::tokens).toList();
        Random random = new Random(SEED);
        int clean = 0;
        int withProblems = 0;
        int rejected = 0;
        int total = 0;
        List<String> problems = new ArrayList<>();
        List<String> inputs = new ArrayList<>();
        for (int cut = 0; cut <= LIST.length(); cut++) {
            inputs.add(LIST.substring(0, cut));
        }
        for (String input : inputs) {
            int o = run(input, problems);
            clean += o == 0 ? 1 : 0;
            withProblems += o == 1 ? 1 : 0;
            rejected += o == 2 ? 1 : 0;
            total++;
        }
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            int b = random.nextInt(bases.size());
            String input = JsonMutator.mutate(bases.get(b), baseTokens.get(b), random);
            int o = run(input, problems);
            clean += o == 0 ? 1 : 0;
            withProblems += o == 1 ? 1 : 0;
            rejected += o == 2 ? 1 : 0;
            total++;
        }
        assertThat(problems).as("inputs that failed otherwise than with JsonException").isEmpty();
        assertThat(total).isGreaterThanOrEqualTo(100_000);
        assertThat(clean + withProblems + rejected).isEqualTo(total);
        // all three outcomes occur
        assertThat(clean).isGreaterThan(1_000);
        assertThat(withProblems).isGreaterThan(1_000);
        assertThat(rejected).isGreaterThan(10_000);
    }

    /** 0: read without problems, 1: read with problems, 2: JsonException, 3: anything else. */
    private static int run(String input, List<String> problems) {
        try {
            LsblkImport imp = LsblkReader.read(input, "fuzz.json");
            for (String p : imp.problems()) {
                if (!p.matches("(?s)fuzz\\.json:[1-9][0-9]*:[1-9][0-9]*: .*")) {
                    addProblem(problems, input, new AssertionError("problem without a place: " + p));
                }
            }
            return imp.problems().isEmpty() ? 0 : 1;
        } catch (JsonException e) {
            if (e.line() < 1 || e.column() < 1 || !e.getMessage().startsWith("fuzz.json:")) {
                addProblem(problems, input, e);
            }
            return 2;
        } catch (Throwable t) { // the property under test: nothing else may escape
            addProblem(problems, input, t);
            return 3;
        }
    }

    private static void addProblem(List<String> problems, String input, Throwable t) {
        if (problems.size() < 5) {
            java.io.StringWriter w = new java.io.StringWriter();
            t.printStackTrace(new java.io.PrintWriter(w));
            problems.add(w.toString().lines().limit(8).reduce("", (a, b) -> a + b + "\n") + "--- input ---\n"
                    + (input.length() > 3000 ? input.substring(0, 3000) + "..." : input));
        } else if (problems.size() == 5) {
            problems.add("...");
        }
    }
}
