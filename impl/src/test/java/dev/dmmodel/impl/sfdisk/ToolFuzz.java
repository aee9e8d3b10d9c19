package dev.dmmodel.impl.sfdisk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.ShellLexer;
import dev.dmmodel.plan.PlanException;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The mutation fuzz of a partitioning tool's reader: mutated scripts go through the shell lexer, and every command
 * of the tool through its reader; either everything reads or the input fails with a {@link PlanException} naming
 * the file (never another exception). Fixed seed: every truncation, then random character, token and line edits.
 */
public final class ToolFuzz {

    private static final Pattern TOKEN = Pattern.compile("[^\\s:=,;+%-]+|[:=,;+%-]");
    private static final String CHARS = "-+:=,;/\\#'\"% \t\n0123456789sSkKmMgGiBbLxXE.\0\u00e9";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "-1", "0", "1", "63", "2048", "4294967295", "1.5", "0.5", "0x83", "+", "-", ":",
            "=", ",", ";", "--", "%", "100%", "-1s", "1MiB", "1G", "+1G", "-100M", "kB", "s", "TiB", "start=",
            "size=", "type=", "bootable", "label: gpt", "label: dos", "unit: sectors", "first-lba: 34",
            "sector-size: 4096", "grain: 1M", "/dev/sda1 :", "L", "E", "V", "R", "8e", "ef00", "8e00",
            "0FC63DAF-8483-4772-8E79-3D69D8477DE4", "-n", "-t", "-c", "-a", "-o", "-Z", "-N", "-d", "--new=",
            "--append", "--delete", "-X", "--wipe", "mklabel", "mkpart", "primary", "logical", "gpt", "msdos", "set",
            "lvm", "on", "unit", "name", "rm", "print", "-s", "-a", "optimal", "minimal", "none", "cylinder", "<<EOF",
            "EOF", "'", "\"", "\\", "|", "echo", "");
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS)
            .withWeights(1, 0, 1, 1, 0, 0, 6, 2, 2, 2);

    private ToolFuzz() {
    }

    /**
     * Runs the fuzz of one tool.
     *
     * @param tool the command name
     * @param parse its reader
     * @param seeds hand-written plans using it
     * @param seed the random seed
     * @param perSeed random inputs per seed
     */
    public static void run(String tool, Function<ShellCommand, PlanOp> parse, List<String> seeds, long seed,
                           int perSeed) {
        Random random = new Random(seed);
        FuzzTally tally = new FuzzTally();
        for (String text : seeds) {
            TextMutator.truncations(text, input -> one(input, tool, parse, tally));
            for (int i = 0; i < perSeed; i++) {
                one(MUTATOR.mutate(text, random), tool, parse, tally);
            }
        }
        System.out.println(tool + " fuzz: " + tally);
        assertThat(tally.problems()).as("inputs that failed with another exception").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.parsed()).as("parsed: %s", tally).isGreaterThan(tally.total() / 20);
        assertThat(tally.rejected()).as("rejected: %s", tally).isGreaterThan(tally.total() / 20);
    }

    private static void one(String input, String tool, Function<ShellCommand, PlanOp> parse, FuzzTally tally) {
        tally.run(input, () -> {
            for (ShellLexer.Parsed p : ShellLexer.read(input, "fuzz.sh")) {
                if (p.command().name().equals(tool)) {
                    parse.apply(p.command());
                }
            }
            return FuzzTally.PARSED;
        }, PlanException.class, e -> e.getMessage() != null && e.getMessage().startsWith("fuzz.sh:"));
    }
}
