package dev.dmmodel.impl.engine;

import static dev.dmmodel.impl.engine.EngineTestSupport.directWrite;
import static dev.dmmodel.impl.engine.EngineTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Command;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code trace --why}: each split and remap names what caused it. The expected reasons are worked out from the
 * kernel's rules for the recorded shapes (seed 004, the ss-str striped cases), not read back from the engine.
 */
class SplitWhyTest {

    private static final EngineOptions WHY = EngineOptions.DEFAULTS.withExplainedSplits();

    private static List<TraceEvent> on(EventType type, String device, List<TraceEvent> ev) {
        return ev.stream().filter(e -> e.type() == type && e.device().equals(device)).toList();
    }

    @Test
    void seed004On310The1344SectorBioSaysItWasBuiltToNrVecs() {
        Simulation sim = Simulation.of(HistoricProfilesTest.seed004(KernelProfile.LINUX_3_10), WHY);
        List<TraceEvent> ev = run(sim, new Command.SysfsWrite("echo 2048 > /sys/block/dm-1/queue/max_sectors_kb",
                "/sys/block/dm-1/queue/max_sectors_kb", "2048"), directWrite("/dev/mapper/thin", 1 << 20, 1, 0));
        List<TraceEvent> queued = on(EventType.BIO_QUEUE, "dm-1", ev);
        // bio_get_nr_vecs = min(max_segments 168, 4096/8 + 1 = 513, BIO_MAX_PAGES 256) = 168 pages = 1344 sectors;
        // the second bio is the rest of the MiB (704) and so has no reason of its own
        assertThat(queued).extracting(e -> e.sector() + "+" + e.nrSectors()).containsExactly("0+1344", "1344+704");
        assertThat(queued.get(0).why()).isEqualTo("built to fit dm-1: bio_get_nr_vecs 168 pages = min(max_segments"
                + " 168, max_sectors 4096/8 + 1, BIO_MAX_PAGES 256)");
        assertThat(queued.get(1).why()).isEmpty();
        // the 1344-sector write does not cover the 2048-sector block: schedule_zero, in kcopyd sub-jobs of 1024
        List<TraceEvent> zeroing = on(EventType.BIO_QUEUE, "dm-0", ev).stream().filter(e -> e.rwbs().equals("W"))
                .toList();
        assertThat(zeroing).extracting(e -> e.sector() + "+" + e.nrSectors()).containsExactly("0+1024", "1024+1024");
        assertThat(zeroing).extracting(TraceEvent::why).containsOnly("schedule_zero: kcopyd zeroes data block 0 for"
                + " thin block 0 of dm-1 (the 1344-sector write does not cover the 2048-sector block)");
    }

    @Test
    void seed004On310WithTheStockCapTheBioStopsAtMaxSectors() {
        Simulation sim = Simulation.of(HistoricProfilesTest.seed004(KernelProfile.LINUX_3_10), WHY);
        List<TraceEvent> queued = on(EventType.BIO_QUEUE, "dm-1",
                run(sim, directWrite("/dev/mapper/thin", 1 << 20, 1, 0)));
        // nr_vecs = min(168, 1024/8 + 1 = 129, 256) = 129 pages, but blk_max_size_offset stops at 1024 sectors first
        assertThat(queued.get(0).nrSectors()).isEqualTo(1024);
        assertThat(queued.get(0).why()).isEqualTo("built to fit dm-1: max_sectors=1024 (blk_max_size_offset)");
    }

    @Test
    void onAModernKernelTheDiskSplitNamesMaxSegments() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("lin", t -> t.linear(Sectors.of(524288), "sdb", Sectors.of(8192)))
                .build();
        List<TraceEvent> ev = run(Simulation.of(layout, WHY), directWrite("/dev/mapper/lin", 1 << 20, 1, 0));
        // one 2048-sector bio reaches sdb (linear: no max_io_len); 168 scattered pages = 1344 sectors fit, the 169th
        // page does not: bio_split_rw cuts at max_segments, not at max_sectors (qemu AHCI: 32767 KiB hardware cap)
        List<TraceEvent> splits = on(EventType.SPLIT, "sdb", ev);
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).why()).isEqualTo("max_segments=168 (168 segments of at most 65536 bytes) of sdb");
        // the linear remap names its table line: dm-0's one target starts at 0 and is 524288 long
        List<TraceEvent> remaps = on(EventType.BIO_REMAP, "sdb", ev);
        assertThat(remaps.get(0).why()).isEqualTo("linear target, table line 0 (sectors 0+524288), 0 into it");
    }

    @Test
    void aStripedLvIsCutAtEachChunkByMaxIoLen() {
        List<TraceEvent> ev = run(Simulation.of(DirectIoTest.striped(KernelProfile.LINUX_6_1), WHY),
                directWrite("/dev/vg/striped", 1 << 20, 1, 32768));
        List<TraceEvent> splits = on(EventType.SPLIT, "dm-0", ev);
        // from LV sector 64 the first chunk boundary (128 sectors, stripe_ctr sets max_io_len to the chunk) is at
        // 128: the remainder starts there, and each next cut is one chunk on; the last piece (64) is the rest
        assertThat(splits).hasSize(16);
        assertThat(splits.get(0).why())
                .isEqualTo("max_io_len=128 of the striped target: boundary at sector 128 of dm-0");
        assertThat(splits.get(1).why())
                .isEqualTo("max_io_len=128 of the striped target: boundary at sector 256 of dm-0");
    }

    @Test
    void withoutTheOptionNothingIsExplained() {
        List<TraceEvent> ev = run(Simulation.of(DirectIoTest.striped(KernelProfile.LINUX_6_1)),
                directWrite("/dev/vg/striped", 1 << 20, 1, 32768));
        assertThat(ev).isNotEmpty().allMatch(e -> e.why().isEmpty());
    }

    @Test
    void explainingChangesNoEvent() {
        // the reasons ride along: the same events, field for field, with and without them
        List<TraceEvent> plain = run(Simulation.of(HistoricProfilesTest.seed004(KernelProfile.LINUX_6_1)),
                directWrite("/dev/mapper/thin", 1 << 20, 4, 0));
        List<TraceEvent> why = run(Simulation.of(HistoricProfilesTest.seed004(KernelProfile.LINUX_6_1), WHY),
                directWrite("/dev/mapper/thin", 1 << 20, 4, 0));
        assertThat(why).extracting(e -> new TraceEvent(e.seq(), e.device(), e.type(), e.rwbs(), e.sector(),
                e.nrSectors(), e.extra())).isEqualTo(plain);
        assertThat(why).anyMatch(e -> e.why().startsWith("thin block 0 -> pool data block 0"));
    }
}
