package dev.dmmodel.testkit.property.md;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.testkit.property.DmGens;
import dev.dmmodel.testkit.property.ForAll;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.PropertyTest;
import dev.dmmodel.testkit.property.StackPlan;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * md arrays ({@link DmGens#mdStacks}) under random {@code dd} scripts on the array or an LV on it: the trace is
 * deterministic, every bio lies inside its device, and the array keeps its copies: every sector a bio at the array
 * reads is read from exactly one member, every sector it writes is written to as many distinct members as the level
 * keeps copies (raid0 1, raid1 every member, raid10 near × far), each member bio naming the array sector it came from.
 * raid4/5/6 write through the stripe cache, which also reads other pages and writes parity (traced from sector 0):
 * there every written sector reaches a member at least once. The check reads the mapping off the trace
 * ({@code from=md0:S}), not from the model's geometry; parity and data identity of raid4/5/6 are checked on the
 * stripe cache itself ({@code StripeCachePropertyTest} in the impl module).
 */
class MdInvariantsTest {

    /** A stack, the device the workload runs on and the workload. */
    record Case(StackPlan plan, String target, Script script) {
        @Override
        public String toString() {
            return String.join("\n", plan.javaLines()) + "\n  workload on " + target + ":\n    "
                    + script.commands().stream().map(Command::line).collect(Collectors.joining("\n    "));
        }
    }

    Gen<Case> cases() {
        return DmGens.kernelProfiles().flatMap(DmGens::mdStacks).flatMap(plan -> {
            Layout layout = plan.build();
            List<String> targets = new ArrayList<>(plan.mdNames());
            targets.addAll(plan.lvPaths());
            return Gen.elements(targets).flatMap(t -> DmGens.scripts(layout, t).map(s -> new Case(plan, t, s)));
        });
    }

    private static List<TraceEvent> run(Layout layout, Script script) {
        return dev.dmmodel.testkit.property.TraceChecks.run(layout, script);
    }

    @PropertyTest(tries = 150)
    void theTraceIsDeterministic(@ForAll("cases") Case c) {
        assertThat(run(c.plan().build(), c.script())).isEqualTo(run(c.plan().build(), c.script()));
    }

    @PropertyTest(tries = 150)
    void everyBioLiesInsideItsDevice(@ForAll("cases") Case c) {
        Layout layout = c.plan().build();
        dev.dmmodel.testkit.property.TraceChecks.assertInsideDevices(layout, run(layout, c.script()));
    }

    /** Copies of each array sector a level keeps. */
    private static int copies(MdDevice md) {
        return switch (md.spec().level()) {
            case RAID0, RAID4, RAID5, RAID6 -> 1;
            case RAID1 -> md.spec().members().size();
            case RAID10 -> (md.spec().layout() & 0xff) * ((md.spec().layout() >> 8) & 0xff);
        };
    }

    @PropertyTest(tries = 150)
    void everyArraySectorReachesItsCopies(@ForAll("cases") Case c) {
        Layout layout = c.plan().build();
        MdDevice md = layout.mdDevices().get(0);
        Set<String> members = new HashSet<>();
        for (MdMember m : md.spec().members()) {
            members.add(m.device());
        }
        Map<Long, Integer> queuedW = new HashMap<>();
        Map<Long, Integer> queuedR = new HashMap<>();
        Map<Long, Set<String>> writtenOn = new HashMap<>();
        Map<Long, Integer> writes = new HashMap<>();
        Map<Long, Integer> reads = new HashMap<>();
        for (TraceEvent e : run(layout, c.script())) {
            boolean w = e.rwbs().contains("W");
            boolean r = e.rwbs().contains("R");
            if (e.type() == EventType.BIO_QUEUE && e.device().equals(md.name()) && e.nrSectors() > 0) {
                for (long s = e.sector(); s < e.sector() + e.nrSectors(); s++) {
                    (w ? queuedW : queuedR).merge(s, 1, Integer::sum);
                }
            }
            if (e.type() == EventType.BIO_REMAP && members.contains(e.device()) && e.nrSectors() > 0
                    && e.extra().startsWith("from=" + md.name() + ":")) {
                long from = Long.parseLong(e.extra().substring(("from=" + md.name() + ":").length()));
                for (long s = from; s < from + e.nrSectors(); s++) {
                    if (w) {
                        writes.merge(s, 1, Integer::sum);
                        writtenOn.computeIfAbsent(s, k -> new HashSet<>()).add(e.device());
                    } else if (r) {
                        reads.merge(s, 1, Integer::sum);
                    }
                }
            }
        }
        int copies = copies(md);
        if (md.spec().level().hasParity()) {
            for (Long sector : queuedW.keySet()) {
                assertThat(writes.getOrDefault(sector, 0)).as("member writes of array sector %d", sector)
                        .isPositive();
            }
            return;
        }
        Map<Long, Integer> expectedWrites = new HashMap<>();
        queuedW.forEach((s, n) -> expectedWrites.put(s, n * copies));
        assertThat(writes).as("member writes per array sector (%d copies)", copies).isEqualTo(expectedWrites);
        writtenOn.forEach((s, on) -> assertThat(on).as("members holding array sector %d", s).hasSize(copies));
        assertThat(reads).as("member reads per array sector").isEqualTo(queuedR);
    }
}
