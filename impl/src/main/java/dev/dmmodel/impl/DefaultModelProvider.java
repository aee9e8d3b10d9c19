package dev.dmmodel.impl;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.impl.finding.LayoutValidator;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.spi.ModelProvider;
import java.util.List;

/** The implementation the API finds through {@link java.util.ServiceLoader}. */
public final class DefaultModelProvider implements ModelProvider {

    /** Public no-argument constructor for the service loader. */
    public DefaultModelProvider() {
    }

    @Override
    public Layout build(LayoutSpec spec) {
        return new HostBuilder(spec.profile()).replay(spec.steps());
    }

    @Override
    public List<Finding> validate(Layout layout) {
        return LayoutValidator.validate(layout);
    }

    @Override
    public List<dev.dmmodel.analysis.ThinOverwriteReport> analyzeThinOverwrites(LayoutSpec spec,
            dev.dmmodel.workload.Script workload, dev.dmmodel.engine.EngineOptions options) {
        return new dev.dmmodel.impl.dm.thin.ThinOverwriteAnalyzer(this, spec, workload, options).analyze();
    }

    @Override
    public dev.dmmodel.engine.Simulation simulate(Layout layout, dev.dmmodel.engine.EngineOptions options) {
        return new dev.dmmodel.impl.engine.HostSimulation(layout, options);
    }

    @Override
    public dev.dmmodel.workload.Script parseScript(String text) {
        return dev.dmmodel.impl.tools.WorkloadParser.parseScript(text);
    }

    @Override
    public dev.dmmodel.workload.Command parseCommand(String line) {
        return dev.dmmodel.impl.tools.WorkloadParser.parse(line, 1);
    }

    @Override
    public dev.dmmodel.limits.Derivation explain(Layout layout, String device, dev.dmmodel.limits.LimitField field) {
        return dev.dmmodel.impl.explain.LimitsExplainer.explain(layout, device, field);
    }
}
