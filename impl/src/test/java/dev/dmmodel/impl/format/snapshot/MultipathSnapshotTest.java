package dev.dmmodel.impl.format.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hosts with a dm-multipath device import as ones the model has: the snapshots of {@code mpath-rr-w4k-x8}
 * (request-based round-robin over two scsi_debug paths, sda = 8:0 and sdb = 8:16), {@code mpath-rr-bio-w1M-at0}
 * ({@code queue_mode bio}) and {@code mpath-scsi-st-w4k-x8} (service-time over two qemu scsi-hd paths, the table
 * naming 8:16 = sdb first), of kernel-traces-6.12-stacks. Each run starts from the table as loaded.
 */
class MultipathSnapshotTest {

    private static Layout layout(String fixture) {
        return Layout.of(HostSnapshot.read(SnapshotTest.fixture(fixture)).toLayoutSpec());
    }

    private static List<TraceEvent> run(Layout layout, String script) {
        List<TraceEvent> events = new ArrayList<>();
        List<CommandResult> results = Simulation.of(layout).run(Script.parse(script), events::add);
        assertThat(results).allMatch(CommandResult::ok);
        return events;
    }

    private static String row(TraceEvent e) {
        return e.device() + " " + e.type().tracepoint() + " " + e.rwbs() + " " + e.sector() + "+" + e.nrSectors()
                + (e.extra().isEmpty() ? "" : " " + e.extra());
    }

