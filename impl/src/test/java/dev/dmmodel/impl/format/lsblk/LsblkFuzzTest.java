package dev.dmmodel.impl.format.lsblk;

import dev.dmmodel.io.LsblkImport;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import dev.dmmodel.impl.format.json.JsonException;
import dev.dmmodel.impl.format.json.JsonMutator;
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
    /** The outcomes of inputs that read: without and with problems. */
    private static final String CLEAN = "read clean";
    private static final String WITH_PROBLEMS = "read with problems";
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
        Random random = new Random(SEED);
        FuzzTally tally = new FuzzTally();
        TextMutator.truncations(LIST, input -> run(input, tally));
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            run(JsonMutator.MUTATOR.mutate(bases.get(random.nextInt(bases.size())), random), tally);
        }
        System.out.println("LsblkFuzzTest: " + tally);
        assertThat(tally.problems()).as("inputs that failed otherwise than with JsonException").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.count(CLEAN) + tally.count(WITH_PROBLEMS) + tally.rejected()).isEqualTo(tally.total());
        // all three outcomes occur
        assertThat(tally.count(CLEAN)).isGreaterThan(1_000);
        assertThat(tally.count(WITH_PROBLEMS)).isGreaterThan(1_000);
        assertThat(tally.rejected()).isGreaterThan(10_000);
    }

    private static void run(String input, FuzzTally tally) {
        tally.run(input, () -> {
            LsblkImport imp = LsblkReader.read(input, "fuzz.json");
            for (String p : imp.problems()) {
                if (!p.matches("(?s)fuzz\\.json:[1-9][0-9]*:[1-9][0-9]*: .*")) {
                    tally.problem(input, new AssertionError("problem without a place: " + p));
                }
            }
            return imp.problems().isEmpty() ? CLEAN : WITH_PROBLEMS;
        }, JsonException.class, e -> e.line() >= 1 && e.column() >= 1 && e.getMessage().startsWith("fuzz.json:"));
    }
}
