package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.io.FormatException;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.io.HostSnapshot.FilledAttribute;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Script;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots of kernels that show fewer queue files than today's, and of newer ones that show more: a missing
 * attribute the host's kernel did not have is filled with what that kernel worked with and noted
 * ({@link Snapshot#filledIn()}, {@link HostSnapshot#filledIn()}), a missing attribute it did have is still an
 * error, and an attribute the reader does not know is ignored.
 *
 * <p>Fixtures: {@code rhel7-3.10-linear} is hand-made (a RHEL 7 disk with exactly the queue files Linux 3.10's
 * {@code blk-sysfs.c} has, and a dm-linear on it); {@code linux-5.10-mr-raw} and {@code linux-7.2-mr-raw} are the
 * recorded {@code mr-raw-before-mkfs} snapshots of {@code shared/kernel-traces-5.10} and {@code -7.2}.
 */
class OldKernelSnapshotTest {

    private static final String RHEL7 = "rhel7-3.10-linear";
    private static final String LINUX_5_10 = "linux-5.10-mr-raw";
    private static final String LINUX_7_2 = "linux-7.2-mr-raw";

    @TempDir
    Path tmp;

    /** A writable copy of a fixture, to take a file out of it. */
    private Path copy(String name) {
        return SnapshotTest.copyFixture(name, tmp);
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String message(Path dir) {
        Throwable t = catchThrowable(() -> Snapshot.read(dir));
        assertThat(t).isInstanceOf(SnapshotException.class);
        return t.getMessage();
    }

    // ================================================================================ Linux 3.10 (RHEL 7)

    @Nested
    class Rhel7 {
        final Snapshot s = Snapshot.read(SnapshotTest.fixture(RHEL7));

        @Test
        void fillsTheSixAttributes310DoesNotShowAndSaysWhy() {
            assertThat(s.kernelRelease()).contains("3.10.0-1160.el7.x86_64");
            assertThat(s.filledIn()).extracting(FilledAttribute::message).containsExactly(
                    "sda: queue/virt_boundary_mask not in the snapshot (Linux 3.10 has no virt boundary before 4.3"
                            + " and no such file before 5.13); using 0",
                    "sda: queue/chunk_sectors not in the snapshot (Linux 3.10 has no chunk_sectors limit before 3.16"
                            + " and no such file before 4.10); using 0",
                    // the recorded discard_max_bytes, 65535 sectors × 512
                    "sda: queue/discard_max_hw_bytes not in the snapshot (Linux 3.10 has no separate hardware discard"
                            + " limit and no such file before 4.3: discard_max_bytes is the driver's limit);"
                            + " using 33553920",
                    "sda: queue/write_zeroes_max_bytes not in the snapshot (Linux 3.10 has no REQ_OP_WRITE_ZEROES and"
                            + " no such file before 4.10); using 0",
                    "sda: queue/dma_alignment not in the snapshot (Linux 3.10 has the limit but no such file before"
                            + " 6.0; 511 is the block layer's default mask (blk_queue_dma_alignment in"
                            + " blk_queue_make_request or blk_alloc_queue), and a driver's own, such as the SCSI"
                            + " midlayer's 3, is not recorded); using 511",
                    "sda: queue/max_discard_segments not in the snapshot (Linux 3.10 has no multi-range discard and no"
                            + " such file before 4.11: a discard request is one range); using 1");
            assertThat(s.filledIn()).extracting(FilledAttribute::device).containsOnly("sda");
        }

        @Test
        void theDiskHasTheRecordedLimitsAndTheFilledOnes() {
            QueueLimits l = s.diskSpec("sda").limits();
            // recorded: max_sectors_kb 512 → 1024 sectors, max_hw_sectors_kb 32767 → 65534, 64 segments
            assertThat(l.maxSectors()).isEqualTo(1024);
            assertThat(l.maxHwSectors()).isEqualTo(65534);
            assertThat(l.maxSegments()).isEqualTo(64);
            assertThat(l.physicalBlockSize()).isEqualTo(4096);
            assertThat(l.maxDiscardSectors()).isEqualTo(65535);     // 33553920 / 512
            // filled: the hardware discard limit is the one discard limit 3.10 had
            assertThat(l.maxHwDiscardSectors()).isEqualTo(65535);
            assertThat(l.virtBoundaryMask()).isZero();
            assertThat(l.chunkSectors()).isZero();
            assertThat(l.maxWriteZeroesSectors()).isZero();
            assertThat(l.dmaAlignment()).isEqualTo(511);
            assertThat(l.maxDiscardSegments()).isEqualTo(1);
        }

        @Test
        void theRecordedQueueKeepsOnlyWhatWasRecorded() {
            assertThat(s.recordedQueue("sda")).doesNotContainKeys("virt_boundary_mask", "chunk_sectors",
                    "discard_max_hw_bytes", "write_zeroes_max_bytes", "dma_alignment", "max_discard_segments")
                    .containsEntry("write_same_max_bytes", "0").containsEntry("discard_max_bytes", "33553920");
        }

        @Test
        void thePublicSnapshotCarriesTheNotes() {
            HostSnapshot host = HostSnapshot.read(SnapshotTest.fixture(RHEL7));
            assertThat(host.filledIn()).isEqualTo(s.filledIn());
            assertThat(host.filledIn().get(2)).isEqualTo(new FilledAttribute("sda", "discard_max_hw_bytes", 33553920,
                    "Linux 3.10 has no separate hardware discard limit and no such file before 4.3: discard_max_bytes"
                            + " is the driver's limit"));
            assertThat(host.profile()).contains(KernelProfile.LINUX_3_10);
        }

        /**
         * {@code dd bs=1M count=1 oflag=direct} to the dm-linear, under 3.10's rules: bios are built for the top
         * queue, dm-0's, whose limits are the disk's (dm-linear stacks them unchanged): max_sectors 1024, max_segments
         * 64. {@code bio_get_nr_vecs} = min(max_segments 64, max_sectors 1024 / 8 + 1 = 129, BIO_MAX_PAGES 256) = 64
         * vectors, so {@code bio_add_page} stops each bio at 64 pages = 512 sectors, before max_sectors: the
         * 2048-sector write goes as four 512-sector bios, never split below, each remapped to sda 2048 sectors on.
         */
        @Test
        void aDirectWriteIsBuiltAsBiosOf64PagesForTheTopQueue() {
            Layout layout = Layout.of(HostSnapshot.read(SnapshotTest.fixture(RHEL7)).toLayoutSpec());
            assertThat(layout.profile()).isEqualTo(KernelProfile.LINUX_3_10);
            assertThat(layout.limits("dm-0").maxSectors()).isEqualTo(1024);
            assertThat(layout.limits("dm-0").maxSegments()).isEqualTo(64);
            Simulation sim = Simulation.of(layout);
            List<TraceEvent> events = new ArrayList<>();
            List<CommandResult> results = sim.run(Script.parse("dd if=/dev/zero of=/dev/mapper/lin bs=1M count=1"
                    + " oflag=direct"), events::add);
            assertThat(results).allMatch(CommandResult::ok);

            assertThat(of(events, "dm-0", EventType.BIO_QUEUE)).containsExactly("0+512", "512+512", "1024+512",
                    "1536+512");
            assertThat(of(events, "sda", EventType.BIO_REMAP)).containsExactly("2048+512", "2560+512", "3072+512",
                    "3584+512");
            assertThat(of(events, "sda", EventType.SPLIT)).isEmpty();
            assertThat(of(events, "dm-0", EventType.SPLIT)).isEmpty();
        }

        @Test
        void withoutAKernelReleaseTheAttributesAreFilledAndTheReleaseIsUnknown() {
            Path dir = copy(RHEL7);
            delete(dir.resolve("kernel-release"));
            Snapshot unknown = Snapshot.read(dir);
            assertThat(unknown.kernelRelease()).isEmpty();
            assertThat(unknown.filledIn()).extracting(FilledAttribute::attribute).containsExactly("virt_boundary_mask",
                    "chunk_sectors", "discard_max_hw_bytes", "write_zeroes_max_bytes", "dma_alignment",
                    "max_discard_segments");
            assertThat(unknown.filledIn().get(0).message()).isEqualTo("sda: queue/virt_boundary_mask not in the"
                    + " snapshot (the snapshot has no kernel-release, so its kernel is unknown; sysfs has this file"
                    + " from 5.13 on; 0 is the block layer's default (blk_set_default_limits), and a driver's own"
                    + " mask, such as NVMe's 4095, is not recorded); using 0");
            assertThat(unknown.filledIn().get(2).value()).isEqualTo(33553920);
            assertThat(unknown.diskSpec("sda").limits()).isEqualTo(s.diskSpec("sda").limits());
        }

        @Test
        void aMissingAttribute310HadIsStillAnError() {
            Path dir = copy(RHEL7);
            delete(dir.resolve("block/sda/queue/max_segments"));
            assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/max_segments")
                    + ": found no file; expected max_segments of a bottom device, as sysfs prints it");
        }

        @Test
        void theHardwareDiscardLimitNeedsTheRecordedDiscardLimit() {
            Path dir = copy(RHEL7);
            delete(dir.resolve("block/sda/queue/discard_max_bytes"));
            assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/discard_max_bytes")
                    + ": found no file; expected discard_max_bytes of a bottom device, as sysfs prints it");
        }
    }

    // ======================================================================== an NVMe disk before 5.13

    /**
     * The RHEL 7 fixture with its disk as an NVMe namespace ({@code nvme0n1}). No kernel before 5.13 shows
     * {@code queue/virt_boundary_mask}, but from 4.3 the NVMe driver sets one (nvme_set_queue_limits:
     * NVME_CTRL_PAGE_SIZE 4096 - 1 = 4095), so the import fills the driver's mask, not the block layer's 0.
     */
    @Nested
    class NvmeBeforeTheFile {

        private Path nvme(String release) {
            Path dir = copy(RHEL7);
            try {
                Files.move(dir.resolve("block/sda"), dir.resolve("block/nvme0n1"));
                Files.writeString(dir.resolve("kernel-release"), release + "\n");
                // 4.3 and later show the hardware discard limit; the fixture's 3.10 disk does not
                Files.copy(dir.resolve("block/nvme0n1/queue/discard_max_bytes"),
                        dir.resolve("block/nvme0n1/queue/discard_max_hw_bytes"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return dir;
        }

        @Test
        void onDebian9TheDriversMaskIsFilledAndStackedOnTheLinearDevice() {
            HostSnapshot host = HostSnapshot.read(nvme("4.9.0-19-amd64"));
            FilledAttribute vb = host.filledIn().get(0);
            assertThat(vb.device()).isEqualTo("nvme0n1");
            assertThat(vb.attribute()).isEqualTo("virt_boundary_mask");
            assertThat(vb.value()).isEqualTo(4095);
            assertThat(vb.message()).isEqualTo("nvme0n1: queue/virt_boundary_mask not in the snapshot (Linux 4.9"
                    + " shows no such file before 5.13; the NVMe driver sets a virt boundary of its controller page"
                    + " less one (nvme_set_queue_limits: NVME_CTRL_PAGE_SIZE - 1), as PCIe and RDMA controllers do;"
                    + " an NVMe over TCP or FC namespace has none); using 4095");
            // blk_stack_limits takes the larger mask of the devices below (max_not_zero): dm-linear has 4095 too
            Layout layout = Layout.of(host.toLayoutSpec());
            assertThat(layout.limits("dm-0").virtBoundaryMask()).isEqualTo(4095);
        }

        @Test
        void before43TheDriverHadNoMaskToFill() {
            // 3.10's NVMe driver predates the virt boundary (4.3): the block layer's 0, with the ordinary note
            Snapshot s = Snapshot.read(copyWithRelease(nvme("4.9.0-19-amd64"), "3.10.0-1160.el7.x86_64"));
            FilledAttribute vb = s.filledIn().get(0);
            assertThat(vb.attribute()).isEqualTo("virt_boundary_mask");
            assertThat(vb.value()).isZero();
            assertThat(vb.message()).isEqualTo("nvme0n1: queue/virt_boundary_mask not in the snapshot (Linux 3.10 has"
                    + " no virt boundary before 4.3 and no such file before 5.13); using 0");
        }

        @Test
        void aScsiDiskOfTheSameKernelKeepsTheBlockLayersDefault() {
            Path dir = copy(RHEL7);
            try {
                Files.writeString(dir.resolve("kernel-release"), "4.9.0-19-amd64\n");
                Files.copy(dir.resolve("block/sda/queue/discard_max_bytes"),
                        dir.resolve("block/sda/queue/discard_max_hw_bytes"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            FilledAttribute vb = Snapshot.read(dir).filledIn().get(0);
            assertThat(vb.device()).isEqualTo("sda");
            assertThat(vb.value()).isZero();
        }

        private Path copyWithRelease(Path dir, String release) {
            try {
                Files.writeString(dir.resolve("kernel-release"), release + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return dir;
        }
    }

    // ================================================================================ Linux 5.10

    @Nested
    class Linux510 {
        final Snapshot s = Snapshot.read(SnapshotTest.fixture(LINUX_5_10));

        @Test
        void fillsVirtBoundaryMaskAndDmaAlignmentAndNotesThem() {
            assertThat(s.kernelRelease()).contains("5.10.0-32-amd64");
            assertThat(s.filledIn()).extracting(FilledAttribute::message).containsExactly(
                    "sda: queue/virt_boundary_mask not in the snapshot (Linux 5.10 has the limit since 4.3 but no such"
                            + " file before 5.13; 0 is the block layer's default (blk_set_default_limits), and a"
                            + " driver's own mask, such as NVMe's 4095, is not recorded); using 0",
                    "sda: queue/dma_alignment not in the snapshot (Linux 5.10 has the limit but no such file before"
                            + " 6.0; 511 is the block layer's default mask (blk_queue_dma_alignment in"
                            + " blk_queue_make_request or blk_alloc_queue), and a driver's own, such as the SCSI"
                            + " midlayer's 3, is not recorded); using 511");
        }

        @Test
        void theOtherLimitsAreTheRecordedOnes() {
            QueueLimits l = s.diskSpec("sda").limits();
            assertThat(l.virtBoundaryMask()).isZero();
            assertThat(l.dmaAlignment()).isEqualTo(511);
            // 5.10 shows these, so they are read: 1 GiB of discard (2097152 sectors), write-zeroes 2147483136 bytes
            assertThat(l.maxHwDiscardSectors()).isEqualTo(2097152);
            assertThat(l.maxWriteZeroesSectors()).isEqualTo(4194303);
            assertThat(l.maxSegments()).isEqualTo(254);
            assertThat(l.maxSectors()).isEqualTo(2560);              // max_sectors_kb 1280
        }

        @Test
        void aMissingAttribute510HasIsStillTheSpecificError() {
            Path dir = copy(LINUX_5_10);
            delete(dir.resolve("block/sda/queue/discard_max_hw_bytes"));
            // discard_max_hw_bytes is in sysfs since 4.3, so a 5.10 snapshot without it is incomplete
            assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/discard_max_hw_bytes")
                    + ": found no file; expected discard_max_hw_bytes of a bottom device, as sysfs prints it"
                    + " (Linux 5.10 has it since 4.3)");
        }

        @Test
        void thePublicApiReportsTheError() {
            Path dir = copy(LINUX_5_10);
            delete(dir.resolve("block/sda/queue/chunk_sectors"));
            Throwable t = catchThrowable(() -> HostSnapshot.read(dir));
            assertThat(t).isInstanceOf(FormatException.class).hasMessage(dir.resolve("block/sda/queue/chunk_sectors")
                    + ": found no file; expected chunk_sectors of a bottom device, as sysfs prints it"
                    + " (Linux 5.10 has it since 4.10)");
        }
    }

    // ================================================================================ Linux 7.2

    @Nested
    class Linux72 {
        final Snapshot s = Snapshot.read(SnapshotTest.fixture(LINUX_7_2));

        /** 7.2 shows attributes the reader does not know; they are kept as recorded and play no part. */
        @Test
        void unknownAttributesAreIgnored() {
            assertThat(s.kernelRelease()).contains("7.2.13+deb14-amd64");
            assertThat(s.recordedQueue("sda")).containsKeys("async_depth", "iostats_passthrough", "max_write_streams",
                    "write_stream_granularity", "write_zeroes_unmap_max_bytes", "write_zeroes_unmap_max_hw_bytes",
                    "atomic_write_max_bytes", "atomic_write_unit_max_bytes");
            assertThat(s.filledIn()).isEmpty();
            QueueLimits l = s.diskSpec("sda").limits();
            assertThat(l.maxSectors()).isEqualTo(2 * Long.parseLong(s.recordedQueue("sda").get("max_sectors_kb")));
            assertThat(l.dmaAlignment()).isEqualTo(Long.parseLong(s.recordedQueue("sda").get("dma_alignment")));
            assertThat(HostSnapshot.read(SnapshotTest.fixture(LINUX_7_2)).filledIn()).isEmpty();
        }

        @Test
        void anUnknownAttributeWithAnyTextIsStillIgnored() throws IOException {
            Path dir = copy(LINUX_7_2);
            Files.writeString(dir.resolve("block/sda/queue/write_stream_granularity"), "not a number\n");
            Files.writeString(dir.resolve("block/sda/queue/a_future_attribute"), "[x] y\n");
            Snapshot read = Snapshot.read(dir);
            // the copy has the fixture's folder name, so even the description is the same
            assertThat(read.diskSpec("sda")).isEqualTo(s.diskSpec("sda"));
        }

        @Test
        void aMissingAttributeOfANewKernelIsAnError() {
            Path dir = copy(LINUX_7_2);
            delete(dir.resolve("block/sda/queue/virt_boundary_mask"));
            assertThat(message(dir)).isEqualTo(dir.resolve("block/sda/queue/virt_boundary_mask")
                    + ": found no file; expected virt_boundary_mask of a bottom device, as sysfs prints it"
                    + " (Linux 7.2 has it since 5.13)");
        }

        @Test
        void aMissingMaxDiscardSegmentsIsFilledWithANoteOnEveryKernel() {
            Path dir = copy(LINUX_7_2);
            delete(dir.resolve("block/sda/queue/max_discard_segments"));
            assertThat(Snapshot.read(dir).filledIn()).extracting(FilledAttribute::message).containsExactly(
                    "sda: queue/max_discard_segments not in the snapshot (Linux 7.2 has this file since 4.11, yet the"
                            + " snapshot lacks it; 1 is the block layer's default (blk_set_default_limits)); using 1");
        }
    }

    private static List<String> of(List<TraceEvent> events, String device, EventType type) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == type)
                .map(e -> e.sector() + "+" + e.nrSectors()).toList();
    }
}
