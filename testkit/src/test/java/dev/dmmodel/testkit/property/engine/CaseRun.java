package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A case run on a fresh {@link Simulation}: each operation with its events and its result, and the
 * devices' counters at the end.
 *
 * @param c the case
 * @param ops the operations in order
 * @param stats {@link Simulation#stats()} after the last operation
 */
record CaseRun(Case c, List<OpRun> ops, List<DeviceStats> stats) {

    /**
     * One operation and what it did.
     *
     * @param op the operation
     * @param events its events
     * @param result the command's or job's result, as text
     * @param ok whether it succeeded
     */
    record OpRun(Case.Op op, List<TraceEvent> events, String result, boolean ok) {
    }

    /** Runs every operation of the case in a new simulation of its layout. */
    static CaseRun run(Case c) {
        Simulation sim = Simulation.of(c.layout(), c.options());
        List<OpRun> out = new ArrayList<>();
        for (Case.Op op : c.ops()) {
            out.add(step(sim, op));
        }
        return new CaseRun(c, List.copyOf(out), sim.stats());
    }

    /**
     * Runs the case twice at once, on two simulations of the same layout, operation by operation in turn
     * (so that state shared between simulations would show).
     */
    static List<CaseRun> runTwiceInterleaved(Case c) {
        Simulation a = Simulation.of(c.layout(), c.options());
        Simulation b = Simulation.of(c.layout(), c.options());
        List<OpRun> outA = new ArrayList<>();
        List<OpRun> outB = new ArrayList<>();
        for (Case.Op op : c.ops()) {
            outA.add(step(a, op));
            outB.add(step(b, op));
        }
        return List.of(new CaseRun(c, List.copyOf(outA), a.stats()), new CaseRun(c, List.copyOf(outB), b.stats()));
    }

    private static OpRun step(Simulation sim, Case.Op op) {
        List<TraceEvent> events = new ArrayList<>();
        if (op instanceof Case.CommandOp cmd) {
            CommandResult r = sim.execute(cmd.command(), events::add);
            return new OpRun(op, List.copyOf(events), r.toString(), r.ok());
        }
        JobResult r = sim.run(((Case.JobOp) op).job(), events::add);
        return new OpRun(op, List.copyOf(events), r.toString(), r.errors() == 0);
    }

    /** Fails unless every operation succeeded (the generator makes only valid ones). */
    CaseRun requireSuccess() {
        for (OpRun o : ops) {
            if (!o.ok) {
                throw new AssertionError("a valid operation failed: " + o.op + "\n  result: " + o.result);
            }
        }
        return this;
    }

    /** Every event of the run, in order. */
    List<TraceEvent> allEvents() {
        List<TraceEvent> all = new ArrayList<>();
        for (OpRun o : ops) {
            all.addAll(o.events);
        }
        return all;
    }

    /** Events as blkparse-like lines, at most {@code max} of them, those matching {@code focus} first. */
    static String show(List<TraceEvent> events, Predicate<TraceEvent> focus, int max) {
        List<TraceEvent> chosen = events.stream().filter(focus).limit(max).collect(Collectors.toList());
        StringBuilder sb = new StringBuilder();
        for (TraceEvent e : chosen) {
            sb.append("      ").append(line(e)).append('\n');
        }
        long more = events.stream().filter(focus).count() - chosen.size();
        if (more > 0) {
            sb.append("      ... ").append(more).append(" more\n");
        }
        return sb.toString();
    }

    /** One event as {@code seq device tracepoint rwbs sector+nr extra}. */
    static String line(TraceEvent e) {
        return e.seq() + " " + e.device() + " " + e.type().tracepoint() + " " + e.rwbs() + " " + e.sector()
                + (e.hasSize() ? "+" + e.nrSectors() : "") + (e.extra().isEmpty() ? "" : " " + e.extra());
    }

    /** The operation letter of an rwbs: R, W, D, N, or F for a bare flush. */
    static char opOf(String rwbs) {
        String s = rwbs.length() > 1 && rwbs.charAt(0) == 'F' ? rwbs.substring(1) : rwbs;
        return s.isEmpty() ? '?' : s.charAt(0);
    }
}
