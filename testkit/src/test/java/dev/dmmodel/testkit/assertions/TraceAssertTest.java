package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.*;
import static org.assertj.core.api.Assertions.*;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormat;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** On {@code dd bs=1M count=4 oflag=direct} to the README's LV: dm-0 → sda1 → sda, split by max_sectors. */
class TraceAssertTest {

    private final Layout raid = Fixtures.raid5AtSector63();
    private final List<TraceEvent> events = Fixtures.ddTrace(raid);
    private final String dm = raid.device("/dev/vg/lv").name();
    private final QueueLimits sda = raid.limits("sda");
    private final long bio = Fixtures.DD_BS / 512;
    /** A 1 MiB bio reaches sda whole and is split into max_sectors pieces: 896 + 896 + 256 on this RAID. */
    private final List<Long> pieces = pieces(bio, sda.maxSectors());

    private static List<Long> pieces(long sectors, long max) {
        List<Long> out = new ArrayList<>();
        for (long left = sectors; left > 0; left -= Math.min(left, max)) {
            out.add(Math.min(left, max));
        }
        return out;
    }

    private List<TraceEvent> at(String device, EventType type) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == type).toList();
    }

    private static String text(TraceEvent e) {
        return TraceFormat.TEXT.format(e);
    }

    @Test
    void bioSizesAreTheDdBlocksAtTheLv() {
        assertThatTrace(events).at(dm).bioSizes().hasSize((int) Fixtures.DD_COUNT).containsOnly(bio);
        assertThatTrace(events).at("sda").bioSizes().containsOnly(bio);

        assertThatThrownBy(() -> assertThatTrace(events).at(dm).bioSizes().containsOnly(bio / 2))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("bio sizes (nr_sectors of block_bio_queue) in trace at " + dm)
                .hasMessageContaining(text(at(dm, EventType.BIO_QUEUE).get(0)));
    }

    @Test
    void requestSizesAreTheMaxSectorsPieces() {
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < Fixtures.DD_COUNT; i++) {
            expected.addAll(pieces);
        }
        assertThat(pieces).hasSizeGreaterThan(1);
        assertThatTrace(events).at("sda").requestSizes().containsExactlyElementsOf(expected)
                .allMatch(n -> n <= sda.maxSectors());

        assertThatThrownBy(() -> assertThatTrace(events).at("sda").requestSizes().containsOnly(bio))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("request sizes (nr_sectors of block_rq_issue) in trace at sda")
                .hasMessageContaining(text(at("sda", EventType.RQ_ISSUE).get(0)));
    }

    @Test
    void splitsAreShownInTheTextFormat() {
        int splits = (int) Fixtures.DD_COUNT * (pieces.size() - 1);
        assertThatTrace(events).at("sda").splits().hasSize(splits);
        assertThatTrace(events).at(dm).splits().isEmpty();

        TraceEvent first = at("sda", EventType.SPLIT).get(0);
        assertThatThrownBy(() -> assertThatTrace(events).at("sda").splits().isEmpty())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("[splits (block_split) in trace at sda]")
                .hasMessageContaining(text(first).strip());
    }

    @Test
    void hasNoSplits() {
        assertThatTrace(events).at(dm).hasNoSplits();
        assertThatTrace(events).at("sda1").hasNoSplits();

        int splits = (int) Fixtures.DD_COUNT * (pieces.size() - 1);
        assertThatThrownBy(() -> assertThatTrace(events).at("sda").hasNoSplits())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting no block_split events in trace at sda but found " + splits + ":\n"
                        + text(at("sda", EventType.SPLIT).get(0)));
    }

    @Test
    void hasNoEventsOfType() {
        assertThatTrace(events).hasNoEventsOfType(EventType.RQ_REQUEUE).at(dm).hasNoEventsOfType(EventType.RQ_ISSUE);

        List<TraceEvent> remaps = at("sda1", EventType.BIO_REMAP);
        assertThatThrownBy(() -> assertThatTrace(events).at("sda1").hasNoEventsOfType(EventType.BIO_REMAP))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting no block_bio_remap events in trace at sda1 but found "
                        + remaps.size() + ":")
                .hasMessageContaining(text(remaps.get(0)) + "\n" + text(remaps.get(1)));
    }

    @Test
    void allBiosAtMost() {
        assertThatTrace(events).at(dm).allBiosAtMost(bio);

        assertThatThrownBy(() -> assertThatTrace(events).at("sda").allBiosAtMost(sda.maxSectors()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting every bio (block_bio_queue) in trace at sda to be at most "
                        + sda.maxSectors() + " sectors but " + Fixtures.DD_COUNT + " were larger:")
                .hasMessageContaining(text(at("sda", EventType.BIO_QUEUE).get(0)));
    }

    @Test
    void allBiosAlignedToTheChunkButNotTheFullStripe() {
        // the LV's data starts at disk sector 63 + pe_start: a multiple of the 64 KiB chunk, not of the stripe
        long start = Fixtures.PARTITION_START + raid.physicalVolume("sda1").orElseThrow().peStart().count();
        long chunk = sda.ioMin() / 512;
        long stripe = sda.ioOpt() / 512;
        assertThat(start % chunk).isZero();
        assertThat(start % stripe).isNotZero();
        TraceEvent firstOnDisk = at("sda", EventType.BIO_QUEUE).get(0);
        assertThat(firstOnDisk.sector()).isEqualTo(start);

        assertThatTrace(events).at(dm).allBiosAlignedTo(bio).allBiosAlignedTo(chunk);
        assertThatTrace(events).at("sda").allBiosAlignedTo(chunk);
        assertThatThrownBy(() -> assertThatTrace(events).at("sda").allBiosAlignedTo(stripe))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting every bio (block_bio_queue) in trace at sda to start on and span"
                        + " multiples of " + stripe + " sectors but")
                .hasMessageContaining(text(firstOnDisk));
        assertThatThrownBy(() -> assertThatTrace(events).allBiosAlignedTo(0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eventCountsAndOfType() {
        int requests = (int) Fixtures.DD_COUNT * pieces.size();
        assertThatTrace(events).at("sda").eventCount(EventType.RQ_ISSUE).isEqualTo(requests);
        assertThatTrace(events).at("sda").ofType(EventType.RQ_COMPLETE).eventCount().isEqualTo(requests);
        assertThatTrace(events).ofType(EventType.BIO_COMPLETE).at(dm).eventCount().isEqualTo((int) Fixtures.DD_COUNT);
        assertThatTrace(events).eventCount().isEqualTo(events.size());

        assertThatThrownBy(() -> assertThatTrace(events).at("sda").eventCount(EventType.RQ_ISSUE).isEqualTo(1))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("number of events in trace at sda of type block_rq_issue")
                .hasMessageContaining(text(at("sda", EventType.RQ_ISSUE).get(requests - 1)));
    }

    @Test
    void longTracesAreCutAtFortyLines() {
        assertThat(events.size()).isGreaterThan(Messages.MAX_TRACE_LINES);
        assertThatThrownBy(() -> assertThatTrace(events).eventCount().isZero())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(text(events.get(0)))
                .hasMessageContaining(text(events.get(Messages.MAX_TRACE_LINES - 1)) + "\n... "
                        + (events.size() - Messages.MAX_TRACE_LINES) + " more")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(text(events.get(Messages.MAX_TRACE_LINES))));
    }

    @Test
    void atAnUnknownDeviceFailsNamingTheTracedOnes() {
        assertThatThrownBy(() -> assertThatTrace(events).at("sdb"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting events at device sdb in trace but there are none; the trace has"
                        + " events at [" + dm + ", sda1, sda]");
        assertThat(assertThatTrace(events).at(dm).device()).isEqualTo(dm);
    }

    @Test
    void aNullTraceIsRejectedTheAssertJWay() {
        assertThatThrownBy(() -> assertThatTrace(null).at("sda"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting actual not to be null");
        assertThatThrownBy(() -> assertThatTrace(null).bioSizes())
                .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting actual not to be null");
    }
}
