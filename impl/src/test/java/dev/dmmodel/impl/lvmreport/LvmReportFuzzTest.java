package dev.dmmodel.impl.lvmreport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.impl.json.JsonException;
import dev.dmmodel.impl.json.JsonMutator;
import dev.dmmodel.impl.json.JsonReader;
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
            "devices", "seg_pe_ranges", "seg_le_ranges", "pvseg_start", "pvseg_size", "pv_uuid");

    private record Outcome(int parsed, int rejected) {
    }

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
        for (String dir : List.of("thin-lvm-zy-direct1M/", "ss-span-1M-at8M-512k/")) {
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
        List<List<int[]>> fullTokens = full.stream().map(JsonMutator::tokens).toList();
        List<List<List<int[]>>> setTokens = sets.stream().map(s -> List.of(JsonMutator.tokens(s[0]),
                JsonMutator.tokens(s[1]), JsonMutator.tokens(s[2]))).toList();
        Random random = new Random(SEED);
        int parsed = 0;
        int rejected = 0;
        int total = 0;
        List<String> problems = new ArrayList<>();
        for (String f : full) {
            for (int cut = 0; cut <= f.length(); cut++) {
                Outcome o = runFull(f.substring(0, cut), problems);
                parsed += o.parsed();
                rejected += o.rejected();
                total++;
            }
        }
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            Outcome o;
            if (i % 2 == 0) {
                int f = random.nextInt(full.size());
                String input = JsonMutator.mutate(full.get(f), fullTokens.get(f), random);
                if (i % 8 == 0) {
                    jsonOnly(input, problems);
                }
                o = runFull(input, problems);
            } else {
                int set = random.nextInt(sets.size());
                String[] s = sets.get(set).clone();
                int which = random.nextInt(3);
                s[which] = JsonMutator.mutate(s[which], setTokens.get(set).get(which), random);
                o = runSplit(s, random.nextInt(4) == 0, problems);
            }
            parsed += o.parsed();
            rejected += o.rejected();
            total++;
        }
        assertThat(problems).as("inputs that failed otherwise than with LvmMetadataException").isEmpty();
        assertThat(total).isGreaterThanOrEqualTo(100_000);
        assertThat(parsed + rejected).isEqualTo(total);
        // both outcomes occur: harmless edits still read, most others are rejected
        assertThat(parsed).isGreaterThan(2_000);
        assertThat(rejected).isGreaterThan(50_000);
    }

    private static Outcome runFull(String input, List<String> problems) {
        try {
            List<VolumeGroup> vgs = LvmReportReader.readFullReport(input, "fuzz.json");
            assertThat(vgs).isNotNull();
            return new Outcome(1, 0);
        } catch (LvmMetadataException e) {
            check(e, "fuzz.json", input, problems);
            return new Outcome(0, 1);
        } catch (Throwable t) { // the property under test: nothing else may escape
            addProblem(problems, input, t);
            return new Outcome(0, 0);
        }
    }

    private static Outcome runSplit(String[] s, boolean withoutVgs, List<String> problems) {
        String input = String.join("\n---\n", s);
        try {
            List<VolumeGroup> vgs = LvmReportReader.read(new LvmReportReader.Text(s[0], "pvs.json"),
                    withoutVgs ? Optional.empty() : Optional.of(new LvmReportReader.Text(s[1], "vgs.json")),
                    new LvmReportReader.Text(s[2], "lvs.json"));
            assertThat(vgs).isNotNull();
            return new Outcome(1, 0);
        } catch (LvmMetadataException e) {
            if (!e.source().endsWith("s.json")) {
                addProblem(problems, input, e);
            }
            check(e, e.source(), input, problems);
            return new Outcome(0, 1);
        } catch (Throwable t) {
            addProblem(problems, input, t);
            return new Outcome(0, 0);
        }
    }

    private static void jsonOnly(String input, List<String> problems) {
        try {
            JsonReader.parse(input, "j");
        } catch (JsonException e) {
            if (e.line() < 1 || e.column() < 1 || !e.getMessage().startsWith("j:")) {
                addProblem(problems, input, e);
            }
        } catch (Throwable t) {
            addProblem(problems, input, t);
        }
    }

    private static void check(LvmMetadataException e, String source, String input, List<String> problems) {
        if (e.line() < 1 || e.column() < 1 || e.getMessage() == null || !e.getMessage().startsWith(source + ":")) {
            addProblem(problems, input, e);
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
