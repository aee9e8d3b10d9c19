package dev.dmmodel.impl.plan;

import java.util.List;

/** Reads one plan format into commands, checking every line and touching no host. */
public interface PlanReader {

    /**
     * Reads a whole plan.
     *
     * @param text the plan
     * @param source its file name, for messages
     * @return its commands in order
     * @throws dev.dmmodel.plan.PlanException for the first line that is not one of the format's forms, naming
     *     source, line, column, what was found and what was expected; nothing else for any input
     */
    List<PlanOp> read(String text, String source);
}
