package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code $ bin/dmmodel ...} command line in a code block of README.md and docs/*.md runs, in-process, from
 * the project root as a fresh clone has it (no {@code ../shared}), and exits with the code the text says: the
 * number after a following {@code $ echo $?}, else 0. What the block shows it print is checked too: each line
 * shown is a line of its output (a line with {@code ...} only up to there; a line {@code ...} skips). Only the
 * dmmodel part of a pipeline runs ({@code | jq ...}, {@code > file} and {@code 2>/dev/null} are left out, and what
 * it shows is then not checked; without {@code echo $?} its exit code need only not be 2 or 3); {@code for V in A B; do ...; done} runs once per word. A block right after a line
 * {@code <!-- not run: WHY -->} is skipped (a host of your own, a root shell).
 */
class DocExamplesTest {

    /** The project root (tests run in the cli module's directory). */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern DMMODEL = Pattern.compile("(^|[\\s;])bin/dmmodel\\s");
    private static final Pattern FOR = Pattern.compile("for (\\w+) in ([^;]+); do (.*); done");

    /** One documented command. */
    record Example(String file, int line, String command, int exitCode, List<String> shown, boolean checkOutput,
                   boolean pipeline) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + command;
        }
    }

    @TestFactory
    Stream<DynamicTest> everyDocumentedCommandRunsAsTheTextSays() throws IOException {
        Path out = Files.createTempDirectory("dmmodel-doc-examples");
        return examples().stream().map(e -> DynamicTest.dynamicTest(e.toString(), () -> run(e, out)));
    }

    @Test
    void theDocsHaveExamplesOfEveryCommandAndOption() {
        List<Example> all = examples();
        for (String s : new String[] {"limits ", "trace ", "check ", "export ", "show ", "--plan ", "--lsblk ",
            "--snapshots ", "--format jsonl", "--layout "}) {
            assertThat(all).as(s).anyMatch(e -> e.command().contains(s));
        }
        assertThat(all).as("README's plan from a fresh clone")
                .anyMatch(e -> e.file().equals("README.md") && e.command().contains("--plan "));
    }

    private static void run(Example e, Path outDir) {
        for (String command : expand(e.command())) {
            String[] args = args(command, outDir);
            Cli.Result r = Cli.run(args);
            if (e.pipeline() && e.exitCode() == 0) {
                // the shell's $? is the pipeline's last command's: dmmodel's own is only known not to be bad input
                assertThat(r.exitCode()).as("%s: exit %d%nstderr: %s", e, r.exitCode(), r.err()).isLessThan(2);
            } else {
                assertThat(r.exitCode()).as("%s: exit %d, the text says %d%nstderr: %s", e, r.exitCode(), e.exitCode(),
                        r.err()).isEqualTo(e.exitCode());
            }
            if (e.checkOutput()) {
                // as printed from the project root: the paths made absolute above are relative again
                List<String> printed = Stream.concat(r.outLines().stream(), r.err().lines())
                        .map(l -> l.replace(ROOT + "/", "").stripTrailing()).toList();
                for (String line : e.shown()) {
                    String shown = line.stripTrailing();
                    if (shown.strip().equals("...")) {
                        continue;
                    }
                    int dots = shown.indexOf("...");
                    if (dots >= 0) {
                        String start = shown.substring(0, dots);
                        assertThat(printed).as("%s prints a line starting %s", e, start).anyMatch(l -> l.startsWith(start));
                    } else {
                        assertThat(printed).as("%s prints the line it shows", e).contains(shown);
                    }
                }
            }
        }
    }

    /** A {@code for} loop once per word, with {@code $V} replaced; anything else as it is. */
    private static List<String> expand(String command) {
        Matcher m = FOR.matcher(command);
        if (!m.matches()) {
            return List.of(command);
        }
        List<String> out = new ArrayList<>();
        for (String word : m.group(2).trim().split("\\s+")) {
            out.add(m.group(3).replace("$" + m.group(1), word));
        }
        return out;
    }

    /**
     * The words after {@code bin/dmmodel}, quotes removed, up to the first unquoted {@code |}, {@code >},
     * {@code <}, {@code ;} or {@code &}; a word naming a file of the project made absolute, an {@code -o} file
     * put in {@code outDir}.
     */
    static String[] args(String command, Path outDir) {
        Matcher m = DMMODEL.matcher(command);
        assertThat(m.find()).as(command).isTrue();
        List<String> words = words(command.substring(m.end()));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if ((w.equals("-o") || w.equals("--output")) && i + 1 < words.size()) {
                out.add(w);
                out.add(outDir.resolve(words.get(++i)).toString());
            } else if (!w.startsWith("-") && !w.isEmpty() && Files.exists(ROOT.resolve(w))) {
                out.add(ROOT.resolve(w).toString());
            } else {
                out.add(w);
            }
        }
        return out.toArray(String[]::new);
    }

    private static List<String> words(String s) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                int end = s.indexOf('\'', i + 1);
                w.append(s, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                int end = s.indexOf('"', i + 1);
                w.append(s.substring(i + 1, end).replace("\\\"", "\"").replace("\\$", "$"));
                i = end;
                inWord = true;
            } else if (c == '\\' && i + 1 < s.length()) {
                w.append(s.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else if ("|><;&".indexOf(c) >= 0) {
                if (inWord && !w.toString().equals("2")) {
                    words.add(w.toString());
                }
                return words;
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }

    /** Every documented dmmodel command of README.md and docs/*.md. */
    static List<Example> examples() {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Example> out = new ArrayList<>();
        for (Path f : files) {
            out.addAll(examples(ROOT.relativize(f).toString(), read(f)));
        }
        return out;
    }

    /** The examples of one Markdown text. */
    static List<Example> examples(String file, List<String> lines) {
        List<Example> out = new ArrayList<>();
        boolean skipNext = false;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("<!-- not run:")) {
                skipNext = true;
            } else if (l.startsWith("```")) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).startsWith("```")) {
                    end++;
                }
                if (!skipNext) {
                    out.addAll(block(file, i + 2, joined(lines.subList(i + 1, end))));
                }
                skipNext = false;
                i = end;
            } else if (!l.isBlank()) {
                skipNext = false;
            }
        }
        return out;
    }

    /** A block's lines with trailing-backslash continuations joined, each with its first line's number. */
    private static List<String[]> joined(List<String> lines) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int first = i;
            StringBuilder sb = new StringBuilder(lines.get(i));
            while (sb.length() > 0 && sb.charAt(sb.length() - 1) == '\\' && lines.get(first).startsWith("$ ")
                    && i + 1 < lines.size()) {
                sb.setLength(sb.length() - 1);
                sb.append(' ').append(lines.get(++i).strip());
            }
            out.add(new String[] {Integer.toString(first), sb.toString()});
        }
        return out;
    }

    private static List<Example> block(String file, int firstLine, List<String[]> lines) {
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i)[1];
            if (!l.startsWith("$ ") || !DMMODEL.matcher(l.substring(2)).find()) {
                continue;
            }
            String command = l.substring(2).strip();
            List<String> shown = new ArrayList<>();
            int j = i + 1;
            while (j < lines.size() && !lines.get(j)[1].startsWith("$ ")) {
                shown.add(lines.get(j)[1]);
                j++;
            }
            int exit = 0;
            if (j + 1 < lines.size() && lines.get(j)[1].strip().equals("$ echo $?")
                    && lines.get(j + 1)[1].strip().matches("\\d+")) {
                exit = Integer.parseInt(lines.get(j + 1)[1].strip());
            }
            boolean plain = command.chars().noneMatch(c -> "|><;&".indexOf(c) >= 0);
            out.add(new Example(file, firstLine + Integer.parseInt(lines.get(i)[0]), command, exit, shown, plain,
                    command.contains("|")));
        }
        return out;
    }

    private static List<String> read(Path f) {
        try {
            return Files.readAllLines(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
