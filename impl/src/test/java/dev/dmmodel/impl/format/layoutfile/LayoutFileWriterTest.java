package dev.dmmodel.impl.format.layoutfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class LayoutFileWriterTest {

    /** Two layouts are the same: devices (numbers, sizes, limits, tables), PVs, VGs with their extents, findings. */
    static void assertSameLayout(Layout actual, Layout expected, String what) {
        assertThat(actual.profile()).as(what).isEqualTo(expected.profile());
        assertThat(actual.devices()).as(what).isEqualTo(expected.devices());
        assertThat(actual.physicalVolumes()).as(what).isEqualTo(expected.physicalVolumes());
        assertThat(actual.volumeGroups()).as(what).isEqualTo(expected.volumeGroups());
        assertThat(actual.dmsetupTable()).as(what).isEqualTo(expected.dmsetupTable());
        assertThat(actual.findings()).as(what).isEqualTo(expected.findings());
    }

    /** Every step but a disk's comes back equal; a disk's spec up to the limits DiskSpec ignores. */
    static void assertSameSteps(List<LayoutStep> actual, List<LayoutStep> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            LayoutStep e = expected.get(i);
            LayoutStep a = actual.get(i);
            if (e instanceof LayoutStep.AddDisk d && a instanceof LayoutStep.AddDisk r) {
                assertThat(r.name()).isEqualTo(d.name());
                assertThat(r.devNumber()).isEqualTo(d.devNumber());
                assertThat(r.spec().toBuilder().build().limits().toBuilder().maxSectors(0).readAheadKb(0).build())
                        .isEqualTo(d.spec().limits().toBuilder().maxSectors(0).readAheadKb(0).build());
                assertThat(List.of(r.spec().driver(), r.spec().size(), r.spec().maxSectors(), r.spec().readAheadKb(),
                        r.spec().description())).isEqualTo(List.of(d.spec().driver(), d.spec().size(),
                        d.spec().maxSectors(), d.spec().readAheadKb(), d.spec().description()));
            } else {
                assertThat(a).as("step %d", i).isEqualTo(e);
            }
        }
    }

    private static void roundTrip(LayoutSpec spec, String what) {
        String text = LayoutFileWriter.write(spec);
        LayoutFile back = LayoutFileReader.read(text, what);
        assertThat(back.kernel()).contains(spec.profile());
        assertSameSteps(back.steps(), spec.steps());
        assertSameLayout(back.build(), Layout.of(spec), what + ":\n" + text);
        // writing what was read gives the same text: the order of keys is stable
        assertThat(LayoutFileWriter.write(back.spec())).isEqualTo(text);
    }

    @Test
    void everyDocsExampleAndEveryKeyComeBack() throws IOException {
        for (Path f : LayoutFileReaderTest.exampleFiles()) {
            roundTrip(LayoutFileReader.read(f).spec(), f.toString());
        }
        roundTrip(LayoutFileReader.read(LayoutFileReaderTest.EVERY_KEY, "every-key.yaml").spec(), "every-key");
        roundTrip(LayoutFileReader.read(LayoutFileReaderTest.LVEXTEND_AND_CONVERT, "x.yaml").spec(), "lvextend");
    }

    @Test
    void aClassicSnapshotIsASnapshotStepWithASize() {
        // lvcreate -s -L 32M -c 64k -n snap vgs/origin as a layout step, and back
        LayoutSpec spec = new LayoutSpec(KernelProfile.LINUX_6_12, Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", dev.dmmodel.device.DiskPresets.virtioBlk().withSize(dev.dmmodel.units.Bytes.gib(1)))
                .pvcreate("vda").vgcreate("vgs", "vda")
                .lvcreate("vgs", dev.dmmodel.lvm.LvCreateRequest.builder("origin").size("64M").build())
                .lvcreateCowSnapshot("vgs", new dev.dmmodel.lvm.CowSnapshotRequest("origin", "snap",
                        dev.dmmodel.units.Bytes.mib(32), dev.dmmodel.units.Sectors.of(128), List.of("vda")))
                .steps());
        String text = LayoutFileWriter.write(spec);
        assertThat(text).contains("  - snapshot: snap\n    vg: vgs\n    origin: origin\n    size: 32MiB\n"
                + "    chunk_size: 64KiB\n    pvs: [vda]\n");
        roundTrip(spec, "cow-snapshot");
        // a chunk size that is no whole number of sectors names the key
        assertThatThrownBy(() -> LayoutFileReader.read(text.replace("chunk_size: 64KiB", "chunk_size: 1000B"), "x.yaml"))
                .hasMessageContaining("chunk_size: a power of two from 4KiB to 512KiB");
    }

    @Test
    void aProfileComposedForAReleaseIsWrittenByItsVersionAndComesBack() {
        LayoutSpec file = LayoutFileReader.read(LayoutFileReaderTest.EVERY_KEY, "every-key.yaml").spec();
        // RHEL 8's 4.18 and a 7.x newer than the newest recorded kernel: composed, not presets
        for (String release : List.of("4.18.0-553.el8_10.x86_64", "7.5.1", "2.6.18-419.el5")) {
            KernelProfile p = KernelProfile.forRelease(release);
            LayoutSpec spec = new LayoutSpec(p, file.steps());
            String text = LayoutFileWriter.write(spec);
            assertThat(text).contains("kernel: \"" + p.name().substring("linux-".length()) + "\"\n");
            roundTrip(spec, release);
        }
    }

    @Test
    void aDerivedProfileCannotBeWritten() {
        LayoutSpec file = LayoutFileReader.read(LayoutFileReaderTest.EVERY_KEY, "every-key.yaml").spec();
        KernelProfile derived = KernelProfile.LINUX_6_12.toBuilder().maxSectorsCap(8192).build();
        assertThatThrownBy(() -> LayoutFileWriter.write(new LayoutSpec(derived, file.steps())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("kernel profile linux-6.12 is neither a preset nor the profile of a release");
    }

    @Test
    void theTextIsTheFormatAsDocumented() {
        String text = LayoutFileWriter.write(LayoutFileReader.read(
                LayoutFileReaderTest.examples().resolve("raid-partition-lvm.yaml")).spec());
        assertThat(text).isEqualTo(String.join("\n",
                "# dmmodel layout file (docs/layout-format.md)",
                "version: 1",
                "kernel: \"6.12\"",
                "steps:",
                "  - disk: sda",
                // sas-disk is the preset the fewest keys away (128 segments of 64 KiB, dma_alignment 3,
                // rotational); its 4 KiB physical blocks are set back to 512, io_min to the 64 KiB chunk
                "    preset: sas-disk",
                "    size: 2734375000s",
                "    logical_block_size: 512",
                "    physical_block_size: 512",
                "    minimum_io_size: 65536",
                "    optimal_io_size: 458752",
                "    max_hw_sectors: 65534",
                "    description: \"RAID5 volume, 8 disks, 64KiB chunk\"",
                "  - partition_table: sda",
                "    type: msdos",
                "    partitions:",
                "      - {start: 63s}",
                "  - pvcreate: sda1",
                "  - vgcreate: vg0",
                "    pvs: [sda1]",
                "  - lvcreate: test",
                "    vg: vg0",
                "    size: 100GiB",
                ""));
    }

    @Test
    void scalarsThatYamlWouldMisreadAreQuoted() {
        assertThat(LayoutFileWriter.scalar("sda1")).isEqualTo("sda1");
        assertThat(LayoutFileWriter.scalar("8:0")).isEqualTo("\"8:0\"");
        assertThat(LayoutFileWriter.scalar("")).isEqualTo("\"\"");
        assertThat(LayoutFileWriter.scalar("null")).isEqualTo("\"null\"");
        assertThat(LayoutFileWriter.scalar("a \"b\"\\\n")).isEqualTo("\"a \\\"b\\\"\\\\\\n\"");
        assertThat(LayoutFileWriter.scalar("-x")).isEqualTo("\"-x\"");
        assertThat(LayoutFileWriter.scalar("\u0001")).isEqualTo("\"\\u0001\"");
        // JSON's short forms, which YAML's double-quoted scalars have too
        assertThat(LayoutFileWriter.scalar("\r\b\f")).isEqualTo("\"\\r\\b\\f\"");
    }

    /**
     * A quoted scalar reads back through SnakeYAML as written: NEL (U+0085), U+2028 and U+2029 would be line breaks
     * and DEL, C1, U+FEFF, U+FFFE/U+FFFF and lone surrogates are not printable in YAML, so all are escaped.
     */
    @Test
    void quotedScalarsReadBackExactly() {
        String awkward = "a\"b\\c\r\b\f\t\n\u0001\u007f\u0085\u009f\u2028\u2029\uFEFF\uFFFE\uFFFF\uD83D\uDE00 é \uD83D";
        String text = "version: 1\nsteps:\n  - disk: sda\n    preset: loop\n    size: 1GiB\n    description: "
                + LayoutFileWriter.scalar(awkward) + "\n";
        LayoutStep.AddDisk disk = (LayoutStep.AddDisk) LayoutFileReader.read(text, "d.yaml").steps().get(0);
        assertThat(disk.spec().description()).isEqualTo(awkward);
    }

    /** Every recorded snapshot under the shared folder: its spec written, read back, built: the same layout. */
    @Test
    void everyRecordedSnapshotComesBack() throws IOException {
        String property = System.getProperty("dmmodel.shared.dir");
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        Assumptions.assumeTrue(shared != null && Files.isDirectory(shared),
                "shared/ folder not found at " + shared + ": snapshot round trip skipped");
        List<Path> snapshots = new ArrayList<>();
        for (String folder : List.of("kernel-traces", "kernel-traces-6.12")) {
            Path root = shared.resolve(folder);
            if (Files.isDirectory(root)) {
                try (Stream<Path> s = Files.list(root)) {
                    s.sorted().map(c -> c.resolve("snapshot")).filter(Files::isDirectory).forEach(snapshots::add);
                }
            }
        }
        Assumptions.assumeTrue(!snapshots.isEmpty(), "no recorded snapshot under " + shared + ": skipped");
        int done = 0;
        for (Path dir : snapshots) {
            LayoutSpec spec = Snapshot.read(dir).toLayoutSpec();
            roundTrip(spec, dir.toString());
            done++;
        }
        assertThat(done).isEqualTo(snapshots.size()).isGreaterThanOrEqualTo(70);
    }
}