    @Test
    void theRequestBasedTableImportsAndPrintsBackAsRecorded() {
        Layout l = layout("mpath-rr-scsi-debug");
        MultipathTarget m = (MultipathTarget) l.dmDevices().get(0).table().targets().get(0);
        assertThat(m.queueMode()).isEqualTo(MultipathTarget.QueueMode.REQUEST_BASED);
        assertThat(m.devices()).containsExactly("sda", "sdb");
        // the recorded dmsetup-table.txt line, as multipath_status prints it
        assertThat(l.dmsetupTable()).contains("mp: 0 524288 multipath 0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1");
        assertThat(l.findings()).noneMatch(f -> f.type() == FindingType.DM_TARGET_NOT_MODELLED
                || f.type() == FindingType.MULTIPATH_PATH_LIMITS_DIFFER);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"mpath-rr-scsi-debug", "mpath-rr-bio-scsi-debug",
        "mpath-st-scsi-hd"})
    void statusAfterTheTableIsLoadedIsTheRecordedOne(String fixture) throws java.io.IOException {
        // multipath_status (STATUSTYPE_INFO) of the table as loaded, against the snapshot's dmsetup-status.txt
        // (taken before the setup's first I/O): QUEUE_IO still 1, the group E (not current yet)
        Layout l = layout(fixture);
        dev.dmmodel.device.DmDevice dm = l.dmDevices().get(0);
        MultipathTarget m = (MultipathTarget) dm.table().targets().get(0);
        String status = dev.dmmodel.impl.dm.TargetModel.of(m, n -> l.device(n).size().count())
                .status(n -> l.device(n).devNumber().major() + ":" + l.device(n).devNumber().minor());
        String recorded = java.nio.file.Files.readString(SnapshotTest.fixture(fixture).resolve("dmsetup-status.txt"))
                .strip();
        assertThat("mp: 0 524288 multipath " + status).isEqualTo(recorded);
    }

    @Test
    void theBioBasedTablePrintsRetainAttachedHwHandler() {
        // the setup asked for "2 queue_mode bio"; alloc_multipath_stage2 sets retain_attached_hw_handler, so the
        // kernel prints three feature words (recorded dmsetup-table.txt)
        Layout l = layout("mpath-rr-bio-scsi-debug");
        assertThat(l.dmsetupTable()).contains("mp: 0 524288 multipath 3 retain_attached_hw_handler queue_mode bio"
                + " 0 1 1 round-robin 0 2 1 8:0 1 8:16 1");
    }

    @Test
    void limitsAreThePathsStackedAsRecorded() {
        // README: scsi_debug paths: io_opt 524288, max_segments 2048, write_zeroes 33553920 bytes, no discard;
        // max_sectors_kb 1280; dm-0's dma_alignment is dm's default 511 (the paths' 3 is smaller)
        QueueLimits dm = layout("mpath-rr-scsi-debug").limits("mp");
        assertThat(dm.ioOpt()).isEqualTo(524288);
        assertThat(dm.maxSegments()).isEqualTo(2048);
        assertThat(dm.maxWriteZeroesSectors()).isEqualTo(33553920 / 512);
        assertThat(dm.maxDiscardSectors()).isZero();
        assertThat(dm.maxSectorsKb()).isEqualTo(1280);
        assertThat(dm.dmaAlignment()).isEqualTo(511);
        // qemu scsi-hd paths: max_hw_sectors_kb 32767, max_segments 254, max_segment_size 65536, discard 4096 /
        // 1 GiB, write_zeroes 2147483136, io_opt 0
        QueueLimits hd = layout("mpath-st-scsi-hd").limits("mp");
        assertThat(hd.maxHwSectorsKb()).isEqualTo(32767);
        assertThat(hd.maxSegments()).isEqualTo(254);
        assertThat(hd.maxSegmentSize()).isEqualTo(65536);
        assertThat(hd.discardGranularity()).isEqualTo(4096);
        assertThat(hd.maxDiscardSectors()).isEqualTo(1073741824L / 512);
        assertThat(hd.maxWriteZeroesSectors()).isEqualTo(2147483136L / 512);
        assertThat(hd.ioOpt()).isZero();
    }

    @Test
    void aRequestIsMadeAtTheMultipathDeviceAndClonedOntoOnePath() {
        // mpath-rr-w4k-x8's first I/O (recorded seq 0-8, except that a fresh table starts at its first path sda,
        // where the recording's setup had already used it once): the bio becomes a request at dm-0 (mq-deadline:
        // getrq, insert, issue), map_request clones it onto the path (block_rq_remap from dm-0 and the original's
        // sector, issued directly: no insert, no bio at the path); the path completes, then end_clone_bio updates
        // the original by all 8 sectors and dm_end_request's blk_mq_end_request finds 0 left
        List<TraceEvent> events = run(layout("mpath-rr-scsi-debug"),
                "dd if=/dev/zero of=/dev/mapper/mp bs=4k count=1 oflag=direct\n");
        assertThat(events).extracting(MultipathSnapshotTest::row).containsExactly(
                "dm-0 block_bio_queue WS 0+8",
                "dm-0 block_getrq WS 0+8",
                "dm-0 block_rq_insert WS 0+8 bytes=4096",
                "dm-0 block_rq_issue WS 0+8 bytes=4096",
                "sda block_rq_remap WS 0+8 from=dm-0:0",
                "sda block_rq_issue WS 0+8 bytes=4096",
                "sda block_rq_complete WS 0+8 err=0",
                "dm-0 block_rq_complete WS 0+8 err=0",
                "dm-0 block_rq_complete WS 0+0 err=0");
    }

    @Test
    void roundRobinAlternatesAndA1MiBWriteIsOneRequestOnOnePath() {
        // 1 MiB = 2048 sectors: one request at dm-0 and one clone (max_sectors_kb 1280 >= 1024); then 8 x 4 KiB
        // continue the turn: sdb, sda, sdb, ... (rr_select_path moves the chosen path to the tail)
        List<TraceEvent> events = run(layout("mpath-rr-scsi-debug"), """
                dd if=/dev/zero of=/dev/mapper/mp bs=1M count=1 seek=0 oflag=direct,seek_bytes
                dd if=/dev/zero of=/dev/mapper/mp bs=4k count=8 oflag=direct
                """);
        assertThat(events).filteredOn(e -> e.type() == EventType.RQ_REMAP).extracting(MultipathSnapshotTest::row)
                .containsExactly("sda block_rq_remap WS 0+2048 from=dm-0:0", "sdb block_rq_remap WS 0+8 from=dm-0:0",
                        "sda block_rq_remap WS 8+8 from=dm-0:8", "sdb block_rq_remap WS 16+8 from=dm-0:16",
                        "sda block_rq_remap WS 24+8 from=dm-0:24", "sdb block_rq_remap WS 32+8 from=dm-0:32",
                        "sda block_rq_remap WS 40+8 from=dm-0:40", "sdb block_rq_remap WS 48+8 from=dm-0:48",
                        "sda block_rq_remap WS 56+8 from=dm-0:56");
        assertThat(events).filteredOn(e -> !e.device().equals("dm-0") && e.type() == EventType.BIO_QUEUE).isEmpty();
    }

    @Test
    void bioModeRemapsEachBioToTheNextPath() {
        // mpath-rr-bio-w1M-at0 (recorded): dm-0 bio_queue, sda bio_remap 0+2048 from dm-0:0, the request at sda;
        // the next bio goes to sdb
        List<TraceEvent> events = run(layout("mpath-rr-bio-scsi-debug"), """
                dd if=/dev/zero of=/dev/mapper/mp bs=1M count=1 seek=0 oflag=direct,seek_bytes
                dd if=/dev/mapper/mp of=/dev/null bs=4k count=2 iflag=direct
                """);
        assertThat(events).filteredOn(e -> e.type() == EventType.BIO_REMAP).extracting(MultipathSnapshotTest::row)
                .containsExactly("sda block_bio_remap WS 0+2048 from=dm-0:0", "sdb block_bio_remap RS 0+8 from=dm-0:0",
                        "sda block_bio_remap RS 8+8 from=dm-0:8");
        assertThat(events).filteredOn(e -> e.device().equals("dm-0"))
                .noneMatch(e -> e.type() == EventType.GETRQ || e.type() == EventType.RQ_ISSUE);
        assertThat(events).filteredOn(e -> e.device().equals("dm-0") && e.type() == EventType.BIO_COMPLETE)
                .hasSize(3);
    }

    @Test
    void serviceTimeWithEqualLoadsTakesTheHeadOfItsListFirstThenAlternates() {
        // mpath-scsi-st: the table names 8:16 (sdb) first; every I/O completes before the next, so both paths show
        // in_flight_size 0 and relative_throughput 1: st_compare_load is 0, no path beats the head, and the chosen
        // path moves to the tail: sdb, sda, sdb, sda
        List<TraceEvent> events = run(layout("mpath-st-scsi-hd"), "dd if=/dev/mapper/mp of=/dev/null bs=4k count=4"
                + " iflag=direct\n");
        assertThat(events).filteredOn(e -> e.type() == EventType.RQ_REMAP).extracting(TraceEvent::device)
                .containsExactly("sdb", "sda", "sdb", "sda");
    }
}
