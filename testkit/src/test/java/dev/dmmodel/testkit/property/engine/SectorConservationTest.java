package dev.dmmodel.testkit.property.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.Disk;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.testkit.property.CoverageGate;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: sectors are conserved from the top of the stack to the disks.</b> For every workload operation,
 * the data bios queued at the top device (the one the workload targets, {@code block_bio_queue} there) cover
 * exactly the bytes the operation asked for (direct reads and writes: the {@code dd} or job range; buffered
 * writes: the dirty range written back) with no overlap and no gap; and the data bios queued at whole disks
 * ({@code block_bio_queue} on disks, zero-length flushes excluded), read back through the tables, cover
 * exactly the top bios' ranges: the multiset of disk ranges equals the image of the top ranges under an
 * independent reference mapping ({@link ReferenceMapper}: partition start, linear offset, striped chunk
 * mapping), with no overlap and no gap, read for read and write for write.
 *
 * <p>Kernel rules it follows from: {@code dm_split_and_process_bio} sends one clone of {@code __max_io_len}
 * sectors and resubmits the rest after {@code bio_advance}, so clones partition the original bio;
 * {@code linear_map_sector} and {@code stripe_map_sector} are bijections onto their device areas;
 * {@code blk_partition_remap} adds {@code start_sect}; {@code block_bio_queue} fires once per bio
 * ({@code BIO_TRACED}), before blk-mq splits it, so split remainders are not counted twice; on the last close
 * of a block device {@code blkdev_flush_mapping} writes back every dirty buffer exactly once
 * ({@code block_write_full_folio}). A buffered read is checked from the top bios down only (readahead
 * decides the top range).
 */
class SectorConservationTest {

    @Test
    void everySectorAtTheTopArrivesAtTheDisksExactlyOnce() {
        Coverage cov = EngineProperties.forAll("sector-conservation", (c, coverage) -> {
            CaseRun run = CaseRun.run(c).requireSuccess();
            for (CaseRun.OpRun o : run.ops()) {
                check(c, o, coverage);
            }
            note(c, run, coverage);
        });
        CoverageGate.assumeEnoughTries("sector-conservation", cov.tries);
        // the generator reaches what the property is about
        assertThat(cov.get("case with dm split")).as("cases with dm splits").isGreaterThan(cov.tries / 10);
        assertThat(cov.get("case with disk split")).as("cases with disk splits").isGreaterThan(cov.tries / 20);
        assertThat(cov.get("case on stacked dm")).as("cases on two dm levels").isGreaterThan(0);
        assertThat(cov.get("case with partitions")).as("cases with partitions").isGreaterThan(0);
        assertThat(cov.get("case on 4Kn disk")).as("cases on 4Kn disks").isGreaterThan(0);
        assertThat(cov.get("case through dm-crypt")).as("cases through dm-crypt").isGreaterThan(0);
    }

