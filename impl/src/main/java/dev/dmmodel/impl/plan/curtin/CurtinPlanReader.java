package dev.dmmodel.impl.plan.curtin;

import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanReader;
import dev.dmmodel.plan.PlanException;
import java.util.List;

/** Reads curtin plans (not yet: every plan is refused). */
public final class CurtinPlanReader implements PlanReader {

    @Override
    public List<PlanOp> read(String text, String source) {
        throw new PlanException(source, 0, 0, "curtin plans are not read yet");
    }
}
