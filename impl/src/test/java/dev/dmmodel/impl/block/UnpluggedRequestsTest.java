package dev.dmmodel.impl.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request made without a plug ({@link KernelProfile#unpluggedRequestsWaitInScheduler()}): on 7.2
 * {@code blk_mq_submit_bio} inserts it into mq-deadline and leaves the queue run to kblockd, which runs when the
 * submitter sleeps, so the submitter's later bios back-merge into it there; on 6.12 the flush of
 * {@code __submit_bio}'s own plug issues it at once. The expected requests are worked out from the kernel's rules
 * in the comments: every piece is a whole number of 4 KiB pages of a buffer whose pages are not physically
 * contiguous, so a piece of n sectors has n / 8 segments; a back merge adds the segments
 * ({@code ll_back_merge_fn}) and must stay within max_segments and max_sectors.
 */
class UnpluggedRequestsTest {

    private static Limits limits(long maxSegments) {
        Limits l = new Limits();
        l.logicalBlockSize = 512;
        l.physicalBlockSize = 512;
        l.maxSectors = 8192;
        l.maxHwSectors = 8192;
        l.maxSegments = maxSegments;
        l.maxSegmentSize = 65536;
        l.segBoundaryMask = 0xFFFF_FFFFL;
        return l;
    }

    private final List<TraceEvent> events = new ArrayList<>();

    private BlockLayer layer(KernelProfile p, DiskDriver driver, long maxSegments, String... disks) {
        BlockLayer b = new BlockLayer(p);
        for (String d : disks) {
            b.addDisk(d, limits(maxSegments), driver);
        }
        b.events.listener(events::add);
        return b;
    }

    private static Bio write(String disk, long sector, long sectors) {
        return new Bio(disk, Op.WRITE, Bio.SYNC | Bio.IDLE, sector, sectors, Bvecs.regular(4096, 0, sectors * 512));
    }

    /** The device's insert, merge and issue events as {@code type sector+sectors}. */
    private List<String> requests(String disk) {
        List<String> out = new ArrayList<>();
        for (TraceEvent e : events) {
            if (e.device().equals(disk) && (e.type() == EventType.RQ_INSERT || e.type() == EventType.RQ_ISSUE
                    || e.type() == EventType.BIO_BACKMERGE || e.type() == EventType.BIO_FRONTMERGE)) {
                out.add(e.type().tracepoint().substring("block_".length()) + " " + e.sector() + "+" + e.nrSectors());
            }
        }
        return out;
    }

    /** What a 1 MiB O_DIRECT write over a 2-way dm-striped with 64 KiB chunks sends: 8 chunk pieces per disk. */
    private static void stripedMiB(BlockLayer b) {
        for (int i = 0; i < 16; i++) {
            b.submitBioNoacct(write(i % 2 == 0 ? "sda" : "sdb", 2048 + (i / 2) * 128L, 128));
        }
    }

    @Test
    void on72ThePiecesOfOneWriteWaitInTheSchedulerAndMergeBehindTheFirst() {
        BlockLayer b = layer(KernelProfile.LINUX_7_2, DiskDriver.SD, 128, "sda", "sdb");
        stripedMiB(b);
        // the first piece on each disk is inserted at once (blk_mq_insert_request); nothing is issued while the
        // writer keeps submitting: the seven later pieces back-merge into it in the scheduler (elv_merge's hash
        // of request ends): 8 x 128 = 1024 sectors, 8 x 16 = 128 segments, within max_segments 128 and 8192
        List<String> sda = new ArrayList<>(List.of("rq_insert 2048+128"));
        for (int i = 1; i < 8; i++) {
            sda.add("bio_backmerge " + (2048 + i * 128) + "+128");
        }
        assertThat(requests("sda")).isEqualTo(sda);
        // the writer waits for its I/O: kblockd runs the queue and issues the one request
        b.completeAll();
        sda.add("rq_issue 2048+1024");
        assertThat(requests("sda")).isEqualTo(sda);
        assertThat(requests("sdb")).endsWith("rq_issue 2048+1024").hasSize(9);
    }

    @Test
    void on612EachPieceIsIssuedAsItIsMade() {
        BlockLayer b = layer(KernelProfile.LINUX_6_12, DiskDriver.SD, 128, "sda", "sdb");
        stripedMiB(b);
        // the flush of __submit_bio's plug inserts and issues each piece before the next is made: 8 x 128
        List<String> sda = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            sda.add("rq_insert " + (2048 + i * 128) + "+128");
            sda.add("rq_issue " + (2048 + i * 128) + "+128");
        }
        assertThat(requests("sda")).isEqualTo(sda);
    }

    @Test
    void mergingStopsAtMaxSegments() {
        // an AHCI disk (max_segments 168) below dm-thin with 64 KiB blocks: 16 pieces of 128 sectors (16 segments
        // each) for a 1 MiB write. 10 pieces are 160 segments; an 11th would make 176 > 168, so it starts a new
        // request: 10 x 128 = 1280, then the remaining 6 pieces, 768 (96 segments)
        BlockLayer b = layer(KernelProfile.LINUX_7_2, DiskDriver.SD, 168, "sda");
        for (int i = 0; i < 16; i++) {
            b.submitBioNoacct(write("sda", 8192 + i * 128L, 128));
        }
        b.completeAll();
        assertThat(requests("sda")).filteredOn(s -> s.startsWith("rq_")).containsExactly(
                "rq_insert 8192+128", "rq_insert 9472+128", "rq_issue 8192+1280", "rq_issue 9472+768");
    }

    @Test
    void aBioEndingWhereAWaitingRequestStartsFrontMerges() {
        BlockLayer b = layer(KernelProfile.LINUX_7_2, DiskDriver.SD, 128, "sda");
        b.submitBioNoacct(write("sda", 2048, 128));
        // 1920 + 128 ends at 2048: mq-deadline's front merge (dd_request_merge) makes 1920 + 256
        b.submitBioNoacct(write("sda", 1920, 128));
        b.completeAll();
        assertThat(requests("sda")).containsExactly("rq_insert 2048+128", "bio_frontmerge 1920+128",
                "rq_issue 1920+256");
    }

    @Test
    void aPlugFlushRunsTheQueueAndIssuesTheWaitingRequestsFirst() {
        BlockLayer b = layer(KernelProfile.LINUX_7_2, DiskDriver.SD, 128, "sda");
        b.submitBioNoacct(write("sda", 0, 8));
        // a plugged request (not adjacent) is inserted at blk_finish_plug and the queue is run in the submitter
        // (blk_mq_run_hw_queue, not async): the request waiting since before is dispatched with it, oldest first
        b.startPlug();
        b.submitBioNoacct(write("sda", 1000, 8));
        b.finishPlug();
        assertThat(requests("sda")).containsExactly("rq_insert 0+8", "rq_insert 1000+8", "rq_issue 0+8",
                "rq_issue 1000+8");
        b.completeAll();
        assertThat(requests("sda")).hasSize(4);
    }

    @Test
    void aDiskWithoutAnElevatorIssuesAtOnce() {
        // NVMe has a hardware queue per CPU, so elevator_get_default gives it none: blk_mq_submit_bio issues an
        // unplugged request directly (blk_mq_try_issue_directly), and nothing waits to merge into
        BlockLayer b = layer(KernelProfile.LINUX_7_2, DiskDriver.NVME, 128, "nvme0n1");
        b.submitBioNoacct(write("nvme0n1", 0, 128));
        b.submitBioNoacct(write("nvme0n1", 128, 128));
        assertThat(requests("nvme0n1")).containsExactly("rq_insert 0+128", "rq_issue 0+128", "rq_insert 128+128",
                "rq_issue 128+128");
    }

    @Test
    void theDefaultElevatorFollowsTheDriver() {
        assertThat(BlockLayer.defaultElevator(DiskDriver.SD)).isTrue();
        assertThat(BlockLayer.defaultElevator(DiskDriver.NVME)).isFalse();
        assertThat(BlockLayer.defaultElevator(DiskDriver.VIRTIO_BLK)).isFalse();
        assertThat(BlockLayer.defaultElevator(DiskDriver.NULL_BLK)).isFalse();
        assertThat(BlockLayer.defaultElevator(DiskDriver.LOOP)).isFalse();
    }
}
