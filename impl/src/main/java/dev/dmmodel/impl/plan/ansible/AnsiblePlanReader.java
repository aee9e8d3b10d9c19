package dev.dmmodel.impl.plan.ansible;

import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanReader;
import dev.dmmodel.plan.PlanException;
import java.util.List;

/** Reads Ansible plans (not yet: every plan is refused). */
public final class AnsiblePlanReader implements PlanReader {

    @Override
    public List<PlanOp> read(String text, String source) {
        throw new PlanException(source, 0, 0, "Ansible plans are not read yet");
    }
}
