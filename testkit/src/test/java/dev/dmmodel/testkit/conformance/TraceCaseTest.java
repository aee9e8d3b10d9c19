package dev.dmmodel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TraceCase} and {@link KernelConformance} on hand-made case folders. */
class TraceCaseTest {

    private static final Map<String, String> DISK_QUEUE = Map.ofEntries(
            Map.entry("logical_block_size", "512"), Map.entry("physical_block_size", "512"),
            Map.entry("minimum_io_size", "512"), Map.entry("optimal_io_size", "0"),
            Map.entry("max_hw_sectors_kb", "32767"), Map.entry("max_sectors_kb", "1280"),
            Map.entry("max_segments", "168"), Map.entry("max_segment_size", "65536"),
            Map.entry("virt_boundary_mask", "0"), Map.entry("chunk_sectors", "0"),
            Map.entry("discard_granularity", "0"), Map.entry("discard_max_bytes", "0"),
            Map.entry("discard_max_hw_bytes", "0"), Map.entry("write_zeroes_max_bytes", "0"),
            Map.entry("dma_alignment", "511"), Map.entry("rotational", "1"), Map.entry("read_ahead_kb", "128"));

    @TempDir
    Path tmp;

    /** A case with one disk sda and a linear dm-0 ("lv") over its first 1 MiB. */
    private Path caseDir(String name) throws IOException {
        Path dir = tmp.resolve(name);
        Path snap = dir.resolve("snapshot");
        write(snap.resolve("kernel-release"), "6.1.0-57-amd64\n");
        write(snap.resolve("block/sda/dev"), "8:0\n");
        write(snap.resolve("block/sda/size"), "2097152\n");
        write(snap.resolve("block/sda/alignment_offset"), "0\n");
        for (Map.Entry<String, String> e : DISK_QUEUE.entrySet()) {
            write(snap.resolve("block/sda/queue/" + e.getKey()), e.getValue() + "\n");
        }
        write(snap.resolve("block/dm-0/dev"), "253:0\n");
        write(snap.resolve("block/dm-0/size"), "2048\n");
        write(snap.resolve("block/dm-0/alignment_offset"), "0\n");
        write(snap.resolve("block/dm-0/dm/name"), "lv\n");
        write(snap.resolve("dmsetup-table.txt"), "lv: 0 2048 linear 8:0 2048\n");
        return dir;
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void readsEveryPart() throws IOException {
        Path dir = caseDir("ss-tiny");
        write(dir.resolve("README.txt"), "a tiny case\n");
        write(dir.resolve("setup.txt"), "sync\necho 3 > /proc/sys/vm/drop_caches\n");
        write(dir.resolve("workload.txt"), "dd if=/dev/zero of=/dev/mapper/lv bs=4k count=1 oflag=direct\nsync\n");
        write(dir.resolve("compare.txt"), "sequence\n");
        write(dir.resolve("trace.csv"), "seq,device,event,rwbs,sector,nr_sectors,extra\r\n"
                + "0,dm-0,block_bio_queue,WS,0,8,\r\n1,sda,block_bio_remap,WS,2048,8,from=dm-0:0\r\n");

        TraceCase c = TraceCase.read(dir);

        assertThat(c.name()).isEqualTo("ss-tiny");
        assertThat(c.directory()).isEqualTo(dir.toAbsolutePath().normalize());
        assertThat(c.readme()).hasValue("a tiny case\n");
        assertThat(c.snapshot().steps()).filteredOn(LayoutStep.DmCreate.class::isInstance)
                .extracting(st -> ((LayoutStep.DmCreate) st).kernelName().orElseThrow()).containsExactly("dm-0");
        assertThat(c.snapshot().profile()).hasValue(KernelProfile.LINUX_6_1);
        assertThat(c.setupLines()).containsExactly("sync", "echo 3 > /proc/sys/vm/drop_caches");
        assertThat(c.workloadLines()).containsExactly("dd if=/dev/zero of=/dev/mapper/lv bs=4k count=1 oflag=direct", "sync");
        assertThat(c.compareMode()).hasValue(CompareMode.SEQUENCE);
        assertThat(c.hasTrace()).isTrue();
        assertThat(c.trace()).containsExactly(
                new TraceEvent(0, "dm-0", EventType.BIO_QUEUE, "WS", 0, 8, ""),
                new TraceEvent(1, "sda", EventType.BIO_REMAP, "WS", 2048, 8, "from=dm-0:0"));
        assertThat(c).hasToString("TraceCase[ss-tiny, sequence, 2 events]");
    }

    @Test
    void withoutCompareTxtACaseHasNoTraceToCompare() throws IOException {
        Path dir = caseDir("limits-tiny");

        TraceCase c = TraceCase.read(dir);

        assertThat(c.readme()).isEmpty();
        assertThat(c.setupLines()).isEmpty();
        assertThat(c.workloadLines()).isEmpty();
        assertThat(c.compareMode()).isEmpty();
        assertThat(c.hasTrace()).isFalse();
        assertThat(c.trace()).isEmpty();
        assertThatThrownBy(() -> KernelConformance.check(c, KernelProfile.LINUX_6_1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("case limits-tiny has no compare.txt: there is no trace to compare");
    }

    @Test
    void emptySetupAndWorkloadFilesAreNoLines() throws IOException {
        Path dir = caseDir("empty");
        write(dir.resolve("setup.txt"), "");
        write(dir.resolve("workload.txt"), "");

        TraceCase c = TraceCase.read(dir);

        assertThat(c.setupLines()).isEmpty();
        assertThat(c.workloadLines()).isEmpty();
    }

    @Test
    void anUnknownCompareWordNamesTheFile() throws IOException {
        Path dir = caseDir("bad-mode");
        write(dir.resolve("compare.txt"), "ordered\n");
        write(dir.resolve("trace.csv"), "seq,device,event,rwbs,sector,nr_sectors,extra\r\n");

        assertThatThrownBy(() -> TraceCase.read(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(dir.resolve("compare.txt").toAbsolutePath() + ": unknown compare mode 'ordered' "
                        + "(expected one of sequence, multiset, multiset-dm, multiset-data)");
    }

    @Test
    void compareTxtWithoutTraceCsvIsAnError() throws IOException {
        Path dir = caseDir("no-trace");
        write(dir.resolve("compare.txt"), "multiset\n");

        assertThatThrownBy(() -> TraceCase.read(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("no-trace has compare.txt but no trace.csv");
    }

    @Test
    void aMalformedTraceNamesTheFileLineAndColumn() throws IOException {
        Path dir = caseDir("bad-trace");
        write(dir.resolve("compare.txt"), "multiset\n");
        write(dir.resolve("trace.csv"), "seq,device,event,rwbs,sector,nr_sectors,extra\r\n0,dm-0,block_bio_queue,WS,zero,8,\r\n");

        assertThatThrownBy(() -> TraceCase.read(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(dir.resolve("trace.csv").toAbsolutePath() + ": line 2, column 5 (sector): expected a "
                        + "sector number (decimal digits, at most 2^64-1), found 'zero'")
                .hasCauseInstanceOf(TraceFormatException.class);
    }

    @Test
    void aMissingSnapshotIsAnError() throws IOException {
        Path dir = tmp.resolve("no-snapshot");
        Files.createDirectories(dir);

        assertThatThrownBy(() -> TraceCase.read(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("no-snapshot has no snapshot/ folder");
    }

    @Test
    void aCaseWithNoCommandsAndNoEventsMatches() throws IOException {
        Path dir = caseDir("nothing");
        write(dir.resolve("compare.txt"), "sequence\n");
        write(dir.resolve("trace.csv"), "seq,device,event,rwbs,sector,nr_sectors,extra\r\n");

        Comparison c = KernelConformance.check(TraceCase.read(dir), KernelProfile.LINUX_6_1);

        assertThat(c.matches()).isTrue();
        assertThat(c.devices()).isEmpty();
    }

    @Test
    void aLineTheModelCannotParseFailsNamingTheCaseFileLineAndCommand() throws IOException {
        Path dir = caseDir("unparsable");
        write(dir.resolve("workload.txt"), "frobnicate --now /dev/mapper/lv\n");
        write(dir.resolve("compare.txt"), "sequence\n");
        write(dir.resolve("trace.csv"), "seq,device,event,rwbs,sector,nr_sectors,extra\r\n");
        TraceCase c = TraceCase.read(dir);

        assertThatThrownBy(() -> KernelConformance.check(c, KernelProfile.LINUX_6_1))
                .isInstanceOf(KernelConformance.CaseFailure.class)
                .hasMessageStartingWith("unparsable (linux-6.1): workload.txt line 1 `frobnicate --now /dev/mapper/lv` "
                        + "does not parse: dev.dmmodel.workload.WorkloadParseException: ")
                .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dmDevicesComeFromTheLayout() throws IOException {
        var layout = Layout.of(
                TraceCase.read(caseDir("layout")).snapshot().toLayoutSpec(KernelProfile.LINUX_6_1));

        assertThat(KernelConformance.dmDevices(layout)).containsExactly("dm-0");
        assertThat(KernelConformance.thinPoolMetadataDevices(layout)).isEmpty();
        assertThat(List.copyOf(layout.devices())).extracting(d -> d.name()).contains("sda", "dm-0");
    }
}
