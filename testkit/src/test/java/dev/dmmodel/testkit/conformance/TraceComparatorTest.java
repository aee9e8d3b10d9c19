package dev.dmmodel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class TraceComparatorTest {

    private static final Set<String> DM = Set.of("dm-0", "dm-1", "dm-2", "dm-3");
    /** A thin pool's metadata device dm-0 = linear sdb 0 8192 (the thin-* cases' tmeta). */
    private static final List<DeviceRange> METADATA = List.of(new DeviceRange("dm-0", 0, 8192),
            new DeviceRange("sdb", 0, 8192));
    private static final CompareScope SCOPE = new CompareScope(DM, METADATA, false);

    /** Builds events with consecutive sequence numbers, as a trace would have them. */
    private static final class Trace {
        private final List<TraceEvent> events = new ArrayList<>();

        Trace add(String device, EventType type, String rwbs, long sector, long nr, String extra) {
            events.add(new TraceEvent(events.size(), device, type, rwbs, sector, nr, extra));
            return this;
        }

        Trace queue(String device, String rwbs, long sector, long nr) {
            return add(device, EventType.BIO_QUEUE, rwbs, sector, nr, "");
        }

        Trace remap(String device, String rwbs, long sector, long nr, String from) {
            return add(device, EventType.BIO_REMAP, rwbs, sector, nr, "from=" + from);
        }

        Trace split(String device, String rwbs, long sector) {
            return add(device, EventType.SPLIT, rwbs, sector, -1, "new_sector=" + sector);
        }

        Trace issue(String device, String rwbs, long sector, long nr) {
            return add(device, EventType.RQ_ISSUE, rwbs, sector, nr, "bytes=" + nr * 512);
        }

        List<TraceEvent> list() {
            return List.copyOf(events);
        }
    }

    private static Comparison compare(Trace recorded, Trace modelled, CompareMode mode) {
        return TraceComparator.compare(recorded.list(), modelled.list(), mode, SCOPE);
    }

    private static Comparison compareWithRequests(Trace recorded, Trace modelled, CompareMode mode) {
        return TraceComparator.compare(recorded.list(), modelled.list(), mode, SCOPE.withRequestSizes(true));
    }

    /** The start of ss-str-1M-at32k: a striped write split at chunk boundaries. */
    private static Trace striped() {
        return new Trace()
                .queue("dm-0", "WS", 64, 2048)
                .remap("sda", "WS", 2112, 64, "dm-0:64")
                .queue("sda", "WS", 2112, 64)
                .split("dm-0", "WS", 128)
                .add("sda", EventType.GETRQ, "WS", 2112, 64, "")
                .remap("sdb", "WS", 2048, 128, "dm-0:128")
                .queue("sdb", "WS", 2048, 128)
                .split("dm-0", "WS", 256)
                .add("sdb", EventType.GETRQ, "WS", 2048, 128, "")
                .remap("sda", "WS", 2176, 128, "dm-0:256")
                .queue("sda", "WS", 2176, 128)
                .add("sda", EventType.BIO_BACKMERGE, "WS", 2176, 128, "")
                .issue("sda", "WS", 2112, 192)
                .issue("sdb", "WS", 2048, 128)
                .add("sda", EventType.RQ_COMPLETE, "WS", 2112, 192, "err=0")
                .add("dm-0", EventType.BIO_COMPLETE, "WS", 64, 2048, "err=0");
    }

    @Nested
    class Sequence {

        @Test
        void identicalTracesMatch() {
            Comparison c = compare(striped(), striped(), CompareMode.SEQUENCE);

            assertThat(c.matches()).isTrue();
            assertThat(c.mode()).isEqualTo(CompareMode.SEQUENCE);
            assertThat(c.devices()).extracting(Comparison.DeviceCounts::device).containsExactly("dm-0", "sda", "sdb");
            // dm-0: queue + 2 splits; sda: remap, queue, remap, queue, issue; sdb: remap, queue, issue
            assertThat(c.device("dm-0")).hasValue(new Comparison.DeviceCounts("dm-0", 3, 3, 3));
            assertThat(c.device("sda")).hasValue(new Comparison.DeviceCounts("sda", 5, 5, 5));
            assertThat(c.device("sdb")).hasValue(new Comparison.DeviceCounts("sdb", 3, 3, 3));
            assertThat(c.compared()).isEqualTo(11);
            assertThat(c.matched()).isEqualTo(11);
            assertThat(c.report()).startsWith("sequence: the traces agree");
        }

        @Test
        void aDifferentOrderOnOneDeviceFails() {
            Trace recorded = new Trace().queue("sda", "W", 0, 8).queue("sda", "W", 8, 8).queue("sdb", "W", 0, 8);
            Trace modelled = new Trace().queue("sda", "W", 8, 8).queue("sda", "W", 0, 8).queue("sdb", "W", 0, 8);

            Comparison c = compare(recorded, modelled, CompareMode.SEQUENCE);

            assertThat(c.matches()).isFalse();
            assertThat(c.device("sda")).hasValue(new Comparison.DeviceCounts("sda", 2, 2, 0));
            assertThat(c.device("sdb").orElseThrow().matches()).isTrue();
            assertThat(c.differing()).extracting(Comparison.DeviceCounts::device).containsExactly("sda");
            assertThat(c.report())
                    .contains("differ on 1 of 2 device(s)")
                    .contains("sda: 2 recorded, 2 modelled, 0 equal in place; 2 position(s) differ, the first at index 0")
                    .contains("[0] recorded: 0,sda,block_bio_queue,W,0,8,")
                    .contains("modelled: 0,sda,block_bio_queue,W,8,8,")
                    .contains("[1] recorded: 1,sda,block_bio_queue,W,8,8,");
        }

        @Test
        void theSameEventsInAnotherOrderAcrossDevicesMatch() {
            Trace recorded = new Trace().queue("sda", "W", 0, 8).queue("sdb", "W", 0, 8).queue("sda", "W", 8, 8)
                    .queue("sdb", "W", 8, 8);
            Trace modelled = new Trace().queue("sdb", "W", 0, 8).queue("sdb", "W", 8, 8).queue("sda", "W", 0, 8)
                    .queue("sda", "W", 8, 8);

            assertThat(compare(recorded, modelled, CompareMode.SEQUENCE).matches()).isTrue();
        }

        @Test
        void requestEventsOtherThanIssueAreNotCompared() {
            Trace recorded = striped();
            Trace modelled = new Trace();
            for (TraceEvent e : recorded.list()) {
                if (e.type() != EventType.GETRQ && e.type() != EventType.BIO_BACKMERGE
                        && e.type() != EventType.RQ_COMPLETE && e.type() != EventType.BIO_COMPLETE) {
                    modelled.add(e.device(), e.type(), e.rwbs(), e.sector(), e.nrSectors(), e.extra());
                }
            }
            modelled.add("sda", EventType.RQ_INSERT, "WS", 2112, 192, "bytes=98304");

            assertThat(compare(recorded, modelled, CompareMode.SEQUENCE).matches()).isTrue();
        }

        @Test
        void anIssueOfAnotherSizeFails() {
            Trace recorded = new Trace().queue("sda", "WS", 0, 256).issue("sda", "WS", 0, 256);
            Trace modelled = new Trace().queue("sda", "WS", 0, 256).issue("sda", "WS", 0, 128).issue("sda", "WS", 128, 128);

            Comparison c = compare(recorded, modelled, CompareMode.SEQUENCE);

            assertThat(c.matches()).isFalse();
            assertThat(c.device("sda")).hasValue(new Comparison.DeviceCounts("sda", 2, 3, 1));
            assertThat(c.report())
                    .contains("[1] recorded: 1,sda,block_rq_issue,WS,0,256,bytes=131072")
                    .contains("modelled: 1,sda,block_rq_issue,WS,0,128,bytes=65536")
                    .contains("[2] recorded: <none: the recorded sequence has ended>")
                    .contains("modelled: 2,sda,block_rq_issue,WS,128,128,bytes=65536");
        }

        @Test
        void rwbsAndSizesAreCompared() {
            Trace recorded = new Trace().queue("sda", "WS", 0, 8);

            assertThat(compare(recorded, new Trace().queue("sda", "W", 0, 8), CompareMode.SEQUENCE).matches()).isFalse();
            assertThat(compare(recorded, new Trace().queue("sda", "WS", 0, 16), CompareMode.SEQUENCE).matches()).isFalse();
            assertThat(compare(recorded, new Trace().remap("sda", "WS", 0, 8, "dm-0:0"), CompareMode.SEQUENCE)
                    .matches()).isFalse();
        }

        @Test
        void aSplitIsComparedOnItsSectorOnly() {
            Trace recorded = new Trace().split("dm-0", "WS", 128);

            assertThat(compare(recorded, new Trace().add("dm-0", EventType.SPLIT, "W", 128, 8, ""), CompareMode.SEQUENCE)
                    .matches()).isTrue();
            assertThat(compare(recorded, new Trace().split("dm-0", "WS", 256), CompareMode.SEQUENCE).matches()).isFalse();
        }

        @Test
        void sequenceNumbersAndExtraAreNotCompared() {
            Trace recorded = new Trace().remap("sda", "WS", 2112, 64, "dm-0:64");
            List<TraceEvent> modelled = List.of(
                    new TraceEvent(41, "sda", EventType.BIO_REMAP, "WS", 2112, 64, "from=dm-1:64"));

            assertThat(TraceComparator.compare(recorded.list(), modelled, CompareMode.SEQUENCE, SCOPE).matches())
                    .isTrue();
        }

        @Test
        void aDeviceOnlyTheModelHasFails() {
            Trace recorded = new Trace().queue("sda", "W", 0, 8);
            Trace modelled = new Trace().queue("sda", "W", 0, 8).queue("sdb", "W", 0, 8);

            Comparison c = compare(recorded, modelled, CompareMode.SEQUENCE);

            assertThat(c.matches()).isFalse();
            assertThat(c.device("sdb")).hasValue(new Comparison.DeviceCounts("sdb", 0, 1, 0));
            assertThat(c.report()).contains("[0] recorded: <none: the recorded sequence has ended>");
        }

        @Test
        void emptyTracesMatch() {
            Comparison c = compare(new Trace(), new Trace(), CompareMode.SEQUENCE);

            assertThat(c.matches()).isTrue();
            assertThat(c.devices()).isEmpty();
        }
    }

    @Nested
    class Multiset {

        @Test
        void theOrderOnADeviceDoesNotMatter() {
            Trace recorded = new Trace().queue("dm-0", "RA", 0, 32).queue("dm-0", "RA", 32, 64).queue("dm-0", "RA", 96, 128);
            Trace modelled = new Trace().queue("dm-0", "RA", 96, 128).queue("dm-0", "RA", 0, 32).queue("dm-0", "RA", 32, 64);

            assertThat(compare(recorded, modelled, CompareMode.MULTISET).matches()).isTrue();
        }

        @Test
        void countsMatterAndTheReportListsMissingAndExtraEvents() {
            Trace recorded = new Trace().queue("dm-0", "W", 0, 8).queue("dm-0", "W", 0, 8).split("dm-0", "W", 128)
                    .queue("dm-0", "W", 8, 8);
            Trace modelled = new Trace().queue("dm-0", "W", 0, 8).split("dm-0", "W", 128).queue("dm-0", "W", 8, 8)
                    .queue("dm-0", "W", 16, 8).queue("dm-0", "W", 16, 8);

            Comparison c = compare(recorded, modelled, CompareMode.MULTISET);

            assertThat(c.matches()).isFalse();
            assertThat(c.device("dm-0")).hasValue(new Comparison.DeviceCounts("dm-0", 4, 5, 3));
            assertThat(c.report())
                    .contains("dm-0: 4 recorded, 5 modelled, 3 matched; 1 missing (recorded, not modelled), 2 extra")
                    .contains("missing 1x block_bio_queue W 0 + 8  (recorded 2, modelled 1; first recorded at seq 0)")
                    .contains("extra   2x block_bio_queue W 16 + 8  (recorded 0, modelled 2; first modelled at seq 3)");
        }

        @Test
        void requestEventsAreNotCompared() {
            Trace recorded = new Trace().queue("sda", "W", 0, 8).issue("sda", "W", 0, 8)
                    .add("sda", EventType.BIO_BACKMERGE, "W", 8, 8, "");
            Trace modelled = new Trace().queue("sda", "W", 0, 8).issue("sda", "W", 0, 16);

            Comparison c = compare(recorded, modelled, CompareMode.MULTISET);

            assertThat(c.matches()).isTrue();
            assertThat(c.device("sda")).hasValue(new Comparison.DeviceCounts("sda", 1, 1, 1));
        }

        @Test
        void disksAreCompared() {
            Trace recorded = new Trace().queue("dm-1", "W", 0, 2048).remap("sda", "W", 8192, 2048, "dm-1:0");
            Trace modelled = new Trace().queue("dm-1", "W", 0, 2048).remap("sda", "W", 8192, 1344, "dm-1:0")
                    .remap("sda", "W", 9536, 704, "dm-1:1344");

            Comparison c = compare(recorded, modelled, CompareMode.MULTISET);

            assertThat(c.matches()).isFalse();
            assertThat(c.differing()).extracting(Comparison.DeviceCounts::device).containsExactly("sda");
        }
    }

    @Nested
    class MultisetDm {

        @Test
        void disksAndPartitionsAreIgnored() {
            // the split at the AHCI disk depends on the user's pages: 2048 in one run, 1344 + 704 in another
            Trace recorded = new Trace().queue("dm-1", "W", 0, 2048).remap("sda", "W", 8192, 2048, "dm-1:0")
                    .queue("sda", "W", 8192, 2048).remap("sda1", "W", 0, 8, "dm-1:0");
            Trace modelled = new Trace().queue("dm-1", "W", 0, 2048).remap("sda", "W", 8192, 2048, "dm-1:0")
                    .queue("sda", "W", 8192, 2048).split("sda", "W", 9536);

            Comparison c = compare(recorded, modelled, CompareMode.MULTISET_DM);

            assertThat(c.matches()).isTrue();
            assertThat(c.devices()).extracting(Comparison.DeviceCounts::device).containsExactly("dm-1");
        }

        @Test
        void aDifferenceOnADmDeviceFails() {
            Trace recorded = new Trace().queue("dm-1", "W", 0, 2048);
            Trace modelled = new Trace().queue("dm-1", "W", 0, 1344).queue("dm-1", "W", 1344, 704);

            Comparison c = compare(recorded, modelled, CompareMode.MULTISET_DM);

            assertThat(c.matches()).isFalse();
            assertThat(c.device("dm-1")).hasValue(new Comparison.DeviceCounts("dm-1", 1, 2, 0));
        }

        @Test
        void theMetadataDeviceAndFlushesAreStillCompared() {
            Trace recorded = new Trace().queue("dm-0", "W", 0, 8).queue("dm-1", "FWS", 0, 0);

            Comparison c = compare(recorded, new Trace(), CompareMode.MULTISET_DM);

            assertThat(c.matches()).isFalse();
            assertThat(c.differing()).extracting(Comparison.DeviceCounts::device).containsExactly("dm-0", "dm-1");
        }
    }

    @Nested
    class MultisetData {

        /** A thin write with zeroing: thin dm-3, pool dm-2, data dm-1 = linear sdb 8192, metadata dm-0 on sdb 0. */
        private Trace thinWrite() {
            return new Trace()
                    .queue("dm-3", "WS", 0, 8)
                    .queue("dm-2", "W", 0, 1024)
                    .remap("dm-1", "W", 0, 1024, "dm-2:0")
                    .queue("dm-1", "W", 0, 1024)
                    .remap("sdb", "W", 8192, 1024, "dm-1:0")
                    .queue("sdb", "W", 8192, 1024)
                    .remap("dm-2", "WS", 0, 8, "dm-3:0")
                    .queue("dm-2", "WS", 0, 8)
                    .remap("dm-1", "WS", 0, 8, "dm-2:0")
                    .queue("dm-1", "WS", 0, 8)
                    .remap("sdb", "WS", 8192, 8, "dm-1:0")
                    .queue("sdb", "WS", 8192, 8);
        }

        @Test
        void metadataIoOnItsDeviceAndOnTheDiskAndZeroLengthFlushesAreIgnored() {
            Trace recorded = thinWrite()
                    .queue("dm-0", "W", 16, 8)                       // a metadata commit
                    .remap("sdb", "W", 16, 8, "dm-0:16")             // ... on the disk: inside sdb 0+8192
                    .queue("sdb", "W", 16, 8)
                    .remap("sdb", "W", 8184, 8, "dm-0:8184")         // the metadata device's last block
                    .queue("dm-1", "FWS", 0, 0)                      // the pool's flush of the data device
                    .remap("sdb", "FWS", 8192, 0, "dm-1:0")
                    .queue("sdb", "FWS", 8192, 0);
            Trace modelled = thinWrite()
                    .queue("dm-0", "W", 24, 8)                       // committed at another time, elsewhere
                    .queue("dm-0", "FWS", 0, 0)
                    .queue("dm-2", "FWS", 0, 0)
                    .queue("dm-1", "FWS", 0, 0)
                    .queue("dm-1", "FWS", 0, 0);

            Comparison c = compare(recorded, modelled, CompareMode.MULTISET_DATA);

            assertThat(c.matches()).as(c.report()).isTrue();
            assertThat(c.devices()).extracting(Comparison.DeviceCounts::device)
                    .containsExactly("dm-1", "dm-2", "dm-3", "sdb");
            // dm-1: remap + queue of the zeroing write and of the data write
            assertThat(c.device("dm-1")).hasValue(new Comparison.DeviceCounts("dm-1", 4, 4, 4));
            // sdb: the same four data events; the metadata rows at 16 and 8184 and the flush are left out
            assertThat(c.device("sdb")).hasValue(new Comparison.DeviceCounts("sdb", 4, 4, 4));
            assertThat(c.requestSizesCompared()).isFalse();
            assertThat(c.report()).contains("events inside the thin-pool metadata [dm-0 0+8192, sdb 0+8192]");
        }

        @Test
        void theDisksDataBiosAreCompared() {
            // the model sends the data write to the wrong place on the disk: only the disk shows it
            Trace modelled = new Trace();
            for (TraceEvent e : thinWrite().list()) {
                long sector = e.device().equals("sdb") && e.nrSectors() == 8 ? 8200 : e.sector();
                modelled.add(e.device(), e.type(), e.rwbs(), sector, e.nrSectors(), e.extra());
            }

            Comparison c = compare(thinWrite(), modelled, CompareMode.MULTISET_DATA);

            assertThat(c.matches()).isFalse();
            assertThat(c.differing()).extracting(Comparison.DeviceCounts::device).containsExactly("sdb");
            assertThat(c.device("sdb")).hasValue(new Comparison.DeviceCounts("sdb", 4, 4, 2));
            assertThat(c.report()).contains("missing 1x block_bio_remap WS 8192 + 8");
        }

        @Test
        void anEventReachingPastTheMetadataIsCompared() {
            // 8188+8 ends at 8196, past the metadata's end at 8192: not inside it, so it is compared
            Trace recorded = new Trace().remap("sdb", "W", 8188, 8, "dm-0:8188");

            Comparison c = compare(recorded, new Trace(), CompareMode.MULTISET_DATA);

            assertThat(c.matches()).isFalse();
            assertThat(c.device("sdb")).hasValue(new Comparison.DeviceCounts("sdb", 1, 0, 0));
        }

        @Test
        void splitsAreComparedOnDmDevicesButNotOnDisks() {
            // a 1 MiB O_DIRECT write: pool dm-2 splits it at its block (compared); the AHCI disk cut it at 1344
            // in one run and not at all in another (168 segments against the user buffer's layout: not compared)
            Trace recorded = new Trace().split("dm-3", "WS", 2048).queue("sdb", "WS", 8192, 2048);
            Trace modelled = new Trace().split("dm-3", "WS", 2048).queue("sdb", "WS", 8192, 2048)
                    .split("sdb", "WS", 8192 + 1344);

            assertThat(compare(recorded, modelled, CompareMode.MULTISET_DATA).matches()).isTrue();
            assertThat(compare(recorded, new Trace().queue("sdb", "WS", 8192, 2048), CompareMode.MULTISET_DATA)
                    .differing()).extracting(Comparison.DeviceCounts::device).containsExactly("dm-3");
        }

        @Test
        void aMissingZeroingWriteFails() {
            Trace recorded = thinWrite();
            Trace modelled = new Trace()
                    .queue("dm-3", "WS", 0, 8)
                    .remap("dm-2", "WS", 0, 8, "dm-3:0")
                    .queue("dm-2", "WS", 0, 8)
                    .remap("dm-1", "WS", 0, 8, "dm-2:0")
                    .queue("dm-1", "WS", 0, 8)
                    .remap("sdb", "WS", 8192, 8, "dm-1:0")
                    .queue("sdb", "WS", 8192, 8);

            Comparison c = compare(recorded, modelled, CompareMode.MULTISET_DATA);

            assertThat(c.matches()).isFalse();
            assertThat(c.differing()).extracting(Comparison.DeviceCounts::device).containsExactly("dm-1", "dm-2", "sdb");
            assertThat(c.report())
                    .contains("dm-1: 4 recorded, 2 modelled, 2 matched; 2 missing")
                    .contains("missing 1x block_bio_remap W 0 + 1024  (recorded 1, modelled 0; first recorded at seq 2)")
                    .contains("missing 1x block_bio_queue W 0 + 1024  (recorded 1, modelled 0; first recorded at seq 3)")
                    .contains("dm-2: 3 recorded, 2 modelled, 2 matched; 1 missing")
                    .contains("sdb: 4 recorded, 2 modelled, 2 matched; 2 missing")
                    .contains("missing 1x block_bio_remap W 8192 + 1024");
        }

        @Test
        void splitsAreKept() {
            Trace recorded = new Trace().split("dm-3", "W", 2048);

            assertThat(compare(recorded, new Trace(), CompareMode.MULTISET_DATA).matches()).isFalse();
        }
    }

    /**
     * A 5.10 buffered write to a thin device dm-3 (pool dm-2, data dm-1): two 4 KiB writeback bios to a new block.
     * The first waits for the block's provisioning and reaches the pool without a traced remap; the second is
     * remapped at once (traced) only if the block was ready when it came. The model provisions before the second
     * arrives and so traces its remap; the recorded kernel traced it in one run and not in another.
     */
    @Nested
    class AtMostModelled {

        private final CompareScope timing = SCOPE.withAtMostModelled(
                Set.of(new CompareScope.DeviceEvents("dm-2", EventType.BIO_REMAP)));

        private Trace write(boolean secondRemapTraced) {
            Trace t = new Trace()
                    .queue("dm-3", "WS", 0, 8)
                    .queue("dm-2", "WS", 0, 8)
                    .queue("dm-3", "WS", 8, 8);
            if (secondRemapTraced) {
                t.remap("dm-2", "WS", 8, 8, "dm-3:8");
            }
            return t.queue("dm-2", "WS", 8, 8);
        }

        @Test
        void aModelledRemapTheKernelDidNotTraceIsLeftOutAndCounted() {
            Comparison c = TraceComparator.compare(write(false).list(), write(true).list(), CompareMode.MULTISET_DATA,
                    timing);
            // dm-2: recorded 2 queues; modelled 2 queues + 1 remap, of which the remap is beyond the recorded (0)
            assertThat(c.matches()).as(c.toString()).isTrue();
            assertThat(c.device("dm-2").orElseThrow().compared()).isEqualTo(2);
            assertThat(c.toString()).contains("timing-dependent: block_bio_remap on dm-2 compared as part of the"
                    + " modelled ones; 1 modelled beyond the recorded left out");
        }

        @Test
        void withoutTheScopeTheSameTracesDiffer() {
            Comparison c = TraceComparator.compare(write(false).list(), write(true).list(), CompareMode.MULTISET_DATA,
                    SCOPE);
            assertThat(c.matches()).isFalse();
            assertThat(c.toString()).contains("extra   1x block_bio_remap WS 8 + 8");
        }

        @Test
        void aRecordedRemapTheModelLacksIsStillMissing() {
            // the kernel traced the remap; the model (as if it deferred the bio) did not: a real difference
            Comparison c = TraceComparator.compare(write(true).list(), write(false).list(), CompareMode.MULTISET_DATA,
                    timing);
            assertThat(c.matches()).isFalse();
            assertThat(c.toString()).contains("missing 1x block_bio_remap WS 8 + 8");
        }

        @Test
        void aRemapAtAnotherSectorIsNotAbsorbed() {
            // the model's remap is at 16, not the recorded 8: the recorded one is missing, the modelled one dropped
            Trace modelled = new Trace().queue("dm-3", "WS", 0, 8).queue("dm-2", "WS", 0, 8).queue("dm-3", "WS", 8, 8)
                    .remap("dm-2", "WS", 16, 8, "dm-3:8").queue("dm-2", "WS", 8, 8);
            Comparison c = TraceComparator.compare(write(true).list(), modelled.list(), CompareMode.MULTISET_DATA,
                    timing);
            assertThat(c.matches()).isFalse();
            assertThat(c.toString()).contains("missing 1x block_bio_remap WS 8 + 8");
        }

        @Test
        void otherEventsOnTheDeviceAreComparedExactly() {
            // one more modelled block_bio_queue on dm-2 is extra even though dm-2's remaps are timing-dependent
            Trace modelled = write(false).queue("dm-2", "WS", 16, 8);
            Comparison c = TraceComparator.compare(write(false).list(), modelled.list(), CompareMode.MULTISET_DATA,
                    timing);
            assertThat(c.matches()).isFalse();
            assertThat(c.toString()).contains("extra   1x block_bio_queue WS 16 + 8");
        }

        @Test
        void theSequenceModeComparesInPlaceRegardless() {
            Comparison c = TraceComparator.compare(write(false).list(), write(true).list(), CompareMode.SEQUENCE,
                    timing);
            assertThat(c.matches()).isFalse();
        }

        @Test
        void aBlankDeviceIsRefused() {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new CompareScope.DeviceEvents(" ",
                            EventType.BIO_REMAP))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("device: blank; expected a kernel name such as dm-2");
        }
    }

    @Nested
    class RequestSizes {

        /** 1024 4 KiB writes at 8192.. on sdb as 8-sector requests, with two 1024-sector zeroing writes first. */
        private Trace requests(int writes) {
            Trace t = new Trace().issue("sdb", "W", 8192, 1024).issue("sdb", "W", 9216, 1024);
            for (int i = 0; i < writes; i++) {
                t.issue("sdb", "WS", 8192 + 8L * i, 8);
            }
            return t;
        }

        @Test
        void theSizesAreComparedInAnyOrderWhenTheScopeSaysSo() {
            Trace reversed = new Trace();
            List<TraceEvent> events = new ArrayList<>(requests(4).list());
            java.util.Collections.reverse(events);
            events.forEach(e -> reversed.add(e.device(), e.type(), e.rwbs(), e.sector(), e.nrSectors(), e.extra()));

            Comparison c = compareWithRequests(requests(4), reversed, CompareMode.MULTISET_DATA);

            assertThat(c.matches()).as(c.report()).isTrue();
            assertThat(c.requestSizesCompared()).isTrue();
            // 2 zeroing requests + 4 writes
            assertThat(c.requests()).containsExactly(new Comparison.DeviceCounts("sdb", 6, 6, 6));
            assertThat(c.devices()).isEmpty(); // no bio events in these traces
        }

        @Test
        void aRequestOfAnotherSizeFails() {
            // the model merged the two zeroing writes into one 2048-sector request
            Trace modelled = new Trace().issue("sdb", "W", 8192, 2048).issue("sdb", "WS", 8192, 8);

            Comparison c = compareWithRequests(requests(1), modelled, CompareMode.MULTISET_DATA);

            assertThat(c.matches()).isFalse();
            assertThat(c.requestsDiffering()).containsExactly(new Comparison.DeviceCounts("sdb", 3, 2, 1));
            assertThat(c.report())
                    .startsWith("multiset-data: the traces differ in request sizes on 1 of 1 device(s)")
                    .contains("sdb requests: 3 recorded, 2 modelled, 1 matched in size:")
                    .contains("block_rq_issue W 1024 sectors: recorded 2, modelled 0")
                    .contains("block_rq_issue W 2048 sectors: recorded 0, modelled 1");
        }

        @Test
        void theSectorIsNotComparedButTheRwbsIs() {
            Trace recorded = new Trace().issue("sdb", "WS", 9000, 8);

            assertThat(compareWithRequests(recorded, new Trace().issue("sdb", "WS", 12000, 8), CompareMode.MULTISET)
                    .matches()).isTrue();
            assertThat(compareWithRequests(recorded, new Trace().issue("sdb", "W", 9000, 8), CompareMode.MULTISET)
                    .matches()).isFalse();
        }

        @Test
        void aRequeuedIssueCountsOnce() {
            // 6.1 thin-b2048-zon-direct4k: the disk gave one WS 8 request back and it was issued again
            Trace recorded = requests(2).add("sdb", EventType.RQ_REQUEUE, "WS", 8200, 8, "")
                    .issue("sdb", "WS", 8200, 8);

            Comparison c = compareWithRequests(recorded, requests(2), CompareMode.MULTISET_DATA);

            assertThat(c.matches()).as(c.report()).isTrue();
            assertThat(c.requests()).containsExactly(new Comparison.DeviceCounts("sdb", 4, 4, 4));
        }

        @Test
        void flushesAndMetadataRequestsAreLeftOut() {
            Trace recorded = requests(1).issue("sdb", "FF", 0, 0)        // a flush request
                    .issue("sdb", "W", 16, 8).issue("sdb", "W", 40, 56);   // metadata commits inside sdb 0+8192

            Comparison c = compareWithRequests(recorded, requests(1), CompareMode.MULTISET_DATA);

            assertThat(c.matches()).as(c.report()).isTrue();
            assertThat(c.requests()).containsExactly(new Comparison.DeviceCounts("sdb", 3, 3, 3));
        }

        @Test
        void metadataRequestsCountOutsideMultisetData() {
            // multiset compares every device whole: a request at sdb 16 is data there
            Comparison c = compareWithRequests(requests(1).issue("sdb", "W", 16, 8), requests(1), CompareMode.MULTISET);

            assertThat(c.matches()).isFalse();
        }

        @Test
        void requestsAreNotComparedUnlessTheScopeSaysSo() {
            Comparison c = compare(requests(4), new Trace().issue("sdb", "W", 8192, 4096), CompareMode.MULTISET_DATA);

            assertThat(c.matches()).isTrue();
            assertThat(c.requestSizesCompared()).isFalse();
            assertThat(c.requests()).isEmpty();
        }

        @Test
        void aSequenceComparesRequestsInPlaceNotAsSizes() {
            // in a sequence the requests are compared as events; the request-size flag adds nothing
            Comparison c = compareWithRequests(requests(1), requests(1), CompareMode.SEQUENCE);

            assertThat(c.matches()).isTrue();
            assertThat(c.requestSizesCompared()).isFalse();
            assertThat(c.device("sdb")).hasValue(new Comparison.DeviceCounts("sdb", 3, 3, 3));
        }
    }

    @Test
    void theReportStaysShortWhenManyDevicesDiffer() {
        Trace recorded = new Trace();
        Trace modelled = new Trace();
        for (int d = 0; d < 30; d++) {
            for (int i = 0; i < 20; i++) {
                recorded.queue("sd" + (char) ('a' + d % 26) + (d / 26), "W", i * 8L, 8);
                modelled.queue("sd" + (char) ('a' + d % 26) + (d / 26), "W", i * 8L + 1, 8);
            }
        }

        for (CompareMode mode : List.of(CompareMode.SEQUENCE, CompareMode.MULTISET)) {
            Comparison c = compare(recorded, modelled, mode);

            assertThat(c.matches()).isFalse();
            assertThat(c.differing()).hasSize(30);
            assertThat(c.report().lines().count()).as(c.report()).isLessThanOrEqualTo(TraceComparator.MAX_REPORT_LINES);
            assertThat(c.report()).contains("more differing device(s): ");
        }
    }

    @Test
    void devicesAreOrderedByNameWithNumbersInNumericOrder() {
        Trace t = new Trace().queue("dm-10", "W", 0, 8).queue("sdb", "W", 0, 8).queue("dm-2", "W", 0, 8)
                .queue("sda1", "W", 0, 8).queue("sda", "W", 0, 8);

        assertThat(compare(t, t, CompareMode.MULTISET).devices()).extracting(Comparison.DeviceCounts::device)
                .containsExactly("dm-2", "dm-10", "sda", "sda1", "sdb");
    }

    @Test
    void compareModesReadTheirWords() {
        assertThat(CompareMode.ofWord("multiset-data\n")).isEqualTo(CompareMode.MULTISET_DATA);
        assertThat(CompareMode.ofWord("sequence")).isEqualTo(CompareMode.SEQUENCE);
        assertThat(CompareMode.ofWord("multiset-dm")).isEqualTo(CompareMode.MULTISET_DM);
        assertThat(CompareMode.ofWord("multiset")).isEqualTo(CompareMode.MULTISET);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CompareMode.ofWord("ordered"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown compare mode 'ordered' (expected one of sequence, multiset, multiset-dm, multiset-data)");
    }
}
