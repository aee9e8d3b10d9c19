package dev.dmmodel.impl.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.workload.Script;
import dev.dmmodel.workload.WorkloadParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mutated workload scripts (the lines of {@code trace --workload} and {@code --setup-file}): every input either
 * parses to a {@link Script} or fails with a {@link WorkloadParseException} naming a line of the input (never a
 * NumberFormatException, ArithmeticException, IndexOutOfBoundsException, StackOverflowError...). Inputs, with
 * a fixed seed: the corpus below (every kind of command the parser knows, with quoting, prompts, wrappers
 * and continuations) truncated at every position, then random character edits, token edits (huge, negative
 * and malformed numbers and sizes, quotes, operators, flags), removed, duplicated and joined lines, and
 * combinations of these.
 */
class ScriptFuzzTest {

    private static final long SEED = 0x5c_71_9e_f0_77_12L;
    private static final int RANDOM_INPUTS = 100_000;
    static final String CORPUS = String.join("\n",
            "echo 3 > /proc/sys/vm/drop_caches",
            "sync",
            "sudo sync -f /dev/sda",
            "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=8 oflag=direct",
            "dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 seek=204800 oflag=direct,seek_bytes",
            "dd if=/dev/mapper/thin of=/dev/null bs=1M count=4 skip=32 iflag=direct",
            "dd if=/dev/zero of=/dev/sda1 ibs=512 obs=4k count=2x8 conv=fsync,notrunc status=none",
            "$ dd 'if=/dev/disk/by-id/My Disk' of=\"/tmp/a \\\"b\\\"\" bs=4\\k",
            "> dd if=/dev/zero of=/dev/sdg bs=1M count=10K",
            "# dd if=/dev/zero of=/mnt/my-lv/dd.tmp bs=8192 count=5000000",
            "# a comment line",
            "dmsetup message pool 0 \"create_thin 0\"",
            "dmsetup message pool 0 \"create_snap 1 0\"",
            "dmsetup suspend --nolockfs thin",
            "dmsetup resume thin",
            "blkdiscard -o 4096 -l 65536 /dev/mapper/snap",
            "blkdiscard -o 0x1000 -l 1.5KiB /dev/x",
            "blockdev --setra 256 /dev/sda",
            "blockdev --setbsz 4096 /dev/sda1",
            "echo 2048 > /sys/block/dm-1/queue/max_sectors_kb",
            "echo 128 | sudo tee -a /sys/block/sda/queue/read_ahead_kb > /dev/null",
            "mkfs.xfs -f -K -s size=512 /dev/vg/lv",
            "mkfs.ext4 -F -b 4096 -E stride=16,stripe_width=112 /dev/vg/lv",
            "mount -t xfs -o noatime /dev/vg/lv /mnt",
            "umount /mnt",
            "lvcreate -s -n snap vgt/thin",
            "lvcreate -kn -s vgt/thin --name snap2",
            "sh -c \"sync; echo 1 > /proc/sys/vm/drop_caches\"",
            "time -p dd if=/dev/zero of=/dev/sdb bs=64k count=16 oflag=dsync 2>&1",
            "sync && echo 1 > /proc/sys/vm/drop_caches; sync",
            "dd if=/dev/zero \\",
            "  of=/dev/sdb \\",
            "  bs=1M count=1",
            "echo 'a\\b' > /sys/x",
            "");
    private static final Pattern TOKEN = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[^\\s=,;&|<>'\"]+|[=,;&|<>]+");
    private static final String CHARS = "\"'\\$#>|&;=,-+.:/ \t\n\r0123456789abcdkKMGxX_\0\u00e9";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "9223372036854775808", "-1", "0", "1", "1x", "0x", "x1", "2x3x4",
            "4294967296x4294967296", "8E", "16E", "1P", "9999999999999999G", "1.5", "0.5MB", "1e9", "010", "0x",
            "0x7fffffffffffffff", "0xffffffffffffffff", "K", "k", "M", "1kB", "1KiB", "w", "b", "c", "''", "\"\"",
            "'", "\"", "\\", "$", "#", ">", ">>", "<", "|", "||", "&", "&&", ";", "2>&1", "&>", "=", ",", "--",
            "-", "-o", "-l", "-s", "-n", "-t", "-f", "--help", "--version", "--setra", "--setbsz", "sudo", "time",
            "-p", "sh", "-c", "dd", "sync", "echo", "tee", "dmsetup", "message", "suspend", "resume", "blkdiscard",
            "blockdev", "mkfs.xfs", "mkfs.ext4", "mount", "umount", "lvcreate", "if=", "of=", "bs=", "count=",
            "skip=", "seek=", "iflag=", "oflag=", "conv=", "status=", "direct", "sync,direct", "seek_bytes",
            "count_bytes", "skip_bytes", "fullblock", "nocache", "/dev/null", "/dev/zero", "/proc/sys/vm/drop_caches",
            "/sys/block/sda/queue/max_sectors_kb", "size=", "size=4096", "sectsize=1", "create_thin", "delete",
            "\"create_snap 1\"", "vg/", "/", "a b");

