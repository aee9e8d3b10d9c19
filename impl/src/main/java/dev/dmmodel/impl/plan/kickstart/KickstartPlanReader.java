package dev.dmmodel.impl.plan.kickstart;

import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanReader;
import dev.dmmodel.plan.PlanException;
import java.util.List;

/** Reads kickstart plans (not yet: every plan is refused). */
public final class KickstartPlanReader implements PlanReader {

    @Override
    public List<PlanOp> read(String text, String source) {
        throw new PlanException(source, 0, 0, "kickstart plans are not read yet");
    }
}
