package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: a simulation is a function of its layout and workload.</b> Running the same case again, each
 * time on a new {@code Simulation} of the same layout (once alone, then twice with the two simulations taking
 * turns operation by operation), gives equal event lists ({@link TraceEvent} equality:
 * sequence number, device, tracepoint, rwbs, sector, size and details), equal results for every command and
 * job, and equal {@code Simulation.stats()}.
 *
 * <p>The kernel rule behind it: for one submitting task with no concurrency, the block layer's path is
 * decided by the bio and the queue state alone ({@code submit_bio_noacct}, the plug, the dm tables, the
 * queue limits); nothing depends on timing, so the model must not depend on anything outside its inputs
 * either (hash order of identity-hashed objects, shared static state, clocks). The recorded traces the
 * engine is checked against assume this: a workload replays to one trace.
 */
class DeterminismTest {

    @Test
    void theSameCaseRunTwiceGivesTheSameEventsResultsAndStats() {
        EngineProperties.forAll("determinism", (c, coverage) -> {
            // once alone, then twice more on two simulations in turn; the first and the third are compared,
            // then the second and the third
            CaseRun alone = CaseRun.run(c);
            List<CaseRun> pair = CaseRun.runTwiceInterleaved(c);
            same(c, alone, pair.get(1), coverage);
            same(c, pair.get(0), pair.get(1), coverage);
        });
    }

    private static void same(Case c, CaseRun first, CaseRun second, Coverage coverage) {
        for (int i = 0; i < c.ops().size(); i++) {
            CaseRun.OpRun a = first.ops().get(i);
            CaseRun.OpRun b = second.ops().get(i);
            if (!a.result().equals(b.result())) {
                throw new AssertionError("operation " + i + " ended differently:\n  first:  " + a.result()
                        + "\n  second: " + b.result());
            }
            compare(i, a, b);
            coverage.add("events compared", a.events().size());
        }
        List<DeviceStats> s1 = first.stats();
        List<DeviceStats> s2 = second.stats();
        if (!s1.equals(s2)) {
            for (int i = 0; i < Math.min(s1.size(), s2.size()); i++) {
                if (!s1.get(i).equals(s2.get(i))) {
                    throw new AssertionError("stats differ:\n  first:  " + s1.get(i) + "\n  second: " + s2.get(i));
                }
            }
            throw new AssertionError("stats differ in length: " + s1 + " vs " + s2);
        }
    }

    private static void compare(int index, CaseRun.OpRun a, CaseRun.OpRun b) {
        List<TraceEvent> x = a.events();
        List<TraceEvent> y = b.events();
        int n = Math.min(x.size(), y.size());
        for (int i = 0; i < n; i++) {
            if (!x.get(i).equals(y.get(i))) {
                int from = Math.max(0, i - 5);
                throw new AssertionError("operation " + index + " (" + a.op() + "): event " + i + " differs\n  first: "
                        + CaseRun.line(x.get(i)) + "\n  second: " + CaseRun.line(y.get(i)) + "\n  first run from event "
                        + from + ":\n" + CaseRun.show(x.subList(from, Math.min(x.size(), i + 5)), e -> true, 10)
                        + "  second run from event " + from + ":\n"
                        + CaseRun.show(y.subList(from, Math.min(y.size(), i + 5)), e -> true, 10));
            }
        }
        if (x.size() != y.size()) {
            throw new AssertionError("operation " + index + " (" + a.op() + "): " + x.size() + " events, then "
                    + y.size() + " events");
        }
    }
}
