package dev.dmmodel.testkit.property.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.testkit.property.CoverageGate;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: what leaves a split respects the limits of the queue that split it.</b>
 * <ul>
 *   <li>Every bio a whole disk goes on with after splitting (the bio of a {@code block_getrq}, or one merged
 *       by {@code block_bio_backmerge}/{@code frontmerge}) and every request issued ({@code block_rq_issue})
 *       has at most {@code max_sectors} sectors, does not cross a multiple of {@code chunk_sectors} when that
 *       is set, and starts and ends on a logical block ({@code logical_block_size / 512} sectors).</li>
 *   <li>Every dm clone ({@code block_bio_remap} from a dm device) stays inside one target; from a
 *       {@code striped} target it stays inside one chunk and has at most the dm device's
 *       {@code max_sectors} sectors; from a {@code crypt} target it has at most 256 sectors
 *       ({@code get_max_request_size}); and it starts and ends on a logical block of the dm device.</li>
 * </ul>
 *
 * <p>Kernel rules it follows from: {@code __bio_split_to_limits} → {@code bio_split_rw} cuts at
 * {@code get_max_io_size} ({@code max_sectors} and {@code blk_boundary_sectors_left(chunk_sectors)}) and
 * rounds the cut down to the logical block size; merges stop at {@code blk_rq_get_max_sectors}
 * ({@code ll_back_merge_fn}/{@code ll_front_merge_fn}); device-mapper cuts each clone at
 * {@code __max_io_len}: the target's end, and for targets with {@code max_io_len}
 * ({@code stripe_ctr}: {@code dm_set_target_max_io_len(ti, chunk_size)}) the chunk boundary and
 * {@code queue_max_sectors} of the dm queue; target boundaries lie on logical blocks
 * ({@code validate_hardware_logical_block_alignment}).
 */
class SplitsRespectLimitsTest {

    @Test
    void diskPiecesRequestsAndDmClonesRespectTheLimits() {
        Coverage cov = EngineProperties.forAll("splits-respect-limits", (c, coverage) -> {
            CaseRun run = CaseRun.run(c).requireSuccess();
            for (CaseRun.OpRun o : run.ops()) {
                for (TraceEvent e : o.events()) {
                    check(c, o, e, coverage);
                }
            }
        });
        CoverageGate.assumeEnoughTries("splits-respect-limits", cov.tries);
        assertThat(cov.get("striped clone")).isGreaterThan(0);
        assertThat(cov.get("crypt clone")).isGreaterThan(0);
        assertThat(cov.get("disk piece at max_sectors")).isGreaterThan(0);
        assertThat(cov.get("disk with chunk_sectors")).isGreaterThan(0);
    }

    private static void check(Case c, CaseRun.OpRun o, TraceEvent e, Coverage coverage) {
        BlockDevice d = c.layout().device(e.device());
        if (d instanceof Disk && e.nrSectors() > 0 && (e.type() == EventType.GETRQ
                || e.type() == EventType.BIO_BACKMERGE || e.type() == EventType.BIO_FRONTMERGE
                || e.type() == EventType.RQ_ISSUE)) {
            checkDiskLimits(c, o, e, d.limits(), coverage);
        }
        if (e.type() == EventType.BIO_REMAP && e.nrSectors() > 0 && e.extra().startsWith("from=")) {
            String from = e.extra().substring("from=".length());
            int colon = from.lastIndexOf(':');
            BlockDevice src = c.layout().device(from.substring(0, colon));
            if (src instanceof DmDevice dm) {
                checkClone(c, o, e, dm, Long.parseLong(from.substring(colon + 1)), coverage);
            }
        }
    }

    private static void checkDiskLimits(Case c, CaseRun.OpRun o, TraceEvent e, QueueLimits l, Coverage coverage) {
        long lbs = l.logicalBlockSize() / 512;
        if (e.nrSectors() > l.maxSectors()) {
            fail(c, o, e, e.nrSectors() + " sectors exceed max_sectors " + l.maxSectors() + " of " + e.device());
        }
        if (e.nrSectors() == l.maxSectors()) {
            coverage.add("disk piece at max_sectors");
        }
        long chunk = l.chunkSectors();
        if (chunk > 0) {
            coverage.add("disk with chunk_sectors");
            if (e.sector() % chunk + e.nrSectors() > chunk) {
                fail(c, o, e, "crosses a chunk_sectors (" + chunk + ") boundary of " + e.device() + " at "
                        + (e.sector() / chunk + 1) * chunk);
            }
        }
        if (e.sector() % lbs != 0 || e.nrSectors() % lbs != 0) {
            fail(c, o, e, "not in whole logical blocks of " + l.logicalBlockSize() + " bytes of " + e.device());
        }
    }

    private static void checkClone(Case c, CaseRun.OpRun o, TraceEvent e, DmDevice dm, long from,
                                   Coverage coverage) {
        DmTarget t = null;
        for (DmTarget x : dm.table().targets()) {
            if (from >= x.start().count() && from < x.end().count()) {
                t = x;
            }
        }
        if (t == null) {
            fail(c, o, e, "the clone's source sector " + from + " lies outside the table of " + dm.name());
            return;
        }
        if (from + e.nrSectors() > t.end().count()) {
            fail(c, o, e, "the clone " + from + "+" + e.nrSectors() + " of " + dm.name() + " crosses the end of its "
                    + t.type() + " target at " + t.end().count());
        }
        long lbs = dm.limits().logicalBlockSize() / 512;
        if (from % lbs != 0 || e.nrSectors() % lbs != 0) {
            fail(c, o, e, "the clone " + from + "+" + e.nrSectors() + " is not in whole logical blocks of "
                    + dm.limits().logicalBlockSize() + " bytes of " + dm.name());
        }
        if (t instanceof dev.dmmodel.dm.CryptTarget) {
            coverage.add("crypt clone");
            // dm-crypt.c: get_max_request_size — DM_CRYPT_DEFAULT_MAX_{READ,WRITE}_SIZE = 128 KiB = 256 sectors
            if (e.nrSectors() > 256) {
                fail(c, o, e, "the crypt clone has " + e.nrSectors() + " sectors, more than dm-crypt's 256 (128 KiB)"
                        + " of " + dm.name());
            }
        }
        if (t instanceof StripedTarget st) {
            coverage.add("striped clone");
            long chunk = st.chunkSectors();
            long offset = from - t.start().count();
            if (offset % chunk + e.nrSectors() > chunk) {
                fail(c, o, e, "the clone " + from + "+" + e.nrSectors() + " of " + dm.name()
                        + " crosses a chunk boundary of its striped target (chunk " + chunk + " sectors, target at "
                        + t.start().count() + ")");
            }
            if (e.nrSectors() > dm.limits().maxSectors()) {
                fail(c, o, e, "the clone has " + e.nrSectors() + " sectors, more than max_sectors "
                        + dm.limits().maxSectors() + " of " + dm.name());
            }
        }
    }

    private static void fail(Case c, CaseRun.OpRun o, TraceEvent e, String what) {
        throw new AssertionError(CaseRun.line(e) + ": " + what + "\n  in operation: " + o.op() + "\n  its events on "
                + e.device() + ":\n" + CaseRun.show(o.events(), x -> x.device().equals(e.device()), 40));
    }
}
