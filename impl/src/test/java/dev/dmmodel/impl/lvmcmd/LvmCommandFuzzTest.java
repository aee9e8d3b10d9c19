package dev.dmmodel.impl.lvmcmd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
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

    private record Outcome(int parsed, int rejected) {
    }

    @Test
    void everyMutationParsesOrThrowsLvmCommandException() {
        List<String> seeds = List.of(script("thin-lvm-zy-direct1M"), script("lp-raid-part63-4M-lv-direct64k"),
                HAND_WRITTEN);
        Random random = new Random(SEED);
        int parsed = 0;
        int rejected = 0;
        int total = 0;
        List<String> problems = new ArrayList<>();
        long t0 = System.nanoTime();
        for (String text : seeds) {
            for (int cut = 0; cut <= text.length(); cut++) {
                Outcome o = run(text.substring(0, cut), problems);
                parsed += o.parsed();
                rejected += o.rejected();
                total++;
            }
            for (int i = 0; i < RANDOM_INPUTS_PER_SEED; i++) {
                String mutated = text;
                int edits = 1 + (random.nextInt(4) == 0 ? random.nextInt(4) : 0);
                for (int e = 0; e < edits; e++) {
                    mutated = mutate(mutated, random);
                }
                Outcome o = run(mutated, problems);
                parsed += o.parsed();
                rejected += o.rejected();
                total++;
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("lvm command fuzz: %d inputs, %d parsed, %d rejected, %.1f s%n", total, parsed, rejected,
                seconds);
        assertThat(problems).as("inputs that failed with another exception").isEmpty();
        assertThat(total).isGreaterThanOrEqualTo(100_000);
        // both outcomes happen: the mutations reach the parser's checks, and valid variants still parse
        assertThat(parsed).as("parsed of %d in %.1f s", total, seconds).isGreaterThan(total / 20);
        assertThat(rejected).as("rejected of %d", total).isGreaterThan(total / 4);
    }

    private static Outcome run(String input, List<String> problems) {
        try {
            LvmCommandParser.parse(input, "fuzz.sh");
            return new Outcome(1, 0);
        } catch (LvmCommandException e) {
            assertThat(e.getMessage()).startsWith("fuzz.sh:");
            return new Outcome(0, 1);
        } catch (RuntimeException | StackOverflowError e) {
            if (problems.size() < 10) {
                problems.add(e + "\n--- input:\n" + input);
            }
            return new Outcome(0, 0);
        }
    }

    private static String mutate(String text, Random random) {
        if (text.isEmpty()) {
            return String.valueOf(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        switch (random.nextInt(5)) {
            case 0 -> {
                int at = random.nextInt(text.length());
                String c = String.valueOf(CHARS.charAt(random.nextInt(CHARS.length())));
                return switch (random.nextInt(3)) {
                    case 0 -> text.substring(0, at) + c + text.substring(at);
                    case 1 -> text.substring(0, at) + text.substring(at + 1);
                    default -> text.substring(0, at) + c + text.substring(at + 1);
                };
            }
            case 1, 2 -> {
                List<int[]> tokens = new ArrayList<>();
                Matcher m = TOKEN.matcher(text);
                while (m.find()) {
                    tokens.add(new int[] {m.start(), m.end()});
                }
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(random.nextInt(tokens.size()));
                String r = REPLACEMENTS.get(random.nextInt(REPLACEMENTS.size()));
                return text.substring(0, t[0]) + r + text.substring(t[1]);
            }
            default -> {
                List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                int i = random.nextInt(lines.size());
                switch (random.nextInt(3)) {
                    case 0 -> lines.remove(i);
                    case 1 -> lines.add(i, lines.get(i));
                    default -> {
                        int j = random.nextInt(lines.size());
                        String x = lines.get(i);
                        lines.set(i, lines.get(j));
                        lines.set(j, x);
                    }
                }
                return String.join("\n", lines);
            }
        }
    }
}
