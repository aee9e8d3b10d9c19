package dev.dmmodel.impl.lvm.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import dev.dmmodel.impl.format.json.JsonException;
import dev.dmmodel.impl.format.json.JsonMutator;
import dev.dmmodel.impl.format.json.JsonReader;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mutated reports: every input either reads to volume groups or fails with an {@link LvmMetadataException}
 * naming the source with a line and column (never a NullPointerException, NumberFormatException,
 * ArithmeticException, IndexOutOfBoundsException, StackOverflowError...); the same inputs given to
 * {@link JsonReader} alone (every fourth mutated fullreport) either parse or throw {@link JsonException}. Inputs, fixed seed, from the fixtures of
 * {@link LvmReportReaderTest} cut down to the columns the reader uses (so that every truncation stays cheap): the
 * two fullreports and the three-report sets of both cases (json and json_std), every truncation of each fullreport,
 * then random character edits, token edits (huge, negative and bare numbers, wrong types, rounded sizes, unknown
 * segment types, structure), removed and duplicated lines (rows), deep nesting, and combinations of these.
 */
class LvmReportFuzzTest {

    private static final long SEED = 0x5eed_1f_2e_3dL;
    private static final int RANDOM_INPUTS = 104_000;
    private static final Pattern ROW = Pattern.compile("\\{\"[^{}]*\\}");
    private static final Pattern PAIR = Pattern.compile("\"([a-z_]+)\":(\"(?:[^\"\\\\]|\\\\.)*\"|\\[[^\\]]*\\]|[^,}]+)");
    private static final Set<String> KEEP = Set.of("vg_name", "vg_attr", "vg_extent_size", "vg_allocation_policy",
            "pv_count", "pv_name", "dev_size", "pe_start", "pv_pe_count", "lv_uuid", "lv_name", "lv_attr",
            "lv_skip_activation", "lv_when_full", "data_lv", "metadata_lv", "pool_lv", "origin", "segtype", "stripes",
            "stripe_size", "chunk_size", "discards", "zero", "transaction_id", "thin_id", "seg_start_pe", "seg_size_pe",
            "devices", "seg_pe_ranges", "seg_le_ranges", "pvseg_start", "pvseg_size", "pv_uuid", "cache_mode",
            "cache_policy", "cache_metadata_format", "writecache_block_size", "region_size", "data_copies",
            "metadata_devices", "lv_initial_image_sync");

    /** The report with only the columns in {@link #KEEP}. */
    static String compact(String text) {
        Matcher rows = ROW.matcher(text);
        StringBuilder out = new StringBuilder();
        while (rows.find()) {
            Matcher p = PAIR.matcher(rows.group());
            List<String> kept = new ArrayList<>();
            while (p.find()) {
                if (KEEP.contains(p.group(1))) {
                    kept.add(p.group());
                }
            }
            rows.appendReplacement(out, Matcher.quoteReplacement("{" + String.join(", ", kept) + "}"));
        }
        rows.appendTail(out);
        return out.toString();
    }

    @Test
    void everyMutationReadsOrThrowsLvmMetadataException() {
        List<String> full = List.of(compact(LvmReportReaderTest.resource("thin-fullreport.json")),
                compact(LvmReportReaderTest.resource("span-fullreport.json")));
        List<String[]> sets = new ArrayList<>();
        for (String dir : List.of("thin-lvm-zy-direct1M/", "ss-span-1M-at8M-512k/", "writecache-w1M-at0/",
                "lvmraid/")) {
            sets.add(new String[] {compact(LvmReportReaderTest.resource(dir + "pvs-all.json")),
                compact(LvmReportReaderTest.resource(dir + "vgs-all.json")),
                compact(LvmReportReaderTest.resource(dir + "lvs-segments-all.json"))});
        }
        String std = "ss-span-1M-at8M-512k/";
        sets.add(new String[] {compact(LvmReportReaderTest.resource(std + "pvs-all.json_std.json")),
            compact(LvmReportReaderTest.resource(std + "vgs-all.json_std.json")),
            compact(LvmReportReaderTest.resource(std + "lvs-segments-all.json_std.json"))});
        // the cut-down fixtures still read
        for (String f : full) {
            assertThat(LvmReportReader.readFullReport(f, "fuzz.json")).hasSize(1);
        }
        for (String[] s : sets) {
            assertThat(LvmReportReader.read(s[0], s[1], s[2], "fuzz")).hasSize(1);
        }
        TextMutator mutator = JsonMutator.MUTATOR;
        Random random = new Random(SEED);
        FuzzTally tally = new FuzzTally();
        FuzzTally json = new FuzzTally();
        for (String f : full) {
            TextMutator.truncations(f, input -> runFull(input, tally));
        }
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            if (i % 2 == 0) {
                String input = mutator.mutate(full.get(random.nextInt(full.size())), random);
                if (i % 8 == 0) {
                    jsonOnly(input, json);
                }
                runFull(input, tally);
            } else {
                int set = random.nextInt(sets.size());
                String[] s = sets.get(set).clone();
                int which = random.nextInt(3);
                s[which] = mutator.mutate(s[which], random);
                runSplit(s, random.nextInt(4) == 0, tally);
            }
        }
        System.out.println("LvmReportFuzzTest: " + tally + "; JsonReader alone: " + json);
        assertThat(tally.problems()).as("inputs that failed otherwise than with LvmMetadataException").isEmpty();
        assertThat(json.problems()).as("inputs JsonReader failed otherwise than with JsonException").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.parsed() + tally.rejected()).isEqualTo(tally.total());
        // both outcomes occur: harmless edits still read, most others are rejected
        assertThat(tally.parsed()).isGreaterThan(2_000);
        assertThat(tally.rejected()).isGreaterThan(50_000);
    }

    private static void runFull(String input, FuzzTally tally) {
        tally.run(input, () -> {
            List<VolumeGroup> vgs = LvmReportReader.readFullReport(input, "fuzz.json");
            assertThat(vgs).isNotNull();
            return FuzzTally.PARSED;
        }, LvmMetadataException.class, e -> wellFormed(e, "fuzz.json"));
    }

    private static void runSplit(String[] s, boolean withoutVgs, FuzzTally tally) {
        String input = String.join("\n---\n", s);
        tally.run(input, () -> {
            List<VolumeGroup> vgs = LvmReportReader.read(new LvmReportReader.Text(s[0], "pvs.json"),
                    withoutVgs ? Optional.empty() : Optional.of(new LvmReportReader.Text(s[1], "vgs.json")),
                    new LvmReportReader.Text(s[2], "lvs.json"));
            assertThat(vgs).isNotNull();
            return FuzzTally.PARSED;
        }, LvmMetadataException.class, e -> e.source().endsWith("s.json") && wellFormed(e, e.source()));
    }

    private static void jsonOnly(String input, FuzzTally json) {
        json.run(input, () -> {
            JsonReader.parse(input, "j");
            return FuzzTally.PARSED;
        }, JsonException.class, e -> e.line() >= 1 && e.column() >= 1 && e.getMessage().startsWith("j:"));
    }

    private static boolean wellFormed(LvmMetadataException e, String source) {
        return e.line() >= 1 && e.column() >= 1 && e.getMessage() != null && e.getMessage().startsWith(source + ":");
    }
}