    /** Checks one operation; throws with the case's details. */
    static void check(Case c, CaseRun.OpRun o, Coverage coverage) {
        Layout layout = c.layout();
        String top = c.target();
        Ranges.PerDevice topRanges = new Ranges.PerDevice();
        Map<Character, Ranges.PerDevice> expected = new TreeMap<>();
        Map<Character, Ranges.PerDevice> observed = new TreeMap<>();
        for (TraceEvent e : o.events()) {
            if (e.type() != EventType.BIO_QUEUE || e.nrSectors() <= 0) {
                continue;
            }
            char op = CaseRun.opOf(e.rwbs());
            if (e.device().equals(top)) {
                topRanges.add(top, e.sector(), e.nrSectors(), CaseRun.line(e));
                Ranges.PerDevice exp = expected.computeIfAbsent(op, k -> new Ranges.PerDevice());
                for (ReferenceMapper.Piece p : ReferenceMapper.map(layout, top, e.sector(), e.nrSectors())) {
                    exp.add(p.disk(), p.start(), p.length(), "mapped from " + top + " " + e.sector() + "+"
                            + e.nrSectors());
                }
            } else if (layout.device(e.device()) instanceof Disk) {
                observed.computeIfAbsent(op, k -> new Ranges.PerDevice())
                        .add(e.device(), e.sector(), e.nrSectors(), CaseRun.line(e));
            }
        }
        String overlap = topRanges.firstOverlap();
        if (overlap != null) {
            fail(c, o, "bios queued at the top overlap: " + overlap);
        }
        if (o.op().kind() != Case.Kind.BUFFERED_READ) {
            Map<String, List<String>> want = new TreeMap<>();
            if (o.op().bytes() > 0) {
                want.put(top, List.of(o.op().offset() / 512 + "+" + o.op().bytes() / 512));
            }
            if (!topRanges.coalesced().equals(want)) {
                fail(c, o, "bios queued at the top (" + top + ") do not cover exactly the range of the operation:\n"
                        + "    operation: " + want + "\n    top bios:  " + abbreviate(topRanges.coalesced()));
            }
        }
        for (Map.Entry<Character, Ranges.PerDevice> e : expected.entrySet()) {
            String self = e.getValue().firstOverlap();
            if (self != null) {
                fail(c, o, "the reference mapping of the top bios overlaps itself (generator or table bug): " + self);
            }
        }
        for (Map.Entry<Character, Ranges.PerDevice> e : observed.entrySet()) {
            String dup = e.getValue().firstOverlap();
            if (dup != null) {
                fail(c, o, "'" + e.getKey() + "' bios queued at the disks overlap (sectors sent twice): " + dup);
            }
        }
        java.util.Set<Character> ops = new java.util.TreeSet<>(expected.keySet());
        ops.addAll(observed.keySet());
        for (char op : ops) {
            Ranges.PerDevice exp = expected.getOrDefault(op, new Ranges.PerDevice());
            Ranges.PerDevice obs = observed.getOrDefault(op, new Ranges.PerDevice());
            if (exp.total() != obs.total() || !exp.coalesced().equals(obs.coalesced())) {
                fail(c, o, "'" + op + "' sectors at the disks differ from the top bios mapped through the tables: "
                        + "top " + exp.total() + " sectors, disks " + obs.total() + " sectors\n    expected: "
                        + abbreviate(exp.coalesced()) + "\n    observed: " + abbreviate(obs.coalesced()));
            }
            coverage.add("sectors checked", obs.total());
        }
    }

    static void note(Case c, CaseRun run, Coverage coverage) {
        Layout layout = c.layout();
        boolean dmSplit = false;
        boolean diskSplit = false;
        for (TraceEvent e : run.allEvents()) {
            if (e.type() == EventType.SPLIT) {
                if (layout.device(e.device()) instanceof Disk) {
                    diskSplit = true;
                } else {
                    dmSplit = true;
                }
            }
        }
        if (dmSplit) {
            coverage.add("case with dm split");
        }
        if (diskSplit) {
            coverage.add("case with disk split");
        }
        if (layout.dmDevices().stream().anyMatch(d -> d.table().devices().stream()
                .anyMatch(x -> layout.device(x) instanceof dev.dmmodel.device.DmDevice))) {
            coverage.add("case on stacked dm");
        }
        if (!layout.partitions().isEmpty()) {
            coverage.add("case with partitions");
        }
        if (layout.dmDevices().stream().anyMatch(d -> d.table().targets().stream()
                .anyMatch(t -> t instanceof dev.dmmodel.dm.CryptTarget))) {
            coverage.add("case through dm-crypt");
        }
        if (!layout.volumeGroups().isEmpty()) {
            coverage.add("case on lvm");
        }
        if (layout.disks().stream().anyMatch(d -> d.limits().logicalBlockSize() == 4096)) {
            coverage.add("case on 4Kn disk");
        }
    }

    private static void fail(Case c, CaseRun.OpRun o, String what) {
        String top = c.target();
        throw new AssertionError(what + "\n  in operation: " + o.op() + "\n  its bios queued at the top and at the"
                + " disks:\n" + CaseRun.show(o.events(), e -> e.type() == EventType.BIO_QUEUE
                        && (e.device().equals(top) || c.layout().device(e.device()) instanceof Disk), 60));
    }

    private static String abbreviate(Object o) {
        String s = String.valueOf(o);
        return s.length() > 1500 ? s.substring(0, 1500) + " ..." : s;
    }
}
