package dev.dmmodel.impl.tools;

import dev.dmmodel.workload.WorkloadParseException;
import java.util.ArrayList;
import java.util.List;

/** The shell that holds a workload line: POSIX tokens, quoting, redirections, lists and pipelines (bash's grammar, without expansions). */
final class Shell {

    private Shell() {
    }

    // ------------------------------------------------------------------------------------------------
    // Shell tokens and structure

    enum TokKind { WORD, OP }

    /** A word (quotes removed) or an operator; {@code ioNumber} is the fd written before a redirection. */
    record Tok(TokKind kind, String text, int ioNumber) {
    }

    static final class Tokenizer {
        private final String s;
        private final ParseContext ctx;
        private int pos;

        Tokenizer(String s, ParseContext ctx) {
            this.s = s;
            this.ctx = ctx;
        }

        List<Tok> tokenize() {
            List<Tok> out = new ArrayList<>();
            while (true) {
                while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
                    pos++;
                }
                if (pos >= s.length() || s.charAt(pos) == '#') {
                    return out; // end, or a comment to the end of the line
                }
                char c = s.charAt(pos);
                if (isOperatorStart(c)) {
                    out.add(new Tok(TokKind.OP, operator(), -1));
                    continue;
                }
                int start = pos;
                String word = word();
                boolean allDigits = !word.isEmpty() && word.chars().allMatch(ch -> ch >= '0' && ch <= '9')
                        && pos - start == word.length();
                if (allDigits && pos < s.length() && (s.charAt(pos) == '>' || s.charAt(pos) == '<')) {
                    String op = operator();
                    int fd;
                    try {
                        fd = Integer.parseInt(word);
                    } catch (NumberFormatException e) {
                        fd = Integer.MAX_VALUE;
                    }
                    out.add(new Tok(TokKind.OP, op, fd));
                } else {
                    out.add(new Tok(TokKind.WORD, word, -1));
                }
            }
        }

        static boolean isOperatorStart(char c) {
            return c == '|' || c == '&' || c == ';' || c == '<' || c == '>' || c == '(' || c == ')';
        }

        private String operator() {
            char c = s.charAt(pos);
            char next = pos + 1 < s.length() ? s.charAt(pos + 1) : '\0';
            String op;
            switch (c) {
                case '|': op = next == '|' ? "||" : "|"; break;
                case '&': op = next == '&' ? "&&" : next == '>' ? "&>" : "&"; break;
                case ';': op = next == ';' ? ";;" : ";"; break;
                case '<': op = next == '<' ? "<<" : next == '&' ? "<&" : "<"; break;
                case '>': op = next == '>' ? ">>" : next == '|' ? ">|" : next == '&' ? ">&" : ">"; break;
                default: op = String.valueOf(c); break;
            }
            pos += op.length();
            return op;
        }

