package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.Disk;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The engine's invariants on the testkit's own property core, so that a failure shrinks to the smallest stack and
 * workload that still fails: a whole generated stack ({@link DmGens#targetStacks}: dm-crypt, a classic snapshot or
 * dm-multipath on top now and then,
 * every kernel profile), a device of it (a dm layer, an LV, a partition or a disk) and a script of {@code dd}s on
 * that device ({@link DmGens#scripts}).
 * (The engine package next to this one checks sector conservation through every layer, splits against the limits of
 * the queue that split them, and more, over hand-made dm tables too.)
 */
class EngineInvariantsTest {

    /** A stack, the device the workload runs on and the workload. */
    record Case(StackPlan plan, String target, Script script) {
        @Override
        public String toString() {
            return String.join("\n", plan.javaLines()) + "\n  workload on " + target + ":\n    "
                    + script.commands().stream().map(Command::line).collect(Collectors.joining("\n    "));
        }
    }

    Gen<Case> cases() {
        return DmGens.kernelProfiles().flatMap(DmGens::targetStacks).flatMap(plan -> {
            Layout layout = plan.build();
            List<String> targets = new ArrayList<>(plan.dmLayerPaths());
            targets.addAll(plan.lvPaths());
            targets.addAll(plan.partitionNames());
            layout.disks().forEach(d -> targets.add(d.name()));
            return Gen.elements(targets).flatMap(t -> DmGens.scripts(layout, t).map(s -> new Case(plan, t, s)));
        });
    }

    private static List<TraceEvent> run(Layout layout, Script script) {
        return dev.dmmodel.testkit.property.TraceChecks.run(layout, script);
    }

    /** The same layout and workload give the same trace, event for event. */
    @PropertyTest(tries = 1000)
    void theTraceIsDeterministic(@ForAll("cases") Case c) {
        Layout layout = c.plan().build();
        assertThat(run(c.plan().build(), c.script())).isEqualTo(run(layout, c.script()));
    }

    /** Every bio and request the trace shows lies inside the device it is reported on. */
    @PropertyTest(tries = 1000)
    void everyBioLiesInsideItsDevice(@ForAll("cases") Case c) {
        Layout layout = c.plan().build();
        dev.dmmodel.testkit.property.TraceChecks.assertInsideDevices(layout, run(layout, c.script()));
    }

    /**
     * Every read or write request issued to a disk is within that disk's queue limits: at most
     * {@code max_sectors}, a multiple of its logical block size, starting on a logical block
     * ({@code blk_rq_get_max_sectors}, {@code bio_split_rw}).
     */
    @PropertyTest(tries = 1000)
    void everyRequestRespectsItsDisksLimits(@ForAll("cases") Case c) {
        Layout layout = c.plan().build();
        for (TraceEvent e : run(layout, c.script())) {
            if (e.type() != EventType.RQ_ISSUE || e.nrSectors() <= 0 || !(layout.device(e.device()) instanceof Disk)
                    || !(e.rwbs().contains("R") || e.rwbs().contains("W"))) {
                continue;
            }
            QueueLimits l = layout.limits(e.device());
            long lbs = l.logicalBlockSize() / 512;
            assertThat(e.nrSectors()).as("%s: max_sectors of %s", e, e.device()).isLessThanOrEqualTo(l.maxSectors());
            assertThat(e.nrSectors() % lbs).as("%s: whole logical blocks of %s", e, e.device()).isZero();
            assertThat(e.sector() % lbs).as("%s: aligned to a logical block of %s", e, e.device()).isZero();
        }
    }
}
