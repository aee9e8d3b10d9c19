package dev.dmmodel.impl.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request-based stacked device in the block layer (drivers/md/dm-rq.c over block/blk-mq.c): bios become
 * requests on its own queue, each issued request goes to its driver, which clones it onto a disk
 * (blk_insert_cloned_request), and the clone's completion completes the original.
 */
class RequestBasedStackingTest {

    private final BlockLayer block = new BlockLayer(KernelProfile.LINUX_6_12);
    private final List<TraceEvent> events = new ArrayList<>();
    private final List<Long> endIos = new ArrayList<>();

    private static Limits limits(long maxSectors) {
        Limits l = new Limits();
        l.logicalBlockSize = 512;
        l.physicalBlockSize = 512;
        l.ioMin = 512;
        l.maxSectors = maxSectors;
        l.maxHwSectors = 65535;
        l.maxSegments = 128;
        l.maxSegmentSize = 65536;
        l.segBoundaryMask = 0xFFFFFFFFL;
        l.dmaAlignment = 511;
        return l;
    }

    RequestBasedStackingTest() {
        block.events.listener(events::add);
        block.addDisk("sda", limits(2560), DiskDriver.SD);
        block.addRequestBased("dm-0", limits(2560), rq -> block.insertClonedRequest(rq, "sda",
                () -> endIos.add(rq.sector())));
    }

    private Bio write(long sector, long sectors) {
        return new Bio("dm-0", Op.WRITE, Bio.SYNC, sector, sectors, block.pages(sectors));
    }

    private List<String> rows() {
        return events.stream().map(e -> e.device() + " " + e.type().tracepoint() + " " + e.sector() + "+"
                + e.nrSectors() + (e.extra().isEmpty() ? "" : " " + e.extra())).toList();
    }

    @Test
    void twoPluggedBiosMergeAtTheStackedQueueAndGoDownAsOneClone() {
        // blk_attempt_plug_merge at dm-0: 8 sectors at 0 and 8 at 8 become one 16-sector request there; the flush of
        // the plug inserts it into dm-0's mq-deadline and issues it; the clone is issued at sda without an insert
        block.startPlug();
        block.submitBioNoacct(write(0, 8));
        block.submitBioNoacct(write(8, 8));
        block.finishPlug();
        block.completeAll();
        assertThat(rows()).containsExactly(
                "dm-0 block_bio_queue 0+8",
                "dm-0 block_getrq 0+8",
                "dm-0 block_bio_queue 8+8",
                "dm-0 block_bio_backmerge 8+8",
                "dm-0 block_rq_insert 0+16 bytes=8192",
                "dm-0 block_rq_issue 0+16 bytes=8192",
                "sda block_rq_remap 0+16 from=dm-0:0",
                "sda block_rq_issue 0+16 bytes=8192",
                "sda block_rq_complete 0+16 err=0",
                "dm-0 block_rq_complete 0+16 err=0",
                "dm-0 block_rq_complete 0+0 err=0");
        // the target's rq_end_io ran once, for the request at 0, between the two completions of the original
        assertThat(endIos).containsExactly(0L);
        assertThat(block.takeIoError()).isNull();
    }

    @Test
    void withoutAPlugTheRequestIsInsertedIssuedAndClonedAtOnce() {
        // blk_mq_submit_bio without a plug on 6.12 (KernelProfile.unpluggedRequestsWaitInScheduler is false there):
        // blk_mq_insert_request and the queue run issue it in the submitter's context; the clone follows at once
        assertThat(KernelProfile.LINUX_6_12.unpluggedRequestsWaitInScheduler()).isFalse();
        block.submitBioNoacct(write(64, 8));
        assertThat(rows()).containsExactly("dm-0 block_bio_queue 64+8", "dm-0 block_getrq 64+8",
                "dm-0 block_rq_insert 64+8 bytes=4096", "dm-0 block_rq_issue 64+8 bytes=4096",
                "sda block_rq_remap 64+8 from=dm-0:64", "sda block_rq_issue 64+8 bytes=4096");
        // nothing completes before the submitter waits
        assertThat(endIos).isEmpty();
        block.completeAll();
        assertThat(endIos).containsExactly(64L);
    }

    @Test
    void aCloneOverThePathsMaxSectorsIsRefused() {
        // blk_insert_cloned_request: blk_rq_sectors > blk_queue_get_max_sectors is BLK_STS_IOERR; here the stacked
        // queue was (wrongly) given 4096 sectors over a path of 2560; both take 1024 segments, so that the 512
        // pages of the 2 MiB bio are not split at dm-0 by max_segments
        BlockLayer b = new BlockLayer(KernelProfile.LINUX_6_12);
        Limits path = limits(2560);
        path.maxSegments = 1024;
        Limits stacked = limits(4096);
        stacked.maxSegments = 1024;
        b.addDisk("sda", path, DiskDriver.SD);
        b.addRequestBased("dm-0", stacked, rq -> b.insertClonedRequest(rq, "sda", null));
        b.submitBioNoacct(new Bio("dm-0", Op.WRITE, Bio.SYNC, 0, 4096, b.pages(4096)));
        b.completeAll();
        assertThat(b.takeIoError()).contains("sda: cloned request of 4096 sectors").contains("blk_insert_cloned_request");
    }

    @Test
    void theStackedQueueHasRequestQueueFiles() {
        // blk_mq_init_sched: nr_requests = 2 * min(dm_mq_queue_depth 2048, BLKDEV_DEFAULT_RQ 128) = 256, as recorded
        // for the request-based multipath device; one hardware queue gets mq-deadline (elevator_get_default)
        assertThat(block.stackedNrRequests("dm-0")).hasValue(256);
        assertThat(block.scheduler("dm-0")).hasValue("none [mq-deadline]");
        // a disk's tag depth is its driver's: not known; a bio-based device has no request queue at all
        assertThat(block.stackedNrRequests("sda")).isEmpty();
        block.addBioBased("dm-1", limits(2560), bio -> { });
        assertThat(block.stackedNrRequests("dm-1")).isEmpty();
        assertThat(block.scheduler("dm-1")).isEmpty();
    }
}
