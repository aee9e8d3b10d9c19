package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckCommandTest {

    private static String sd512e() {
        return Cli.snapshot("limits-sd-512e").toString();
    }

    /** The first of limits-sd-512e's two errors: strparts stripes over sdg1, which lin63 maps whole. */
    private static final String STRPARTS_OVER_LIN63 = "ERROR dm.table.overlap [dm-2]\n"
            // strparts: 258048 sectors over 2 stripes = 129024 on each partition; lin63: all 131009 of sdg1
            + "  dm-2 (strparts) maps sectors 0-129023 of sdg1 (table line 1, stripe 1), and dm-0 (lin63) maps"
            + " sectors 0-131008 (table line 1): writes through either overwrite the other in sectors 0-129023"
            + " (129024 sectors)\n"
            + "  fix: give each its own sectors of sdg1 (dmsetup reload one table), or remove the one that should"
            + " not exist (dmsetup remove)\n\n";

    @Test
    void text_oneBlockPerFinding_errorsFirst_soExit1() {
        Cli.Result r = Cli.run("check", "--snapshot", sd512e());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith(STRPARTS_OVER_LIN63 + "ERROR dm.table.overlap [dm-2]\n"
                + "  dm-2 (strparts) maps sectors 0-129023 of sdh1 (table line 1, stripe 2), and dm-1 (lin2048) maps"
                + " sectors 0-129023 (table line 1)");
        assertThat(r.out()).contains("""
                WARNING align.device.misaligned [dm-2]
                  dm-2 (strparts) reports alignment_offset -1: its devices are aligned differently from each other, \
                so no offset in it is aligned on all of them
                  fix: align every device of its table the same way (same partition start modulo the physical block \
                / io_min on each disk)
                """);
        assertThat(r.out()).contains("WARNING align.partition.physical-block [sdg1]\n"
                + "  sdg1 starts at sector 63, 3584 bytes past a 4096-byte physical block boundary of sdg");
        assertThat(r.out()).endsWith("8 findings (2 errors, 3 warnings, 3 info) under linux-6.1\n");
    }

    @Test
    void withoutTheMappingThatAliasesTheOthers_warningsOnlySoExit0(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path snap = Cli.copyOf("limits-sd-512e", tmp);
        // strparts (dm-2, 253:2) removed: its directory and its table line
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.walk(snap.resolve("block/dm-2"))) {
            for (java.nio.file.Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(f);
            }
        }
        java.nio.file.Path table = snap.resolve("dmsetup-table.txt");
        java.nio.file.Files.writeString(table, java.nio.file.Files.readString(table)
                .replace("strparts: 0 258048 striped 2 128 8:97 0 8:113 0\n", ""));
        Cli.Result r = Cli.run("check", "--snapshot", snap.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("ERROR").doesNotContain("[dm-2]")
                .endsWith("5 findings (0 errors, 2 warnings, 3 info) under linux-6.1\n");
    }

    @Test
    void json_findingsWithIdSeverityDeviceMessageFix() {
        Cli.Result r = Cli.run("check", "--snapshot", sd512e(), "--format", "json");
        assertThat(r.exitCode()).isEqualTo(1);
        Map<String, Object> top = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(top).containsOnlyKeys("findings");
        List<Object> findings = MiniJson.array(top.get("findings"));
        assertThat(findings).hasSize(8);
        for (Object f : findings) {
            assertThat(MiniJson.object(f).keySet()).containsExactly("id", "severity", "device", "message", "fix",
                    "basis");
        }
        // sdg1 starts at sector 63 of a disk with 4 KiB physical blocks: the finding rests on sdg's
        // physical_block_size and sdg1's alignment_offset, each explainable with limits --explain
        Map<String, Object> sdg1 = findings.stream().map(MiniJson::object)
                .filter(f -> f.get("id").equals("align.partition.physical-block")).findFirst().orElseThrow();
        assertThat(MiniJson.array(sdg1.get("basis"))).containsExactly("sdg:physical_block_size",
                "sdg1:alignment_offset");
        assertThat(findings).extracting(f -> MiniJson.object(f).get("severity") + " " + MiniJson.object(f).get("id")
                        + " " + MiniJson.object(f).get("device"))
                .startsWith("ERROR dm.table.overlap dm-2", "ERROR dm.table.overlap dm-2")
                .contains("WARNING align.partition.physical-block sdg1", "WARNING align.device.offset dm-0",
                        "WARNING align.device.misaligned dm-2");
    }

    @Test
    void noFindings() {
        Cli.Result r = Cli.run("check", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString(), "--format", "json");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).isEqualTo("{\"findings\": []}\n");
        assertThat(Cli.run("check", "--snapshot", Cli.snapshot("ss-str-1M-at32k").toString()).out())
                .isEqualTo("0 findings (0 errors, 0 warnings, 0 info) under linux-6.1\n");
    }

    @Test
    void aVolumeGroupTheModelCannotTakeIsNotedOnStderr(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path snap = Cli.copyOf("ss-str-1M-at32k", tmp);
        java.nio.file.Path vg = snap.resolve("lvm/vg.vg");
        // the first LV's segment as a RAID 1 segment: a type the model does not have
        String text = java.nio.file.Files.readString(vg).replaceFirst("type = \"striped\"", "type = \"raid1\"");
        java.nio.file.Files.writeString(vg, text);
        Cli.Result r = Cli.run("check", "--snapshot", snap.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("0 findings (0 errors, 0 warnings, 0 info) under linux-6.1\n");
        assertThat(r.errLines()).singleElement().asString().startsWith("dmmodel: note: ").contains("vg.vg")
                .contains("not imported").contains("raid1");
    }

    @Test
    void anErrorFinding_exits1() {
        Finding error = new Finding(FindingType.DEVICE_MISALIGNED, Severity.ERROR, "dm-9", "a \"quoted\" message",
                "a fix");
        Finding warning = new Finding(FindingType.DEVICE_MISALIGNED, Severity.WARNING, "dm-2", "m", "f");
        assertThat(CheckCommand.exitCode(List.of(error, warning))).isEqualTo(1);
        assertThat(CheckCommand.exitCode(List.of(warning))).isZero();
        assertThat(CheckCommand.exitCode(List.of())).isZero();
        assertThat(CheckCommand.text(List.of(error), "linux-6.1")).isEqualTo("""
                ERROR align.device.misaligned [dm-9]
                  a "quoted" message
                  fix: a fix

                1 finding (1 error, 0 warnings, 0 info) under linux-6.1
                """);
        Object parsed = MiniJson.parse(CheckCommand.json(List.of(error)));
        assertThat(MiniJson.object(MiniJson.array(MiniJson.object(parsed).get("findings")).get(0)))
                .containsEntry("severity", "ERROR").containsEntry("message", "a \"quoted\" message");
    }

    @Test
    void unknownFormat() {
        Cli.Result r = Cli.run("check", "--snapshot", sd512e(), "--format", "xml");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly("dmmodel: --format: expected one of text, json, jsonl, found 'xml'");
    }
}
