package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.DeviceStats;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCommandTest {

    private static final String STRIPED = "ss-str-1M-at32k";
    /** The traced line of kernel-traces/ss-str-1M-at32k/workload.txt: 1 MiB at 32 KiB, 16 chunk boundaries. */
    private static final String DD_AT_32K =
            "dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 seek=32768 oflag=direct,seek_bytes";

    /**
     * The block_bio_queue, block_bio_remap and block_split rows of the case's trace.csv, as Linux 6.1.0-57
     * recorded them (dm-0 = vg-striped, 2 stripes of 64 KiB over sda and sdb at sector 2048).
     */
    private static final String RECORDED_BIO_ROWS = """
            0,dm-0,block_bio_queue,WS,64,2048,
            1,sda,block_bio_remap,WS,2112,64,from=dm-0:64
            2,sda,block_bio_queue,WS,2112,64,
            3,dm-0,block_split,WS,128,,new_sector=128
            5,sdb,block_bio_remap,WS,2048,128,from=dm-0:128
            6,sdb,block_bio_queue,WS,2048,128,
            7,dm-0,block_split,WS,256,,new_sector=256
            9,sda,block_bio_remap,WS,2176,128,from=dm-0:256
            10,sda,block_bio_queue,WS,2176,128,
            11,dm-0,block_split,WS,384,,new_sector=384
            13,sdb,block_bio_remap,WS,2176,128,from=dm-0:384
            14,sdb,block_bio_queue,WS,2176,128,
            15,dm-0,block_split,WS,512,,new_sector=512
            17,sda,block_bio_remap,WS,2304,128,from=dm-0:512
            18,sda,block_bio_queue,WS,2304,128,
            19,dm-0,block_split,WS,640,,new_sector=640
            21,sdb,block_bio_remap,WS,2304,128,from=dm-0:640
            22,sdb,block_bio_queue,WS,2304,128,
            23,dm-0,block_split,WS,768,,new_sector=768
            25,sda,block_bio_remap,WS,2432,128,from=dm-0:768
            26,sda,block_bio_queue,WS,2432,128,
            27,dm-0,block_split,WS,896,,new_sector=896
            29,sdb,block_bio_remap,WS,2432,128,from=dm-0:896
            30,sdb,block_bio_queue,WS,2432,128,
            31,dm-0,block_split,WS,1024,,new_sector=1024
            33,sda,block_bio_remap,WS,2560,128,from=dm-0:1024
            34,sda,block_bio_queue,WS,2560,128,
            35,dm-0,block_split,WS,1152,,new_sector=1152
            37,sdb,block_bio_remap,WS,2560,128,from=dm-0:1152
            38,sdb,block_bio_queue,WS,2560,128,
            39,dm-0,block_split,WS,1280,,new_sector=1280
            41,sda,block_bio_remap,WS,2688,128,from=dm-0:1280
            42,sda,block_bio_queue,WS,2688,128,
            43,dm-0,block_split,WS,1408,,new_sector=1408
            45,sdb,block_bio_remap,WS,2688,128,from=dm-0:1408
            46,sdb,block_bio_queue,WS,2688,128,
            47,dm-0,block_split,WS,1536,,new_sector=1536
            49,sda,block_bio_remap,WS,2816,128,from=dm-0:1536
            50,sda,block_bio_queue,WS,2816,128,
            51,dm-0,block_split,WS,1664,,new_sector=1664
            53,sdb,block_bio_remap,WS,2816,128,from=dm-0:1664
            54,sdb,block_bio_queue,WS,2816,128,
            55,dm-0,block_split,WS,1792,,new_sector=1792
            57,sda,block_bio_remap,WS,2944,128,from=dm-0:1792
            58,sda,block_bio_queue,WS,2944,128,
            59,dm-0,block_split,WS,1920,,new_sector=1920
            61,sdb,block_bio_remap,WS,2944,128,from=dm-0:1920
            62,sdb,block_bio_queue,WS,2944,128,
            63,dm-0,block_split,WS,2048,,new_sector=2048
            65,sda,block_bio_remap,WS,3072,64,from=dm-0:2048
            66,sda,block_bio_queue,WS,3072,64,
            """;

    private static String snapshot() {
        return Cli.snapshot(STRIPED).toString();
    }

    /** CSV rows (CRLF ended) of the bio events, without the header. */
    private static List<String> bioRows(String csv) {
        return csv.lines().skip(1)
                .filter(l -> l.contains(",block_bio_queue,") || l.contains(",block_bio_remap,")
                        || l.contains(",block_split,"))
                .toList();
    }

    private static String withoutSeq(String row) {
        return row.substring(row.indexOf(',') + 1);
    }

    @Test
    void ddAt32k_printsTheRecordedBioEvents() {
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K);
        assertThat(r.err()).isEmpty();
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("seq,device,event,rwbs,sector,nr_sectors,extra\r\n");
        List<String> expected = RECORDED_BIO_ROWS.lines().toList();
        assertThat(expected).hasSize(51);
        assertThat(bioRows(r.out()).stream().map(TraceCommandTest::withoutSeq).toList())
                .containsExactlyElementsOf(expected.stream().map(TraceCommandTest::withoutSeq).toList());
        // the model numbers the events as the kernel did, too
        assertThat(bioRows(r.out())).containsExactlyElementsOf(expected);
        // and the two merged 512 KiB requests the disks received (recorded: rows 68 to 73)
        assertThat(r.outLines().stream().skip(1).map(TraceCommandTest::withoutSeq).toList()).contains(
                "sdb,block_rq_insert,WS,2048,1024,bytes=524288", "sda,block_rq_insert,WS,2112,1024,bytes=524288",
                "sdb,block_rq_issue,WS,2048,1024,bytes=524288", "sda,block_rq_issue,WS,2112,1024,bytes=524288",
                "sdb,block_rq_complete,WS,2048,1024,err=0", "sda,block_rq_complete,WS,2112,1024,err=0");
    }

    @Test
    void setupFileAndWorkloadFile_likeTheRecordedCase(@TempDir Path tmp) {
        Path setup = Cli.write(tmp.resolve("setup.txt"), "sync\necho 3 > /proc/sys/vm/drop_caches\n");
        Path workload = Cli.write(tmp.resolve("workload.txt"), DD_AT_32K + "\nsync\n");
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--setup-file", setup.toString(),
                "--workload-file", workload.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(bioRows(r.out())).containsExactlyElementsOf(RECORDED_BIO_ROWS.lines().toList());
    }

    @Test
    void setupLinesAreNotTraced(@TempDir Path tmp) {
        Path setup = Cli.write(tmp.resolve("setup.txt"),
                "dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 oflag=direct\n");
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--setup-file", setup.toString(),
                "--workload", "sync");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).isEqualTo("seq,device,event,rwbs,sector,nr_sectors,extra\r\n");
    }

    @Test
    void jsonLines_andText() {
        Cli.Result csv = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K);
        Cli.Result json = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K, "--format", "json");
        assertThat(json.exitCode()).isZero();
        assertThat(json.outLines()).hasSize(csv.outLines().size() - 1);
        Map<String, Object> first = MiniJson.object(MiniJson.parse(json.outLines().get(0)));
        assertThat(first).containsExactly(Map.entry("seq", 0L), Map.entry("device", "dm-0"),
                Map.entry("event", "block_bio_queue"), Map.entry("rwbs", "WS"), Map.entry("sector", 64L),
                Map.entry("nr_sectors", 2048L), Map.entry("extra", ""));
        json.outLines().forEach(MiniJson::parse);

        Cli.Result text = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K, "--format", "text");
        assertThat(text.exitCode()).isZero();
        assertThat(text.outLines().get(1)).isEqualTo("      1 sda      block_bio_remap      WS   2112 + 64  from=dm-0:64");
    }

    @Test
    void failingWorkloadCommand_printsTheToolsMessage_goesOn_andExits1() {
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(),
                "--workload", "dd if=/dev/zero of=/dev/vg/striped bs=1000 count=1 oflag=direct",
                "--workload", DD_AT_32K);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.errLines()).containsExactly("dd: error writing '/dev/vg/striped': Invalid argument");
        assertThat(bioRows(r.out())).containsExactlyElementsOf(RECORDED_BIO_ROWS.lines().toList());
    }

    @Test
    void stats_printsIostatLinesToStderr() {
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K, "--stats");
        assertThat(r.exitCode()).isZero();
        assertThat(r.errLines()).hasSize(5);
        assertThat(r.errLines().get(0)).isEqualTo(DeviceStats.iostatHeader());
        // dm-0 (bio based) counts the 17 bios it cut the write into; each disk one merged 512 KiB request
        assertThat(r.errLines()).contains(
                "sda          0.00     8.00     0.00     1.00       0.00    1024.00  1024.00",
                "sdb          0.00     7.00     0.00     1.00       0.00    1024.00  1024.00",
                "dm-0         0.00     0.00     0.00    17.00       0.00    2048.00   120.47");
        Cli.Result two = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K, "--stats",
                "--seconds", "2");
        assertThat(two.errLines()).contains("dm-0         0.00     0.00     0.00     8.50       0.00    1024.00   120.47");
        assertThat(two.out()).isEqualTo(r.out());
    }

    @Test
    void stats_countTheWorkloadOnly(@TempDir Path tmp) {
        Path setup = Cli.write(tmp.resolve("setup.txt"), DD_AT_32K + "\n" + DD_AT_32K + "\n");
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--setup-file", setup.toString(),
                "--workload", DD_AT_32K, "--stats");
        assertThat(r.exitCode()).isZero();
        assertThat(r.errLines()).contains(
                "dm-0         0.00     0.00     0.00    17.00       0.00    2048.00   120.47");
    }

    @Test
    void bufferRunBytes_isPassedToTheEngine() {
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K,
                "--buffer-run-bytes", "2M");
        assertThat(r.exitCode()).isZero();
        assertThat(bioRows(r.out())).containsExactlyElementsOf(RECORDED_BIO_ROWS.lines().toList());
        Cli.Result bad = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K,
                "--buffer-run-bytes", "1000");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.out()).isEmpty();
        assertThat(bad.errLines()).hasSize(1);
        assertThat(bad.err()).startsWith("dmmodel: --buffer-run-bytes: ").contains("1000");
    }

    // ------------------------------------------------------------------------------------------ bad input

    private static void assertBadInput(Cli.Result r, String message) {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).as("nothing on stdout").isEmpty();
        assertThat(r.errLines()).containsExactly(message);
    }

    @Test
    void unparsableWorkloadLine_namesItsLineNumber() {
        assertBadInput(Cli.run("trace", "--snapshot", snapshot(), "--workload", "sync",
                        "--workload", "dd if=/dev/zero of=/dev/vg/striped bs=1x"),
                "dmmodel: --workload line 2: dd: invalid number: '1x' (in: dd if=/dev/zero of=/dev/vg/striped bs=1x)");
    }

    @Test
    void unparsableLineInAFile_countsBlankAndCommentLines(@TempDir Path tmp) {
        Path w = Cli.write(tmp.resolve("w.txt"), "sync\n\n# then the write\n" + DD_AT_32K + "\nfrobnicate /dev/sda\n");
        assertBadInput(Cli.run("trace", "--snapshot", snapshot(), "--workload-file", w.toString()),
                "dmmodel: " + w + " line 5: unknown command 'frobnicate' (in: frobnicate /dev/sda)");
    }

    @Test
    void unparsableSetupLine_namesTheSetupFile(@TempDir Path tmp) {
        Path s = Cli.write(tmp.resolve("setup.txt"), "sync\ndd if=/dev/zero of=/dev/sda count=z\n");
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--setup-file", s.toString(), "--workload", "sync");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).singleElement().asString().startsWith("dmmodel: " + s + " line 2: dd: invalid number: 'z'");
    }

    @Test
    void unknownDevice_stopsBeforeAnythingRuns() {
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K,
                "--workload", "dd if=/dev/zero of=/dev/vg/nosuch bs=1M count=1 oflag=direct");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).singleElement().asString()
                .startsWith("dmmodel: --workload line 2: no device /dev/vg/nosuch in the snapshot (devices: sda, sdb, dm-0, dm-1");
    }

    @Test
    void commandTheEngineDoesNotModel_stopsTheRunThere() {
        assertBadInput(Cli.run("trace", "--snapshot", snapshot(), "--workload", "echo 1 > /sys/block/sdb/queue/nomerges",
                        "--workload", DD_AT_32K),
                "dmmodel: --workload line 1: the engine does not model writes to /sys/block/sdb/queue/nomerges yet"
                        + " (in: echo 1 > /sys/block/sdb/queue/nomerges)");
        // after events were printed: they stay, the message names the line
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--workload", DD_AT_32K,
                "--workload", "echo 1 > /sys/block/sda/queue/nomerges");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(bioRows(r.out())).containsExactlyElementsOf(RECORDED_BIO_ROWS.lines().toList());
        assertThat(r.errLines()).containsExactly("dmmodel: --workload line 2: the engine does not model writes to"
                + " /sys/block/sda/queue/nomerges yet (in: echo 1 > /sys/block/sda/queue/nomerges)");
    }

    @Test
    void failingSetupCommand_isReportedWithItsLine_andExits1(@TempDir Path tmp) {
        Path setup = Cli.write(tmp.resolve("setup.txt"),
                "sync\ndd if=/dev/zero of=/dev/vg/striped bs=1000 count=1 oflag=direct\n");
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--setup-file", setup.toString(),
                "--workload", DD_AT_32K);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.errLines()).containsExactly(setup + " line 2: dd: error writing '/dev/vg/striped': Invalid argument");
        assertThat(bioRows(r.out())).containsExactlyElementsOf(RECORDED_BIO_ROWS.lines().toList());
    }

    @Test
    void unknownFormat() {
        assertBadInput(Cli.run("trace", "--snapshot", snapshot(), "--workload", "sync", "--format", "blktrace"),
                "dmmodel: --format: expected one of csv, json, text, svg, found 'blktrace'");
    }

    @Test
    void missingSnapshotDirectory_namesThePath(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-such-snapshot");
        assertBadInput(Cli.run("trace", "--snapshot", missing.toString(), "--workload", "sync"),
                "dmmodel: " + missing + ": found nothing; expected a snapshot directory holding block/");
    }

    @Test
    void unknownKernel_givesTheProfileMessage() {
        assertBadInput(Cli.run("trace", "--snapshot", snapshot(), "--kernel", "rhel8", "--workload", "sync"),
                "dmmodel: unknown kernel 'rhel8': neither a profile (7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0) nor a"
                        + " release such as 6.1.0-57-amd64 (as uname -r prints it)");
    }

    @Test
    void missingWorkloadFile() {
        assertBadInput(Cli.run("trace", "--snapshot", snapshot(), "--workload-file", "/no/such/w.txt"),
                "dmmodel: --workload-file /no/such/w.txt: no such file");
    }

    @Test
    void noWorkload_isAUsageError() {
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).singleElement().asString()
                .startsWith("dmmodel: Missing required argument (specify one of these): (--workload=LINE")
                .endsWith("(see 'dmmodel trace --help')");
    }

    @Test
    void workloadAndWorkloadFile_areExclusive(@TempDir Path tmp) {
        Path w = Cli.write(tmp.resolve("w.txt"), "sync\n");
        Cli.Result r = Cli.run("trace", "--snapshot", snapshot(), "--workload", "sync", "--workload-file", w.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).singleElement().asString().contains("mutually exclusive");
    }

    @Test
    void onlyComments_isBadInput(@TempDir Path tmp) {
        Path w = Cli.write(tmp.resolve("w.txt"), "# nothing\n\n");
        assertBadInput(Cli.run("trace", "--snapshot", snapshot(), "--workload-file", w.toString()),
                "dmmodel: " + w + ": no command to run (only blank or comment lines)");
    }

    @Test
    void aLayoutFileThatDoesNotExist_isBadInput() {
        assertBadInput(Cli.run("trace", "--layout", "no-such-stack.yaml", "--workload", "sync"),
                "dmmodel: no-such-stack.yaml:1:1: no such file; expected a layout file");
    }

    private static final String SEED_004 = Path.of("..", "examples", "hosts", "seed-004-thin.yaml")
            .toAbsolutePath().normalize().toString();

    @Test
    void whyExplainsSeed004s1344Plus704() {
        // seed 004 on 3.10 after `echo 2048 > max_sectors_kb`: bio_get_nr_vecs = min(max_segments 168,
        // 4096/8 + 1, 256) = 168 pages, so dio builds 1344 + 704 and the first bio's queue line says so
        Cli.Result r = Cli.run("trace", "--layout", SEED_004, "--why",
                "--workload", "echo 2048 > /sys/block/dm-1/queue/max_sectors_kb",
                "--workload", "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=1 oflag=direct");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> queued = r.out().lines().filter(l -> l.contains(" dm-1     block_bio_queue"))
                .toList();
        assertThat(queued).hasSize(2);
        assertThat(queued.get(0)).contains("0 + 1344")
                .endsWith("why: built to fit dm-1: bio_get_nr_vecs 168 pages = min(max_segments 168, max_sectors"
                        + " 4096/8 + 1, BIO_MAX_PAGES 256)");
        assertThat(queued.get(1)).contains("1344 + 704").doesNotContain("why:");
    }

    @Test
    void whyInJsonAddsAWhyMemberAndCsvRefusesIt() {
        Cli.Result json = Cli.run("trace", "--snapshot", Cli.snapshot(STRIPED).toString(), "--why", "--format", "json",
                "--workload", DD_AT_32K);
        assertThat(json.exitCode()).as(json.err()).isZero();
        // the first cut of 1 MiB at LV sector 64: stripe_ctr's max_io_len = chunk 128, boundary at 128
        String split = json.out().lines().filter(l -> l.contains("block_split")).findFirst().orElseThrow();
        assertThat(MiniJson.object(MiniJson.parse(split)).get("why"))
                .isEqualTo("max_io_len=128 of the striped target: boundary at sector 128 of dm-0");
        Cli.Result csv = Cli.run("trace", "--snapshot", Cli.snapshot(STRIPED).toString(), "--why", "--format", "csv",
                "--workload", DD_AT_32K);
        assertThat(csv.exitCode()).isEqualTo(2);
        assertThat(csv.err()).contains("--why: the csv format").contains("--format text or --format json");
    }

    @Test
    void summaryGivesPerLayerStatisticsInsteadOfEvents() {
        Cli.Result r = Cli.run("trace", "--snapshot", Cli.snapshot(STRIPED).toString(), "--summary",
                "--workload", DD_AT_32K);
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).startsWith("device").contains("bios").contains("splits").contains("requests");
        // 1 MiB at LV sector 64 over 2 x 64 KiB stripes: chunks k = 0..16 of [64, 2112); dm-0 takes the bio whole and
        // cuts it 16 times; even chunks go to sda (64 + 7 x 128 + 64 = 1024 sectors in 9 bios), odd ones to sdb
        // (8 x 128 = 1024 sectors in 8 bios), each remapped from dm-0
        assertThat(row(lines, "dm-0")).startsWith("dm-0", "1", "2048", "16", "0");
        assertThat(row(lines, "sda")).startsWith("sda", "9", "1024", "0", "9");
        assertThat(row(lines, "sdb")).startsWith("sdb", "8", "1024", "0", "8");
        assertThat(lines).noneMatch(l -> l.contains("block_bio_queue"));
        assertThat(Cli.run("trace", "--snapshot", Cli.snapshot(STRIPED).toString(), "--summary", "--format", "json",
                "--workload", DD_AT_32K).exitCode()).isEqualTo(2);
    }

    private static List<String> row(List<String> lines, String device) {
        return List.of(lines.stream().filter(l -> l.startsWith(device + " ")).findFirst().orElseThrow().trim()
                .split("\\s+"));
    }
}
