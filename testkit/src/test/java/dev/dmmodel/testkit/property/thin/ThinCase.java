package dev.dmmodel.testkit.property.thin;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.testkit.property.DmGens;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.StackPlan;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.stream.Collectors;

/**
 * A thin pool stack ({@link DmGens#thinPools()}) and a workload of writes, reads, discards, snapshots and
 * deletes on it ({@link DmGens#thinScripts(Layout)}).
 *
 * @param layout the stack
 * @param script the workload
 */
record ThinCase(Layout layout, Script script) {

    /** The cases: a pool, then a workload for it; shrinks to one thin device and fewer operations. */
    static Gen<ThinCase> cases() {
        return DmGens.thinPools().flatMap(l -> DmGens.thinScripts(l).map(s -> new ThinCase(l, s)));
    }

    @Override
    public String toString() {
        return StackPlan.describe(layout) + "\n  dmsetup table:\n    "
                + layout.dmsetupTable().strip().replace("\n", "\n    ") + "\n  workload:\n    "
                + script.commands().stream().map(Command::line).collect(Collectors.joining("\n    "));
    }
}
