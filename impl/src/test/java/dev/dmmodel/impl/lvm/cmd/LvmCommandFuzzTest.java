package dev.dmmodel.impl.lvm.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mutated command scripts: every input either parses or fails with an {@link LvmCommandException} (never a
 * NullPointerException, NumberFormatException, ArithmeticException, IndexOutOfBoundsException,
 * StackOverflowError...). Seeds: the scripts the writer makes of the two recorded snapshots with LVM among the
 * test resources, and a hand-written script of every command form. Fixed seed: every truncation, then random
 * character edits, token edits (huge and negative numbers, units, option names, ranges, quotes, shell
 * syntax), removed, duplicated and swapped lines, and combinations of these.
 */
class LvmCommandFuzzTest {

    private static final long SEED = 0x6c_76_6d_63_6d_64L;
    private static final int RANDOM_INPUTS_PER_SEED = 34_000;
    private static final Pattern TOKEN = Pattern.compile("[^\\s:=+-]+|[:=+-]");
    private static final String CHARS = "-+:=/\\#'\"; \t\n0123456789sSkKmMgGbe%abcxyz_.\0\u00e9\u2028";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "-1", "0", "1", "4294967295", "4294967296", "1.5", "0x10", "10%VG", "+", "-", ":",
            "=", "--", "-l", "-L", "-n", "-i", "-I", "-V", "-T", "-s", "-c", "-Z", "-a", "--type", "thin-pool",
            "thin", "linear", "raid1", "--poolmetadata", "--thinpool", "--chunksize", "--alloc", "inherit", "y",
            "n", "'", "\"", "\\", ";", "/dev/", "vg/", "/dev/sda:", ":0-", "+0", "9223372036854775807s",
            "99999999999999999999e", "lvcreate", "lvextend", "lvconvert", "pvcreate", "vgcreate", "sudo", "lvm",
            "#", "set", "");
    /**
     * In fifteenths: a character deleted, inserted or replaced (1 each), a token replaced (6), a line removed,
     * duplicated or swapped with another (2 each).
     */
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS)
            .withWeights(1, 0, 1, 1, 0, 0, 6, 2, 2, 2);

    private static String script(String snapshot) {
        try {
            Path p = Path.of(LvmCommandFuzzTest.class.getResource("/snapshots/" + snapshot).toURI());
            return LvmCommandWriter.write(Layout.of(Snapshot.read(p).toLayoutSpec())).script();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String HAND_WRITTEN = """
            set -e
            pvcreate --dataalignment=3m --metadatasize 100k --pvmetadatacopies 2 /dev/sda /dev/sdb
            vgcreate -s 4m --alloc anywhere vg /dev/sda /dev/sdb
            lvcreate --extents=10 --name lv -i2 -I64 vg /dev/sda:0-4:10+5 /dev/sdb:0-9
            lvextend -L +8m vg/lv /dev/sdb:30-31
            lvextend -l +3 -i 1 --alloc normal /dev/vg/lv
            lvcreate --type thin-pool -L 100m -n pool --chunksize 128 --zero n --discards ignore vg /dev/sda
            lvcreate -V 1G --thinpool pool vg -n thin
            lvcreate -s vg/thin -n snap
            lvconvert --yes --thinpool vg/data --poolmetadata meta -c 64k --poolmetadataspare y /dev/sdb:0-0
            """;

    @Test
    void everyMutationParsesOrThrowsLvmCommandException() {
        List<String> seeds = List.of(script("thin-lvm-zy-direct1M"), script("lp-raid-part63-4M-lv-direct64k"),
                HAND_WRITTEN);
        Random random = new Random(SEED);
        FuzzTally tally = new FuzzTally();
        for (String text : seeds) {
            TextMutator.truncations(text, input -> run(input, tally));
            for (int i = 0; i < RANDOM_INPUTS_PER_SEED; i++) {
                run(MUTATOR.mutate(text, random), tally);
            }
        }
        System.out.println("LvmCommandFuzzTest: " + tally);
        assertThat(tally.problems()).as("inputs that failed with another exception").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.parsed() + tally.rejected()).isEqualTo(tally.total());
        // both outcomes happen: the mutations reach the parser's checks, and valid variants still parse
        assertThat(tally.parsed()).as("parsed: %s", tally).isGreaterThan(tally.total() / 20);
        assertThat(tally.rejected()).as("rejected: %s", tally).isGreaterThan(tally.total() / 4);
    }

    private static void run(String input, FuzzTally tally) {
        tally.run(input, () -> {
            LvmCommandParser.parse(input, "fuzz.sh");
            return FuzzTally.PARSED;
        }, LvmCommandException.class, e -> e.getMessage() != null && e.getMessage().startsWith("fuzz.sh:"));
    }
}
