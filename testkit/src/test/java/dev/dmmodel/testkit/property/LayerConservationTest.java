package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * <b>Invariant: a dm layer passes every sector of its direct I/O on exactly once.</b> For a direct {@code dd} on
 * a dm layer of {@link DmGens#targetStacks} that passes its I/O on without caching it — dm-crypt, a classic
 * snapshot's origin, dm-multipath bio-based or request-based — the clones it sends down ({@code block_bio_remap}
 * or, request-based, {@code block_rq_remap} with {@code from=<layer>:<sector>}) cover the bios queued at the layer
 * exactly: no sector twice, none left out. A snapshot origin's write that waited for its chunk's copy is not
 * traced as a remap (the recorded snap-c64k-origin-w4k-at0: {@code WS 0 8} queued at origin-real after the copy
 * and the commit, no {@code block_bio_remap}): a snapshot origin's writes are counted where they are queued, on the
 * origin's real device (kcopyd only reads there), its reads by their remaps. (The snapshot itself is left out: its deferred writes and kcopyd's copies both land on the
 * COW device, and the trace does not tell them apart.)
 *
 * <p>Kernel rules it follows from: {@code dm_split_and_process_bio} clones a bio piece by piece and the target's
 * {@code map} remaps each piece once ({@code crypt_map}, {@code origin_map} — the chunk copy is kcopyd's own I/O,
 * not a remap — {@code snapshot_map}, {@code multipath_map_bio}); request-based dm clones each request once onto one
 * path ({@code map_request}: {@code trace_block_rq_remap}).
 */
class LayerConservationTest {

    /** A stack with a layer, the layer's device and a direct dd on it. */
    record Case(StackPlan plan, String layer, Script script) {
        @Override
        public String toString() {
            return String.join("\n", plan.javaLines()) + "\n  workload on " + layer + ":\n    "
                    + script.commands().stream().map(Command::line).collect(Collectors.joining("\n    "));
        }
    }

    Gen<Case> cases() {
        return DmGens.kernelProfiles().flatMap(DmGens::targetStacks)
                .filter(p -> p.dmLayers().stream().anyMatch(LayerConservationTest::remapsOnly), 50)
                .flatMap(plan -> {
                    Layout layout = plan.build();
                    List<String> layers = plan.dmLayers().stream().filter(LayerConservationTest::remapsOnly)
                            .map(l -> "/dev/mapper/" + l.name()).toList();
                    return Gen.elements(layers).flatMap(t -> DmGens.dd(layout, t)
                            .filter(d -> d.line().contains("direct"), 20)
                            .map(d -> new Case(plan, t, new Script(List.of(d)))));
                });
    }

    private static boolean remapsOnly(StackPlan.DmLayer l) {
        String type = l.table().targets().get(0).type();
        return type.equals("crypt") || type.equals("snapshot-origin") || type.equals("multipath");
    }

    @org.junit.jupiter.api.Test
    void theCasesReachEveryLayerType() {
        java.util.Map<String, Integer> seen = new TreeMap<>();
        Property.forAll(cases()).seed(7).tries(600).check(c -> {
            Layout layout = c.plan().build();
            String type = ((dev.dmmodel.device.DmDevice) layout.device(c.layer())).table().targets().get(0).type();
            seen.merge(type, 1, Integer::sum);
        });
        assertThat(seen).containsKeys("crypt", "snapshot-origin", "multipath");
    }

    @PropertyTest(tries = 600)
    void everySectorOfTheLayerIsPassedOnOnce(@ForAll("cases") Case c) {
        Layout layout = c.plan().build();
        String dev = layout.device(c.layer()).name();
        dev.dmmodel.dm.DmTarget t = ((dev.dmmodel.device.DmDevice) layout.device(dev)).table().targets().get(0);
        String originReal = t instanceof dev.dmmodel.dm.SnapshotOriginTarget o ? layout.device(o.device()).name() : "";
        List<TraceEvent> events = new ArrayList<>();
        Simulation.of(layout).run(c.script(), events::add);
        TreeMap<Long, Long> top = new TreeMap<>();
        TreeMap<Long, Long> passed = new TreeMap<>();
        for (TraceEvent e : events) {
            if (e.nrSectors() <= 0) {
                continue;
            }
            if (e.type() == EventType.BIO_QUEUE && e.device().equals(dev)) {
                add(top, e.sector(), e.nrSectors(), e, "queued at " + dev);
            } else if (e.type() == EventType.BIO_QUEUE && e.device().equals(originReal) && e.rwbs().contains("W")) {
                add(passed, e.sector(), e.nrSectors(), e, "written to " + originReal + " after its copy");
            } else if ((e.type() == EventType.BIO_REMAP || e.type() == EventType.RQ_REMAP)
                    && e.extra().startsWith("from=" + dev + ":")
                    && !(!originReal.isEmpty() && e.rwbs().contains("W"))) {
                long from = Long.parseLong(e.extra().substring(("from=" + dev + ":").length()));
                add(passed, from, e.nrSectors(), e, "passed on from " + dev);
            }
        }
        assertThat(top).as("bios queued at %s", dev).isNotEmpty();
        assertThat(merged(passed)).as("the ranges %s passes on, against the ranges queued at it", dev)
                .isEqualTo(merged(top));
    }

    // a range into a set of disjoint ranges; an overlap is the failure
    private static void add(TreeMap<Long, Long> ranges, long start, long len, TraceEvent e, String what) {
        var before = ranges.floorEntry(start);
        var after = ranges.ceilingEntry(start);
        if ((before != null && before.getKey() + before.getValue() > start)
                || (after != null && after.getKey() < start + len)) {
            throw new AssertionError(e + ": " + what + " overlaps an earlier range " + ranges);
        }
        ranges.put(start, len);
    }

    private static TreeMap<Long, Long> merged(TreeMap<Long, Long> ranges) {
        TreeMap<Long, Long> out = new TreeMap<>();
        long start = -1;
        long end = -1;
        for (var r : ranges.entrySet()) {
            if (r.getKey() == end) {
                end += r.getValue();
            } else {
                if (start >= 0) {
                    out.put(start, end - start);
                }
                start = r.getKey();
                end = r.getKey() + r.getValue();
            }
        }
        if (start >= 0) {
            out.put(start, end - start);
        }
        return out;
    }
}
