package dev.dmmodel.impl.format.layoutfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvmVersion;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayoutFileReaderTest {

    /** The repository's docs/examples, from the module directory. */
    static Path examples() {
        return Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("examples");
    }

    static List<Path> exampleFiles() throws IOException {
        try (Stream<Path> s = Files.list(examples())) {
            return s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static LayoutFile read(String text) {
        return LayoutFileReader.read(text, "t.yaml");
    }

    private static LayoutFileException error(String text) {
        try {
            read(text).build();
        } catch (LayoutFileException e) {
            return e;
        }
        throw new AssertionError("no LayoutFileException for:\n" + text);
    }

    // ------------------------------------------------------------------ docs/examples

    @Test
    void everyDocsExampleReadsAndBuilds() throws IOException {
        List<Path> files = exampleFiles();
        assertThat(files).extracting(p -> p.getFileName().toString()).contains("plain-disk.yaml",
                "raid-partition-lvm.yaml", "striped-lv.yaml", "thin-pool.yaml", "raw-dm-thin.json");
        for (Path f : files) {
            LayoutFile file = LayoutFileReader.read(f);
            Layout layout = file.build();
            assertThat(layout.devices()).as(f.toString()).isNotEmpty();
        }
    }

    /** Every yaml and json block of docs/layout-format.md is a whole file that reads and builds. */
    @Test
    void everyBlockOfTheFormatDocReadsAndBuilds() throws IOException {
        String doc = Files.readString(examples().getParent().resolve("layout-format.md"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("```(yaml|json)\n(.*?)```", java.util.regex.Pattern.DOTALL)
                .matcher(doc);
        int blocks = 0;
        while (m.find()) {
            LayoutFile file = LayoutFileReader.read(m.group(2), "layout-format.md block " + blocks);
            assertThat(file.build().devices()).isNotEmpty();
            blocks++;
        }
        assertThat(blocks).isEqualTo(6); // the five of before and md_array's
        // and each docs/examples file appears in the page as it is
        for (Path f : exampleFiles()) {
            assertThat(doc).as(f.getFileName().toString()).contains(Files.readString(f));
        }
    }

    @Test
    void theRaidExampleIsSeed003AsTheJavaBuilderWritesIt() {
        LayoutFile file = LayoutFileReader.read(examples().resolve("raid-partition-lvm.yaml"));
        assertThat(file.kernel()).contains(KernelProfile.LINUX_6_12);
        assertThat(file.steps()).containsExactly(
                new LayoutStep.AddDisk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64))
                        .withSize(Bytes.parse("1400GB")), Optional.empty()),
                new LayoutStep.CreatePartitionTable("sda", PartitionTableType.MSDOS,
                        List.of(PartitionSpec.atToEnd(Sectors.of(63)))),
                new LayoutStep.PvCreate("sda1", PvCreateOptions.DEFAULTS),
                new LayoutStep.VgCreate("vg0", VgCreateOptions.DEFAULTS, List.of("sda1")),
                new LayoutStep.LvCreate("vg0", LvCreateRequest.builder("test").size(Bytes.gib(100)).build()));
        Layout layout = file.build();
        // 1400 GB = 2734375000 sectors; the partition runs from 63 to the end of the disk
        assertThat(layout.partitions().get(0).start().count()).isEqualTo(63);
        assertThat(layout.partitions().get(0).size().count()).isEqualTo(2_734_375_000L - 63);
        // 100 GiB in 4 MiB extents
        assertThat(layout.logicalVolume("vg0", "test").orElseThrow().extentCount()).isEqualTo(25_600);
    }

    @Test
    void theJsonExampleIsSeed004() {
        LayoutFile file = LayoutFileReader.read(examples().resolve("raw-dm-thin.json"));
        Layout layout = file.build();
        // sdg is attached first (8:0), sdh second (8:16): metadata on sdh, data on sdg
        assertThat(layout.dmsetupTable()).contains("pool: 0 4294967296 thin-pool 8:16 8:0 2048 0 0");
        assertThat(file.steps().get(3)).isEqualTo(new LayoutStep.DmCreate("thin", "",
                DmTable.builder().thin(Sectors.parse("100GiB"), "pool", 0).build()));
    }

    // ------------------------------------------------------------------ every key

    static final String EVERY_KEY = String.join("\n",
            "version: 1",
            "kernel: 6.1",
            "steps:",
            "  - disk: sda",
            "    driver: sd",
            "    size: 64GiB",
            "    dev: \"8:0\"",
            "    description: a disk",
            "    logical_block_size: 512",
            "    physical_block_size: 4KiB",
            "    minimum_io_size: 4096",
            "    optimal_io_size: 1MiB",
            "    max_hw_sectors: 2048",
            "    max_segments: 64",
            "    max_segment_size: 65536",
            "    virt_boundary_mask: 0xfff",
            "    rotational: true",
            "    max_sectors: 1024",
            "    read_ahead_kb: 256",
            "  - partition_table: sda",
            "    type: msdos",
            "    partitions:",
            "      - {start: 63, size: 2048s}",
            "      - {align: minimal, size: 1GiB}",
            "      - {}",
            "  - queue: sda",
            "    max_sectors_kb: 256",
            "  - pvcreate: sda2",
            "    data_alignment: 1MiB",
            "    data_alignment_offset: 3584B",
            "    metadata_size: 192KiB",
            "    metadata_copies: 2",
            "    default_data_alignment: 2",
            "    data_alignment_detection: false",
            "    data_alignment_offset_detection: no",
            "    lvm_version: \"2.03\"",
            "  - pvcreate: sda3",
            "  - vgcreate: vg",
            "    pvs: [sda2, sda3]",
            "    extent_size: 8MiB",
            "    alloc: anywhere",
            "  - lvcreate: a",
            "    vg: vg",
            "    extents: 10",
            "    stripes: 2",
            "    stripe_size: 128KiB",
            "    alloc: normal",
            "    pvs: [sda2, sda3]",
            "  - lvcreate: b",
            "    vg: vg",
            "    size: 100M",
            "    pv_ranges: [\"sda3:100-199\"]",
            "  - thin_pool: pool",
            "    vg: vg",
            "    size: 1GiB",
            "    chunk_size: 256KiB",
            "    pool_metadata_size: 8MiB",
            "    zero: n",
            "    discards: nopassdown",
            "    error_when_full: true",
            "    chunk_size_policy: performance",
            "    pool_metadata_spare: false",
            "  - thin: t",
            "    vg: vg",
            "    pool: pool",
            "    virtual_size: 10GiB",
            "  - thin: \"\"",
            "    vg: vg",
            "    pool: pool",
            "    virtual_size: 1GiB",
            "  - snapshot: s",
            "    vg: vg",
            "    origin: t",
            "  - dmsetup_create: raw",
            "    uuid: RAW-1",
            "    table: |",
            "      # the first and last MiB of lv a",
            "      0 2048 linear /dev/vg/a 0",
            "      2048 2048 zero",
            "");

    @Test
    void everyKeyMapsOntoItsStep() {
        LayoutFile file = read(EVERY_KEY);
        assertThat(file.kernel()).contains(KernelProfile.LINUX_6_1);
        DiskSpec disk = DiskSpec.builder(dev.dmmodel.device.DiskDriver.SD).size(Bytes.gib(64)).description("a disk")
                .logicalBlockSize(512).physicalBlockSize(4096).ioMin(4096).ioOpt(1 << 20).maxHwSectors(2048)
                .maxSegments(64).maxSegmentSize(65536).virtBoundaryMask(4095).rotational(true).maxSectors(1024)
                .readAheadKb(256).build();
        List<LayoutStep> s = file.steps();
        assertThat(s.get(0)).isEqualTo(new LayoutStep.AddDisk("sda", disk, Optional.of(new DevNumber(8, 0))));
        assertThat(s.get(1)).isEqualTo(new LayoutStep.CreatePartitionTable("sda", PartitionTableType.MSDOS, List.of(
                PartitionSpec.at(Sectors.of(63), Sectors.of(2048)),
                PartitionSpec.minimal(Optional.of(Sectors.of(2 * 1024 * 1024))),
                PartitionSpec.optimal(Optional.empty()))));
        assertThat(s.get(2)).isEqualTo(new LayoutStep.SetMaxSectorsKb("sda", 256));
        assertThat(s.get(3)).isEqualTo(new LayoutStep.PvCreate("sda2", new PvCreateOptions(Sectors.of(2048),
                Sectors.of(7), Sectors.of(384), 2, 2, false, false, LvmVersion.LVM2_2_03)));
        assertThat(s.get(4)).isEqualTo(new LayoutStep.PvCreate("sda3", PvCreateOptions.DEFAULTS));
        assertThat(s.get(5)).isEqualTo(new LayoutStep.VgCreate("vg",
                new VgCreateOptions(Sectors.of(16384), AllocationPolicy.ANYWHERE), List.of("sda2", "sda3")));
        assertThat(s.get(6)).isEqualTo(new LayoutStep.LvCreate("vg", LvCreateRequest.builder("a").extents(10)
                .stripes(2).stripeSize(Bytes.kib(128)).policy(AllocationPolicy.NORMAL).onPvs("sda2", "sda3").build()));
        assertThat(s.get(7)).isEqualTo(new LayoutStep.LvCreate("vg", LvCreateRequest.builder("b").size(Bytes.mib(100))
                .onRanges(List.of(new ExtentRange("sda3", 100, 100))).build()));
        assertThat(s.get(8)).isEqualTo(new LayoutStep.ThinPoolCreate("vg", ThinPoolRequest.builder("pool")
                .size(Bytes.gib(1)).chunkSize(Bytes.kib(256)).poolMetadataSize(Bytes.mib(8)).zero(false)
                .discards(ThinDiscards.NOPASSDOWN).errorWhenFull(true)
                .chunkPolicy(ThinPoolRequest.ChunkPolicy.PERFORMANCE).poolMetadataSpare(false).build()));
        assertThat(s.get(9)).isEqualTo(new LayoutStep.ThinLvCreate("vg", new ThinLvRequest("t", Bytes.gib(10), "pool")));
        assertThat(s.get(10)).isEqualTo(new LayoutStep.ThinLvCreate("vg", new ThinLvRequest("", Bytes.gib(1), "pool")));
        assertThat(s.get(11)).isEqualTo(new LayoutStep.ThinSnapshotCreate("vg", new ThinSnapshotRequest("t", "s")));
        assertThat(s.get(12)).isEqualTo(new LayoutStep.DmCreate("raw", "RAW-1", DmTable.builder()
                .linear(Sectors.of(2048), "/dev/vg/a", Sectors.ZERO).zero(Sectors.of(2048)).build()));
        Layout layout = file.build();
        assertThat(layout.dmsetupTable()).contains("raw: 0 2048 linear 253:0 0", "raw: 2048 2048 zero");
        assertThat(file.location(12)).isEqualTo(new LayoutFile.Location(74, 5));
    }

    static final String LVEXTEND_AND_CONVERT = String.join("\n",
            "version: 1",
            "steps:",
            "  - {disk: sda, preset: ahci-sata, size: 1GiB}",
            "  - pvcreate: sda",
            "  - vgcreate: vgt",
            "    pvs: [sda]",
            "  - lvcreate: lv",
            "    vg: vgt",
            "    extents: 10",
            "  - lvextend: lv",
            "    vg: vgt",
            "    extents: 5",
            "    pv_ranges: [\"sda:100-104\"]",
            "  - lvcreate: pool",
            "    vg: vgt",
            "    extents: 64",
            "  - lvcreate: poolmeta",
            "    vg: vgt",
            "    extents: 1",
            "  - thin_pool_convert: pool",
            "    vg: vgt",
            "    pool_metadata: poolmeta",
            "    chunk_size: 1MiB",
            "    zero: true",
            "    pv_ranges: [\"sda:200-200\"]",
            "");

    @Test
    void lvextendAndThinPoolConvertMapOntoTheirSteps() {
        LayoutFile file = read(LVEXTEND_AND_CONVERT);
        assertThat(file.steps().get(4)).isEqualTo(new LayoutStep.LvExtend("vgt",
                dev.dmmodel.lvm.LvExtendRequest.onRanges("lv", 5, List.of(new ExtentRange("sda", 100, 5)))));
        assertThat(file.steps().get(7)).isEqualTo(new LayoutStep.ThinPoolConvert("vgt",
                new dev.dmmodel.lvm.ThinPoolConvertRequest("pool", "poolmeta", Bytes.mib(1), true, null, false,
                        ThinPoolRequest.ChunkPolicy.GENERIC, true, List.of(), List.of(new ExtentRange("sda", 200, 1)))));
        Layout layout = file.build();
        // 10 extents, then 5 more at PE 100: two segments
        assertThat(layout.logicalVolume("vgt", "lv").orElseThrow().extentCount()).isEqualTo(15);
        assertThat(layout.logicalVolume("vgt", "lv").orElseThrow().segments()).hasSize(2);
        assertThat(layout.logicalVolume("vgt", "pool")).isPresent();
    }

    @Test
    void aJsonFileIsReadThroughTheSamePath(@TempDir Path dir) throws IOException {
        String json = "{\"version\": 1, \"kernel\": \"6.12\", \"steps\": [\n"
                + "  {\"disk\": \"vda\", \"preset\": \"virtio-blk\", \"size\": \"20GiB\"},\n"
                + "  {\"partition_table\": \"vda\", \"type\": \"gpt\", \"partitions\": [{\"start\": 2048}]},\n"
                + "  {\"pvcreate\": \"vda1\"},\n"
                + "  {\"vgcreate\": \"vg\", \"pvs\": [\"vda1\"]},\n"
                + "  {\"lvcreate\": \"root\", \"vg\": \"vg\", \"extents\": 100}\n"
                + "]}\n";
        String yaml = String.join("\n", "version: 1", "kernel: \"6.12\"", "steps:",
                "  - {disk: vda, preset: virtio-blk, size: 20GiB}",
                "  - partition_table: vda", "    type: gpt", "    partitions: [{start: 2048}]",
                "  - pvcreate: vda1", "  - vgcreate: vg", "    pvs: [vda1]",
                "  - lvcreate: root", "    vg: vg", "    extents: 100", "");
        Path f = dir.resolve("stack.json");
        Files.writeString(f, json, StandardCharsets.UTF_8);
        LayoutFile fromJson = LayoutFileReader.read(f);
        assertThat(fromJson.steps()).isEqualTo(read(yaml).steps());
        assertThat(fromJson.build().logicalVolume("vg", "root").orElseThrow().extentCount()).isEqualTo(100);
        assertThat(fromJson.source()).isEqualTo(f.toString());
    }

    // ------------------------------------------------------------------ errors

    @Test
    void anUnknownKeyIsNamedWithItsLineColumnAndTheKeysAllowed() {
        String text = String.join("\n", "version: 1", "steps:", "  - disk: sda", "    preset: ahci-sata",
                "    size: 1GiB", "  - pvcreate: sda", "  - vgcreate: vg", "    pvs: [sda]", "  - lvcreate: lv",
                "    vg: vg", "    extents: 1", "    strips: 2", "");
        LayoutFileException e = error(text);
        assertThat(e.line()).isEqualTo(12);
        assertThat(e.column()).isEqualTo(5);
        assertThat(e.getMessage()).isEqualTo("t.yaml:12:5: unknown key 'strips' in an lvcreate step; "
                + "expected one of lvcreate, vg, size, extents, stripes, stripe_size, alloc, pvs, pv_ranges");
    }

    @Test
    void badValuesAreReportedWhereTheyAre() {
        String head = "version: 1\nsteps:\n  - disk: sda\n    preset: ahci-sata\n";
        assertThat(error(head + "    size: 100\n").getMessage())
                .startsWith("t.yaml:5:11: '100' (a number without a unit); expected the disk's size: a size such as");
        assertThat(error(head + "    size: 1GiB\n    max_segments: 99999999999999999999\n").getMessage())
                .isEqualTo("t.yaml:6:19: '99999999999999999999' (out of range); expected max_segments: an integer "
                        + "from 0 to 65535");
        assertThat(error(head + "    size: 1GiB\n    rotational: maybe\n").getMessage())
                .isEqualTo("t.yaml:6:17: 'maybe'; expected rotational: true or false");
        assertThat(error(head + "    size: 1GiB\n    logical_block_size: 1000\n").getMessage())
                .isEqualTo("t.yaml:6:25: '1000'; expected logical_block_size: a power of two from 512 to 1048576");
        assertThat(error(head + "    size: [1]\n").getMessage())
                .startsWith("t.yaml:5:11: a list; expected the disk's size");
        assertThat(error("version: 1\nsteps:\n  - disk: sda\n    size: 1GiB\n").getMessage())
                .startsWith("t.yaml:3:5: a disk without 'preset' or 'driver'; expected exactly one of preset (");
        assertThat(error("version: 1\nsteps:\n  - {disk: a, pvcreate: a}\n").getMessage())
                .startsWith("t.yaml:3:5: a step with several command keys [disk, pvcreate]; expected exactly one");
        assertThat(error("version: 2\nsteps: []\n").getMessage())
                .isEqualTo("t.yaml:1:10: version 2; expected version 1 (the only version this dmmodel reads)");
        assertThat(error("steps: []\n").getMessage())
                .isEqualTo("t.yaml:1:1: a layout file without 'version'; expected a key 'version': the format version, 1");
        assertThat(LayoutFileReader.read("version: 1\nkernel: 5.4\nsteps: []\n", "t.yaml").kernel())
                .contains(KernelProfile.forRelease("5.4"));
        assertThat(LayoutFileReader.read("version: 1\nkernel: linux-5.10\nsteps: []\n", "t.yaml").kernel())
                .contains(KernelProfile.LINUX_5_10);
        assertThat(error("version: 1\nkernel: sid\nsteps: []\n").getMessage())
                .isEqualTo("t.yaml:2:9: 'sid'; expected a kernel profile (7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0)"
                        + " or a release such as 6.8 or 4.18.0-553.el8_10.x86_64");
        assertThat(error("version: 1\nversion: 1\nsteps: []\n").getMessage())
                .startsWith("t.yaml:2:1: a second key 'version' in a layout file; expected each key once");
        assertThat(error("").getMessage()).startsWith("t.yaml:1:1: an empty file");
        assertThat(error("version: 1\nsteps: [\n").getMessage()).startsWith("t.yaml:3:1: YAML that does not parse");
    }

    // ------------------------------------------------------------------ JSON

    private static LayoutFileException jsonError(String text) {
        try {
            LayoutFileReader.read(text, "t.json").build();
        } catch (LayoutFileException e) {
            return e;
        }
        throw new AssertionError("no LayoutFileException for:\n" + text);
    }

    /** A file whose first character other than white space is '{' is JSON, read by the strict RFC 8259 reader. */
    @Test
    void jsonSyntaxErrorsNameTheFileLineAndColumn() {
        // {"version": 1, "steps": [],}  -- column 28 is the '}' where a member name must follow the ','
        assertThat(jsonError("{\"version\": 1, \"steps\": [],}").getMessage())
                .isEqualTo("t.json:1:28: JSON that does not parse ('}'); expected a member name in double quotes");
        // the step ends at column 74, ',' at 75, and ']' at 76 stands where a value must follow
        assertThat(jsonError("{\"version\": 1, \"steps\": [{\"disk\": \"sda\", \"preset\": \"loop\", "
                + "\"size\": \"1GiB\"},]}").getMessage())
                .isEqualTo("t.json:1:76: JSON that does not parse (']'); expected a JSON value (object, array, string, "
                        + "number, true, false or null)");
        // single quotes, comments and YAML's unquoted keys are not JSON: each is refused at its first character
        assertThat(jsonError("{'version': 1}").getMessage())
                .isEqualTo("t.json:1:2: JSON that does not parse ('''); expected a member name in double quotes");
        assertThat(jsonError("{\"version\": 1, // v1\n \"steps\": []}").getMessage())
                .isEqualTo("t.json:1:16: JSON that does not parse ('/'); expected a member name in double quotes");
        assertThat(jsonError("  \n{version: 1, steps: []}").getMessage())
                .isEqualTo("t.json:2:2: JSON that does not parse ('v'); expected a member name in double quotes");
        // the string "6.1} opens at column 39 and never closes; a raw tab at column 30 must be escaped
        assertThat(jsonError("{\"version\": 1, \"steps\": [], \"kernel\": \"6.1}").getMessage())
                .isEqualTo("t.json:1:39: JSON that does not parse (a string without its closing double quote); "
                        + "expected '\"' before the end of the text");
        assertThat(jsonError("{\"version\": 1, \"kernel\": \"6.1\t\", \"steps\": []}").getMessage())
                .isEqualTo("t.json:1:30: JSON that does not parse (the control character U+0009 inside a string); "
                        + "expected it escaped (\\n, \\t, \\u00XX)");
    }

    /** The layout file's own rules are the same in JSON, at the JSON value's or key's line and column. */
    @Test
    void jsonFilesFollowTheSameRules() {
        // line 2: '  {"lvcreate": "lv", "vg": "vg", "extents": 1, "strips": 2}', the key "strips" at column 48
        assertThat(jsonError("{\"version\": 1, \"steps\": [\n"
                + "  {\"lvcreate\": \"lv\", \"vg\": \"vg\", \"extents\": 1, \"strips\": 2}\n]}").getMessage())
                .isEqualTo("t.json:2:48: unknown key 'strips' in an lvcreate step; expected one of lvcreate, vg, size, "
                        + "extents, stripes, stripe_size, alloc, pvs, pv_ranges");
        // the second "version" starts at column 16
        assertThat(jsonError("{\"version\": 1, \"version\": 1, \"steps\": []}").getMessage())
                .isEqualTo("t.json:1:16: a second key 'version' in a layout file; expected each key once (the first "
                        + "is at line 1)");
        // a JSON number is a value's text, as in YAML: 100 has no unit (column 45 of '  {"disk": "sda", ...')
        assertThat(jsonError("{\"version\": 1, \"steps\": [\n  {\"disk\": \"sda\", \"preset\": \"loop\", "
                + "\"size\": 100}\n]}").getMessage())
                .startsWith("t.json:2:45: '100' (a number without a unit); expected the disk's size: a size such as");
        // JSON's null is no value (column 12 of '  {"disk": null, ...')
        assertThat(jsonError("{\"version\": 1, \"steps\": [\n  {\"disk\": null, \"preset\": \"loop\", "
                + "\"size\": \"1GiB\"}\n]}").getMessage())
                .isEqualTo("t.json:2:12: no value; expected the disk's kernel name (disk: sda)");
        // "2" at column 13 is read from its text, as YAML's 2 would be
        assertThat(jsonError("{\"version\": \"2\", \"steps\": []}").getMessage())
                .isEqualTo("t.json:1:13: version 2; expected version 1 (the only version this dmmodel reads)");
        assertThat(jsonError("{\"version\": 1, \"steps\": {}}").getMessage())
                .isEqualTo("t.json:1:25: a mapping; expected the steps (a list)");
    }

    /** A table in a JSON string has no lines of its own in the file: its errors are at the string's start. */
    @Test
    void aBadTableLineInJsonIsReportedAtTheString() {
        // '  {"dmsetup_create": "x", "table": "0 100 zero\n100 100 linear sda\n"}': the string opens at column 36
        String text = "{\"version\": 1, \"steps\": [\n"
                + "  {\"dmsetup_create\": \"x\", \"table\": \"0 100 zero\\n100 100 linear sda\\n\"}\n]}";
        assertThat(jsonError(text).getMessage()).isEqualTo("t.json:2:36: 1 argument(s) in '100 100 linear sda'; "
                + "expected 'linear <device> <offset>'");
    }

    /** JSON nests no deeper than YAML: 24 arrays below the top-level object read, a 25th is refused in both. */
    @Test
    void jsonNestingIsLimitedAsYamlIs() {
        String head = "{\"version\": 1, \"steps\": ";   // 24 characters: the first '[' is at column 25
        // 24 arrays: nesting passes; the step (the first item of steps) is a list, not a mapping, at column 26
        assertThat(jsonError(head + "[".repeat(24) + "]".repeat(24) + "}").getMessage())
                .isEqualTo("t.json:1:26: a list; expected a step (a mapping of key: value)");
        // 25 arrays: the 25th '[' (column 24 + 25 = 49) is 25 levels below the object
        assertThat(jsonError(head + "[".repeat(25) + "]".repeat(25) + "}").getMessage())
                .isEqualTo("t.json:1:49: an array 25 levels below the top-level object; expected objects and arrays "
                        + "nested at most 24 levels below it");
        // the same in YAML, where SnakeYAML's limit of 24 applies: 'steps: ' is 7 characters, the step at 2:9
        assertThat(error("version: 1\nsteps: " + "[".repeat(24) + "]".repeat(24) + "\n").getMessage())
                .isEqualTo("t.yaml:2:9: a list; expected a step (a mapping of key: value)");
        assertThat(error("version: 1\nsteps: " + "[".repeat(25) + "]".repeat(25) + "\n").getMessage())
                .contains("YAML that does not parse (Nesting Depth exceeded max 24)");
    }

    @Test
    void aBadTableLineIsReportedAtItsLineInTheFile() {
        String text = "version: 1\nsteps:\n  - dmsetup_create: x\n    table: |\n      0 100 zero\n"
                + "      100 100 linear sda\n";
        assertThat(error(text).getMessage()).isEqualTo("t.yaml:6:7: 1 argument(s) in '100 100 linear sda'; expected "
                + "'linear <device> <offset>'");
    }

    @Test
    void aStepTheModelRefusesIsReportedAtThatStep() {
        // a 1 GiB disk holds 2097152 sectors: a partition of 4 GiB at 2048 runs past its end
        String text = String.join("\n", "version: 1", "kernel: \"6.12\"", "steps:",
                "  - disk: sda", "    preset: ahci-sata", "    size: 1GiB",
                "  - partition_table: sda", "    type: msdos", "    partitions:", "      - {start: 2048s, size: 4GiB}",
                "  - pvcreate: sda1", "");
        LayoutFile file = read(text);
        assertThatThrownBy(file::build).isInstanceOf(LayoutFileException.class)
                .hasMessageStartingWith("t.yaml:7:5: a step the model refuses (")
                .hasMessageEndingWith("; expected a layout that can be built under linux-6.12")
                .hasCauseInstanceOf(dev.dmmodel.layout.LayoutException.class);
    }

    // ------------------------------------------------------------------ hardening

    @Test
    void anchorsAliasesAndTagsAreRefused() {
        assertThat(error("version: 1\nsteps:\n  - &d {disk: sda, preset: loop, size: 1GiB}\n  - *d\n").getMessage())
                .isEqualTo("t.yaml:3:5: an anchor &d; expected no anchors or aliases (write each value out)");
        assertThat(error("version: !!int 1\nsteps: []\n").getMessage())
                .isEqualTo("t.yaml:1:10: an explicit tag tag:yaml.org,2002:int; expected plain values without tags");
        assertThat(error("version: 1\nsteps: !!python/object:os.system []\n").getMessage())
                .startsWith("t.yaml:2:8: an explicit tag");
        assertThat(error("version: 1\nsteps: []\n---\nversion: 1\n").getMessage())
                .startsWith("t.yaml:3:1: a second YAML document");
        assertThat(error("version: 1\nsteps: &a [*a]\n").getMessage()).startsWith("t.yaml:2:8: an anchor &a");
    }

    @Test
    void aBillionLaughsFileIsRefusedAtOnce() {
        StringBuilder sb = new StringBuilder("version: 1\na0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i < 10; i++) {
            sb.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                sb.append(j == 0 ? "" : ",").append("*a").append(i - 1);
            }
            sb.append("]\n");
        }
        sb.append("steps: *a9\n");
        long t0 = System.nanoTime();
        LayoutFileException e = error(sb.toString());
        assertThat(e.getMessage()).isEqualTo("t.yaml:2:5: an anchor &a0; expected no anchors or aliases "
                + "(write each value out)");
        assertThat(System.nanoTime() - t0).isLessThan(2_000_000_000L);
    }

    @Test
    void deepNestingAndHugeFilesAreRefused() {
        String deep = "version: 1\nsteps: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";
        assertThat(error(deep).getMessage()).startsWith("t.yaml:").contains("YAML that does not parse");
        String huge = "version: 1\nsteps: []\n#" + "x".repeat(LayoutDoc.MAX_CHARS) + "\n";
        assertThat(error(huge).getMessage()).startsWith("t.yaml:1:1: a file of ");
    }

    @Test
    void aFileThatCannotBeReadIsALayoutFileException(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> LayoutFileReader.read(dir.resolve("none.yaml")))
                .isInstanceOf(LayoutFileException.class).hasMessage(dir.resolve("none.yaml")
                        + ":1:1: no such file; expected a layout file");
        Path bad = dir.resolve("bad.yaml");
        Files.write(bad, new byte[] {'v', (byte) 0xff, (byte) 0xfe});
        assertThatThrownBy(() -> LayoutFileReader.read(bad)).isInstanceOf(LayoutFileException.class)
                .hasMessageEndingWith(":1:1: bytes that are not UTF-8; expected a UTF-8 text file");
    }
}
