package dev.dmmodel.workload;

import java.util.List;

/**
 * A workload script: commands in order, one per line, as users paste shell transcripts. Blank lines are
 * skipped; a leading {@code # }, {@code $ } or {@code > } prompt is removed ({@code # WORD} counts as a root
 * prompt when WORD is a known command, otherwise the line is a comment); {@code sudo} is accepted; commands
 * joined by {@code ;} or {@code &&}, and {@code sh -c}/{@code bash -c}/{@code time -p} wrappers, give one
 * command each, every one carrying the whole line.
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
        java.util.Objects.requireNonNull(text, "text");
        return dev.dmmodel.spi.ModelProviders.get().parseScript(text);
    }
}
