package dev.dmmodel.workload;

import java.util.List;

/**
 * A workload script: commands in order, one per line, as users paste shell transcripts. Blank lines and
 * {@code #} comments are skipped; a leading {@code # } or {@code $ } prompt is removed.
 *
 * @param commands the commands
 */
public record Script(List<Command> commands) {

    /** Copies the list. */
    public Script {
        commands = List.copyOf(commands);
    }

    /**
     * Parses a script.
     *
     * @throws WorkloadParseException naming the line number, the line and the reason
     */
    public static Script parse(String text) {
        return CommandParser.parseScript(text);
    }
}
