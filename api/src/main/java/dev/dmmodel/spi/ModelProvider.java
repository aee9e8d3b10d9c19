package dev.dmmodel.spi;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import java.util.List;

/**
 * The implementation behind the API, found with {@link java.util.ServiceLoader}
 * ({@code dmmodel-impl} provides it). Applications do not call this directly: {@link Layout} does.
 */
public interface ModelProvider {

    /**
     * Replays the steps under the profile's rules and returns the resulting immutable layout.
     *
     * @throws dev.dmmodel.layout.LayoutException for a structural error, naming device, field, value and rule
     */
    Layout build(LayoutSpec spec);

    /** Checks a layout and returns its findings, most severe first. */
    List<Finding> validate(Layout layout);

    /** See {@link dev.dmmodel.analysis.ThinOverwriteAnalysis#analyze}. */
    List<dev.dmmodel.analysis.ThinOverwriteReport> analyzeThinOverwrites(LayoutSpec spec,
            dev.dmmodel.workload.Script workload, dev.dmmodel.engine.EngineOptions options);

    /** A simulation of the layout (see {@link dev.dmmodel.engine.Simulation}). */
    dev.dmmodel.engine.Simulation simulate(Layout layout, dev.dmmodel.engine.EngineOptions options);

    /** See {@link dev.dmmodel.workload.Script#parse(String)}. */
    dev.dmmodel.workload.Script parseScript(String text);

    /** See {@link dev.dmmodel.workload.Command#parse(String)}. */
    dev.dmmodel.workload.Command parseCommand(String line);

    /**
     * See {@link Layout#explain(String, dev.dmmodel.limits.LimitField)}: {@code device} is a kernel name of the
     * layout.
     */
    default dev.dmmodel.limits.Derivation explain(Layout layout, String device, dev.dmmodel.limits.LimitField field) {
        throw new UnsupportedOperationException("this model provider does not explain limits");
    }
}
