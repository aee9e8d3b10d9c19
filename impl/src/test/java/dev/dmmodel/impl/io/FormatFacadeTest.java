package dev.dmmodel.impl.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.io.FormatException;
import dev.dmmodel.io.LayoutFiles;
import dev.dmmodel.io.Lsblk;
import dev.dmmodel.io.LsblkImport;
import dev.dmmodel.io.LvmCommands;
import dev.dmmodel.io.LvmReports;
import dev.dmmodel.io.LvmScript;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.units.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.io.LvmMetadata;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public readers of {@code dev.dmmodel.io}, found through the service loader, on the project's fixtures. */
class FormatFacadeTest {

    @TempDir
    Path tmp;

    private static Path fixture(String path) {
        try {
            return Path.of(FormatFacadeTest.class.getResource("/" + path).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aThinSnapshotReadsIntoStepsRecordedLimitsAndStatus() {
        HostSnapshot host = HostSnapshot.read(fixture("snapshots/thin-lvm-zy-direct1M"));

        assertThat(host.kernelRelease()).contains("6.1.0-57-amd64");
        assertThat(host.profile()).contains(KernelProfile.LINUX_6_1);
        // one disk, five dm devices (tdata, tmeta, tpool, pool, thin), one VG
        assertThat(host.steps()).filteredOn(LayoutStep.AddDisk.class::isInstance).hasSize(1);
        assertThat(host.steps()).filteredOn(LayoutStep.DmCreate.class::isInstance).hasSize(5);
        assertThat(host.volumeGroups()).extracting(VolumeGroup::name).containsExactly("vgt");
        assertThat(host.recordedQueue("sda")).containsEntry("logical_block_size", "512");
        // the thin pool's io_hints: minimum_io_size = the 1 MiB block size (2048 sectors)
        assertThat(host.recordedQueue("dm-3")).containsEntry("minimum_io_size", "1048576");
        assertThat(host.dmsetupStatus()).hasSize(5).anySatisfy(l -> assertThat(l).startsWith("vgt-pool-tpool: 0 524288"));
        assertThat(host.lvmProblems()).isEmpty();

        Layout layout = Layout.of(host.toLayoutSpec());
        assertThat(layout.profile()).isEqualTo(KernelProfile.LINUX_6_1);
        assertThat(layout.volumeGroups()).hasSize(1);
        assertThatThrownBy(() -> host.recordedQueue("sdz")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'sdz'").hasMessageContaining("sda");
    }

    @Test
    void aPartitionHasItsOwnAlignmentOffsetAndItsDisksQueue() {
        HostSnapshot host = HostSnapshot.read(fixture("snapshots/lp-raid-part63-4M-lv-direct64k"));

        // sector 63 on a 64 KiB-chunk RAID: 65536 - 63 * 512 = 33280 bytes
        assertThat(host.recordedAlignmentOffset("sda1")).isEqualTo(OptionalLong.of(33280));
        assertThat(host.recordedQueue("sda1")).isEqualTo(host.recordedQueue("sda"));
        assertThat(host.recordedAlignmentOffset("nothing")).isEmpty();
    }

    @Test
    void aBrokenSnapshotIsAFormatExceptionNamingTheFile() {
        assertThatThrownBy(() -> HostSnapshot.read(fixture("snapshots/broken-missing-dev")))
                .isInstanceOf(FormatException.class)
                .satisfies(e -> assertThat(((FormatException) e).source()).endsWith("dev"))
                .hasMessageContaining("found no file");
    }

    @Test
    void lvmMetadataReadsAndWritesThroughTheFacade() throws IOException {
        Path file = fixture("snapshots/thin-lvm-zy-direct1M/lvm/vgt.vg");
        VolumeGroup vg = LvmMetadata.read(file);

        assertThat(vg.extentSize()).isEqualTo(Sectors.of(8192));
        assertThat(LvmMetadata.read(LvmMetadata.write(vg), "<written>")).isEqualTo(vg);
    }

    @Test
    void badLvmMetadataNamesThePlace() throws IOException {
        String good = Files.readString(fixture("snapshots/thin-lvm-zy-direct1M/lvm/vgt.vg"));
        assertThat(good).contains("extent_size = 8192");
        int line = (int) good.substring(0, good.indexOf("extent_size = 8192")).chars().filter(c -> c == '\n').count() + 1;
        Path file = tmp.resolve("bad.vg");
        Files.writeString(file, good.replace("extent_size = 8192", "extent_size = \"x\""));

        assertThatThrownBy(() -> LvmMetadata.read(file))
                .isInstanceOf(LvmMetadataException.class)
                .isInstanceOf(FormatException.class)
                .satisfies(e -> {
                    FormatException f = (FormatException) e;
                    assertThat(f.source()).isEqualTo(file.toString());
                    assertThat(f.line()).isEqualTo(line);
                    assertThat(f.column()).isPositive();
                    assertThat(f.getMessage()).startsWith(file + ":" + line + ":" + f.column() + ": ");
                });
    }

    @Test
    void nullsAreRefusedByName() {
        assertThatThrownBy(() -> HostSnapshot.read(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("directory");
        assertThatThrownBy(() -> LvmMetadata.read("x", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("source");
        assertThatThrownBy(() -> LvmMetadata.write(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("volumeGroup");
    }

    /** Two 256 MiB SCSI disks, sda (8:0) and sdb (8:16). */
    private static LayoutSpec twoDisks() {
        return new LayoutSpec(KernelProfile.LINUX_6_12, Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .steps());
    }

    @Test
    void dmTablesReadInCreationOrderAndWriteAsDmsetupPrints() {
        String text = """
                top: 0 4096 linear /dev/mapper/span 0
                span: 0 2048 linear 8:0 2048
                span: 2048 2048 linear 8:16 2048
                """;
        Map<String, DmTable> tables = DmTables.read(text, "t.txt");
        // span is used by top: created first
        assertThat(tables.keySet()).containsExactly("span", "top");
        assertThat(tables.get("span").targets()).hasSize(2).allMatch(LinearTarget.class::isInstance);

        Layout layout = Layout.of(DmTables.addTo(twoDisks(), text, "t.txt"));
        // dmsetup sorts by name; span became dm-0 = 253:0, which top's line names
        assertThat(DmTables.write(layout)).isEqualTo("""
                span: 0 2048 linear 8:0 2048
                span: 2048 2048 linear 8:16 2048
                top: 0 4096 linear 253:0 0
                """).isEqualTo(layout.dmsetupTable());
        assertThat(DmTables.write(Layout.of(twoDisks()))).isEqualTo("No devices found\n");
    }

    @Test
    void aBadTableLineIsAFormatExceptionWithItsPlace() {
        // a striped target without its stripes (stripe_ctr: "Not enough arguments") on line 2
        assertThatThrownBy(() -> DmTables.read("a: 0 8 linear 8:0 0\nb: 0 8 striped 2 128 8:16 0\n", "t.txt"))
                .isInstanceOf(FormatException.class)
                .satisfies(e -> {
                    FormatException f = (FormatException) e;
                    assertThat(f.source()).isEqualTo("t.txt");
                    assertThat(f.line()).isEqualTo(2);
                    assertThat(f.getMessage()).contains("striped");
                });
    }

    @Test
    void lvmCommandsRecreateTheSnapshotsVolumeGroup() {
        HostSnapshot host = HostSnapshot.read(fixture("snapshots/thin-lvm-zy-direct1M"));
        Layout layout = Layout.of(host.toLayoutSpec());
        LvmScript script = LvmCommands.write(layout);

        assertThat(script.isExact()).as("%s", script.notExpressible()).isTrue();
        assertThat(script.script()).contains("pvcreate").contains("vgcreate").contains("--type thin-pool");

        // replay: the snapshot's disks and partitions, then the commands
        List<LayoutStep> steps = new ArrayList<>();
        for (LayoutStep st : host.steps()) {
            if (st instanceof LayoutStep.AddDisk || st instanceof LayoutStep.AddPartition) {
                steps.add(st);
            }
        }
        steps.addAll(LvmCommands.read(script.script(), "recreate.sh"));
        Layout again = Layout.of(new LayoutSpec(host.toLayoutSpec().profile(), steps));
        // the recorded metadata has no mda sizes (0); the differences compare everything LVM's metadata records
        assertThat(dev.dmmodel.impl.lvm.cmd.VolumeGroupDiff.differences(layout.volumeGroups().get(0),
                again.volumeGroups().get(0))).isEmpty();
    }

    @Test
    void aBadLvmCommandIsAFormatException() {
        assertThatThrownBy(() -> LvmCommands.read("pvcreate /dev/sda\nvgcreate --frobnicate vg /dev/sda\n", "x.sh"))
                .isInstanceOf(FormatException.class)
                .satisfies(e -> assertThat(((FormatException) e).line()).isEqualTo(2));
    }

    @Test
    void lsblkDisksWithADmsetupTableGiveTheSnapshotsStack() throws IOException {
        LsblkImport disks = Lsblk.read(Files.readString(fixture("lsblk/lp-raid-part63-2.38.json")), "lsblk.json");
        assertThat(disks.problems()).isEmpty();
        assertThat(disks.dmDevices()).extracting(LsblkImport.PendingDm::name).containsExactly("vg-lv");

        Path snapshot = fixture("snapshots/lp-raid-part63-4M-lv-direct64k");
        String table = Files.readString(snapshot.resolve("dmsetup-table.txt"));
        Layout fromLsblk = Layout.of(DmTables.addTo(disks.toLayoutSpec(KernelProfile.LINUX_6_1), table, "table"));
        Layout fromSnapshot = Layout.of(HostSnapshot.read(snapshot).toLayoutSpec());

        // the partition at sector 63 of the 64 KiB-chunk RAID and the LV on it: the same alignment and io hints
        for (String dev : List.of("sda1", "/dev/mapper/vg-lv")) {
            assertThat(fromLsblk.device(dev).limits().sysfsAlignmentOffset()).as(dev)
                    .isEqualTo(fromSnapshot.device(dev).limits().sysfsAlignmentOffset());
            assertThat(fromLsblk.device(dev).limits().ioOpt()).as(dev)
                    .isEqualTo(fromSnapshot.device(dev).limits().ioOpt());
        }
        assertThat(fromLsblk.device("sda1").limits().sysfsAlignmentOffset()).isEqualTo(33280);
    }

    @Test
    void lvmReportsGiveTheVolumeGroupOfTheMetadataFile() throws IOException {
        Path lvm = fixture("snapshots/lp-raid-part63-4M-lv-direct64k/lvm");
        List<VolumeGroup> vgs = LvmReports.read(Files.readString(lvm.resolve("pvs-all.json")),
                java.util.Optional.of(Files.readString(lvm.resolve("vgs-all.json"))),
                Files.readString(lvm.resolve("lvs-segments-all.json")), "lp-raid");
        assertThat(vgs).containsExactly(LvmMetadata.read(lvm.resolve("vg.vg")));

        assertThatThrownBy(() -> LvmReports.readFullReport("{\"report\": [", "r.json"))
                .isInstanceOf(LvmMetadataException.class).hasMessageStartingWith("r.json:1:");
        assertThatThrownBy(() -> Lsblk.read("{\"blockdevices\": 3}", "l.json"))
                .isInstanceOf(FormatException.class).hasMessageStartingWith("l.json:1:");
    }

    private static final String TWO_PARTITIONS = """
            version: 1
            kernel: "6.1"
            steps:
              - disk: nvme0n1
                preset: nvme-ssd
                size: 512GiB
              - partition_table: nvme0n1
                type: gpt
                partitions:
                  - {align: optimal, size: 1GiB}
                  - {align: optimal}
            """;

    @Test
    void layoutFilesReadBuildAndWriteBack() {
        LayoutSpec spec = LayoutFiles.read(TWO_PARTITIONS, "two.yaml");
        assertThat(spec.profile()).isEqualTo(KernelProfile.LINUX_6_1);
        assertThat(LayoutFiles.read(TWO_PARTITIONS, "two.yaml", KernelProfile.LINUX_6_12).profile())
                .isEqualTo(KernelProfile.LINUX_6_12);

        Layout layout = LayoutFiles.build(TWO_PARTITIONS, "two.yaml");
        // parted's optimal alignment: 1 MiB = sector 2048, the second partition right after the 1 GiB one
        assertThat(layout.partitions()).extracting(p -> p.start().count()).containsExactly(2048L, 2048L + 2097152);

        Layout again = Layout.of(LayoutFiles.read(LayoutFiles.write(spec), "written.yaml"));
        assertThat(again.partitions()).isEqualTo(layout.partitions());
    }

    @Test
    void aLayoutFileNamesItsKernelAndBuildsUnderAnother() {
        assertThat(LayoutFiles.kernel(TWO_PARTITIONS, "two.yaml")).contains(KernelProfile.LINUX_6_1);
        assertThat(LayoutFiles.kernel(TWO_PARTITIONS.replace("kernel: \"6.1\"\n", ""), "two.yaml")).isEmpty();

        assertThat(LayoutFiles.build(TWO_PARTITIONS, "two.yaml").profile()).isEqualTo(KernelProfile.LINUX_6_1);
        Layout on612 = LayoutFiles.build(TWO_PARTITIONS, "two.yaml", KernelProfile.LINUX_6_12);
        assertThat(on612.profile()).isEqualTo(KernelProfile.LINUX_6_12);
        // the same steps: 2048 and 2048 + 1 GiB (2097152 sectors), whatever the kernel
        assertThat(on612.partitions()).extracting(p -> p.start().count()).containsExactly(2048L, 2048L + 2097152);

        // a 1 TiB partition on a 512 GiB disk: refused at the partition_table step (line 7) under either kernel
        String tooBig = TWO_PARTITIONS.replace("size: 1GiB", "size: 1TiB");
        assertThatThrownBy(() -> LayoutFiles.build(tooBig, "big.yaml", KernelProfile.LINUX_6_12))
                .isInstanceOf(FormatException.class)
                .hasMessageStartingWith("big.yaml:7:5: a step the model refuses (")
                .hasMessageEndingWith("; expected a layout that can be built under linux-6.12");
    }

    @Test
    void aLayoutFileIsReadAsStrictUtf8WithTheFileAsSource() throws IOException {
        Path file = Files.writeString(tmp.resolve("two.yaml"), TWO_PARTITIONS);
        assertThat(LayoutFiles.text(file)).isEqualTo(TWO_PARTITIONS);

        Path missing = tmp.resolve("nope.yaml");
        assertThatThrownBy(() -> LayoutFiles.text(missing)).isInstanceOf(FormatException.class)
                .hasMessage(missing + ":1:1: no such file; expected a layout file");
        // 0xff starts no UTF-8 sequence
        Path latin1 = Files.write(tmp.resolve("latin1.yaml"), new byte[] {'v', ':', ' ', (byte) 0xff, '\n'});
        assertThatThrownBy(() -> LayoutFiles.text(latin1)).isInstanceOf(FormatException.class)
                .hasMessage(latin1 + ":1:1: bytes that are not UTF-8; expected a UTF-8 text file");
    }

    @Test
    void sysfsAttributesAreInSysfsUnits() {
        QueueLimits limits = QueueLimits.builder()
                .logicalBlockSize(512).physicalBlockSize(4096).ioMin(65536).ioOpt(458752)
                .alignmentOffset(3584).misaligned(true)
                .maxSectors(2560).maxHwSectors(255)
                .discardGranularity(4096).maxDiscardSectors(8).maxHwDiscardSectors(4194303)
                .rotational(true).build();
        Map<String, Long> sysfs = HostSnapshot.sysfsAttributes(limits);
        assertThat(sysfs.keySet()).containsExactly("logical_block_size", "physical_block_size", "minimum_io_size",
                "optimal_io_size", "alignment_offset", "max_sectors_kb", "max_hw_sectors_kb", "max_segments",
                "max_segment_size", "chunk_sectors", "discard_granularity", "discard_max_bytes",
                "discard_max_hw_bytes", "write_zeroes_max_bytes", "virt_boundary_mask", "dma_alignment",
                "read_ahead_kb", "rotational", "hw_sector_size");
        assertThat(sysfs.get("alignment_offset")).isEqualTo(-1L);           // misaligned wins over 3584
        assertThat(sysfs.get("max_sectors_kb")).isEqualTo(1280L);           // 2560 sectors / 2
        assertThat(sysfs.get("max_hw_sectors_kb")).isEqualTo(127L);         // 255 / 2, truncated
        assertThat(sysfs.get("discard_max_bytes")).isEqualTo(4096L);        // 8 sectors × 512
        assertThat(sysfs.get("discard_max_hw_bytes")).isEqualTo(2147483136L); // 4194303 × 512
        assertThat(sysfs.get("rotational")).isEqualTo(1L);
        assertThat(sysfs.get("hw_sector_size")).isEqualTo(512L);            // the logical block size
        assertThatThrownBy(() -> sysfs.put("rotational", 0L)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aLayoutFileStepTheModelRefusesIsReportedAtItsLine() {
        String tooBig = TWO_PARTITIONS.replace("size: 1GiB", "size: 1TiB");
        assertThatThrownBy(() -> LayoutFiles.build(tooBig, "big.yaml"))
                .isInstanceOf(FormatException.class)
                .satisfies(e -> {
                    FormatException f = (FormatException) e;
                    assertThat(f.source()).isEqualTo("big.yaml");
                    assertThat(f.line()).isEqualTo(7);   // the partition_table step
                });
        assertThatThrownBy(() -> LayoutFiles.read("version: 1\nsteps:\n  - dsik: sda\n", "typo.yaml"))
                .isInstanceOf(FormatException.class).hasMessageStartingWith("typo.yaml:3:")
                .hasMessageContaining("dsik");
    }
}
