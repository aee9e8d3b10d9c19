package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LimitsCommandTest {

    private static final String SD_512E = "limits-sd-512e";
    private static final List<String> SD_512E_DEVICES = List.of("sdg", "sdg1", "sdh", "sdh1", "sdi", "sdj", "sdk",
            "dm-0", "dm-1", "dm-2", "dm-3", "dm-4", "dm-5", "dm-6", "dm-7", "dm-8", "dm-9", "dm-10", "dm-11",
            "dm-12", "dm-13", "dm-14", "dm-15");
    /** The sysfs attributes the command prints for every device. */
    private static final List<String> SYSFS_NAMES = List.of("logical_block_size", "physical_block_size",
            "minimum_io_size", "optimal_io_size", "alignment_offset", "max_sectors_kb", "max_hw_sectors_kb",
            "max_segments", "max_segment_size", "chunk_sectors", "discard_granularity", "discard_max_bytes",
            "discard_max_hw_bytes", "write_zeroes_max_bytes", "virt_boundary_mask", "dma_alignment", "read_ahead_kb",
            "rotational", "hw_sector_size");

    private static Map<String, Object> devices(Cli.Result r) {
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        Map<String, Object> top = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(top).containsOnlyKeys("devices");
        return MiniJson.object(top.get("devices"));
    }

    private static long attr(Map<String, Object> devices, String device, String attr) {
        return (Long) MiniJson.object(devices.get(device)).get(attr);
    }

    @Test
    void recordedKernel61_stripedOverMisalignedPartitionsIsMinusOne() {
        // kernel-release 6.1.0-57-amd64 picks linux-6.1
        Map<String, Object> d = devices(Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString()));
        assertThat(attr(d, "dm-2", "alignment_offset")).isEqualTo(-1);   // strparts over sdg1 (63) + sdh1 (2048)
        assertThat(attr(d, "sdg1", "alignment_offset")).isEqualTo(512);  // 63 * 512 = 32256 = 3584 past 4 KiB
        assertThat(attr(d, "sdh1", "alignment_offset")).isZero();
        assertThat(attr(d, "dm-0", "alignment_offset")).isEqualTo(512);  // lin63 inherits sdg1's offset
        assertThat(attr(d, "dm-2", "physical_block_size")).isEqualTo(4096);
        assertThat(attr(d, "dm-2", "minimum_io_size")).isEqualTo(65536); // the 64 KiB chunk
        assertThat(attr(d, "dm-2", "optimal_io_size")).isEqualTo(131072); // 2 stripes x 64 KiB
    }

    @Test
    void explicitKernel61_isTheSameAsTheRecordedRelease() {
        String dir = Cli.snapshot(SD_512E).toString();
        assertThat(Cli.run("limits", "--snapshot", dir, "--kernel", "6.1").out())
                .isEqualTo(Cli.run("limits", "--snapshot", dir).out());
    }

    @Test
    void kernel612_validatesTheOffsetModuloThePhysicalBlock() {
        Map<String, Object> d = devices(Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString(),
                "--kernel", "6.12"));
        assertThat(attr(d, "dm-2", "alignment_offset")).isEqualTo(512);
        assertThat(attr(d, "sdg1", "alignment_offset")).isEqualTo(512);
    }

    @Test
    void json_hasEveryDiskPartitionAndDmDevice_withEverySysfsAttributeAsANumber() {
        Map<String, Object> d = devices(Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString()));
        assertThat(new ArrayList<>(d.keySet())).containsExactlyElementsOf(SD_512E_DEVICES);
        for (String name : SD_512E_DEVICES) {
            Map<String, Object> attrs = MiniJson.object(d.get(name));
            assertThat(attrs.keySet()).first().isEqualTo("alignment_offset");
            assertThat(attrs.keySet()).containsExactlyInAnyOrderElementsOf(SYSFS_NAMES);
            assertThat(attrs.values()).allSatisfy(v -> assertThat(v).isInstanceOf(Long.class));
        }
    }

    /** Under the recorded kernel every computed value equals what the host's sysfs showed. */
    @Test
    void underTheRecordedKernel_everyValueEqualsTheRecordedSysfsFile() throws IOException {
        Path snap = Cli.snapshot(SD_512E);
        Map<String, Object> d = devices(Cli.run("limits", "--snapshot", snap.toString()));
        int compared = 0;
        for (String name : SD_512E_DEVICES) {
            Path dir = deviceDir(snap, name).orElseThrow();
            Map<String, Object> attrs = MiniJson.object(d.get(name));
            assertThat(attrs.get("alignment_offset")).as(name + " alignment_offset")
                    .isEqualTo(Long.parseLong(Files.readString(dir.resolve("alignment_offset")).strip()));
            compared++;
            for (Map.Entry<String, Object> e : attrs.entrySet()) {
                Path f = dir.resolve("queue").resolve(e.getKey());
                if (Files.isRegularFile(f)) {
                    assertThat(e.getValue()).as(name + " " + e.getKey())
                            .isEqualTo(Long.parseLong(Files.readString(f).strip()));
                    compared++;
                }
            }
        }
        assertThat(compared).isGreaterThan(SD_512E_DEVICES.size() * 10);
    }

    private static Optional<Path> deviceDir(Path snap, String name) throws IOException {
        Path top = snap.resolve("block").resolve(name);
        if (Files.isDirectory(top)) {
            return Optional.of(top);
        }
        try (var disks = Files.list(snap.resolve("block"))) {
            return disks.map(p -> p.resolve(name)).filter(Files::isDirectory).findFirst();
        }
    }

    /** Partitions and dm devices are computed: changing their recorded answers changes nothing. */
    @Test
    void recordedOffsetsOfPartitionsAndDmDevicesAreNeverRead(@TempDir Path tmp) {
        Path copy = Cli.copyOf(SD_512E, tmp);
        Cli.write(copy.resolve("block/sdg/sdg1/alignment_offset"), "0\n");
        Cli.write(copy.resolve("block/dm-2/alignment_offset"), "0\n");
        Cli.write(copy.resolve("block/dm-2/queue/minimum_io_size"), "512\n");
        Map<String, Object> d = devices(Cli.run("limits", "--snapshot", copy.toString(), "--kernel", "6.1"));
        assertThat(attr(d, "sdg1", "alignment_offset")).isEqualTo(512);
        assertThat(attr(d, "dm-2", "alignment_offset")).isEqualTo(-1);
        assertThat(attr(d, "dm-2", "minimum_io_size")).isEqualTo(65536);
    }

    @Test
    void withoutKernelRelease_theDefaultProfile612Applies(@TempDir Path tmp) throws IOException {
        Path copy = Cli.copyOf(SD_512E, tmp);
        Files.delete(copy.resolve("kernel-release"));
        Map<String, Object> d = devices(Cli.run("limits", "--snapshot", copy.toString()));
        assertThat(attr(d, "dm-2", "alignment_offset")).isEqualTo(512);
        assertThat(Cli.run("limits", "--snapshot", copy.toString(), "--format", "text").out())
                .startsWith("# kernel linux-6.12 (default; the snapshot has no kernel-release)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"7.2", "6.12", "6.1", "5.10", "3.10", "2.6.32", "2.6.0", "linux-6.1"})
    void everyPresetRuns(String kernel) {
        Map<String, Object> d = devices(Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString(),
                "--kernel", kernel));
        assertThat(d).containsOnlyKeys(SD_512E_DEVICES);
    }

    @ParameterizedTest
    @ValueSource(strings = {"6.8", "linux-6.8", "4.18.0-553.el8_10.x86_64", "5.15.0-91-generic", "7.5.1", "2.6.18",
        "2.4.20"})
    void anyReleaseRunsWithANoteOnItsProfile(String kernel) {
        Cli.Result r = Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString(), "--kernel", kernel);
        assertThat(r.errLines()).singleElement().asString().startsWith("dmmodel: note: kernel linux-");
        Map<String, Object> d = devices(new Cli.Result(r.exitCode(), r.out(), ""));
        assertThat(d).containsOnlyKeys(SD_512E_DEVICES);
    }

    @Test
    void aReleaseStringNamesTheComposedProfileAndNotesWhatItIs() {
        Cli.Result r = Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString(), "--format", "text",
                "--kernel", "4.18.0-553.el8_10.x86_64");
        assertThat(r.exitCode()).isZero();
        assertThat(r.outLines().get(0))
                .isEqualTo("# kernel linux-4.18 (--kernel 4.18.0-553.el8_10.x86_64); partitions and dm devices computed");
        assertThat(r.errLines()).singleElement().asString()
                .startsWith("dmmodel: note: kernel linux-4.18: Linux 4.18 (uname -r 4.18.0-553.el8_10.x86_64; RHEL 8:")
                .contains("RHEL backports block-layer changes");
    }

    @Test
    void aReleaseNewerThan72Gets72sRules() {
        String snapshot = Cli.snapshot(SD_512E).toString();
        Cli.Result r = Cli.run("limits", "--snapshot", snapshot, "--kernel", "7.5.1");
        assertThat(r.exitCode()).isZero();
        assertThat(r.errLines()).containsExactly("dmmodel: note: kernel linux-7.5: Linux 7.5 (uname -r 7.5.1): newer"
                + " than the newest recorded kernel, 7.2: its rules");
        // the same rules, so the same numbers as under the 7.2 preset
        assertThat(r.out()).isEqualTo(Cli.run("limits", "--snapshot", snapshot, "--kernel", "7.2").out());
        assertThat(Cli.run("limits", "--snapshot", snapshot, "--kernel", "7.5.1", "--format", "text").outLines().get(0))
                .startsWith("# kernel linux-7.5 (--kernel 7.5.1)");
    }

    @Test
    void aRecordedReleaseBetweenPresetsIsComposedToo(@TempDir Path tmp) throws IOException {
        Path copy = Cli.copyOf(SD_512E, tmp);
        Cli.write(copy.resolve("kernel-release"), "6.8.0-31-generic\n");
        Cli.Result r = Cli.run("limits", "--snapshot", copy.toString(), "--format", "text");
        assertThat(r.exitCode()).isZero();
        assertThat(r.outLines().get(0))
                .isEqualTo("# kernel linux-6.8 (kernel-release 6.8.0-31-generic); partitions and dm devices computed");
        assertThat(r.errLines()).containsExactly("dmmodel: note: kernel linux-6.8: Linux 6.8 (uname -r"
                + " 6.8.0-31-generic; Ubuntu, whose leading version is the upstream base): upstream 6.8's rules, each as"
                + " of its latest change at or before 6.8");
        // 6.8 has 6.1's limit rules (blk_validate_limits for dm only from 6.10): the misaligned stack still shows -1
        Cli.Result json = Cli.run("limits", "--snapshot", copy.toString());
        assertThat(attr(devices(new Cli.Result(json.exitCode(), json.out(), "")), "dm-2", "alignment_offset"))
                .isEqualTo(-1);
    }

    @Test
    void text_oneBlockPerDevice() {
        Cli.Result r = Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString(), "--format", "text");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("# kernel linux-6.1 (kernel-release 6.1.0-57-amd64)");
        assertThat(r.out()).contains("\nsdg1 (partition 1 of sdg, 8:97, start 63, 131009 sectors)\n"
                + "  alignment_offset         512\n");
        assertThat(r.out()).contains("\ndm-2 (dm strparts, 253:2, 258048 sectors)\n"
                + "  alignment_offset         -1  (misaligned)\n"
                + "  logical_block_size       512\n");
        assertThat(r.outLines()).filteredOn(l -> l.startsWith("  alignment_offset ")).hasSize(23);
    }

    @Test
    void unknownFormat_isExit2WithOneMessage() {
        Cli.Result r = Cli.run("limits", "--snapshot", Cli.snapshot(SD_512E).toString(), "--format", "yaml");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.errLines()).containsExactly("dmmodel: --format: expected one of json, text, found 'yaml'");
    }

    /** The queue files of limits-sd-512e's disks that Linux 3.10 does not have. */
    private static final List<String> NEWER_THAN_310 = List.of("virt_boundary_mask", "chunk_sectors",
            "discard_max_hw_bytes", "write_zeroes_max_bytes", "dma_alignment", "max_discard_segments");

    /** limits-sd-512e as a RHEL 7 host would have shown it: kernel-release 3.10, without the newer queue files. */
    static Path asRhel7(Path tmp) throws IOException {
        Path dir = Cli.copyOf(SD_512E, tmp);
        Cli.write(dir.resolve("kernel-release"), "3.10.0-1160.el7.x86_64\n");
        for (String disk : List.of("sdg", "sdh", "sdi", "sdj", "sdk")) {
            for (String attr : NEWER_THAN_310) {
                Files.delete(dir.resolve("block").resolve(disk).resolve("queue").resolve(attr));
            }
        }
        return dir;
    }

    @Test
    void aRhel7SnapshotGetsWhatItsKernelDidNotShowFilledAndEachNotedOnStderr(@TempDir Path tmp) throws IOException {
        Cli.Result r = Cli.run("limits", "--snapshot", asRhel7(tmp).toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        // 5 disks x 6 attributes, in device-number order
        assertThat(r.errLines()).hasSize(30).allMatch(l -> l.startsWith("dmmodel: note: sd"));
        assertThat(r.errLines().get(0)).isEqualTo("dmmodel: note: sdg: queue/virt_boundary_mask not in the snapshot"
                + " (Linux 3.10 has no virt boundary before 4.3 and no such file before 5.13); using 0");
        assertThat(r.errLines().get(29)).startsWith("dmmodel: note: sdk: queue/max_discard_segments not in the"
                + " snapshot (Linux 3.10 has no multi-range discard").endsWith("; using 1");
        // stdout is still the JSON document alone, with the filled values: the recorded dma_alignment was 3
        // (scsi_debug), the filled one is the block layer's 511; the hardware discard limit is discard_max_bytes, 0
        Map<String, Object> d = MiniJson.object(MiniJson.object(MiniJson.parse(r.out())).get("devices"));
        assertThat(attr(d, "sdg", "dma_alignment")).isEqualTo(511);
        assertThat(attr(d, "sdg", "virt_boundary_mask")).isZero();
        assertThat(attr(d, "sdg", "discard_max_hw_bytes")).isZero();
        assertThat(attr(d, "sdg", "max_sectors_kb")).isEqualTo(1280);  // a recorded file stays as recorded
    }

    private static final String SEED_004 = java.nio.file.Path.of("..", "examples", "hosts", "seed-004-thin.yaml")
            .toAbsolutePath().normalize().toString();

    @Test
    void explainSeed004ThinMaxSectorsInText() {
        // seed 004 on 3.10: sd sets max_sectors = min(max_hw_sectors 65535, BLK_DEF_MAX_SECTORS 1024) = 1024 sectors
        // = 512 KiB on sdg; thin-pool (dm-0) and thin (dm-1) stack min_not_zero: 512 each
        Cli.Result r = Cli.run("limits", "--layout", SEED_004, "--explain", "dm-1:max_sectors_kb", "--format", "text");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> lines = r.out().lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("dm-1 max_sectors_kb 512  min_not_zero over its table (line 1 thin → dm-0)");
        assertThat(lines.get(1)).startsWith("  dm-0 max_sectors_kb 512  min_not_zero over its table");
        assertThat(lines.get(2)).startsWith("    sdg max_sectors_kb 512  sd: min(max_hw_sectors 65535, "
                + "BLK_DEF_MAX_SECTORS 1024) = 1024 sectors under linux-3.10");
        assertThat(lines.get(3)).startsWith("      sdg max_hw_sectors_kb 32767  as the sd device reports it");
    }

    @Test
    void explainInJsonNestsTheInputs() {
        Cli.Result r = Cli.run("limits", "--layout", SEED_004, "--explain", "/dev/mapper/thin:max_sectors_kb");
        assertThat(r.exitCode()).as(r.err()).isZero();
        Map<String, Object> top = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(top.get("kernel")).isEqualTo("linux-3.10");
        Map<String, Object> root = MiniJson.object(((List<?>) top.get("explanations")).get(0));
        assertThat(root.get("device")).isEqualTo("dm-1");
        assertThat(root.get("value")).isEqualTo(512L);
        assertThat(root.get("source")).isEqualTo("stacked");
        Map<String, Object> pool = MiniJson.object(((List<?>) root.get("inputs")).get(0));
        Map<String, Object> sdg = MiniJson.object(((List<?>) pool.get("inputs")).get(0));
        assertThat(sdg.get("device")).isEqualTo("sdg");
        assertThat(sdg.get("source")).isEqualTo("profile_default");
        assertThat((String) sdg.get("detail")).contains("BLK_DEF_MAX_SECTORS 1024");
    }

    @Test
    void explainWithoutFieldExplainsEveryField() {
        // 18 fields (LimitField); one tree each
        Cli.Result r = Cli.run("limits", "--layout", SEED_004, "--explain", "dm-0", "--format", "text");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("dm-0 "))).hasSize(18);
    }

    @Test
    void explainBadFieldOrDeviceIsAUsageError() {
        Cli.Result field = Cli.run("limits", "--layout", SEED_004, "--explain", "dm-1:max_sector_kb");
        assertThat(field.exitCode()).isEqualTo(Main.BAD_INPUT);
        assertThat(field.err()).contains("unknown queue limit 'max_sector_kb'").contains("max_sectors_kb");
        Cli.Result dev = Cli.run("limits", "--layout", SEED_004, "--explain", "dm-7");
        assertThat(dev.exitCode()).isEqualTo(Main.BAD_INPUT);
        assertThat(dev.err()).contains("no device 'dm-7'").contains("dm-0, dm-1");
        // a major:minor reference without a field is a device
        Cli.Result num = Cli.run("limits", "--layout", SEED_004, "--explain", "253:1", "--format", "text");
        assertThat(num.exitCode()).as(num.err()).isZero();
        assertThat(num.out()).contains("dm-1 max_sectors_kb 512");
    }
}
