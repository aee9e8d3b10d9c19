package dev.dmmodel.impl.plan;

import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.plan.PlanEntry;
import dev.dmmodel.plan.PlanFailure;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a plan's commands in order on a host and stops at the first that would fail, as {@code set -e}, anaconda
 * and curtin stop: the result's layout is the host as the commands before it left it.
 */
public final class PlanRunner {

    private static final Logger LOG = LoggerFactory.getLogger(PlanRunner.class);

    private PlanRunner() {
    }

    /**
     * Runs the commands.
     *
     * @param source the plan's file name
     * @param ops its commands
     * @param host the host's steps
     * @throws LayoutException if the host itself cannot be built
     */
    public static PlanResult run(String source, List<PlanOp> ops, LayoutSpec host) {
        PlanState state = new PlanState(host);
        List<PlanEntry> entries = new ArrayList<>();
        Optional<PlanFailure> failure = Optional.empty();
        for (PlanOp op : ops) {
            Origin at = op.origin();
            String message;
            try {
                List<String> results = op.apply(state);
                entries.add(new PlanEntry(source, at.line(), op.tool(), at.text(), results));
                LOG.debug("{}:{}: {}: {}", source, at.line(), op.tool(), results);
                continue;
            } catch (PlanOpFailure e) {
                message = e.getMessage();
            } catch (LayoutException e) {
                message = e.getMessage();
            } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {
                // a request record's own check, or an overflowing size: still the command's failure, not ours
                message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            }
            failure = Optional.of(new PlanFailure(source, at.line(), op.tool(), at.text(), message));
            LOG.debug("{}:{}: {} fails: {}", source, at.line(), op.tool(), message);
            break;
        }
        Script setup = Script.parse(String.join("\n", state.setupLines()));
        return new PlanResult(state.result(), entries, failure, setup);
    }
}
