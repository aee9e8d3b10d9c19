package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;

/** What the engine property tests share: running a script, and the checks every trace must pass. */
public final class TraceChecks {
    private TraceChecks() {
    }

    /** The events of {@code script} on a fresh simulation of {@code layout}. */
    public static List<TraceEvent> run(Layout layout, Script script) {
        List<TraceEvent> events = new ArrayList<>();
        Simulation.of(layout).run(script, events::add);
        return events;
    }

    /** Every queued or remapped bio and every issued request lies inside the device it is reported on. */
    public static void assertInsideDevices(Layout layout, List<TraceEvent> events) {
        for (TraceEvent e : events) {
            if (e.nrSectors() <= 0 || !(e.type() == EventType.BIO_QUEUE || e.type() == EventType.BIO_REMAP
                    || e.type() == EventType.RQ_ISSUE)) {
                continue;
            }
            BlockDevice d = layout.device(e.device());
            assertThat(e.sector() + e.nrSectors()).as("%s: end of %s", e, d.name())
                    .isLessThanOrEqualTo(d.size().count());
        }
    }
}
