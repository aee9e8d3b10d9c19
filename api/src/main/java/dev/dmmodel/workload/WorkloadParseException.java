package dev.dmmodel.workload;

/**
 * A workload line that cannot be run: an unknown command, or one the tool itself would reject (then the
 * message carries the tool's own reason, e.g. {@code dd: invalid number: '1x'}). Like every reader's error it is
 * a {@link dev.dmmodel.io.FormatException}; its source is {@code <input>} (a script has no file name here).
 */
public final class WorkloadParseException extends dev.dmmodel.io.FormatException {
    private static final long serialVersionUID = 1L;

    private final int lineNumber;
    private final String lineText;
    private final String reason;

    /**
     * Creates the exception.
     *
     * @param lineNumber 1-based line number in the script
     * @param lineText the line
     * @param reason why it cannot be run
     */
    public WorkloadParseException(int lineNumber, String lineText, String reason) {
        super("line " + lineNumber + ": " + reason + " (in: " + lineText + ")", "<input>", Math.max(lineNumber, 0), 0,
                reason + " (in: " + lineText + ")", null);
        this.lineNumber = lineNumber;
        this.lineText = lineText;
        this.reason = reason;
    }

    /** The 1-based line number. */
    public int lineNumber() {
        return lineNumber;
    }

    /** The line. */
    public String lineText() {
        return lineText;
    }

    /** The tool's reason. */
    public String reason() {
        return reason;
    }
}
