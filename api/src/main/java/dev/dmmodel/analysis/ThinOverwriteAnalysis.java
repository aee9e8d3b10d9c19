package dev.dmmodel.analysis;

import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.spi.ModelProviders;
import dev.dmmodel.workload.Script;
import java.util.List;

/**
 * The full-block-overwrite analysis of seed 004: runs a workload on a layout with thin devices, and for
 * every thin device whose first writes did not cover whole pool blocks explains the cause chain and
 * checks the fixes that could apply (a pool block no larger than the largest bio that reaches the pool,
 * a higher max_sectors_kb where that is the limit, skip_block_zeroing, whole-block application writes).
 */
public final class ThinOverwriteAnalysis {
    private ThinOverwriteAnalysis() {
    }

    /**
     * Analyzes the workload on the layout the steps build.
     *
     * @param spec the layout's steps (fixes are checked by rebuilding it with a change)
     * @param workload the workload
     * @param options the engine options
     * @return one report per thin device that was written
     */
    public static List<ThinOverwriteReport> analyze(LayoutSpec spec, Script workload, EngineOptions options) {
        return ModelProviders.get().analyzeThinOverwrites(spec, workload, options);
    }
}
