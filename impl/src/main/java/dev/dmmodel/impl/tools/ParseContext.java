package dev.dmmodel.impl.tools;

import dev.dmmodel.workload.WorkloadParseException;

/** The line being parsed and its number in the script, for the errors of every tool. */
record ParseContext(String line, int lineNumber) {
    WorkloadParseException fail(String reason) {
        return new WorkloadParseException(lineNumber, line, reason);
    }
}
