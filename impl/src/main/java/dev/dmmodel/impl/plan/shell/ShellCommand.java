package dev.dmmodel.impl.plan.shell;

import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.plan.PlanException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One simple command of a provisioning script, as the shell would run it: its words (quotes removed, the
 * script's literal variables expanded, {@code sudo} and environment prefixes dropped) and what it reads on
 * standard input (a here-document, a here-string, or the output of {@code echo}/{@code printf} piped into it).
 *
 * @param origin where it was written
 * @param words the command name and its arguments, each with its place
 * @param stdin what it reads on standard input, if anything
 * @param stdinLine the 1-based line where the standard input's text starts (a here-document's first body line;
 *     the command's line for a pipe or here-string), 0 without input
 */
public record ShellCommand(Origin origin, List<Word> words, Optional<String> stdin, int stdinLine) {
    /** Copies the words; rejects an empty command. */
    public ShellCommand {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(stdin, "stdin");
        words = List.copyOf(words);
        if (words.isEmpty()) {
            throw new IllegalArgumentException("a shell command has at least its name");
        }
    }

    /** The command's name without a directory ({@code /sbin/sfdisk} is {@code sfdisk}). */
    public String name() {
        String n = words.get(0).text();
        return n.substring(n.lastIndexOf('/') + 1);
    }

    /** The arguments after the name. */
    public List<Word> args() {
        return words.subList(1, words.size());
    }

    /** A read error at a word: {@code source:line:column: problem}. */
    public PlanException error(Word at, String problem) {
        return origin.error(at.line(), at.column(), problem);
    }

    /** A read error at the command's name. */
    public PlanException error(String problem) {
        return error(words.get(0), problem);
    }

    /**
     * A read error at a word, in the usual shape: {@code found "X" for FIELD: expected WHAT}.
     */
    public PlanException expected(Word at, String field, String expected) {
        return error(at, name() + " " + field + " \"" + at.text() + "\": expected " + expected);
    }
}
