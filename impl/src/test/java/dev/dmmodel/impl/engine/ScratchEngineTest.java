package dev.dmmodel.impl.engine;

import dev.dmmodel.engine.Simulation;
import dev.dmmodel.impl.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.spi.ModelProviders;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Command;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScratchEngineTest {
    @Test
    void run() throws Exception {
        String c = System.getProperty("scratch.case");
        if (c == null) {
            return;
        }
        Snapshot s = Snapshot.read(Path.of(c, "snapshot"));
        Layout layout = ModelProviders.get().build(s.toLayoutSpec(s.profile().orElseThrow()));
        Simulation sim = Simulation.of(layout);
        List<TraceEvent> ev = new ArrayList<>();
        String[] a = System.getProperty("scratch.dd").split(",");
        // of,bs,count(bytes),seek(bytes),direct
        Command.Dd dd = new Command.Dd("dd", a[0].startsWith("/dev/zero") ? "/dev/zero" : a[0],
                a[1], Long.parseLong(a[2]), Long.parseLong(a[2]), true, OptionalLong.of(Long.parseLong(a[3])),
                0, Long.parseLong(a[4]), Set.of(), a[5].equals("d") ? Set.of(Command.DdFlag.DIRECT) : Set.of(), Set.of());
        var r = sim.execute(dd, ev::add);
        System.out.println("RESULT " + r);
        for (TraceEvent e : ev) {
            System.out.println(e.seq() + "," + e.device() + "," + e.type().tracepoint() + "," + e.rwbs() + "," + e.sector()
                    + "," + (e.nrSectors() < 0 ? "" : e.nrSectors()) + "," + e.extra());
        }
    }
}
