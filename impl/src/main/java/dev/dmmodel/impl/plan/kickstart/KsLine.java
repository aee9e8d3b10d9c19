package dev.dmmodel.impl.plan.kickstart;

import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.List;

/**
 * One kickstart command line split into words as pykickstart splits it ({@code shlex.split(line, comments=True)}
 * in pykickstart/parser.py: KickstartParser._stateMachine): blanks separate words, single and double quotes group,
 * a backslash escapes outside single quotes, a {@code #} at the start of a word begins a comment.
 *
 * @param origin where the line was written
 * @param words the words (the command first)
 */
record KsLine(Origin origin, List<Word> words) {

    /** A word and the 1-based column where it starts. */
    record Word(String text, int column) {
    }

    KsLine {
        words = List.copyOf(words);
    }

    String command() {
        return words.get(0).text();
    }

    PlanException error(Word at, String problem) {
        return origin.error(origin.line(), at.column(), problem);
    }

    PlanException error(String problem) {
        return error(words.get(0), problem);
    }

    /** Splits a line; empty for a blank or comment line. */
    static List<Word> split(String line, String source, int lineNumber) {
        List<Word> out = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u000B') {
                i++;
                continue;
            }
            if (c == '#') {
                break;
            }
            int start = i;
            StringBuilder w = new StringBuilder();
            while (i < n) {
                c = line.charAt(i);
                if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u000B') {
                    break;
                }
                if (c == '\'') {
                    int end = line.indexOf('\'', i + 1);
                    if (end < 0) {
                        throw new PlanException(source, lineNumber, i + 1, "unterminated single quote: expected a "
                                + "closing ' on the same line");
                    }
                    w.append(line, i + 1, end);
                    i = end + 1;
                } else if (c == '"') {
                    int quote = i;
                    i++;
                    boolean closed = false;
                    while (i < n) {
                        char d = line.charAt(i);
                        if (d == '"') {
                            closed = true;
                            i++;
                            break;
                        }
                        if (d == '\\' && i + 1 < n && (line.charAt(i + 1) == '"' || line.charAt(i + 1) == '\\')) {
                            w.append(line.charAt(i + 1));
                            i += 2;
                            continue;
                        }
                        w.append(d);
                        i++;
                    }
                    if (!closed) {
                        throw new PlanException(source, lineNumber, quote + 1, "unterminated double quote: expected "
                                + "a closing \" on the same line");
                    }
                } else if (c == '\\') {
                    if (i + 1 >= n) {
                        throw new PlanException(source, lineNumber, i + 1, "a backslash at the end of the line: "
                                + "kickstart commands are one line each");
                    }
                    w.append(line.charAt(i + 1));
                    i += 2;
                } else {
                    w.append(c);
                    i++;
                }
            }
            out.add(new Word(w.toString(), start + 1));
        }
        return out;
    }
}
