package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.ErrorTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.dm.ZeroTarget;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SnapshotTest {

    @TempDir
    Path tmp;

    static Path fixture(String name) {
        URL url = SnapshotTest.class.getResource("/snapshots/" + name);
        assertThat(url).as("test resource /snapshots/%s", name).isNotNull();
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A writable copy of a fixture, to break one file of it. */
    private Path copy(String name) {
        return copyFixture(name, tmp);
    }

    /** A writable copy of fixture {@code name} under {@code dir} (the tests of this package break files of it). */
    static Path copyFixture(String name, Path dir) {
        Path from = fixture(name);
        Path to = dir.resolve(name);
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return to;
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String message(Path dir) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> Snapshot.read(dir));
        assertThat(t).isInstanceOf(SnapshotException.class);
        return t.getMessage();
    }

    // ================================================================================ real snapshots

    @Nested
    class LimitsSd512e {
        final Snapshot s = Snapshot.read(fixture("limits-sd-512e"));

        @Test
        void readsTheKernelReleaseAndItsProfile() {
            assertThat(s.kernelRelease()).contains("6.1.0-57-amd64");
            assertThat(s.profile()).contains(KernelProfile.LINUX_6_1);
            assertThat(s.directory()).isEqualTo(fixture("limits-sd-512e"));
        }

        @Test
        void readsDisksByDeviceNumberAndDmDevicesInDependencyOrder() {
            assertThat(s.disks()).extracting(Snapshot.Device::kname).containsExactly("sdg", "sdh", "sdi", "sdj", "sdk");
            assertThat(s.dmDevices()).hasSize(16);
            assertThat(s.devices()).hasSize(21);
            Set<String> created = new HashSet<>(List.of("sdg", "sdg1", "sdh", "sdh1", "sdi", "sdj", "sdk"));
            for (Snapshot.Device dm : s.dmDevices()) {
                assertThat(created).as("devices used by %s", dm.kname()).containsAll(s.dmTable(dm.kname()).devices());
                created.add(dm.kname());
            }
        }

        @Test
        void readsAWholeDisk() {
            Snapshot.Device sdg = s.device("sdg").orElseThrow();
            assertThat(sdg.dev()).isEqualTo(new DevNumber(8, 96));
            assertThat(sdg.size()).isEqualTo(Sectors.of(131072));
            assertThat(sdg.alignmentOffset()).isEqualTo(OptionalLong.of(0));
            assertThat(sdg.readOnly()).contains(false);
            assertThat(sdg.isDm()).isFalse();
            assertThat(sdg.dmName()).isEmpty();
            assertThat(sdg.queue()).containsEntry("scheduler", "[mq-deadline] none")
                    .containsEntry("physical_block_size", "4096")
                    .containsEntry("max_hw_sectors_kb", "2147483647");
            assertThat(sdg.partitions()).extracting(Snapshot.PartitionEntry::kname).containsExactly("sdg1");
        }

        @Test
        void readsPartitionsWithTheirOwnAlignmentOffset() {
            assertThat(s.partitions()).containsExactly(
                    new Snapshot.PartitionEntry("sdg1", "sdg", new DevNumber(8, 97), 1, Sectors.of(63),
                            Sectors.of(131009), OptionalLong.of(512), Optional.of(false)),
                    new Snapshot.PartitionEntry("sdh1", "sdh", new DevNumber(8, 113), 1, Sectors.of(2048),
                            Sectors.of(129024), OptionalLong.of(0), Optional.of(false)));
        }

        @Test
        void readsDmDevices() {
            Snapshot.Device dm2 = s.device("dm-2").orElseThrow();
            assertThat(dm2.isDm()).isTrue();
            assertThat(dm2.dmName()).contains("strparts");
            assertThat(dm2.dmUuid()).isEmpty();
            assertThat(dm2.dev()).isEqualTo(new DevNumber(253, 2));
            assertThat(dm2.size()).isEqualTo(Sectors.of(258048));
            assertThat(dm2.alignmentOffset()).isEqualTo(OptionalLong.of(-1));
        }

        @Test
        void translatesDeviceNumbersOfTablesToKernelNames() {
            assertThat(s.dmTable("dm-2")).isEqualTo(new DmTable(List.of(new StripedTarget(Sectors.ZERO,
                    Sectors.of(258048), 128, List.of(new StripedTarget.Stripe("sdg1", Sectors.ZERO),
                            new StripedTarget.Stripe("sdh1", Sectors.ZERO))))));
            assertThat(s.dmTable("dm-0")).isEqualTo(new DmTable(List.of(
                    new LinearTarget(Sectors.ZERO, Sectors.of(131009), "sdg1", Sectors.ZERO))));
            assertThat(s.dmTable("dm-5")).isEqualTo(new DmTable(List.of(
                    new LinearTarget(Sectors.ZERO, Sectors.of(32768), "sdk", Sectors.of(8192)))));
        }

        @Test
        void readsThinPoolsAndThinDevices() {
            assertThat(s.dmTable("dm-14").targets()).containsExactly(new ThinPoolTarget(Sectors.ZERO,
                    Sectors.of(32256), "dm-12", "dm-13", 896, 0, Set.of()));
            assertThat(((ThinPoolTarget) s.dmTable("dm-14").targets().get(0)).zeroNewBlocks()).isTrue();
            assertThat(s.dmTable("dm-15").targets()).containsExactly(
                    new ThinTarget(Sectors.ZERO, Sectors.of(65536), "dm-14", 0, Optional.empty()));
        }

        @Test
        void keepsTheRawTableAndStatusLines() {
            assertThat(s.tableLines()).hasSize(16);
            Snapshot.TableLine first = s.tableLines().get(0);
            assertThat(first).isEqualTo(new Snapshot.TableLine(1, "lin2048", 0, 129024, "linear",
                    List.of("8:113", "0"), "lin2048: 0 129024 linear 8:113 0"));
            assertThat(s.tableLines().get(2).args()).containsExactly("253:8", "253:9", "2048", "0", "0");
            assertThat(s.dmsetupStatus()).hasSize(16).first().isEqualTo("lin2048: 0 129024 linear ");
            assertThat(s.recordedPeStarts()).isEmpty();
        }

        @Test
        void recordedQueueOfDmDevicesAndPartitions() {
            assertThat(s.recordedQueue("dm-14")).containsEntry("minimum_io_size", "458752")
                    .containsEntry("optimal_io_size", "458752");
            assertThat(s.recordedQueue("sdg1")).isSameAs(s.device("sdg").orElseThrow().queue());
            assertThat(s.recordedAlignmentOffset("sdg1")).isEqualTo(OptionalLong.of(512));
            assertThat(s.recordedAlignmentOffset("dm-0")).isEqualTo(OptionalLong.of(512));
            assertThat(s.recordedAlignmentOffset("dm-2")).isEqualTo(OptionalLong.of(-1));
            assertThatThrownBy(() -> s.recordedQueue("sdz")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("no device or partition 'sdz' in snapshot ");
        }

        @Test
        void layoutSpecAddsDisksWithTheirPartitionsThenDmDevicesInOrder() {
            LayoutSpec spec = s.toLayoutSpec(KernelProfile.LINUX_6_1);
            assertThat(spec.profile()).isEqualTo(KernelProfile.LINUX_6_1);
            List<String> summary = new ArrayList<>();
            for (LayoutStep step : spec.steps()) {
                if (step instanceof LayoutStep.AddDisk d) {
                    summary.add("disk " + d.name() + " " + d.devNumber().orElseThrow());
                } else if (step instanceof LayoutStep.AddPartition p) {
                    summary.add("part " + p.kernelName().orElseThrow() + " " + p.devNumber().orElseThrow() + " of "
                            + p.disk() + " #" + p.number() + " at " + p.start().count() + "+" + p.size().count());
                } else if (step instanceof LayoutStep.DmCreate c) {
                    summary.add("dm " + c.kernelName().orElseThrow() + " " + c.devNumber().orElseThrow() + " " + c.name());
                }
            }
            assertThat(summary).hasSize(23).startsWith(
                    "disk sdg 8:96", "part sdg1 8:97 of sdg #1 at 63+131009",
                    "disk sdh 8:112", "part sdh1 8:113 of sdh #1 at 2048+129024",
                    "disk sdi 8:128", "disk sdj 8:144", "disk sdk 8:160",
                    "dm dm-0 253:0 lin63", "dm dm-1 253:1 lin2048", "dm dm-2 253:2 strparts");
            assertThat(summary).endsWith("dm dm-14 253:14 pool448k", "dm dm-15 253:15 thin448k");
        }
    }

    @Test
    void diskSpecsCarryTheRecordedLimitsVerbatim() {
        for (String name : List.of("limits-sd-512e", "thin-lvm-zy-direct1M", "lp-raid-part63-4M-lv-direct64k",
                "minimal")) {
            Snapshot s = Snapshot.read(fixture(name));
            for (Snapshot.Device d : s.disks()) {
                DiskSpec spec = s.diskSpec(d.kname());
                Map<String, Long> asSysfs = SysfsQueueAttributes.of(spec.limits());
                for (Map.Entry<String, Long> e : asSysfs.entrySet()) {
                    String recorded = e.getKey().equals("alignment_offset")
                            ? Long.toString(d.alignmentOffset().getAsLong()) : d.queue().get(e.getKey());
                    assertThat(Long.toString(e.getValue())).as("%s %s %s", name, d.kname(), e.getKey())
                            .isEqualTo(recorded);
                }
                assertThat(spec.maxSectors()).isEqualTo(Long.parseLong(d.queue().get("max_sectors_kb")) * 2);
                assertThat(spec.readAheadKb()).isEqualTo(Long.parseLong(d.queue().get("read_ahead_kb")));
                assertThat(spec.size()).isEqualTo(d.size());
            }
        }
    }

    @Test
    void raidDiskOfTheLvmOnPartitionCase() {
        Snapshot s = Snapshot.read(fixture("lp-raid-part63-4M-lv-direct64k"));
        DiskSpec sda = s.diskSpec("sda");
        assertThat(sda.driver()).isEqualTo(DiskDriver.SD);
        assertThat(sda.size()).isEqualTo(Sectors.of(8388608));
        assertThat(sda.maxSectors()).isEqualTo(896);
        assertThat(sda.readAheadKb()).isEqualTo(896);
        QueueLimits l = sda.limits();
        assertThat(l.logicalBlockSize()).isEqualTo(512);
        assertThat(l.physicalBlockSize()).isEqualTo(512);
        assertThat(l.ioMin()).isEqualTo(65536);
        assertThat(l.ioOpt()).isEqualTo(458752);
        assertThat(l.alignmentOffset()).isZero();
        assertThat(l.misaligned()).isFalse();
        assertThat(l.maxHwSectors()).isEqualTo(65534);
        assertThat(l.maxSectors()).isEqualTo(896);
        assertThat(l.maxSegments()).isEqualTo(254);
        assertThat(l.maxSegmentSize()).isEqualTo(65536);
        assertThat(l.discardGranularity()).isEqualTo(4096);
        assertThat(l.maxDiscardSectors()).isEqualTo(2097152);
        assertThat(l.maxHwDiscardSectors()).isEqualTo(2097152);
        assertThat(l.maxWriteZeroesSectors()).isEqualTo(4194303);
        assertThat(l.dmaAlignment()).isEqualTo(3);
        assertThat(l.rotational()).isTrue();
        assertThat(l.readAheadKb()).isEqualTo(896);
        assertThat(s.recordedPeStarts()).containsExactly(Map.entry("/dev/sda1", 2753L));
        assertThat(s.toLayoutSpec().steps()).containsExactly(
                new LayoutStep.AddDisk("sda", sda, Optional.of(new DevNumber(8, 0))),
                new LayoutStep.AddPartition("sda", 1, Sectors.of(63), Sectors.of(8388545), Optional.of("sda1"),
                        Optional.of(new DevNumber(8, 1))),
                new LayoutStep.DmCreate("vg-lv", "", new DmTable(List.of(new LinearTarget(Sectors.ZERO,
                        Sectors.of(2097152), "sda1", Sectors.of(2753)))), Optional.of("dm-0"),
                        Optional.of(new DevNumber(253, 0))),
                new LayoutStep.ImportVolumeGroup(s.volumeGroups().get(0)));
        // lvm/vg.vg, read whole: the PV on sda1 at pe_start 2753, the LV active as dm-0 once built
        assertThat(s.lvmProblems()).isEmpty();
        assertThat(s.volumeGroups().get(0).physicalVolumes()).singleElement()
                .satisfies(pv -> assertThat(pv.device()).isEqualTo("sda1"))
                .satisfies(pv -> assertThat(pv.peStart()).isEqualTo(Sectors.of(2753)));
        dev.dmmodel.layout.Layout layout = dev.dmmodel.layout.Layout.of(s.toLayoutSpec());
        assertThat(layout.volumeGroups()).singleElement().satisfies(vg -> assertThat(
                vg.logicalVolume("lv").orElseThrow().dmDevice()).isEqualTo("dm-0"));
        assertThat(layout.physicalVolume("sda1")).isPresent();
    }

    @Test
    void thinPoolMadeByLvm() {
        Snapshot s = Snapshot.read(fixture("thin-lvm-zy-direct1M"));
        assertThat(s.recordedPeStarts()).containsExactly(Map.entry("/dev/sda", 2048L));
        assertThat(s.dmDevices()).extracting(d -> d.dmName().orElseThrow())
                .containsExactly("vgt-pool_tmeta", "vgt-pool_tdata", "vgt-pool-tpool", "vgt-pool", "vgt-thin");
        assertThat(s.dmTable("dm-2").targets()).containsExactly(new ThinPoolTarget(Sectors.ZERO, Sectors.of(524288),
                "dm-0", "dm-1", 2048, 0, Set.of()));
        assertThat(s.dmTable("dm-4").targets()).containsExactly(
                new ThinTarget(Sectors.ZERO, Sectors.of(131072), "dm-2", 1, Optional.empty()));
        assertThat(s.dmsetupStatus()).contains("vgt-thin: 0 131072 thin 0 -");
        List<LayoutStep> steps = s.toLayoutSpec(KernelProfile.LINUX_6_1).steps();
        assertThat(steps).hasSize(7);
        assertThat(steps.get(5)).isEqualTo(new LayoutStep.DmCreate("vgt-thin", "", s.dmTable("dm-4"),
                Optional.of("dm-4"), Optional.of(new DevNumber(253, 4))));
        assertThat(steps.get(6)).isEqualTo(new LayoutStep.ImportVolumeGroup(s.volumeGroups().get(0)));
        // the imported VG: LVs matched to their dm devices, the spare inactive, the pool at transaction_id 1
        dev.dmmodel.layout.Layout layout = dev.dmmodel.layout.Layout.of(s.toLayoutSpec(KernelProfile.LINUX_6_1));
        dev.dmmodel.lvm.VolumeGroup vgt = layout.volumeGroups().get(0);
        assertThat(vgt.logicalVolume("thin").orElseThrow().dmDevice()).isEqualTo("dm-4");
        assertThat(vgt.logicalVolume("pool").orElseThrow().dmDevice()).isEqualTo("dm-3");
        assertThat(vgt.logicalVolume("pool_tdata").orElseThrow().dmDevice()).isEqualTo("dm-1");
        assertThat(vgt.logicalVolume("lvol0_pmspare").orElseThrow().dmDevice()).isEmpty();
        dev.dmmodel.engine.Simulation sim = dev.dmmodel.engine.Simulation.of(layout);
        assertThat(sim.thinStats().get(0).poolTransactionId()).isEqualTo(1);
        // so LVM commands work on an imported host: a snapshot of the thin LV
        assertThat(sim.execute(dev.dmmodel.workload.Script.parse("lvcreate -s vgt/thin -n snap").commands().get(0),
                dev.dmmodel.trace.TraceListener.NONE).message()).isEqualTo("  Logical volume \"snap\" created.");
        assertThat(sim.thinStats().get(0).poolTransactionId()).isEqualTo(2);
    }

    // ================================================================================ hand-made snapshot

    @Test
    void minimalSnapshotCreatesDmDevicesAfterTheDevicesTheyUse() {
        Snapshot s = Snapshot.read(fixture("minimal"));
        assertThat(s.kernelRelease()).contains("6.12.117+deb12-amd64");
        assertThat(s.profile()).contains(KernelProfile.LINUX_6_12);
        // dm-0 ("top") uses dm-1 ("vg0-lv"): dm-1 must come first although its number is higher
        assertThat(s.dmDevices()).extracting(Snapshot.Device::kname).containsExactly("dm-1", "dm-0");
        assertThat(s.device("dm-1").orElseThrow().dmUuid())
                .contains("LVM-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB");
        assertThat(s.dmTable("dm-0").targets()).containsExactly(
                new LinearTarget(Sectors.ZERO, Sectors.of(1024), "dm-1", Sectors.ZERO),
                new ZeroTarget(Sectors.of(1024), Sectors.of(1024)),
                new ErrorTarget(Sectors.of(2048), Sectors.of(2048)));
        assertThat(s.recordedPeStarts()).containsExactly(Map.entry("/dev/sda1", 2048L));
        assertThat(s.recordedQueue("dm-1")).containsExactly(Map.entry("logical_block_size", "512"),
                Map.entry("max_sectors_kb", "1280"), Map.entry("minimum_io_size", "4096"));
        List<LayoutStep> steps = s.toLayoutSpec(KernelProfile.LINUX_6_12).steps();
        assertThat(steps).hasSize(4);
        assertThat(steps.get(2)).isEqualTo(new LayoutStep.DmCreate("vg0-lv",
                "LVM-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", s.dmTable("dm-1"),
                Optional.of("dm-1"), Optional.of(new DevNumber(253, 1))));
        assertThat(steps.get(3)).isInstanceOfSatisfying(LayoutStep.DmCreate.class,
                c -> assertThat(c.kernelName()).contains("dm-0"));
    }

    @Test
    void snapshotIsImmutable() {
        Snapshot s = Snapshot.read(fixture("minimal"));
        assertThatThrownBy(() -> s.devices().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.device("sda").orElseThrow().queue().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.recordedPeStarts().put("/dev/x", 1L))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.tableLines().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.dmsetupStatus().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void withoutKernelReleaseTheDefaultProfileIsUsed() {
        Path dir = copy("minimal");
        delete(dir.resolve("kernel-release"));
        Snapshot s = Snapshot.read(dir);
        assertThat(s.kernelRelease()).isEmpty();
        assertThat(s.profile()).isEmpty();
        assertThat(s.toLayoutSpec().profile()).isEqualTo(KernelProfile.defaultProfile());
    }

    @Test
    void optionalFilesMayBeAbsent() {
        Path dir = copy("minimal");
        delete(dir.resolve("dmsetup-status.txt"));
        delete(dir.resolve("block/sda/ro"));
        delete(dir.resolve("block/sda/sda1/alignment_offset"));
        delete(dir.resolve("block/dm-0/alignment_offset"));
        Snapshot s = Snapshot.read(dir);
        assertThat(s.dmsetupStatus()).isEmpty();
        assertThat(s.device("sda").orElseThrow().readOnly()).isEmpty();
        assertThat(s.recordedAlignmentOffset("sda1")).isEmpty();
        assertThat(s.recordedAlignmentOffset("dm-0")).isEmpty();
    }

    @Test
    void aMisalignedDiskIsMarkedMisaligned() {
        Path dir = copy("minimal");
        write(dir.resolve("block/sda/alignment_offset"), "-1\n");
        QueueLimits l = Snapshot.read(dir).diskSpec("sda").limits();
        assertThat(l.misaligned()).isTrue();
        assertThat(l.sysfsAlignmentOffset()).isEqualTo(-1);
    }

    @Test
    void thinPoolFeatureWordsAndExternalOrigins() {
        Path dir = copy("minimal");
        write(dir.resolve("dmsetup-table.txt"), "top: 0 4096 thin 253:1 7 8:1\n"
                + "vg0-lv: 0 1048576 thin-pool 8:1 8:0 128 32 2 skip_block_zeroing no_discard_passdown\n");
        Snapshot s = Snapshot.read(dir);
        assertThat(s.dmTable("dm-1").targets()).containsExactly(new ThinPoolTarget(Sectors.ZERO,
                Sectors.of(1048576), "sda1", "sda", 128, 32,
                Set.of(ThinPoolFeature.SKIP_BLOCK_ZEROING, ThinPoolFeature.NO_DISCARD_PASSDOWN)));
        assertThat(s.dmTable("dm-0").targets()).containsExactly(
                new ThinTarget(Sectors.ZERO, Sectors.of(4096), "dm-1", 7, Optional.of("sda1")));
    }

    @ParameterizedTest
    @CsvSource({
        "sda, SD", "sdaa, SD", "nvme0n1, NVME", "vda, VIRTIO_BLK", "loop0, LOOP", "nb512a, NULL_BLK",
        "nullb0, NULL_BLK", "nbd0, OTHER", "xvda, OTHER", "mmcblk0, OTHER"
    })
    void driverFromTheKernelName(String kname, DiskDriver driver) {
        assertThat(Snapshot.driverOf(kname)).isEqualTo(driver);
    }

    // ================================================================================ broken snapshots

    @Test
    void missingDevFile() {
        Path dir = fixture("broken-missing-dev");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/dev")
                + ": found no file; expected the device number of sda as major:minor");
    }

    @Test
    void dmDeviceWithoutTableLine() {
        Path dir = fixture("broken-no-table-line");
        assertThat(message(dir)).isEqualTo(dir.resolve("dmsetup-table.txt")
                + ": found no line for dm device dm-1 (vg0-lv); expected at least one line "
                + "'vg0-lv: <start> <length> <target> <args...>'");
    }

    @Test
    void tableLineReferencingAnUnknownDeviceNumber() {
        Path dir = fixture("broken-unknown-devnum");
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> Snapshot.read(dir));
        assertThat(t).isInstanceOf(SnapshotException.class).hasMessage(dir.resolve("dmsetup-table.txt")
                + " line 4: found device 8:99, which no block/ dev file records, in "
                + "'vg0-lv: 0 1048576 linear 8:99 2048'; expected the major:minor of a device or partition "
                + "recorded under block/");
        SnapshotException e = (SnapshotException) t;
        assertThat(e.file()).isEqualTo(dir.resolve("dmsetup-table.txt"));
        assertThat(e.line()).isEqualTo(4);
        assertThat(e.found()).startsWith("device 8:99");
        assertThat(e.expected()).isEqualTo("the major:minor of a device or partition recorded under block/");
    }

    @Test
    void anUnknownTargetTypeImportsAsAnOpaqueTarget() {
        // the third line of 'top' is a delay target over sda1 (8:1): kept, with sda1 as its device
        Snapshot s = Snapshot.read(fixture("broken-unknown-target"));
        dev.dmmodel.dm.DmTarget t = s.dmTable("dm-0").targets().get(2); // dm-0 is top
        assertThat(t).isInstanceOf(dev.dmmodel.dm.OpaqueTarget.class);
        assertThat(t.type()).isEqualTo("delay");
        assertThat(t.devices()).containsExactly("sda1");
    }

    @Test
    void badNumber() {
        Path dir = fixture("broken-bad-number");
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> Snapshot.read(dir));
        assertThat(t).isInstanceOf(SnapshotException.class).hasMessage(dir.resolve("block/sda/sda1/start")
                + ": found '2O48'; expected the start in 512-byte sectors relative to the disk, a non-negative "
                + "decimal number");
        assertThat(t.getCause()).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void missingSnapshotDirectory() {
        Path dir = tmp.resolve("nowhere");
        assertThat(message(dir)).isEqualTo(dir + ": found nothing; expected a snapshot directory holding block/");
    }

    @Test
    void missingBlockDirectory() {
        Path dir = copy("minimal");
        try (Stream<Path> s = Files.walk(dir.resolve("block"))) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(SnapshotTest::delete);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(message(dir)).isEqualTo(dir.resolve("block")
                + ": found no directory; expected a directory with one block/<kname>/ per block device");
    }

    @Test
    void missingSizeFile() {
        Path dir = copy("minimal");
        delete(dir.resolve("block/dm-0/size"));
        assertThat(message(dir)).isEqualTo(dir.resolve("block/dm-0/size")
                + ": found no file; expected the size in 512-byte sectors, a non-negative decimal number");
    }

    @Test
    void missingBottomDeviceQueueLimit() {
        Path dir = copy("minimal");
        delete(dir.resolve("block/sda/queue/optimal_io_size"));
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/optimal_io_size")
                + ": found no file; expected optimal_io_size of a bottom device, as sysfs prints it");
    }

    @Test
    void missingBottomDeviceQueueDirectory() {
        Path dir = copy("minimal");
        try (Stream<Path> s = Files.list(dir.resolve("block/sda/queue"))) {
            s.forEach(SnapshotTest::delete);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        delete(dir.resolve("block/sda/queue"));
        assertThat(message(dir)).startsWith(dir.resolve("block/sda/queue")
                + ": found no directory; expected the queue/ files of bottom device sda (logical_block_size, ");
    }

    @Test
    void dmDevicesQueueFilesAreNotRequired() {
        Path dir = copy("minimal");
        for (String f : List.of("logical_block_size", "max_sectors_kb")) {
            delete(dir.resolve("block/dm-0/queue/" + f));
        }
        assertThat(Snapshot.read(dir).recordedQueue("dm-0")).isEmpty();
    }

    @Test
    void badQueueValues() {
        Path dir = copy("minimal");
        write(dir.resolve("block/sda/queue/rotational"), "yes\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/rotational")
                + ": found 'yes'; expected rotational as sysfs prints it: 0 or 1");
        write(dir.resolve("block/sda/queue/rotational"), "0\n");
        write(dir.resolve("block/sda/queue/max_segments"), "\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/max_segments")
                + ": found an empty file; expected max_segments as sysfs prints it, a non-negative decimal number");
        write(dir.resolve("block/sda/queue/max_segments"), "99999999999999999999\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/max_segments")
                + ": found '99999999999999999999'; expected max_segments as sysfs prints it, a non-negative "
                + "decimal number");
        write(dir.resolve("block/sda/queue/max_segments"), "168\n");
        write(dir.resolve("block/sda/queue/discard_max_bytes"), "1000\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/discard_max_bytes")
                + ": found '1000'; expected discard_max_bytes as sysfs prints it, a multiple of 512 bytes");
        write(dir.resolve("block/sda/queue/discard_max_bytes"), "1073741824\n");
        write(dir.resolve("block/sda/queue/logical_block_size"), "520\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue")
                + ": found limits that are not valid (queue limit logicalBlockSize (520) must be a power of two "
                + "of at least 512 bytes); expected the queue limits of a real block device");
    }

    @Test
    void badDeviceNumber() {
        Path dir = copy("minimal");
        write(dir.resolve("block/sda/sda1/dev"), "8-1\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/sda1/dev")
                + ": found '8-1'; expected the device number of sda1 as major:minor");
    }

    @Test
    void duplicateDeviceNumber() {
        Path dir = copy("minimal");
        write(dir.resolve("block/sda/sda1/dev"), "8:0\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/sda1/dev") + ": found 8:0, already the device "
                + "number of sda (" + dir.resolve("block/sda/dev") + "); expected a device number used by one "
                + "device only");
    }

    @Test
    void partitionOfADmDevice() {
        Path dir = copy("minimal");
        Path p = dir.resolve("block/dm-0/dm-0p1");
        write(p.resolve("dev"), "259:0\n");
        write(p.resolve("partition"), "1\n");
        write(p.resolve("start"), "2048\n");
        write(p.resolve("size"), "2048\n");
        assertThat(message(dir)).isEqualTo(p + ": found a partition of dm device dm-0; expected partitions of whole "
                + "disks only (the kernel does not scan dm devices for partitions)");
    }

    @Test
    void partitionWithoutStart() {
        Path dir = copy("minimal");
        delete(dir.resolve("block/sda/sda1/start"));
        assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/sda1/start") + ": found no file; expected the "
                + "start in 512-byte sectors relative to the disk, a non-negative decimal number");
    }

    @Test
    void dmDeviceWithoutName() {
        Path dir = copy("minimal");
        delete(dir.resolve("block/dm-0/dm/name"));
        assertThat(message(dir)).isEqualTo(dir.resolve("block/dm-0/dm/name")
                + ": found no file; expected the device-mapper name of dm-0");
    }

    @Test
    void missingTableFile() {
        Path dir = copy("minimal");
        delete(dir.resolve("dmsetup-table.txt"));
        assertThat(message(dir)).isEqualTo(dir.resolve("dmsetup-table.txt")
                + ": found no file; expected the output of dmsetup table, with the table of dm-0 (top), dm-1 (vg0-lv)");
    }

    @Test
    void tableLineOfAnUnknownDmName() {
        Path dir = copy("minimal");
        write(dir.resolve("dmsetup-table.txt"), "top: 0 4096 zero\nvg0-lv: 0 1048576 zero\nghost: 0 8 zero\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("dmsetup-table.txt")
                + " line 3: found dm name 'ghost', which no block/*/dm/name file names, in 'ghost: 0 8 zero'; "
                + "expected a dm device recorded under block/ (known dm names: top, vg0-lv)");
    }

    @Test
    void malformedTableLines() {
        Path dir = copy("minimal");
        Path table = dir.resolve("dmsetup-table.txt");
        write(table, "top 0 4096 zero\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found 'top 0 4096 zero'; expected "
                + "'<dm name>: <start> <length> <target> <args...>'");
        write(table, "top: 0 4096\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found 'top: 0 4096'; expected "
                + "'<dm name>: <start> <length> <target> <args...>'");
        write(table, "\ntop: zero 4096 zero\n");
        assertThat(message(dir)).isEqualTo(table + " line 2: found 'zero' in 'top: zero 4096 zero'; expected "
                + "the target's start sector, a non-negative decimal number");
        write(table, "top: 0 4096 linear 253:1\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found 1 argument(s) in 'top: 0 4096 linear 253:1'; "
                + "expected 'linear <major:minor> <offset>'");
        write(table, "top: 0 4096 linear 253:1 -5\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found '-5' in 'top: 0 4096 linear 253:1 -5'; "
                + "expected the offset in sectors, a non-negative decimal number");
        write(table, "top: 0 4096 linear sda1 0\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found device 'sda1' in 'top: 0 4096 linear sda1 0'; "
                + "expected a device as major:minor");
        write(table, "top: 0 4096 striped 2 128 8:1 0\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found 4 argument(s) in "
                + "'top: 0 4096 striped 2 128 8:1 0'; expected "
                + "'striped <#stripes> <chunk sectors> (<major:minor> <offset>)...'");
        write(table, "top: 0 4095 striped 2 128 8:1 0 253:1 0\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found a striped target that is not valid (striped "
                + "target: length (4095 sectors) is not divisible by the number of stripes (2)) in "
                + "'top: 0 4095 striped 2 128 8:1 0 253:1 0'; expected a target the kernel accepts");
        write(table, "top: 0 4096 thin-pool 8:1 8:0 128 0 1 no_such_feature\n");
        assertThat(message(dir)).isEqualTo(table + " line 1: found thin-pool feature 'no_such_feature' in "
                + "'top: 0 4096 thin-pool 8:1 8:0 128 0 1 no_such_feature'; expected one of skip_block_zeroing, "
                + "ignore_discard, no_discard_passdown, read_only, error_if_no_space");
        write(table, "top: 0 4096 thin-pool 8:1 8:0 128 0 2 skip_block_zeroing\n");
        assertThat(message(dir)).startsWith(table + " line 1: found 6 argument(s) in ");
    }

    @Test
    void tableWithAGap() {
        Path dir = copy("minimal");
        write(dir.resolve("dmsetup-table.txt"), "top: 0 1024 zero\ntop: 2048 2048 error\nvg0-lv: 0 1048576 zero\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("dmsetup-table.txt") + " line 1: found a table for top "
                + "that is not valid (dm table: Gap in table: target error starts at sector 2048, expected 1024); "
                + "expected the lines of one device back to back from sector 0");
    }

    @Test
    void tableSizeDiffersFromTheSizeFile() {
        Path dir = copy("minimal");
        write(dir.resolve("dmsetup-table.txt"), "top: 0 4000 zero\nvg0-lv: 0 1048576 zero\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("block/dm-0/size") + ": found 4096 sectors; expected the "
                + "size of the table of top in dmsetup-table.txt, 4000 sectors");
    }

    @Test
    void dmDevicesUsingEachOther() {
        Path dir = copy("minimal");
        write(dir.resolve("dmsetup-table.txt"), "top: 0 4096 linear 253:1 0\nvg0-lv: 0 1048576 linear 253:0 0\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("dmsetup-table.txt") + ": found dm devices that use each "
                + "other in a cycle: dm-0 (top), dm-1 (vg0-lv); expected tables in which every dm device uses only "
                + "devices that can be created before it");
    }

    @Test
    void badKernelRelease() {
        Path dir = copy("minimal");
        write(dir.resolve("kernel-release"), "linux\n");
        assertThat(message(dir)).isEqualTo(dir.resolve("kernel-release")
                + ": found 'linux'; expected the output of uname -r such as 6.1.0-57-amd64");
    }

    @Test
    void lvmMetadataWithoutPeStart() {
        Path dir = copy("minimal");
        Path vg = dir.resolve("lvm/vg0.vg");
        write(vg, "vg0 {\nphysical_volumes {\npv0 {\ndevice = \"/dev/sda1\"\npe_count = 3\n}\n}\n}\n");
        assertThat(message(dir)).isEqualTo(vg + ": found pv0 without pe_start; expected pe_start = <sectors> in "
                + "every pvN block");
        write(vg, "vg0 {\nphysical_volumes {\npv0 {\ndevice = \"/dev/sda1\"\npe_start = 20x48\n}\n}\n}\n");
        assertThat(message(dir)).isEqualTo(vg + ": found '20x48'; expected pe_start of pv0, a non-negative "
                + "decimal number");
    }

    // ================================================================================ sysfs mapping

    @Test
    void sysfsAttributesInTheirFixedOrder() {
        QueueLimits l = QueueLimits.builder().logicalBlockSize(4096).physicalBlockSize(4096).ioMin(65536)
                .ioOpt(458752).alignmentOffset(512).misaligned(true).maxSectors(2560).maxHwSectors(65534)
                .maxSegments(254).maxSegmentSize(65536).chunkSectors(128).discardGranularity(4096)
                .maxDiscardSectors(33554432).maxHwDiscardSectors(4294967295L).maxWriteZeroesSectors(4194303)
                .virtBoundaryMask(4095).dmaAlignment(3).rotational(true).readAheadKb(896).build();
        Map<String, Long> m = SysfsQueueAttributes.of(l);
        assertThat(m.keySet()).containsExactlyElementsOf(SysfsQueueAttributes.NAMES);
        assertThat(m.values()).containsExactly(4096L, 4096L, 65536L, 458752L, -1L, 1280L, 32767L, 254L, 65536L,
                128L, 4096L, 17179869184L, 2199023255040L, 2147483136L, 4095L, 3L, 896L, 1L, 4096L);
        assertThatThrownBy(() -> m.put("x", 1L)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void conformanceDifferencesListEveryField() {
        Snapshot s = Snapshot.read(fixture("minimal"));
        Map<String, Long> computed = SysfsQueueAttributes.of(s.diskSpec("sda").limits());
        assertThat(LimitsConformanceTest.differences(computed, s.recordedQueue("sda"),
                s.recordedAlignmentOffset("sda"))).isEmpty();
        assertThat(LimitsConformanceTest.differences(computed, Map.of("logical_block_size", "4096",
                "physical_block_size", "bad"), OptionalLong.of(0)))
                .hasSize(SysfsQueueAttributes.NAMES.size() - 1)
                .startsWith("logical_block_size: expected 4096, computed 512",
                        "physical_block_size: expected 'bad' (not a number), computed 4096",
                        "minimum_io_size: expected <not recorded>, computed 4096");
    }
}
