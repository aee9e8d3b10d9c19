package dev.dmmodel.workload;

/** Parses workload lines (placeholder until the parser lands). */
final class CommandParser {
    private CommandParser() {
    }

    static Command parse(String line, int lineNumber) {
        throw new WorkloadParseException(lineNumber, line, "not implemented");
    }

    static Script parseScript(String text) {
        throw new WorkloadParseException(1, text, "not implemented");
    }
}
