package dev.dmmodel.impl.engine;

import static dev.dmmodel.impl.engine.EngineTestSupport.directWrite;
import static dev.dmmodel.impl.engine.EngineTestSupport.of;
import static dev.dmmodel.impl.engine.EngineTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Linux 7.2's unplugged requests ({@link KernelProfile#unpluggedRequestsWaitInScheduler()}) through the engine:
 * the recorded striped stack and a thin pool whose new blocks kcopyd zeroes. Expected numbers from the kernel's
 * rules in the comments.
 */
class SchedulerMergeTest {

    /** The recorded ss-* stack: two scsi_debug disks, a 2 x 64 KiB striped LV on PE 0-7 of each (pe_start 2048). */
    private static Layout striped(KernelProfile p) {
        return DirectIoTest.striped(p);
    }

    /** The device's request events and bio queueings in trace order, as {@code tracepoint sector+sectors}. */
    private static List<String> disk(List<TraceEvent> ev, String device) {
        List<String> out = new ArrayList<>();
        for (TraceEvent e : ev) {
            if (e.device().equals(device) && (e.type() == EventType.BIO_QUEUE || e.type() == EventType.RQ_INSERT
                    || e.type() == EventType.BIO_BACKMERGE || e.type() == EventType.RQ_ISSUE)) {
                out.add(e.type().tracepoint().substring("block_".length()) + " " + e.sector() + "+" + e.nrSectors());
            }
        }
        return out;
    }

    @Test
    void aMiBOverTwoStripesIsOneRequestPerDiskInsertedAtItsFirstPiece() {
        List<TraceEvent> ev = run(striped(KernelProfile.LINUX_7_2), directWrite("/dev/vg/striped", 1 << 20, 1, 0));
        // recorded (7.2 ss-str-1M-at0): the request "is inserted (block_rq_insert) at 128 sectors and the other
        // seven pieces are backmerged into it afterwards"; dd waits, kblockd issues 8 x 128 = 1024 sectors
        List<String> sda = new ArrayList<>(List.of("bio_queue 2048+128", "rq_insert 2048+128"));
        for (int i = 1; i < 8; i++) {
            sda.add("bio_queue " + (2048 + 128 * i) + "+128");
            sda.add("bio_backmerge " + (2048 + 128 * i) + "+128");
        }
        sda.add("rq_issue 2048+1024");
        assertThat(disk(ev, "sda")).isEqualTo(sda);
        assertThat(of(ev, "sdb", EventType.RQ_ISSUE)).containsExactly("2048+1024");
    }

    @Test
    void atThirtyTwoKiBTheFirstPieceIsHalfAChunkAndTheRestStillMergesBehindIt() {
        List<TraceEvent> ev = run(striped(KernelProfile.LINUX_7_2), directWrite("/dev/vg/striped", 1 << 20, 1, 32768));
        // LV sector 64: sda gets 64 + 7 x 128 + 64 = 1024 sectors from 2112, sdb 8 x 128 from 2048. With no
        // scheduler tick (the model has none) each disk's pieces end in the request of its first piece
        assertThat(of(ev, "sda", EventType.RQ_INSERT)).containsExactly("2112+64");
        assertThat(of(ev, "sda", EventType.RQ_ISSUE)).containsExactly("2112+1024");
        assertThat(of(ev, "sdb", EventType.RQ_INSERT)).containsExactly("2048+128");
        assertThat(of(ev, "sdb", EventType.RQ_ISSUE)).containsExactly("2048+1024");
    }

    @Test
    void kcopydsZeroingIsIssuedUnderItsPlugAndTheDataMergesAfterIt() {
        // a pool of 16 blocks of 64 KiB (128 sectors) with zeroing, data at sdb 8192; an 8 KiB write at 60 KiB
        // covers sectors 120-136 of the thin device: the last 8 of block 0 and the first 8 of block 1, each new
        Layout l = Layout.builder(KernelProfile.LINUX_7_2)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sdb", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(2048), "sdb", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(2048), "tmeta", "tdata", 128, 4))
                .dmsetupCreate("thin", t -> t.thin(Sectors.of(8192), "pool", 0))
                .build();
        List<TraceEvent> ev = run(l, directWrite("/dev/mapper/thin", 8192, 1, 61440));
        // schedule_zero: kcopyd zeroes each whole new block with one 128-sector write from a run of its worker
        // under its plug, which blk_finish_plug inserts and issues at once (recorded 7.2 thin-b2048-zon-*: the
        // zeroing writes are issued by kcopyd's worker itself). Block 0's zeroing (8192 + 128) is therefore
        // issued before block 1's (8320 + 128) is made, and the two never merge into one 256-sector request
        List<TraceEvent> data = ev.stream().filter(e -> e.device().equals("sdb") && e.type() == EventType.RQ_ISSUE
                && e.sector() >= 8192).toList();
        assertThat(data).filteredOn(e -> e.rwbs().equals("W")).extracting(e -> e.sector() + "+" + e.nrSectors())
                .containsExactly("8192+128", "8320+128");
        // process_prepared_mapping: each data bio goes on once its block is zeroed, after the zeroing of both
        // blocks was issued: 8192 + 120 = 8312 for 8 sectors waits in mq-deadline for kblockd, and block 1's 8
        // sectors at 8320 back-merge into it: one WS request of 16 sectors, issued when dd waits
        assertThat(data).filteredOn(e -> e.rwbs().equals("WS")).extracting(e -> e.sector() + "+" + e.nrSectors())
                .containsExactly("8312+16");
        assertThat(of(ev, "sdb", EventType.RQ_INSERT)).containsExactly("8192+128", "8320+128", "8312+8");
    }
}
