package dev.dmmodel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * How many recorded cases the engine reproduces, per trace folder and compare mode, as numbers a test can
 * hold: the outcomes {@link KernelTraceConformanceTest} checks case by case ({@link ConformanceOutcomes}),
 * counted. Skipped, saying where it looked, without the shared folder.
 */
class ConformanceSummaryTest {

    /**
     * Per mode: cases compared in it, cases whose traces match, and cases whose request sizes were compared
     * (and matched, since a matching case matched its requests too).
     */
    record Counts(int cases, int matching, int requestSizesCompared) {
    }

    /** {@code folder -> mode -> counts} over the folders' cases with a {@code compare.txt}. */
    static Map<String, Map<CompareMode, Counts>> measure(Path shared) {
        Map<String, Map<CompareMode, Counts>> out = new LinkedHashMap<>();
        for (String folder : SharedFolders.TRACE_FOLDERS) {
            Path root = shared.resolve(folder);
            Assumptions.assumeTrue(Files.isDirectory(root), () -> root + " not found: conformance counts skipped");
            Map<CompareMode, Counts> perMode = new EnumMap<>(CompareMode.class);
            for (Path dir : SharedFolders.casesRun(folder, root)) {
                ConformanceOutcomes.Outcome o = ConformanceOutcomes.of(folder, dir);
                CompareMode mode = o.mode().orElseThrow(() -> new AssertionError(o.id() + ": no compare mode: "
                        + o.failure().map(Throwable::getMessage).orElse("")));
                Counts c = perMode.getOrDefault(mode, new Counts(0, 0, 0));
                perMode.put(mode, new Counts(c.cases() + 1, c.matching() + (o.matches() ? 1 : 0),
                        c.requestSizesCompared() + (o.matches() && o.requestSizesCompared() ? 1 : 0)));
            }
            out.put(folder, perMode);
        }
        return out;
    }

