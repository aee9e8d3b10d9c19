package dev.dmmodel.testkit.property.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.testkit.property.CoverageGate;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: no bio or request a queue issues has more physical segments than the queue's
 * {@code max_segments}, under every kernel profile</b> ({@link KernelProfile#presets()}: 6.12, 6.1, 3.10, 2.6.32,
 * 2.6.0). This is the rule behind seed 004: a 1 MiB {@code O_DIRECT} write of scattered 4 KiB pages is 256
 * segments, so an AHCI disk (max_segments 168) issues it as 168 pages = 1344 sectors and 88 pages = 704 sectors.
 * <ul>
 *   <li>Every piece a whole disk makes a request of or merges into one ({@code block_getrq},
 *       {@code block_bio_backmerge}, {@code block_bio_frontmerge}: the bio after {@code __bio_split_to_limits})
 *       and every request it issues ({@code block_rq_issue}: its bios' segments added up, as
 *       {@code ll_new_hw_segment} and {@code ll_merge_requests_fn} count them) has at most the disk's
 *       max_segments.</li>
 *   <li>Before 4.3 ({@link KernelProfile.BioShaping#AT_BUILD}) a bio is built to the top queue's limits
 *       ({@code bio_add_page} stops at max_segments) and never split below, so every bio queued at any device
 *       ({@code block_bio_queue}: dm devices, partitions, disks) has at most that device's max_segments. From 4.3
 *       a bio-based dm device does not split by segments (the recorded 6.1 trace: a 1 MiB bio reaches dm-thin
 *       whole over a 168-segment disk), so there only the disks are held to it.</li>
 * </ul>
 *
 * <p><b>How segments are counted.</b> The public trace does not say how many segments a bio has, so the test
 * counts them from the bio's pages the way {@link dev.dmmodel.engine.EngineOptions#bufferRunBytes()} lays the
 * direct-I/O buffer out: dd reuses one page-aligned buffer for every block, its bytes in physically contiguous
 * runs of {@code bufferRunBytes} from the buffer's start, runs never adjacent (each starting on a physical
 * multiple of its size, as a huge page does). A bio at byte {@code p} of the target holds the buffer's bytes from
 * {@code (p - seek) mod bs}; a clone ({@code block_bio_remap from=DEV:SECTOR}) and a split piece hold the part of
 * their parent from where they start. A run's part in a bio is one bvec; a bvec inside one page is one segment
 * ({@code bio_split_rw}), a larger one one segment per {@code max_segment_size}, cut at the segment boundary
 * ({@code bvec_split_segs}, {@code get_max_segment_size}). So the workload is the generator's direct
 * {@code dd} reads and writes only (buffered I/O's page-cache pages are not the user buffer).
 */
class SegmentsRespectMaxSegmentsTest {
    private static final long PAGE = 4096;

    @Test
    void noDiskPieceRequestOrBuiltBioHasMoreSegmentsThanItsQueueAllows() {
        Gen<Case> cases = CaseGen.cases(KernelProfile.presets()).map(SegmentsRespectMaxSegmentsTest::directOnly)
                .filter(c -> c.ops().size() > 1, 100);
        Coverage cov = EngineProperties.forAll("segments-respect-max-segments", cases, (c, coverage) -> {
            coverage.add("profile " + c.layout().profile().name());
            CaseRun run = CaseRun.run(c).requireSuccess();
            for (CaseRun.OpRun o : run.ops()) {
                if (o.op() instanceof Case.CommandOp op && op.command() instanceof Command.Dd dd) {
                    new Walk(c, o, op, dd, coverage).run();
                }
            }
        });
        CoverageGate.assumeEnoughTries("segments-respect-max-segments", cov.tries);
        // every profile is reached, and the situations the rule is about happen: a disk cutting a bio at
        // max_segments, pages merged into fewer segments by a contiguous buffer, requests of several bios, and
        // before 4.3 bios built up to a dm device's max_segments
        for (KernelProfile p : KernelProfile.presets()) {
            assertThat(cov.get("profile " + p.name())).as("cases under %s", p.name()).isGreaterThan(cov.tries / 20);
        }
        assertThat(cov.get("disk piece at max_segments")).isGreaterThan(0);
        assertThat(cov.get("piece of fewer segments than pages")).isGreaterThan(0);
        assertThat(cov.get("request of several bios")).isGreaterThan(0);
        assertThat(cov.get("built bio at a dm device's max_segments")).isGreaterThan(0);
    }

    @Test
    void segmentsAreCountedAsTheKernelCountsThem() {
        QueueLimits ahci = dev.dmmodel.layout.Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", dev.dmmodel.device.DiskPresets.qemuAhci().withSize(dev.dmmodel.units.Bytes.gib(1))).build()
                .limits("sda");
        QueueLimits nvme = dev.dmmodel.layout.Layout.builder(KernelProfile.LINUX_6_12)
                .disk("nvme0n1", dev.dmmodel.device.DiskPresets.nvmeSsd().withSize(dev.dmmodel.units.Bytes.gib(1))).build()
                .limits("nvme0n1");
        assertThat(ahci.maxSegments()).isEqualTo(168);
        assertThat(ahci.maxSegmentSize()).isEqualTo(65536);
        long mib = 1 << 20;
        // seed 004: 1 MiB of scattered pages is 256 one-page segments; the AHCI disk takes 168 pages = 1344
        // sectors, the rest is 88 pages = 704 sectors
        assertThat(segments(0, mib, PAGE, ahci)).isEqualTo(256);
        assertThat(segments(0, 1344 * 512, PAGE, ahci)).isEqualTo(168);
        assertThat(segments(1344 * 512, 704 * 512, PAGE, ahci)).isEqualTo(88);
        // in a 2 MiB huge page the same MiB is one bvec, cut at max_segment_size: 1 MiB / 64 KiB = 16
        assertThat(segments(0, mib, 2 * mib, ahci)).isEqualTo(16);
        // 16 KiB runs, 20 KiB from 6 KiB: 6..16 KiB (one bvec over three pages) and 16..26 KiB: 2
        assertThat(segments(6 << 10, 20 << 10, 16 << 10, ahci)).isEqualTo(2);
        // a bvec inside one page is one segment, however small
        assertThat(segments(512, 512, PAGE, ahci)).isEqualTo(1);
        // NVMe's virt boundary makes max_segment_size UINT_MAX: one segment per run
        assertThat(segments(0, mib, 2 * mib, nvme)).isEqualTo(1);
        assertThat(segments(0, mib, 64 << 10, nvme)).isEqualTo(16);
    }

    /** The case with its direct dd operations only (and the final sync). */
    private static Case directOnly(Case c) {
        List<Case.Op> ops = c.ops().stream().filter(o -> o.kind() == Case.Kind.DIRECT_WRITE
                || o.kind() == Case.Kind.DIRECT_READ || o.kind() == Case.Kind.SYNC).toList();
        return new Case(c.script(), c.layout(), c.options(), c.targetPath(), ops);
    }

    /**
     * Physical segments of the buffer bytes {@code [offset, offset + bytes)} for a queue with limits {@code l},
     * the buffer laid out in runs of {@code runBytes} (see the class comment).
     */
    static long segments(long offset, long bytes, long runBytes, QueueLimits l) {
        long maxSegment = l.maxSegmentSize() <= 0 ? Long.MAX_VALUE : l.maxSegmentSize();
        long boundary = l.segBoundaryMask() >= (1L << 62) ? Long.MAX_VALUE : l.segBoundaryMask() + 1;
        long n = 0;
        long pos = offset;
        long end = offset + bytes;
        while (pos < end) {
            long runEnd = Math.min((pos / runBytes + 1) * runBytes, end);
            if (pos % PAGE + (runEnd - pos) <= PAGE) {
                n++; // a bvec inside one page
            } else {
                for (long p = pos; p < runEnd; ) {
                    // a boundary below the run size lies at buffer offsets that are multiples of it
                    long toBoundary = boundary < runBytes ? (p / boundary + 1) * boundary - p : Long.MAX_VALUE;
                    p += Math.min(Math.min(maxSegment, toBoundary), runEnd - p);
                    n++;
                }
            }
            pos = runEnd;
        }
        return n;
    }

    /** One operation's events, followed from the dd's buffer down to the disks' requests. */
    private static final class Walk {
        private final Case c;
        private final CaseRun.OpRun o;
        private final Coverage coverage;
        private final String target;
        private final long start;
        private final long bs;
        private final long runBytes;
        private final boolean atBuild;
        /** Per device, the bios queued or remapped there in this operation: sector, sectors, buffer offset. */
        private final Map<String, List<long[]>> bios = new HashMap<>();
        /** Per disk, its requests not yet issued: start, sectors, segments, bios. */
        private final Map<String, List<long[]>> pending = new HashMap<>();

        Walk(Case c, CaseRun.OpRun o, Case.CommandOp op, Command.Dd dd, Coverage coverage) {
            this.c = c;
            this.o = o;
            this.coverage = coverage;
            this.target = c.target();
            this.start = op.offset();
            this.bs = op.kind() == Case.Kind.DIRECT_WRITE ? dd.outputBlockSize() : dd.inputBlockSize();
            this.runBytes = c.options().bufferRunBytes();
            this.atBuild = c.layout().profile().bioShaping() == KernelProfile.BioShaping.AT_BUILD;
        }

        void run() {
            TraceEvent previous = null;
            for (TraceEvent e : o.events()) {
                if (e.nrSectors() > 0) {
                    step(e, previous);
                }
                previous = e;
            }
            for (Map.Entry<String, List<long[]>> p : pending.entrySet()) {
                if (!p.getValue().isEmpty()) {
                    fail(null, p.getValue().size() + " request(s) of " + p.getKey() + " made but never issued");
                }
            }
        }

        private void step(TraceEvent e, TraceEvent previous) {
            BlockDevice d = c.layout().device(e.device());
            QueueLimits l = d.limits();
            switch (e.type()) {
                case BIO_REMAP -> {
                    // a clone or a partition's bio, on the device it is remapped to: the source's part from its sector
                    bios.computeIfAbsent(e.device(), k -> new ArrayList<>())
                            .add(new long[] {e.sector(), e.nrSectors(), sourceOffset(e)});
                }
                case BIO_QUEUE -> {
                    long offset;
                    if (previous != null && previous.type() == EventType.BIO_REMAP
                            && previous.device().equals(e.device()) && previous.sector() == e.sector()
                            && previous.nrSectors() == e.nrSectors()) {
                        offset = offsetIn(e.device(), e.sector(), e.nrSectors(), e);
                    } else if (e.device().equals(target)) {
                        offset = topOffset(e.sector());
                        bios.computeIfAbsent(e.device(), k -> new ArrayList<>())
                                .add(new long[] {e.sector(), e.nrSectors(), offset});
                    } else {
                        fail(e, "a bio queued at " + e.device() + " that neither dd nor a remap made");
                        return;
                    }
                    if (atBuild) {
                        long segs = segments(offset, e.nrSectors() * 512, runBytes, l);
                        check(e, segs, l, "a bio built before 4.3");
                        if (segs == l.maxSegments() && d instanceof DmDevice) {
                            coverage.add("built bio at a dm device's max_segments");
                        }
                    }
                }
                case GETRQ, BIO_BACKMERGE, BIO_FRONTMERGE -> {
                    if (!(d instanceof Disk)) {
                        return;
                    }
                    long offset = offsetIn(e.device(), e.sector(), e.nrSectors(), e);
                    long segs = segments(offset, e.nrSectors() * 512, runBytes, l);
                    check(e, segs, l, "a piece " + e.device() + " goes on with");
                    if (segs == l.maxSegments()) {
                        coverage.add("disk piece at max_segments");
                    }
                    if (segs < (offset + e.nrSectors() * 512 + PAGE - 1) / PAGE - offset / PAGE) {
                        coverage.add("piece of fewer segments than pages");
                    }
                    request(e, segs);
                }
                case RQ_ISSUE -> {
                    List<long[]> rqs = pending.getOrDefault(e.device(), List.of());
                    long[] rq = rqs.stream().filter(r -> r[0] == e.sector() && r[1] == e.nrSectors()).findFirst()
                            .orElse(null);
                    if (rq == null) {
                        fail(e, "an issued request that no block_getrq and merges of " + e.device() + " made");
                        return;
                    }
                    rqs.remove(rq);
                    check(e, rq[2], l, "a request of " + rq[3] + " bio(s) issued by " + e.device());
                    if (rq[3] > 1) {
                        coverage.add("request of several bios");
                    }
                }
                case RQ_MERGE, RQ_REQUEUE -> fail(e, "the walk does not follow " + e.type().tracepoint() + " yet");
                default -> {
                }
            }
        }

        /** A new request ({@code block_getrq}) or a bio merged into one. */
        private void request(TraceEvent e, long segs) {
            List<long[]> rqs = pending.computeIfAbsent(e.device(), k -> new ArrayList<>());
            if (e.type() == EventType.GETRQ) {
                rqs.add(new long[] {e.sector(), e.nrSectors(), segs, 1});
                return;
            }
            boolean back = e.type() == EventType.BIO_BACKMERGE;
            for (long[] rq : rqs) {
                if (back ? rq[0] + rq[1] == e.sector() : rq[0] == e.sector() + e.nrSectors()) {
                    if (!back) {
                        rq[0] = e.sector();
                    }
                    rq[1] += e.nrSectors();
                    rq[2] += segs;
                    rq[3]++;
                    return;
                }
            }
            fail(e, "a merge into no request of " + e.device());
        }

        /** The buffer offset of a remap's source: the part of the bio queued at the source device it covers. */
        private long sourceOffset(TraceEvent remap) {
            String from = remap.extra().startsWith("from=") ? remap.extra().substring(5) : "";
            int colon = from.lastIndexOf(':');
            if (colon < 0) {
                fail(remap, "a remap without from=DEV:SECTOR");
            }
            return offsetIn(from.substring(0, colon), Long.parseLong(from.substring(colon + 1)), remap.nrSectors(),
                    remap);
        }

        /** The buffer offset of dd's own bio at {@code sector} of the target: dd reuses its buffer every block. */
        private long topOffset(long sector) {
            return Math.floorMod(sector * 512 - start, bs);
        }

        /**
         * The buffer offset of {@code [sector, sector + n)} of a bio queued or remapped at {@code device} in this
         * operation; for the target, which dd writes, also of dd's own bio (a partition's bio is remapped to the
         * disk before it is queued).
         */
        private long offsetIn(String device, long sector, long n, TraceEvent e) {
            List<long[]> known = bios.getOrDefault(device, List.of());
            for (int i = known.size() - 1; i >= 0; i--) {
                long[] b = known.get(i);
                if (sector >= b[0] && sector + n <= b[0] + b[1]) {
                    return b[2] + (sector - b[0]) * 512;
                }
            }
            if (device.equals(target)) {
                return topOffset(sector);
            }
            fail(e, "no bio queued or remapped at " + device + " holds sectors " + sector + "+" + n);
            return -1;
        }

        private void check(TraceEvent e, long segs, QueueLimits l, String what) {
            if (segs > l.maxSegments()) {
                fail(e, what + " has " + segs + " segments, more than max_segments " + l.maxSegments() + " of "
                        + e.device() + " (max_segment_size " + l.maxSegmentSize() + ", buffer runs of " + runBytes
                        + " bytes)");
            }
        }

        private void fail(TraceEvent e, String what) {
            throw new AssertionError((e == null ? "" : CaseRun.line(e) + ": ") + what + "\n  in operation: " + o.op()
                    + "\n  its events" + (e == null ? "" : " on " + e.device()) + ":\n"
                    + CaseRun.show(o.events(), x -> e == null || x.device().equals(e.device()), 40));
        }
    }
}
