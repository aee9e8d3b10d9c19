package dev.dmmodel.testkit.property.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.testkit.property.CoverageGate;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: every bio lies inside the device it is reported on.</b> For every event that carries a bio
 * or request range ({@code block_bio_queue}, {@code block_bio_remap}, {@code block_getrq},
 * {@code block_bio_backmerge}/{@code frontmerge}, {@code block_rq_insert}/{@code issue}/{@code complete},
 * {@code block_bio_complete}): {@code 0 <= sector} and {@code sector + nr_sectors <= size} of the event's
 * device ({@code Layout.device(name).size()}); a {@code block_split} (no size) starts inside the device.
 *
 * <p>Kernel rules it follows from: {@code submit_bio_noacct} → {@code bio_check_eod} fails any bio that
 * reaches past {@code bdev_nr_sectors} ("attempt to access beyond end of device"), on the partition before
 * {@code blk_partition_remap} and on the disk after it; device-mapper refuses tables whose areas leave
 * their devices ({@code device_area_is_invalid}) and bios beyond the table ({@code dm_table_find_target}),
 * and {@code linear_map_sector}/{@code stripe_map_sector} keep a clone inside its target's area; splits and
 * merges only cut or join ranges already inside.
 */
class BiosInsideDevicesTest {

    private static final Set<EventType> RANGED = EnumSet.of(EventType.BIO_QUEUE, EventType.BIO_REMAP,
            EventType.GETRQ, EventType.BIO_BACKMERGE, EventType.BIO_FRONTMERGE, EventType.RQ_INSERT,
            EventType.RQ_ISSUE, EventType.RQ_REQUEUE, EventType.RQ_COMPLETE, EventType.BIO_COMPLETE);

    @Test
    void everyBioAndRequestLiesInsideItsDevice() {
        Coverage cov = EngineProperties.forAll("bios-inside-devices", (c, coverage) -> {
            CaseRun run = CaseRun.run(c).requireSuccess();
            for (CaseRun.OpRun o : run.ops()) {
                for (TraceEvent e : o.events()) {
                    check(c, o, e, coverage);
                }
            }
        });
        CoverageGate.assumeEnoughTries("bios-inside-devices", cov.tries);
        assertThat(cov.get("event block_bio_remap")).isGreaterThan(0);
        assertThat(cov.get("event ending at the device end")).isGreaterThan(0);
    }

    private static void check(Case c, CaseRun.OpRun o, TraceEvent e, Coverage coverage) {
        BlockDevice d = c.layout().find(e.device()).orElse(null);
        if (d == null) {
            throw new AssertionError("event on a device the layout does not have: " + CaseRun.line(e)
                    + "\n  in operation: " + o.op());
        }
        long size = d.size().count();
        boolean inside;
        if (RANGED.contains(e.type()) && e.hasSize()) {
            inside = e.sector() >= 0 && e.sector() + e.nrSectors() <= size;
            coverage.add("event " + e.type().tracepoint());
            if (e.nrSectors() > 0 && e.sector() + e.nrSectors() == size) {
                coverage.add("event ending at the device end");
            }
        } else if (e.type() == EventType.SPLIT) {
            inside = e.sector() >= 0 && e.sector() < size;
            coverage.add("event block_split");
        } else {
            inside = true;
        }
        if (!inside) {
            throw new AssertionError(e.type().tracepoint() + " outside " + e.device() + " (size " + size
                    + " sectors): " + CaseRun.line(e) + "\n  in operation: " + o.op() + "\n  its events on "
                    + e.device() + ":\n" + CaseRun.show(o.events(), x -> x.device().equals(e.device()), 40));
        }
    }
}
