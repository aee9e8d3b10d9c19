package dev.dmmodel.impl.engine;

import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/** Small helpers for engine tests: dd commands without the parser, event filters. */
final class EngineTestSupport {
    private EngineTestSupport() {
    }

    /** {@code dd if=/dev/zero of=OUT bs=BS count=N seek=SEEK oflag=direct,seek_bytes} (seek in bytes). */
    static Command.Dd directWrite(String out, long bs, long count, long seekBytes) {
        return new Command.Dd("dd if=/dev/zero of=" + out + " bs=" + bs + " count=" + count + " seek=" + seekBytes
                + " oflag=direct,seek_bytes", "/dev/zero", out, bs, bs, true, OptionalLong.of(bs * count), 0,
                seekBytes, Set.of(), EnumSet.of(Command.DdFlag.DIRECT, Command.DdFlag.SEEK_BYTES), Set.of());
    }

    /** {@code dd if=/dev/zero of=OUT bs=BS count=N} through the page cache. */
    static Command.Dd bufferedWrite(String out, long bs, long count) {
        return new Command.Dd("dd if=/dev/zero of=" + out + " bs=" + bs + " count=" + count, "/dev/zero", out, bs, bs,
                true, OptionalLong.of(bs * count), 0, 0, Set.of(), Set.of(), Set.of());
    }

    /** {@code dd if=IN of=/dev/null bs=BS count=N} through the page cache. */
    static Command.Dd bufferedRead(String in, long bs, long count) {
        return new Command.Dd("dd if=" + in + " of=/dev/null bs=" + bs + " count=" + count, in, "/dev/null", bs, bs,
                true, OptionalLong.of(bs * count), 0, 0, Set.of(), Set.of(), Set.of());
    }

    /** Runs commands and returns their events. */
    static List<TraceEvent> run(Simulation sim, Command... commands) {
        List<TraceEvent> events = new ArrayList<>();
        for (Command c : commands) {
            CommandResult r = sim.execute(c, events::add);
            if (!r.ok()) {
                throw new AssertionError(c.line() + " failed: " + r.message());
            }
        }
        return events;
    }

    static List<TraceEvent> run(Layout layout, Command... commands) {
        return run(Simulation.of(layout), commands);
    }

    /** "sector+size" of the events of a type on a device. */
    static List<String> of(List<TraceEvent> events, String device, EventType type) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == type)
                .map(e -> e.sector() + "+" + e.nrSectors()).collect(Collectors.toList());
    }
}