    @Test
    void everyMutationParsesOrThrowsWorkloadParseException() {
        Random random = new Random(SEED);
        int parsed = 0;
        int rejected = 0;
        int total = 0;
        List<String> problems = new ArrayList<>();
        for (int cut = 0; cut <= CORPUS.length(); cut++) {
            int[] o = run(CORPUS.substring(0, cut), problems);
            parsed += o[0];
            rejected += o[1];
            total++;
        }
        String[] lines = CORPUS.split("\n", -1);
        // each line alone too, so that one bad line does not hide the others
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            String text = random.nextInt(6) == 0 ? CORPUS : lines[random.nextInt(lines.length)];
            int edits = 1 + (random.nextInt(3) == 0 ? random.nextInt(4) : 0);
            for (int e = 0; e < edits; e++) {
                text = mutate(text, random);
            }
            int[] o = run(text, problems);
            parsed += o[0];
            rejected += o[1];
            total++;
        }
        assertThat(problems).as("inputs that failed otherwise than with WorkloadParseException").isEmpty();
        assertThat(total).isGreaterThanOrEqualTo(100_000);
        assertThat(parsed + rejected).isEqualTo(total);
        assertThat(parsed).isGreaterThan(5_000);
        assertThat(rejected).isGreaterThan(5_000);
    }

    private static int[] run(String input, List<String> problems) {
        try {
            Script s = Script.parse(input);
            assertThat(s.commands()).doesNotContainNull();
            return new int[] {1, 0};
        } catch (WorkloadParseException e) {
            long lines = input.split("\r\n|\r|\n", -1).length;
            if (e.lineNumber() < 1 || e.lineNumber() > lines || e.reason() == null || e.reason().isBlank()
                    || e.lineText() == null) {
                addProblem(problems, input, e);
            }
            return new int[] {0, 1};
        } catch (Throwable t) { // the property under test: nothing else may escape
            addProblem(problems, input, t);
            return new int[] {0, 0};
        }
    }

    private static void addProblem(List<String> problems, String input, Throwable t) {
        if (problems.size() < 8) {
            java.io.StringWriter w = new java.io.StringWriter();
            t.printStackTrace(new java.io.PrintWriter(w));
            String trace = w.toString();
            problems.add(trace.substring(0, Math.min(trace.length(), 1200)) + "\n--- input ---\n" + input);
        } else if (problems.size() == 8) {
            problems.add("...");
        }
    }

    private static String mutate(String text, Random r) {
        if (text.isEmpty()) {
            return REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()));
        }
        int at = r.nextInt(text.length());
        switch (r.nextInt(9)) {
            case 0: // delete a character
                return text.substring(0, at) + text.substring(at + 1);
            case 1: // duplicate a character
                return text.substring(0, at + 1) + text.substring(at);
            case 2: // replace a character
                return text.substring(0, at) + CHARS.charAt(r.nextInt(CHARS.length())) + text.substring(at + 1);
            case 3:
            case 4:
            case 5: { // replace, delete or repeat a token
                List<int[]> tokens = new ArrayList<>();
                Matcher m = TOKEN.matcher(text);
                while (m.find()) {
                    tokens.add(new int[] {m.start(), m.end()});
                }
                if (tokens.isEmpty()) {
                    return text + " " + REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()));
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                String token = text.substring(t[0], t[1]);
                String with;
                switch (r.nextInt(5)) {
                    case 0 -> with = "";
                    case 1 -> with = token + " " + token;
                    case 2 -> {
                        // keep a key=, change the value
                        int eq = token.indexOf('=');
                        with = eq >= 0 ? token.substring(0, eq + 1) + REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()))
                                : REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()));
                    }
                    default -> with = REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()));
                }
                return text.substring(0, t[0]) + with + text.substring(t[1]);
            }
            case 6: { // insert a token
                return text.substring(0, at) + " " + REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size())) + " "
                        + text.substring(at);
            }
            case 7: { // remove, duplicate or join lines
                List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                int l = r.nextInt(lines.size());
                switch (r.nextInt(3)) {
                    case 0 -> lines.remove(l);
                    case 1 -> lines.add(l, lines.get(l));
                    default -> {
                        if (l + 1 < lines.size()) {
                            lines.set(l, lines.get(l) + (r.nextBoolean() ? " && " : "\\") + lines.remove(l + 1));
                        }
                    }
                }
                return String.join("\n", lines);
            }
            default: // cut
                return r.nextBoolean() ? text.substring(0, at) : text.substring(at);
        }
    }
}
