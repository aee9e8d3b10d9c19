package dev.dmmodel.impl.dm.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mutated table texts: every input either parses or fails with a {@link DmTableException} that names the
 * source and a line (never a NullPointerException, NumberFormatException, ArithmeticException,
 * IndexOutOfBoundsException...). What parses with devices only as {@code major:minor} is written and read back
 * to the same tables. Inputs come from three seeds with a fixed seed: every truncation, then character edits,
 * token edits (huge and negative numbers, words where numbers go, devices as paths and broken numbers, other
 * target types), removed and duplicated lines, and combinations of these.
 */
class DmTableFuzzTest {

    private static final long SEED = 0x5eed_d3_7ab1eL;
    private static final int RANDOM_INPUTS_PER_SEED = 34_000;
    private static final Pattern TOKEN = Pattern.compile("[^\\s]+");
    private static final Pattern MAJOR_MINOR = Pattern.compile("\\d+:\\d+");
    private static final String CHARS = ": \t\n0123456789-+#/\\abcxyz_\0\u00e9\u2028";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "18446744073709551615", "-1", "0", "1", "4", "8", "127", "128", "129", "2097152", "2097280", "16777215",
            "16777216", "4294967295", "4294967296", "x", "", "8:0", "08:016", "4095:1048575", "4096:0", "8:", ":8",
            "8:16:2", "/dev/sdb", "/dev/mapper/vgt-pool", "vgt-pool", "/dev/mapper/", "linear", "striped",
            "thin-pool", "thin", "zero", "error", "crypt", "skip_block_zeroing", "READ_ONLY", "ignore_discard",
            "no_discard_passdown", "error_if_no_space", "No devices found", "a:", "name:", "#", "\\");
    /**
     * Characters deleted, duplicated, replaced; tokens deleted, duplicated, replaced (twice as often); lines
     * removed and duplicated.
     */
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS)
            .withWeights(1, 1, 0, 1, 1, 1, 2, 1, 1, 0);

    /** thin-lvm-zy-direct1M's dmsetup-table.txt (the thin-pool line ends in a blank). */
    static final String THIN = """
            vgt-pool: 0 524288 linear 253:2 0
            vgt-pool-tpool: 0 524288 thin-pool 253:0 253:1 2048 0 1 skip_block_zeroing\s
            vgt-pool_tdata: 0 524288 linear 8:0 10240
            vgt-pool_tmeta: 0 8192 linear 8:0 534528
            vgt-thin: 0 131072 thin 253:2 1
            """;
    /** Linear spans, striped and error/zero targets, an external origin. */
    static final String MIXED = """
            vg-span: 0 16384 linear 8:0 165888
            vg-span: 16384 16384 linear 8:16 247808
            vg-striped: 0 131072 striped 2 128 8:0 2048 8:16 2048
            vg-z: 0 8 zero\s
            vg-z: 8 8 error\s
            vg-t: 0 4096 thin 253:9 7 8:1
            """;
    /** The planted key of {@link #UNMODELLED} ({@code dmsetup table --showkeys}). */
    static final String KEY = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7";
    /**
     * The 6.12 stacks' targets (crypt, snapshot, multipath, cache, writecache), one crypt line with a key as
     * --showkeys prints it, and targets the model does not implement (delay, integrity with a keyed argument).
     */
    static final String UNMODELLED = """
            cplain: 0 2097152 crypt aes-xts-plain64 %s 0 254:0 0
            vgs-origin: 0 131072 snapshot-origin 253:1
            vgs-snap: 0 131072 snapshot 253:1 253:2 P 8
            mp: 0 2097152 multipath 0 0 1 1 round-robin 0 2 1 8:16 1 8:32 1
            slow: 0 2048 delay 8:48 0 50
            """.formatted(KEY);
    /** The recorded stacks' modelled targets with their optional arguments (kernel-traces-6.12-stacks). */
    static final String STACKS = """
            cluks: 0 491520 crypt aes-xts-plain64 :64:logon:cryptsetup:2e1c-d0 0 253:1 32768 2 allow_discards sector_size:4096
            vgs-snap: 0 131072 snapshot 253:1 253:2 PO 128 2 discard_zeroes_cow discard_passdown_origin
            mpb: 0 524288 multipath 3 retain_attached_hw_handler queue_mode bio 0 1 1 round-robin 0 2 1 8:0 1 8:16 1
            mps: 0 524288 multipath 0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 1
            vgk-origin: 0 524288 cache 253:2 253:1 253:3 128 2 metadata2 writethrough smq 2 migration_threshold 2048
            vgk-origin2: 0 524288 writecache s 253:2 253:1 4096 4 high_watermark 50 autocommit_time 1000
            """;
    /** A hand-written table file for {@code dmsetup create top}. */
    static final String FILE = """
            # top of the stack
            0 2048 linear /dev/sdb 2048
            2048 4096 striped 2 128 /dev/mapper/vg-a 0 8:32 0

            6144 8 zero
            """;

    @Test
    void everyMutationParsesOrThrowsDmTableException() {
        Random random = new Random(SEED);
        FuzzTally tally = new FuzzTally();
        for (String seed : List.of(THIN, MIXED, UNMODELLED, STACKS, FILE)) {
            boolean named = seed != FILE;
            TextMutator.truncations(seed, input -> run(input, named, tally));
            for (int i = 0; i < RANDOM_INPUTS_PER_SEED; i++) {
                run(MUTATOR.mutate(seed, random), named, tally);
            }
        }
        System.out.println("DmTableFuzzTest: " + tally);
        assertThat(tally.problems()).as("inputs that failed otherwise than with DmTableException").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.parsed() + tally.rejected()).isEqualTo(tally.total());
        // both outcomes occur: edits to offsets and ids still parse, most others are refused
        assertThat(tally.parsed()).as("parsed of %d (rejected %d)", tally.total(), tally.rejected())
                .isGreaterThan(5_000);
        assertThat(tally.rejected()).isGreaterThan(50_000);
    }

    private static void run(String input, boolean named, FuzzTally tally) {
        tally.run(input, () -> {
            DmTables t = named ? DmTableParser.parse(input, "fuzz.txt") : DmTableParser.parseDevice("top", input,
                    "fuzz.txt");
            boolean numbersOnly = t.devices().stream().flatMap(d -> d.references().stream())
                    .allMatch(r -> MAJOR_MINOR.matcher(r).matches());
            if (named && numbersOnly) {
                String written = DmTableFormatter.tables(t, Map.of());
                DmTables again = DmTableParser.parse(written, "again.txt");
                if (!again.tables().equals(t.tables()) || !DmTableFormatter.tables(again, Map.of()).equals(written)) {
                    tally.problem(input, new AssertionError("not read back to the same tables:\n" + written));
                }
            }
            // a key where crypt_ctr takes it never comes out, whatever else the edit did
            // (written with kernel names: a crypt target's device may be a path, which has no major:minor here)
            String shown = t.devices().stream().flatMap(d -> d.table().targets().stream())
                    .map(x -> x.type() + " " + x.arguments(java.util.function.Function.identity()) + " " + x)
                    .collect(java.util.stream.Collectors.joining("\n"));
            if (input.contains(" crypt aes-xts-plain64 " + KEY) && shown.contains(KEY)) {
                tally.problem(input, new AssertionError("the key came out of the parsed tables"));
            }
            return FuzzTally.PARSED;
        }, DmTableException.class, e -> e.getMessage() != null && e.getMessage().startsWith("fuzz.txt")
                && e.line() >= 0 && e.column() >= 0
                && !(input.contains(" crypt aes-xts-plain64 " + KEY) && e.getMessage().contains(KEY)));
    }
}
