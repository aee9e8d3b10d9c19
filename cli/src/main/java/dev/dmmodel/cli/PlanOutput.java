package dev.dmmodel.cli;

import dev.dmmodel.internal.json.JsonWriter;
import dev.dmmodel.plan.PlanEntry;
import dev.dmmodel.plan.PlanFailure;
import dev.dmmodel.plan.PlanResult;
import java.util.List;
import java.util.Optional;

/** How {@code check} prints what the plans did: per-line entries and the first failure, as text and JSON. */
final class PlanOutput {

    private PlanOutput() {
    }

    /** Every plan's entries in order, one {@link PlanEntry#toString()} a line ({@code plan.sh:3: pvcreate: ...}). */
    static String text(List<PlanResult> plans) {
        StringBuilder sb = new StringBuilder();
        for (PlanResult r : plans) {
            for (PlanEntry e : r.entries()) {
                sb.append(e).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * {@code "plan": [{"source": .., "line": .., "tool": .., "command": .., "results": [..]}, ...],
     * "planFailure": {"source": .., "line": .., "tool": .., "command": .., "message": ..}} (or {@code null}),
     * one entry a line, for the end of check's JSON object.
     */
    static String json(List<PlanResult> plans, Optional<PlanFailure> failure) {
        StringBuilder sb = new StringBuilder("\"plan\": [");
        String sep = "\n";
        for (PlanResult r : plans) {
            for (PlanEntry e : r.entries()) {
                sb.append(sep).append("  {\"source\": ").append(JsonWriter.string(e.source()))
                        .append(", \"line\": ").append(e.line())
                        .append(", \"tool\": ").append(JsonWriter.string(e.tool()))
                        .append(", \"command\": ").append(JsonWriter.string(e.command()))
                        .append(", \"results\": [");
                String inner = "";
                for (String result : e.results()) {
                    sb.append(inner).append(JsonWriter.string(result));
                    inner = ", ";
                }
                sb.append("]}");
                sep = ",\n";
            }
        }
        sb.append(sep.equals("\n") ? "]" : "\n]");
        return sb.append(",\n\"planFailure\": ").append(failure.map(PlanOutput::json).orElse("null")).toString();
    }

    /** {@code {"source": .., "line": .., "tool": .., "command": .., "message": ..}}. */
    static String json(PlanFailure f) {
        return "{\"source\": " + JsonWriter.string(f.source()) + ", \"line\": " + f.line() + ", \"tool\": "
                + JsonWriter.string(f.tool()) + ", \"command\": " + JsonWriter.string(f.command()) + ", \"message\": "
                + JsonWriter.string(f.message()) + "}";
    }
}