    @Test
    void casesMatchingPerFolderAndModeRegressionGuard() {
        Optional<Path> shared = SharedFolders.shared();
        Assumptions.assumeTrue(shared.isPresent(), () -> "shared/ folder not found (system property "
                + SharedFolders.PROPERTY + " = " + System.getProperty(SharedFolders.PROPERTY)
                + "): conformance counts skipped");
        Map<String, Map<CompareMode, Counts>> measured = measure(shared.get());

        // Measured on the recordings. The case counts are the folders' compare.txt files: 6.1 has 12 sequence
        // cases (lp-*-direct64k 2, s3-* 5, ss-* 5), 5 multiset (lp-*-buffered4k 2, mr-* 3) and 15 multiset-data
        // (thin-*); 6.12 has 10 sequence (s3-*, ss-*) and 15 multiset-data. Every case matches but the known gap
        // (known-gaps.txt): 6.1 mr-bs1M-xfs512-mounted (multiset); thin-lvm-zy-buffered1M matches in both folders
        // since its setup's lvremove and lvcreate run. Request sizes are compared where request-sizes.txt says
        // yes: 9 thin cases on 6.1 (with thin-b128-zoff-direct1M, since dm-thin's worker issues outside the
        // writer's plug), 10 on 6.12 (both thin-b128-*-direct1M); all of them match.
        assertThat(measured.get("kernel-traces")).isEqualTo(Map.of(
                CompareMode.SEQUENCE, new Counts(12, 12, 0),
                CompareMode.MULTISET, new Counts(5, 4, 0),
                CompareMode.MULTISET_DATA, new Counts(15, 15, 9)));
        assertThat(measured.get("kernel-traces-6.12")).isEqualTo(Map.of(
                CompareMode.SEQUENCE, new Counts(10, 10, 0),
                CompareMode.MULTISET_DATA, new Counts(15, 15, 10)));
        // 5.10 and 7.2 have the 6.1 set of cases (12 sequence, 5 multiset, 15 multiset-data). 5.10 fails 1 (known
        // gap: mr-bs1M-xfs512-mounted's disk segments; the two buffered thin cases match with the thin device's
        // remaps to the pool compared as part of the modelled ones, timing-dependent-events.txt);
        // request sizes are compared in 12 thin cases (the 9 of 6.1 plus the three 1 MiB direct writes, which
        // 5.10 splits into 256-sector bios at the thin device). 7.2 fails 3 (known gaps: mr-bs1M-xfs512-mounted,
        // whose first two readahead windows depend on which pages were physically adjacent; s3-4kn-1M-at0 and
        // ss-str-1M-at32k, where a scheduler tick let kblockd dispatch a disk's first request before the writer's
        // later pieces could merge into it in mq-deadline); the other two mr-* cases match with read-ahead in large
        // folios (KernelProfile.readAheadFolios), the other 1 MiB sequence cases merge in the scheduler as
        // unpluggedRequestsWaitInScheduler models; request sizes in 8 thin cases (the 6.1 nine without
        // thin-b128-zoff-direct1M, whose pieces merge into 1280/768-sector requests unless a tick comes).
        assertThat(measured.get("kernel-traces-5.10")).isEqualTo(Map.of(
                CompareMode.SEQUENCE, new Counts(12, 12, 0),
                CompareMode.MULTISET, new Counts(5, 4, 0),
                CompareMode.MULTISET_DATA, new Counts(15, 15, 12)));
        assertThat(measured.get("kernel-traces-7.2")).isEqualTo(Map.of(
                CompareMode.SEQUENCE, new Counts(12, 10, 0),
                CompareMode.MULTISET, new Counts(5, 4, 0),
                CompareMode.MULTISET_DATA, new Counts(15, 15, 8)));
        // 6.12-stacks: only the families the model has are run (SharedFolders.FOLDERS). Multiset: the 14 dm-crypt
        // cases (all match; request sizes in the 8 whose requests do not depend on kcryptd's write thread or
        // writeback: the three 1 MiB direct reads, 8 x RS 256 each; the three 4 KiB direct writes, 1 x WS 8; the two
        // 1 MiB discards, 1 x DS 2048); the 10 classic snapshot cases (9 match; snap-c4k-origin-w1M-at1M is a known
        // gap: the exception store's commit batching is timing-dependent, 3 commits recorded, the model's
        // deterministic rule gives the rerun's 2; request sizes in the 9 single-chunk ones, where copy, commit and
        // write each wait for the one before); the 4 cache-wt-* (dm-cache) and 3 writecache-* cases (all match but
        // the known gap writecache-buf1M-at16M, no metadata commit recorded within the phase; request sizes in
        // cache-wt-w1M-at0 16 x WS 128, cache-wt-w4k-at2M 1 x WS 8, cache-wt-r1M-at4M 16 x RS 128,
        // writecache-w1M-at0 2 x WS 1024, WS 128, the flush, WFS 8, and writecache-r1M-at0 256 x RS 8); the 2 NVMe
        // buffered cases (both match; 2 x WS 1024 each); the 8 md raid0/raid1/raid10 cases (all match, request sizes in
        // all 8: each member piece one request, request-sizes.txt); the 10 md raid5 cases (9 match; the known gap
        // md-raid5-4x64k-lvm-lv-w4k-at0 needs the stripe cache from before the snapshot; request sizes in the 6 whose
        // requests do not depend on raid5d's batching); the 6 LVM raid (dm-raid) cases (all match, with the rmeta
        // superblock/bitmap writes; request sizes in all 6). 57 cases, 54 matching, 44 with request sizes.
        // Sequence: the
        // 14 dm-multipath cases (7 mpath-* over scsi_debug, 7 mpath-scsi-* over qemu scsi-hd), all matching, their
        // block_rq_issue events compared in place at dm-0 and at the path each request was cloned onto; and the 10
        // NVMe direct cases: 9 match, nvme-raw512-w2M-at1M is a known gap (a physically contiguous 2 MiB buffer, one
        // 4096-sector bio, against the conformance run's scattered pages).
        assertThat(measured.get("kernel-traces-6.12-stacks")).isEqualTo(Map.of(
                CompareMode.MULTISET, new Counts(57, 54, 44),
                CompareMode.SEQUENCE, new Counts(24, 23, 0)));
    }

    @Test
    void theCasesThatDoNotMatchAreTheKnownGaps() {
        Optional<Path> shared = SharedFolders.shared();
        Assumptions.assumeTrue(shared.isPresent(), () -> "shared/ folder not found (system property "
                + SharedFolders.PROPERTY + " = " + System.getProperty(SharedFolders.PROPERTY)
                + "): known gaps not checked");
        java.util.Set<String> failing = new java.util.TreeSet<>();
        for (String folder : SharedFolders.TRACE_FOLDERS) {
            Path root = shared.get().resolve(folder);
            Assumptions.assumeTrue(Files.isDirectory(root), () -> root + " not found: known gaps not checked");
            for (Path dir : SharedFolders.casesRun(folder, root)) {
                ConformanceOutcomes.Outcome o = ConformanceOutcomes.of(folder, dir);
                if (!o.matches()) {
                    failing.add(o.id());
                }
            }
        }
        assertThat(failing).containsExactlyInAnyOrderElementsOf(KernelTraceConformanceTest.knownGaps().keySet());
    }
}
