package dev.dmmodel.impl.plan.shell;

import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Splits a provisioning script into simple commands the way POSIX sh reads it, for the subset such scripts are
 * written in: {@code #} comments, {@code \}-newline continuations, single and double quotes and backslash escapes,
 * here-documents ({@code <<EOF}, {@code <<-EOF}, {@code <<'EOF'}) and here-strings ({@code <<<}), literal
 * variable assignments ({@code NAME=value}, {@code export NAME=value}) with {@code $NAME}/{@code ${NAME}}
 * expansion (an unquoted expansion splits into words at blanks, as the shell's field splitting does),
 * {@code ;}, {@code &&} and newline lists, {@code || true}, output redirections (ignored) and
 * {@code echo}/{@code printf} piped into one command. Everything else a script could do — loops, conditionals,
 * functions, command substitution, arithmetic, positional parameters, other pipes, input files, background jobs,
 * subshells — is a {@link PlanException} naming the construct, line and column: a dry run cannot know what it
 * would do.
 */
public final class ShellLexer {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(.*)", Pattern.DOTALL);
    private static final Set<String> RESERVED = Set.of("if", "then", "else", "elif", "fi", "for", "while", "until",
            "do", "done", "case", "esac", "function", "select", "{", "}", "!", "[[", "]]");
    /** Marks a blank that came from an unquoted expansion: a field-splitting point. */
    private static final char SPLIT = '\u0000';
    private static final int MAX_EXPANDED = 1 << 20;

    /** A simple command of the script and how it is joined to the next. */
    public record Parsed(ShellCommand command, boolean failureIgnored) {
    }

    private final String text;
    private final String source;
    private final Map<String, String> variables = new HashMap<>();
    private final List<Parsed> out = new ArrayList<>();
    private int pos;
    private int line = 1;
    private int col = 1;

    /** A here-document waiting for its body after the end of the line. */
    private static final class PendingHereDoc {
        final String delimiter;
        final boolean stripTabs;
        final boolean expand;
        final Word at;
        String body;
        int bodyLine;

        PendingHereDoc(String delimiter, boolean stripTabs, boolean expand, Word at) {
            this.delimiter = delimiter;
            this.stripTabs = stripTabs;
            this.expand = expand;
            this.at = at;
        }
    }

    /** A command being read: its words, redirections and joins. */
    private static final class Builder {
        final List<Word> words = new ArrayList<>();
        PendingHereDoc hereDoc;
        String hereString;
        String pipedIn;
        int startLine;
        int startColumn;
        int startPos;
        int endPos;
        boolean ignored;
    }

    private ShellLexer(String text, String source) {
        this.text = text.startsWith("\uFEFF") ? text.substring(1) : text;
        this.source = source;
    }

    /**
     * Reads a script.
     *
     * @throws PlanException for a construct outside the subset, naming line, column and construct
     */
    public static List<Parsed> read(String text, String source) {
        java.util.Objects.requireNonNull(text, "text");
        java.util.Objects.requireNonNull(source, "source");
        ShellLexer lexer = new ShellLexer(text.replace("\r\n", "\n"), source);
        lexer.script();
        return List.copyOf(lexer.out);
    }

    // ---- the script: lists of pipelines of simple commands

    private final List<PendingHereDoc> pendingDocs = new ArrayList<>();

    private void script() {
        Builder piped = null;   // an echo/printf whose output feeds the next command
        boolean ignoreNext = false;
        Builder previous = null;
        while (true) {
            skipBlanks();
            if (pos >= text.length()) {
                if (piped != null) {
                    throw error(piped.startLine, piped.startColumn, "a pipeline that ends after \"|\": expected the "
                            + "command that reads it");
                }
                break;
            }
            char c = text.charAt(pos);
            if (c == '\n') {
                advance();
                readHereDocBodies();
                if (piped != null) {
                    throw error(line - 1, 1, "a pipeline that ends after \"|\": expected the command that reads it");
                }
                continue;
            }
            if (c == '#') {
                skipComment();
                continue;
            }
            if (c == ';') {
                throw error(line, col, "\";\" without a command before it: expected a command");
            }
            int cmdLine = line;
            int cmdCol = col;
            Builder b = simpleCommand();
            skipBlanks();
            String op = operator();
            if (ignoreNext) {
                // the command after || must be true or :
                if (b.words.size() != 1 || !(b.words.get(0).text().equals("true") || b.words.get(0).text().equals(":"))) {
                    throw error(cmdLine, cmdCol, "\"||\" before \"" + (b.words.isEmpty() ? "" : b.words.get(0).text())
                            + "\": expected only \"|| true\" (a failure that is ignored); other alternatives are a "
                            + "conditional the dry run does not evaluate");
                }
                markIgnored(previous);
                ignoreNext = false;
                b = null;
            }
            if (b != null && piped != null) {
                b.pipedIn = pipeOutput(piped);
                piped = null;
            }
            switch (op) {
                case "|" -> {
                    if (b == null || b.words.isEmpty() || !isEchoOrPrintf(b)) {
                        Word w = b == null || b.words.isEmpty() ? new Word("|", cmdLine, cmdCol) : b.words.get(0);
                        throw error(w.line(), w.column(), "a pipeline from \"" + w.text() + "\": expected only "
                                + "echo or printf of literal text piped into a command (sfdisk's script)");
                    }
                    if (b.hereDoc != null || b.hereString != null) {
                        throw error(cmdLine, cmdCol, "a pipeline whose first command also reads a here-document: "
                                + "expected echo or printf of literal text");
                    }
                    piped = b;
                    continue;
                }
                case "||" -> {
                    ignoreNext = true;
                    if (b != null) {
                        previous = emit(b);
                    }
                    continue;
                }
                default -> {
                    // ";", "&&", newline or end: a command ends here
                }
            }
            if (b != null) {
                previous = emit(b);
            }
        }
        if (ignoreNext) {
            throw error(line, col, "\"||\" at the end of the script: expected \"|| true\"");
        }
        if (!pendingDocs.isEmpty()) {
            PendingHereDoc d = pendingDocs.get(0);
            throw error(d.at.line(), d.at.column(), "here-document \"<<" + d.delimiter + "\" without its body: "
                    + "expected the lines and a line \"" + d.delimiter + "\"");
        }
        flush();
    }

    /** The output of echo/printf with literal words, as the shell would pipe it. */
    private String pipeOutput(Builder b) {
        List<Word> words = b.words;
        String name = words.get(0).text();
        if (name.equals("echo")) {
            int i = 1;
            boolean newline = true;
            boolean escapes = false;
            while (i < words.size() && words.get(i).text().matches("-[neE]+")) {
                String f = words.get(i).text();
                newline &= !f.contains("n");
                escapes |= f.contains("e");
                i++;
            }
            StringBuilder s = new StringBuilder();
            for (int j = i; j < words.size(); j++) {
                if (j > i) {
                    s.append(' ');
                }
                s.append(words.get(j).text());
            }
            String o = escapes ? unescape(s.toString(), words.get(0)) : s.toString();
            return newline ? o + "\n" : o;
        }
        // printf FORMAT [ARGS]: %s takes the arguments in turn, the format repeats while arguments remain
        if (words.size() < 2) {
            throw error(words.get(0).line(), words.get(0).column(), "printf without a format: expected printf 'TEXT'");
        }
        String format = words.get(1).text();
        List<String> args = new ArrayList<>();
        for (int j = 2; j < words.size(); j++) {
            args.add(words.get(j).text());
        }
        StringBuilder s = new StringBuilder();
        int next = 0;
        do {
            StringBuilder f = new StringBuilder();
            for (int k = 0; k < format.length(); k++) {
                char c = format.charAt(k);
                if (c == '%' && k + 1 < format.length()) {
                    char d = format.charAt(++k);
                    if (d == '%') {
                        f.append('%');
                    } else if (d == 's' || d == 'd') {
                        f.append(next < args.size() ? args.get(next) : "");
                        next++;
                    } else {
                        throw error(words.get(1).line(), words.get(1).column(), "printf conversion \"%" + d
                                + "\": expected only %s, %d or %%");
                    }
                } else {
                    f.append(c);
                }
            }
            s.append(unescape(f.toString(), words.get(1)));
        } while (next < args.size() && format.contains("%"));
        return s.toString();
    }

    private String unescape(String s, Word at) {
        StringBuilder o = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char d = s.charAt(++i);
                switch (d) {
                    case 'n' -> o.append('\n');
                    case 't' -> o.append('\t');
                    case '\\' -> o.append('\\');
                    default -> o.append('\\').append(d);
                }
            } else {
                o.append(c);
            }
        }
        if (o.length() > MAX_EXPANDED) {
            throw error(at.line(), at.column(), "printed text longer than " + MAX_EXPANDED + " characters");
        }
        return o.toString();
    }

    private static boolean isEchoOrPrintf(Builder b) {
        String n = b.words.get(0).text();
        return n.equals("echo") || n.equals("printf");
    }

    /** Commands read but not yet out: they wait for the here-document bodies of their line. */
    private final List<Builder> queue = new ArrayList<>();

    private Builder emit(Builder b) {
        if (b.words.isEmpty()) {
            return null; // only assignments
        }
        queue.add(b);
        return b;
    }

    private void flush() {
        for (Builder b : queue) {
            finish(b);
        }
        queue.clear();
    }

    private void finish(Builder b) {
        Optional<String> stdin = Optional.empty();
        int stdinLine = 0;
        if (b.hereDoc != null) {
            stdin = Optional.of(b.hereDoc.body);
            stdinLine = b.hereDoc.bodyLine;
        } else if (b.hereString != null) {
            stdin = Optional.of(b.hereString + "\n");
            stdinLine = b.startLine;
        } else if (b.pipedIn != null) {
            stdin = Optional.of(b.pipedIn);
            stdinLine = b.startLine;
        }
        String written = text.substring(b.startPos, b.endPos).replaceAll("[ \t]*\\\\\n[ \t]*", " ").strip();
        Origin origin = new Origin(source, b.startLine, b.startColumn, written);
        out.add(new Parsed(new ShellCommand(origin, b.words, stdin, stdinLine), b.ignored));
    }

    private static void markIgnored(Builder b) {
        if (b != null) {
            b.ignored = true;
        }
    }

    /** Reads ";", "&&", "||", "|", "&" or nothing (newline, comment, end). */
    private String operator() {
        if (pos >= text.length()) {
            return "";
        }
        char c = text.charAt(pos);
        if (c == ';') {
            if (peek(1) == ';') {
                throw error(line, col, "\";;\" (a case branch): expected plain commands");
            }
            advance();
            return ";";
        }
        if (c == '&') {
            if (peek(1) == '&') {
                advance();
                advance();
                return "&&";
            }
            throw error(line, col, "\"&\" (a background job): expected commands that run in order");
        }
        if (c == '|') {
            if (peek(1) == '|') {
                advance();
                advance();
                return "||";
            }
            advance();
            return "|";
        }
        return "";
    }

    // ---- a simple command: assignments, words, redirections

    private Builder simpleCommand() {
        Builder b = new Builder();
        b.startLine = line;
        b.startColumn = col;
        b.startPos = pos;
        boolean commandPosition = true;
        List<String[]> prefixAssignments = new ArrayList<>();
        while (true) {
            skipBlanks();
            if (pos >= text.length()) {
                break;
            }
            char c = text.charAt(pos);
            if (c == '\n' || c == ';' || c == '&' || c == '|') {
                break;
            }
            if (c == '#') {
                skipComment();
                break;
            }
            if (c == '(' || c == ')') {
                throw error(line, col, "\"" + c + "\" (a subshell or function): expected plain commands");
            }
            if (c == '<' || c == '>' || (Character.isDigit(c) && (peek(1) == '>' || peek(1) == '<'))) {
                redirection(b);
                b.endPos = pos;
                continue;
            }
            int wl = line;
            int wc = col;
            boolean quotedStart = c == '\'' || c == '"';
            String raw = word();
            if (commandPosition && !quotedStart) {
                java.util.regex.Matcher m = ASSIGNMENT.matcher(raw);
                if (m.matches() && NAME.matcher(m.group(1)).matches() && !raw.startsWith("=")) {
                    prefixAssignments.add(new String[] {m.group(1), m.group(2).replace(SPLIT, ' ')});
                    b.endPos = pos;
                    continue;
                }
                if (RESERVED.contains(raw)) {
                    throw error(wl, wc, "shell construct \"" + raw + "\" (" + construct(raw) + "): expected plain "
                            + "commands, literal assignments, && or ; lists");
                }
                if (pos < text.length() && text.charAt(pos) == '(' ) {
                    throw error(wl, wc, "a function definition \"" + raw + "()\": expected plain commands");
                }
            }
            for (String part : split(raw)) {
                b.words.add(new Word(part, wl, wc));
            }
            commandPosition = false;
            b.endPos = pos;
        }
        if (b.words.isEmpty()) {
            for (String[] a : prefixAssignments) {
                variables.put(a[0], a[1]); // NAME=value alone sets a shell variable
            }
        } else if (b.words.get(0).text().equals("export") || b.words.get(0).text().equals("readonly")) {
            for (Word w : b.words.subList(1, b.words.size())) {
                java.util.regex.Matcher m = ASSIGNMENT.matcher(w.text());
                if (m.matches()) {
                    variables.put(m.group(1), m.group(2));
                } else if (!NAME.matcher(w.text()).matches()) {
                    throw error(w.line(), w.column(), b.words.get(0).text() + " \"" + w.text()
                            + "\": expected NAME=value");
                }
            }
            b.words.clear();
        }
        // a prefix NAME=value before a command only sets its environment: no effect on what it does here
        while (!b.words.isEmpty() && b.words.get(0).text().equals("sudo")) {
            b.words.remove(0);
            while (!b.words.isEmpty() && b.words.get(0).text().startsWith("-")) {
                Word opt = b.words.get(0);
                if (!opt.text().matches("-[EHn]+")) {
                    throw error(opt.line(), opt.column(), "sudo option \"" + opt.text() + "\": expected sudo COMMAND "
                            + "(or -E, -H, -n)");
                }
                b.words.remove(0);
            }
        }
        return b;
    }

    private static String construct(String word) {
        return switch (word) {
            case "for", "while", "until", "do", "done", "select" -> "a loop";
            case "if", "then", "else", "elif", "fi", "case", "esac", "[[", "]]", "!" -> "a conditional";
            case "function" -> "a function";
            default -> "a command group";
        };
    }

    private List<String> split(String raw) {
        if (raw.indexOf(SPLIT) < 0) {
            return List.of(raw);
        }
        List<String> parts = new ArrayList<>();
        for (String p : raw.split(String.valueOf(SPLIT), -1)) {
            if (!p.isEmpty()) {
                parts.add(p);
            }
        }
        return parts;
    }

    private void redirection(Builder b) {
        int rl = line;
        int rc = col;
        StringBuilder op = new StringBuilder();
        while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '<'
                || text.charAt(pos) == '>' || text.charAt(pos) == '&' || text.charAt(pos) == '-')) {
            char c = text.charAt(pos);
            if (c == '-' && !op.toString().endsWith("<<")) {
                break;
            }
            op.append(c);
            advance();
            if (op.toString().endsWith(">&") || op.toString().endsWith("<<<") || op.toString().endsWith("<<-")) {
                break;
            }
            if (op.toString().endsWith("<<") && pos < text.length() && text.charAt(pos) != '<'
                    && text.charAt(pos) != '-') {
                break;
            }
        }
        String o = op.toString().replaceFirst("^\\d+", "");
        skipBlanks();
        if (pos >= text.length() || text.charAt(pos) == '\n') {
            throw error(rl, rc, "redirection \"" + op + "\" without its target: expected a file name");
        }
        int tl = line;
        int tc = col;
        boolean quoted = text.charAt(pos) == '\'' || text.charAt(pos) == '"' || text.charAt(pos) == '\\';
        if (o.equals("<<") || o.equals("<<-")) {
            String delimiter = rawWord();
            if (b.hereDoc != null || b.hereString != null) {
                throw error(rl, rc, "a second here-document for one command: expected one");
            }
            b.hereDoc = new PendingHereDoc(delimiter, o.equals("<<-"), !quoted, new Word(delimiter, tl, tc));
            pendingDocs.add(b.hereDoc);
            return;
        }
        String target = word().replace(SPLIT, ' ');
        if (o.equals("<<<")) {
            if (b.hereDoc != null || b.hereString != null) {
                throw error(rl, rc, "a second here-string for one command: expected one");
            }
            b.hereString = target;
            return;
        }
        if (o.equals("<") || o.equals("<>")) {
            throw error(rl, rc, "input redirection \"" + op + " " + target + "\": expected a here-document (<<EOF) "
                    + "or a pipe from echo/printf: the dry run does not read files of the host");
        }
        if (o.equals(">&") && !target.matches("\\d|-")) {
            return; // >&file: output only
        }
        // >, >>, >|, &>, 2>&1, >/dev/null ... output only: no effect on the block stack
    }

    // ---- words

    /** A word with quotes removed and variables expanded; SPLIT marks blanks of unquoted expansions. */
    private String word() {
        StringBuilder w = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>'
                    || c == '(' || c == ')') {
                break;
            }
            if (c == '\\') {
                if (peek(1) == '\n') {
                    advance();
                    advance();
                    if (w.length() == 0) {
                        skipBlanks();
                        continue;
                    }
                    break; // a continuation ends the word
                }
                advance();
                if (pos < text.length()) {
                    w.append(text.charAt(pos));
                    advance();
                }
                continue;
            }
            if (c == '\'') {
                int ql = line;
                int qc = col;
                advance();
                int close = text.indexOf('\'', pos);
                if (close < 0) {
                    throw error(ql, qc, "an unterminated ' quote: expected a closing '");
                }
                while (pos < close) {
                    w.append(text.charAt(pos));
                    advance();
                }
                advance();
                continue;
            }
            if (c == '"') {
                doubleQuoted(w);
                continue;
            }
            if (c == '`') {
                throw error(line, col, "command substitution `...`: expected literal words");
            }
            if (c == '$') {
                String v = expansion();
                w.append(v.replaceAll("[ \t\n]+", String.valueOf(SPLIT)));
                continue;
            }
            if ((c == '*' || c == '?' || c == '[') && globCharacter(c)) {
                throw error(line, col, "a file name pattern \"" + c + "\": expected literal device names (the dry "
                        + "run does not list the host's files)");
            }
            w.append(c);
            advance();
        }
        if (w.length() > MAX_EXPANDED) {
            throw error(line, col, "a word longer than " + MAX_EXPANDED + " characters");
        }
        return w.toString();
    }

    private boolean globCharacter(char c) {
        // sfdisk's "size=+" and parted's "100%" are not patterns; '*' and '?' are, '[' when a ']' follows
        if (c == '[') {
            int close = text.indexOf(']', pos);
            int nl = text.indexOf('\n', pos);
            return close > 0 && (nl < 0 || close < nl);
        }
        return true;
    }

    /** The raw text of a here-document delimiter word, quotes removed. */
    private String rawWord() {
        StringBuilder w = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>') {
                break;
            }
            if (c == '\'' || c == '"') {
                int close = text.indexOf(c, pos + 1);
                if (close < 0) {
                    throw error(line, col, "an unterminated " + c + " quote: expected a closing " + c);
                }
                advance();
                while (pos < close) {
                    w.append(text.charAt(pos));
                    advance();
                }
                advance();
                continue;
            }
            if (c == '\\') {
                advance();
                continue;
            }
            w.append(c);
            advance();
        }
        if (w.length() == 0) {
            throw error(line, col, "a here-document without a delimiter: expected <<EOF");
        }
        return w.toString();
    }

    private void doubleQuoted(StringBuilder w) {
        int ql = line;
        int qc = col;
        advance();
        while (true) {
            if (pos >= text.length()) {
                throw error(ql, qc, "an unterminated \" quote: expected a closing \"");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                advance();
                return;
            }
            if (c == '\\') {
                char d = peek(1);
                if (d == '"' || d == '\\' || d == '$' || d == '`') {
                    advance();
                    w.append(d);
                    advance();
                    continue;
                }
                if (d == '\n') {
                    advance();
                    advance();
                    continue;
                }
            }
            if (c == '`') {
                throw error(line, col, "command substitution `...`: expected literal words");
            }
            if (c == '$') {
                w.append(expansion());
                continue;
            }
            w.append(c);
            advance();
        }
    }

    /** $NAME or ${NAME}: the value of a literal variable the script set. */
    private String expansion() {
        int el = line;
        int ec = col;
        advance(); // $
        if (pos >= text.length()) {
            return "$";
        }
        char c = text.charAt(pos);
        if (c == '(') {
            throw error(el, ec, peek(1) == '(' ? "arithmetic expansion $((...)): expected literal words"
                    : "command substitution $(...): expected literal words");
        }
        String name;
        if (c == '{') {
            int close = text.indexOf('}', pos);
            int nl = text.indexOf('\n', pos);
            if (close < 0 || (nl >= 0 && nl < close)) {
                throw error(el, ec, "an unterminated ${: expected ${NAME}");
            }
            name = text.substring(pos + 1, close);
            if (!NAME.matcher(name).matches()) {
                throw error(el, ec, "parameter expansion \"${" + name + "}\": expected ${NAME} of a variable the "
                        + "script sets (no operators)");
            }
            while (pos <= close) {
                advance();
            }
        } else if (Character.isDigit(c) || c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!'
                || c == '-') {
            throw error(el, ec, "special parameter \"$" + c + "\": expected $NAME of a variable the script sets (a "
                    + "dry run has no arguments, exit status or process ids)");
        } else if (Character.isLetter(c) || c == '_') {
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                advance();
            }
            name = text.substring(start, pos);
        } else {
            return "$";
        }
        String value = variables.get(name);
        if (value == null) {
            throw error(el, ec, "variable \"" + name + "\" is not set by the script: expected an assignment "
                    + name + "=VALUE before it (the dry run has no environment)");
        }
        return value;
    }

    // ---- here-document bodies, after the line that names them

    private void readHereDocBodies() {
        for (PendingHereDoc d : pendingDocs) {
            StringBuilder body = new StringBuilder();
            d.bodyLine = line;
            while (true) {
                if (pos >= text.length()) {
                    throw error(d.at.line(), d.at.column(), "here-document \"<<" + d.delimiter + "\" without its "
                            + "end: expected a line \"" + d.delimiter + "\"");
                }
                int nl = text.indexOf('\n', pos);
                int end = nl < 0 ? text.length() : nl;
                String l = text.substring(pos, end);
                String cmp = d.stripTabs ? l.replaceFirst("^\t+", "") : l;
                int thisLine = line;
                while (pos < end) {
                    advance();
                }
                if (pos < text.length()) {
                    advance();
                }
                if (cmp.equals(d.delimiter)) {
                    break;
                }
                String content = d.stripTabs ? cmp : l;
                if (d.expand) {
                    content = expandLine(content, thisLine);
                }
                body.append(content).append('\n');
                if (body.length() > MAX_EXPANDED) {
                    throw error(d.at.line(), d.at.column(), "a here-document longer than " + MAX_EXPANDED
                            + " characters");
                }
            }
            d.body = body.toString();
        }
        pendingDocs.clear();
        flush();
    }

    /** $NAME expansion inside an unquoted here-document's line. */
    private String expandLine(String l, int atLine) {
        StringBuilder o = new StringBuilder();
        for (int i = 0; i < l.length(); i++) {
            char c = l.charAt(i);
            if (c == '\\' && i + 1 < l.length() && (l.charAt(i + 1) == '$' || l.charAt(i + 1) == '\\'
                    || l.charAt(i + 1) == '`')) {
                o.append(l.charAt(++i));
                continue;
            }
            if (c == '`') {
                throw error(atLine, i + 1, "command substitution `...` in a here-document: expected literal text");
            }
            if (c != '$' || i + 1 >= l.length()) {
                o.append(c);
                continue;
            }
            char d = l.charAt(i + 1);
            String name;
            int next;
            if (d == '{') {
                int close = l.indexOf('}', i);
                if (close < 0) {
                    throw error(atLine, i + 1, "an unterminated ${ in a here-document: expected ${NAME}");
                }
                name = l.substring(i + 2, close);
                next = close + 1;
            } else if (d == '(') {
                throw error(atLine, i + 1, "command substitution $(...) in a here-document: expected literal text");
            } else if (Character.isLetter(d) || d == '_') {
                int j = i + 1;
                while (j < l.length() && (Character.isLetterOrDigit(l.charAt(j)) || l.charAt(j) == '_')) {
                    j++;
                }
                name = l.substring(i + 1, j);
                next = j;
            } else {
                o.append(c);
                continue;
            }
            if (!NAME.matcher(name).matches()) {
                throw error(atLine, i + 1, "parameter expansion \"${" + name + "}\" in a here-document: expected "
                        + "${NAME}");
            }
            String v = variables.get(name);
            if (v == null) {
                throw error(atLine, i + 1, "variable \"" + name + "\" is not set by the script: expected an "
                        + "assignment " + name + "=VALUE before it");
            }
            o.append(v);
            i = next - 1;
        }
        return o.toString();
    }

    // ---- characters

    private void skipBlanks() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r') {
                advance();
            } else if (c == '\\' && peek(1) == '\n') {
                advance();
                advance();
            } else {
                break;
            }
        }
    }

    private void skipComment() {
        while (pos < text.length() && text.charAt(pos) != '\n') {
            advance();
        }
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private void advance() {
        if (text.charAt(pos) == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        pos++;
    }

    private PlanException error(int atLine, int atColumn, String problem) {
        return new PlanException(source, atLine, atColumn, problem);
    }
}
