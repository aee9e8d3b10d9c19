package dev.dmmodel.finding;

/** How much a finding hurts. */
public enum Severity {
    /** Worth knowing; nothing is wrong. */
    INFO,
    /** Costs performance or robustness; the layout works. */
    WARNING,
    /** The layout is wrong for its purpose (data loss risk, unusable configuration). */
    ERROR
}
