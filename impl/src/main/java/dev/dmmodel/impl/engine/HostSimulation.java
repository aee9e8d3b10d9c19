package dev.dmmodel.impl.engine;

import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.workload.Command;

/** The engine's simulation of a host (being built). */
public final class HostSimulation implements Simulation {
    private final Layout layout;

    /** A simulation of the layout. */
    public HostSimulation(Layout layout) {
        this.layout = layout;
    }

    @Override
    public Layout layout() {
        return layout;
    }

    @Override
    public CommandResult execute(Command command, TraceListener listener) {
        throw new UnsupportedOperationException("the I/O engine does not run " + command.line() + " yet");
    }
}