        private String word() {
            StringBuilder w = new StringBuilder();
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == ' ' || c == '\t' || isOperatorStart(c)) {
                    break;
                }
                if (c == '\'') {
                    int end = s.indexOf('\'', pos + 1);
                    if (end < 0) {
                        throw ctx.fail("unexpected EOF while looking for matching `''");
                    }
                    w.append(s, pos + 1, end);
                    pos = end + 1;
                } else if (c == '"') {
                    pos++;
                    boolean closed = false;
                    while (pos < s.length()) {
                        char d = s.charAt(pos);
                        if (d == '"') {
                            closed = true;
                            pos++;
                            break;
                        }
                        if (d == '\\' && pos + 1 < s.length() && "$`\"\\".indexOf(s.charAt(pos + 1)) >= 0) {
                            w.append(s.charAt(pos + 1));
                            pos += 2;
                            continue;
                        }
                        if (d == '`' || (d == '$' && isExpansionStart(pos + 1))) {
                            throw expansion(pos);
                        }
                        w.append(d);
                        pos++;
                    }
                    if (!closed) {
                        throw ctx.fail("unexpected EOF while looking for matching `\"'");
                    }
                } else if (c == '\\') {
                    if (pos + 1 < s.length()) {
                        w.append(s.charAt(pos + 1));
                    }
                    pos += 2;
                } else if (c == '`' || (c == '$' && isExpansionStart(pos + 1))) {
                    throw expansion(pos);
                } else if (c == '*' || c == '?') {
                    throw ctx.fail("glob patterns are not expanded: quote '" + c + "' or write the path out");
                } else {
                    w.append(c);
                    pos++;
                }
            }
            return w.toString();
        }

        private boolean isExpansionStart(int at) {
            if (at >= s.length()) {
                return false;
            }
            char c = s.charAt(at);
            return Character.isLetterOrDigit(c) || "_{(@*#?$!-'\"".indexOf(c) >= 0;
        }

        private WorkloadParseException expansion(int at) {
            int end = at + 1;
            while (end < s.length() && s.charAt(end) != ' ' && s.charAt(end) != '\t') {
                end++;
            }
            return ctx.fail("shell expansions are not modelled: '" + s.substring(at, end)
                    + "' (write the value out)");
        }
    }

    record Redir(int fd, String op, String target) {
    }

    record Simple(List<String> words, List<Redir> redirs) {
    }

    record Pipeline(List<Simple> commands) {
    }

    static List<Pipeline> structure(List<Tok> tokens, ParseContext ctx) {
        List<Pipeline> pipelines = new ArrayList<>();
        List<Simple> current = new ArrayList<>();
        List<String> words = new ArrayList<>();
        List<Redir> redirs = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            Tok t = tokens.get(i);
            if (t.kind() == TokKind.WORD) {
                words.add(t.text());
                continue;
            }
            String op = t.text();
            switch (op) {
                case ">": case ">>": case ">|": case "<": case ">&": case "<&": case "&>": {
                    if (i + 1 >= tokens.size() || tokens.get(i + 1).kind() != TokKind.WORD) {
                        String near = i + 1 >= tokens.size() ? "newline" : tokens.get(i + 1).text();
                        throw ctx.fail("syntax error near unexpected token `" + near + "'");
                    }
                    int fd = t.ioNumber() >= 0 ? t.ioNumber() : op.startsWith("<") ? 0 : 1;
                    redirs.add(new Redir(fd, op, tokens.get(++i).text()));
                    break;
                }
                case "|": case ";": case "&&": {
                    if (words.isEmpty()) {
                        throw ctx.fail("syntax error near unexpected token `" + op + "'");
                    }
                    current.add(new Simple(List.copyOf(words), List.copyOf(redirs)));
                    words.clear();
                    redirs.clear();
                    if (!op.equals("|")) {
                        pipelines.add(new Pipeline(List.copyOf(current)));
                        current.clear();
                    } else if (i + 1 >= tokens.size()) {
                        throw ctx.fail("syntax error near unexpected token `newline'");
                    }
                    break;
                }
                case "&":
                    throw ctx.fail("background jobs ('&') are not modelled");
                case "||":
                    throw ctx.fail("'||' is not modelled: commands are joined by ';' or '&&' only");
                default:
                    throw ctx.fail("'" + op + "' is not modelled: one command, or commands joined by ';' or"
                            + " '&&', per line");
            }
        }
        if (!words.isEmpty()) {
            current.add(new Simple(List.copyOf(words), List.copyOf(redirs)));
        } else if (!redirs.isEmpty()) {
            throw ctx.fail("a redirection without a command has nothing to model");
        }
        if (!current.isEmpty()) {
            pipelines.add(new Pipeline(List.copyOf(current)));
        }
        return pipelines;
    }

    static List<String> unwrap(List<String> words) {
        int i = 0;
        boolean again = true;
        while (again && i < words.size()) {
            again = false;
            if (words.get(i).equals("sudo")) {
                i++;
                while (i < words.size() && List.of("-E", "-H", "-n", "-S", "--").contains(words.get(i))) {
                    i++;
                }
                again = true;
            } else if (words.get(i).equals("time")) {
                i++;
                if (i < words.size() && words.get(i).equals("-p")) {
                    i++;
                }
                again = true;
            }
        }
        return words.subList(i, words.size());
    }

    /** {@code > /dev/null}, {@code 2> /dev/null}, {@code 2>&1}, {@code &> /dev/null}: no effect on the model. */
    static void harmlessRedirections(List<Redir> redirs, String name, ParseContext ctx) {
        for (Redir r : redirs) {
            boolean devNull = r.target().equals("/dev/null")
                    && (r.op().equals(">") || r.op().equals(">>") || r.op().equals("&>"));
            boolean dup = r.op().equals(">&") && (r.target().equals("1") || r.target().equals("2"));
            if (!devNull && !dup) {
                throw ctx.fail("redirection '" + (r.fd() == 1 || r.fd() == 0 ? "" : r.fd()) + r.op() + " "
                        + r.target() + "' is not modelled for " + name);
            }
        }
    }
}
