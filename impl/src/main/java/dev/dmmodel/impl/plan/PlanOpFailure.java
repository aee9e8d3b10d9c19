package dev.dmmodel.impl.plan;

import java.util.Objects;

/** A plan command that would fail on the host: the message is the tool's own ({@code wipefs: error: ...}). */
public final class PlanOpFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what the tool would report, without the plan's file and line */
    public PlanOpFailure(String message) {
        super(Objects.requireNonNull(message, "message"));
    }
}
