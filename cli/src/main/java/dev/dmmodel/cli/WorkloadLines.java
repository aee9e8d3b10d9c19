package dev.dmmodel.cli;

import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import dev.dmmodel.workload.WorkloadParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A workload script parsed line by line, so that every command keeps the number of the line it came from
 * (lines end at CR, LF or CRLF; a line ending in an odd number of backslashes continues on the next one,
 * as {@link Script#parse(String)} reads them).
 */
final class WorkloadLines {

    /**
     * A parsed command and where it came from.
     *
     * @param source the file or option it came from ({@code setup.txt}, {@code --workload})
     * @param lineNumber the 1-based line number of its (first) line
     * @param command the command
     */
    record Step(String source, int lineNumber, Command command) {
        /** {@code workload.txt line 3}. */
        String where() {
            return source + " line " + lineNumber;
        }
    }

    private WorkloadLines() {
    }

    /**
     * Parses every line of {@code text}.
     *
     * @throws CliException naming the source, the line number, the reason and the line, for the first line
     *     the parser rejects
     */
    static List<Step> parse(String source, String text) {
        String[] physical = text.split("\r\n|\r|\n", -1);
        List<Step> steps = new ArrayList<>();
        int i = 0;
        while (i < physical.length) {
            int lineNumber = i + 1;
            StringBuilder logical = new StringBuilder(physical[i++]);
            while (oddTrailingBackslashes(logical) && i < physical.length) {
                logical.setLength(logical.length() - 1);
                logical.append(physical[i++]);
            }
            Script script;
            try {
                script = Script.parse(logical.toString());
            } catch (WorkloadParseException e) {
                throw new CliException(source + " line " + lineNumber + ": " + e.reason() + " (in: "
                        + e.lineText().strip() + ")", e);
            }
            for (Command c : script.commands()) {
                steps.add(new Step(source, lineNumber, c));
            }
        }
        return steps;
    }

    private static boolean oddTrailingBackslashes(CharSequence s) {
        int n = 0;
        for (int j = s.length() - 1; j >= 0 && s.charAt(j) == '\\'; j--) {
            n++;
        }
        return n % 2 == 1;
    }
}
