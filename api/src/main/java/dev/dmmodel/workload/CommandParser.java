package dev.dmmodel.workload;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Parses workload lines as a shell and the tools themselves would.
 *
 * <h2>Lines</h2>
 * A line is tokenized like a POSIX shell does it: words split at blanks, {@code '...'} literal,
 * {@code "..."} with backslash escapes of {@code $ ` " \}, a backslash outside quotes escaping the next
 * character, an unquoted {@code #} starting a word beginning a comment. A leading prompt is removed:
 * {@code "$ "}, {@code "# "} (root) or {@code "> "} (as mail quotes and continuation prompts show it). Then
 * {@code sudo}, {@code time [-p]} and {@code sh -c 'COMMAND'} / {@code bash -c 'COMMAND'} are unwrapped.
 * Variables, command substitutions and glob patterns are not expanded: such a line is rejected.
 *
 * <p>In a script, blank lines and comment lines are skipped; a line starting {@code "# "} followed by a
 * command this parser knows ({@code # dd if=...}) is taken as a root prompt, any other line starting
 * {@code #} is a comment. A line ending in a backslash continues on the next one. One line may hold
 * several commands joined by {@code ;} or {@code &&} (every command is modelled as succeeding); each
 * becomes a command whose {@link Command#line()} is the whole line. {@link Command#parse} takes exactly
 * one command.
 *
 * <h2>Reasons</h2>
 * A rejected line throws {@link WorkloadParseException} whose reason is the tool's own message where the
 * tool has one ({@code dd: invalid number: '1x'}, {@code blkdiscard: failed to parse offset: 'x': Invalid
 * argument}); where the line is valid for the tool but outside the model, the reason says so.
 *
 * <h2>dd</h2>
 * Operands are read exactly as GNU coreutils 9.x {@code dd} reads them ({@code scanargs} and
 * {@code parse_integer} in {@code src/dd.c}, {@code xstrtoumax} from gnulib), for GNU/Linux (where
 * {@code iflag=binary}, {@code text}, {@code cio} and {@code nolinks} are rejected, their flags being 0):
 * <ul>
 *   <li>numbers: decimal, with the multiplicative suffixes {@code c}=1, {@code w}=2, {@code b}=512,
 *       {@code kB}=1000, {@code K}={@code k}={@code KiB}=1024, {@code MB}, {@code M}, {@code MiB}, ... up to
 *       {@code Q}; a bare suffix means one of it ({@code bs=M}); {@code AxB} multiplies; a number ending
 *       in {@code B} ({@code count=1MB}, {@code skip=4096B}) counts bytes in {@code count=}, {@code skip=}
 *       and {@code seek=} (dd 9.1);</li>
 *   <li>{@code count=} and {@code skip=}/{@code iseek=} count {@code ibs}-sized blocks, {@code seek=}/{@code
 *       oseek=} {@code obs}-sized blocks, unless {@code iflag=count_bytes}/{@code skip_bytes},
 *       {@code oflag=seek_bytes} or a {@code B} suffix; the record holds the resolved byte counts;
 *       {@code count=} of more than {@link Long#MAX_VALUE} bytes is recorded as {@link Long#MAX_VALUE}, and
 *       {@code count=9223372036854775807} means no limit, as in dd;</li>
 *   <li>flags: what was given, plus {@code SKIP_BYTES}/{@code COUNT_BYTES}/{@code SEEK_BYTES} where a
 *       {@code B} suffix implied them, as dd adds them;</li>
 *   <li>conversions: dd's effective set: {@code ascii} implies {@code unblock}, {@code ebcdic} and
 *       {@code ibm} imply {@code block}, and {@code block}/{@code unblock} are dropped when no {@code cbs=}
 *       is given (dd then ignores them, and does not reject {@code conv=block,unblock});</li>
 *   <li>rejections, in dd's order and words: {@code dd: unrecognized operand 'X'}, {@code dd: invalid
 *       number: 'X'} (with {@code : Value too large for defined data type} on overflow), {@code dd: invalid
 *       input flag: 'X'}, {@code dd: invalid output flag: 'X'}, {@code dd: invalid conversion: 'X'},
 *       {@code dd: invalid status level: 'X'}, {@code dd: invalid output flag: 'fullblock'}, {@code dd:
 *       cannot combine any two of {ascii,ebcdic,ibm}}, {@code ... block and unblock}, {@code ... lcase and
 *       ucase}, {@code ... excl and nocreat}, {@code ... direct and nocache}, {@code dd: offset too large:
 *       cannot truncate to a length of seek=N (M-byte) blocks}, and, for offsets beyond 2^63-1 bytes that dd
 *       can only try to reach, {@code dd: FILE: cannot skip|seek: Value too large for defined data
 *       type}.</li>
 * </ul>
 */
final class CommandParser {

    /** Command words that make {@code "# WORD ..."} a root prompt rather than a comment in a script. */
    private static final Set<String> KNOWN_COMMANDS = Set.of("dd", "echo", "sync", "blockdev", "mkfs.xfs",
            "mkfs.ext4", "mount", "umount", "dmsetup", "blkdiscard", "lvcreate", "sudo", "time", "sh", "bash");

    private static final String DROP_CACHES = "/proc/sys/vm/drop_caches";

    private CommandParser() {
    }

    /**
     * Parses one line holding one command.
     *
     * @throws WorkloadParseException naming the line and the tool's reason
     */
    static Command parse(String line, int lineNumber) {
        Objects.requireNonNull(line, "line");
        String trimmed = line.strip();
        Ctx ctx = new Ctx(trimmed, lineNumber);
        List<Command> commands = parseLogicalLine(trimmed, ctx);
        if (commands.isEmpty()) {
            throw ctx.fail("no command on the line");
        }
        if (commands.size() > 1) {
            throw ctx.fail("the line holds " + commands.size()
                    + " commands; Command.parse takes one (Script.parse takes several)");
        }
        return commands.get(0);
    }

    /**
     * Parses a script: one command per line (or several joined by {@code ;} or {@code &&}).
     *
     * @throws WorkloadParseException naming the first bad line
     */
    static Script parseScript(String text) {
        Objects.requireNonNull(text, "text");
        String[] physical = text.split("\r\n|\r|\n", -1);
        List<Command> commands = new ArrayList<>();
        int i = 0;
        while (i < physical.length) {
            int lineNumber = i + 1;
            StringBuilder logical = new StringBuilder(physical[i++]);
            while (endsWithContinuation(logical) && i < physical.length) {
                logical.setLength(logical.length() - 1);
                logical.append(physical[i++]);
            }
            String line = logical.toString().strip();
            if (line.isEmpty() || isComment(line)) {
                continue;
            }
            commands.addAll(parseLogicalLine(line, new Ctx(line, lineNumber)));
        }
        return new Script(commands);
    }

    private static boolean endsWithContinuation(CharSequence s) {
        int backslashes = 0;
        for (int j = s.length() - 1; j >= 0 && s.charAt(j) == '\\'; j--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    /** A script line starting with '#' is a comment unless it reads "# KNOWN-COMMAND ...". */
    private static boolean isComment(String line) {
        if (!line.startsWith("#")) {
            return false;
        }
        if (!line.startsWith("# ")) {
            return true;
        }
        String rest = line.substring(2).strip();
        int end = 0;
        while (end < rest.length() && !Character.isWhitespace(rest.charAt(end))) {
            end++;
        }
        return !KNOWN_COMMANDS.contains(rest.substring(0, end));
    }

    private static String stripPrompt(String line) {
        if (line.equals("$") || line.equals(">") || line.equals("#")) {
            return "";
        }
        if (line.startsWith("$ ") || line.startsWith("> ") || line.startsWith("# ")) {
            return line.substring(2).strip();
        }
        return line;
    }

    private static List<Command> parseLogicalLine(String line, Ctx ctx) {
        String body = stripPrompt(line);
        if (body.isEmpty() || body.startsWith("#")) {
            return List.of();
        }
        return parseShell(body, ctx);
    }

    /** Tokenizes and interprets shell text (a line, or the argument of {@code sh -c}). */
    private static List<Command> parseShell(String text, Ctx ctx) {
        List<Tok> tokens = new Tokenizer(text, ctx).tokenize();
        List<Pipeline> pipelines = structure(tokens, ctx);
        List<Command> out = new ArrayList<>();
        for (Pipeline p : pipelines) {
            out.addAll(interpret(p, ctx));
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------
    // Shell tokens and structure

    private enum TokKind { WORD, OP }

    /** A word (quotes removed) or an operator; {@code ioNumber} is the fd written before a redirection. */
    private record Tok(TokKind kind, String text, int ioNumber) {
    }

    private static final class Tokenizer {
        private final String s;
        private final Ctx ctx;
        private int pos;

        Tokenizer(String s, Ctx ctx) {
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

        private static boolean isOperatorStart(char c) {
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

    private record Redir(int fd, String op, String target) {
    }

    private record Simple(List<String> words, List<Redir> redirs) {
    }

    private record Pipeline(List<Simple> commands) {
    }

    private static List<Pipeline> structure(List<Tok> tokens, Ctx ctx) {
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

    // ------------------------------------------------------------------------------------------------
    // Commands

    private static List<String> unwrap(List<String> words) {
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

    private static List<Command> interpret(Pipeline p, Ctx ctx) {
        if (p.commands().size() == 2) {
            return echoTee(p.commands().get(0), p.commands().get(1), ctx);
        }
        if (p.commands().size() > 2) {
            throw ctx.fail("pipelines are not modelled, except 'echo VALUE | tee PATH'");
        }
        Simple simple = p.commands().get(0);
        List<String> words = unwrap(simple.words());
        if (words.isEmpty()) {
            throw ctx.fail("sudo or time without a command has nothing to model");
        }
        String name = words.get(0);
        List<String> args = words.subList(1, words.size());
        if ((name.equals("sh") || name.equals("bash")) && args.size() == 2 && args.get(0).equals("-c")) {
            harmlessRedirections(simple.redirs(), name, ctx);
            return parseShell(args.get(1), ctx);
        }
        if (name.equals("echo")) {
            return List.of(echo(args, simple.redirs(), ctx));
        }
        if (name.equals("dd")) {
            return List.of(DdParser.parse(args, simple.redirs(), ctx));
        }
        harmlessRedirections(simple.redirs(), name, ctx);
        switch (name) {
            case "sync": return List.of(sync(args, ctx));
            case "blockdev": return List.of(blockdev(args, ctx));
            case "mkfs.xfs": return List.of(mkfsXfs(args, ctx));
            case "mkfs.ext4": return List.of(mkfsExt4(args, ctx));
            case "mount": return List.of(mount(args, ctx));
            case "umount": return List.of(umount(args, ctx));
            case "dmsetup": return List.of(dmsetup(args, ctx));
            case "blkdiscard": return List.of(blkdiscard(args, ctx));
            case "lvcreate": return List.of(lvcreate(args, ctx));
            default: throw ctx.fail("unknown command '" + name + "'");
        }
    }

    /** {@code > /dev/null}, {@code 2> /dev/null}, {@code 2>&1}, {@code &> /dev/null}: no effect on the model. */
    private static void harmlessRedirections(List<Redir> redirs, String name, Ctx ctx) {
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

    private static List<Command> echoTee(Simple left, Simple right, Ctx ctx) {
        List<String> lw = unwrap(left.words());
        List<String> rw = unwrap(right.words());
        if (lw.isEmpty() || !lw.get(0).equals("echo") || rw.isEmpty() || !rw.get(0).equals("tee")) {
            throw ctx.fail("pipelines are not modelled, except 'echo VALUE | tee PATH'");
        }
        if (left.redirs().stream().anyMatch(r -> r.fd() == 1)) {
            throw ctx.fail("echo's output is redirected away from the pipe: tee receives nothing");
        }
        harmlessRedirections(left.redirs(), "echo", ctx);
        harmlessRedirections(right.redirs(), "tee", ctx);
        String value = echoValue(lw.subList(1, lw.size()));
        List<String> paths = new ArrayList<>();
        boolean options = true;
        for (String a : rw.subList(1, rw.size())) {
            if (options && a.equals("--")) {
                options = false;
            } else if (options && a.startsWith("-") && a.length() > 1) {
                if (!a.equals("-a") && !a.equals("--append") && !a.equals("-p")) {
                    throw ctx.fail("tee option " + a + " is not modelled");
                }
            } else {
                paths.add(a);
            }
        }
        if (paths.isEmpty()) {
            throw ctx.fail("tee without a file only prints: nothing to model");
        }
        List<Command> out = new ArrayList<>();
        for (String path : paths) {
            out.add(write(path, value, ctx));
        }
        return out;
    }

    private static Command echo(List<String> args, List<Redir> redirs, Ctx ctx) {
        String value = echoValue(args);
        Redir target = null;
        for (Redir r : redirs) {
            boolean write = r.op().equals(">") || r.op().equals(">>") || r.op().equals(">|");
            if (write && r.fd() == 1) {
                if (target != null) {
                    throw ctx.fail("echo with two output redirections is not modelled");
                }
                target = r;
            } else if (write && r.fd() != 2 && r.fd() != 0) {
                throw ctx.fail("'" + r.fd() + r.op() + r.target() + "' redirects file descriptor " + r.fd()
                        + ", not the output of echo: " + r.target() + " receives nothing (write 'echo "
                        + (value.isEmpty() ? r.fd() : value + " " + r.fd()) + " > " + r.target() + "')");
            } else if (!(r.fd() == 2 && r.target().equals("/dev/null")) && !r.op().equals(">&")) {
                throw ctx.fail("redirection '" + r.op() + " " + r.target() + "' is not modelled for echo");
            }
        }
        if (target == null) {
            throw ctx.fail("echo without '> PATH' only prints: nothing to model");
        }
        return write(target.target(), value, ctx);
    }

    /** bash's echo: leading words made only of -n/-e/-E letters are options. */
    private static String echoValue(List<String> args) {
        int i = 0;
        while (i < args.size() && args.get(i).matches("-[neE]+")) {
            i++;
        }
        return String.join(" ", args.subList(i, args.size()));
    }

    private static Command write(String path, String value, Ctx ctx) {
        if (path.equals(DROP_CACHES)) {
            String v = value.strip();
            switch (v) {
                case "1": return new Command.DropCaches(ctx.line(), 1);
                case "2": return new Command.DropCaches(ctx.line(), 2);
                case "3": return new Command.DropCaches(ctx.line(), 3);
                case "4":
                    throw ctx.fail("drop_caches value '4' only silences the kernel's log message and drops"
                            + " nothing; expected 1, 2 or 3");
                default:
                    throw ctx.fail("echo: write error: Invalid argument (" + DROP_CACHES
                            + " takes 1, 2 or 3, not '" + value + "')");
            }
        }
        if (!path.startsWith("/sys/") && !path.startsWith("/proc/")) {
            throw ctx.fail("only writes to /sys and /proc are modelled");
        }
        return new Command.SysfsWrite(ctx.line(), path, value);
    }

    private static Command sync(List<String> args, Ctx ctx) {
        if (!args.isEmpty()) {
            throw ctx.fail("sync " + String.join(" ", args) + ": syncing single files or filesystems is not"
                    + " modelled, only a plain 'sync'");
        }
        return new Command.Sync(ctx.line());
    }

    // --- blockdev ----------------------------------------------------------------------------------

    private static Command blockdev(List<String> args, Ctx ctx) {
        Long size = null;
        List<String> devices = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-v") || a.equals("-q")) {
                continue;
            }
            if (a.equals("--setbsz")) {
                if (i + 1 >= args.size()) {
                    throw ctx.fail("blockdev: --setbsz requires an argument");
                }
                String v = args.get(++i);
                long n;
                try {
                    n = Long.parseLong(v.strip());
                } catch (NumberFormatException e) {
                    n = Long.MIN_VALUE;
                }
                if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
                    throw ctx.fail("blockdev: failed to parse command argument: '" + v + "'");
                }
                if (n < 512 || Long.bitCount(n) != 1) {
                    // set_blocksize(): a power of two, at least 512 (and at least the logical block size)
                    throw ctx.fail("blockdev: ioctl error on BLKBSZSET: Invalid argument");
                }
                size = n;
            } else if (a.startsWith("--")) {
                throw ctx.fail("blockdev " + a + " is not modelled, only --setbsz");
            } else if (a.startsWith("-") && a.length() > 1) {
                throw ctx.fail("blockdev: invalid option -- '" + a.charAt(1) + "'");
            } else {
                devices.add(a);
            }
        }
        if (size == null) {
            throw ctx.fail("blockdev without --setbsz is not modelled");
        }
        if (devices.isEmpty()) {
            throw ctx.fail("blockdev: no device specified");
        }
        if (devices.size() > 1) {
            throw ctx.fail("blockdev on several devices in one line is not modelled: one line per device");
        }
        return new Command.SetBlockSize(ctx.line(), size, devices.get(0));
    }

    // --- mkfs --------------------------------------------------------------------------------------

    private static Command mkfsXfs(List<String> args, Ctx ctx) {
        Getopt g = Getopt.parse("mkfs.xfs", args, "b:c:d:i:l:L:m:n:KNp:qr:s:CfV", Map.of(), ctx);
        long sectorSize = 0;
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "N": throw ctx.fail("mkfs.xfs -N (dry run) writes nothing: nothing to model");
                case "V": throw ctx.fail("mkfs.xfs -V prints the version: nothing to model");
                case "s": sectorSize = xfsSectorSize(o.arg(), ctx); break;
                default: break;
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("mkfs.xfs: no device name given in argument list");
        }
        if (g.operands().size() > 1) {
            throw ctx.fail("mkfs.xfs: extra arguments");
        }
        return new Command.Mkfs(ctx.line(), "xfs", sectorSize, g.operands().get(0));
    }

    /** {@code -s size=N} / {@code -s sectsize=N}, checked as xfsprogs' getnum() checks it. */
    private static long xfsSectorSize(String value, Ctx ctx) {
        long size = 0;
        for (String sub : value.split(",", -1)) {
            int eq = sub.indexOf('=');
            String key = eq < 0 ? sub : sub.substring(0, eq);
            if (!key.equals("size") && !key.equals("sectsize")) {
                throw ctx.fail("unknown option -s " + sub);
            }
            if (eq < 0 || eq == sub.length() - 1) {
                throw ctx.fail("-s " + key + " option requires a value");
            }
            String v = sub.substring(eq + 1);
            long c = xfsCvtnum(v);
            if (c == -1) {
                throw ctx.fail("Invalid value " + v + " for -s " + key
                        + " option. Not a valid value or illegal suffix");
            }
            if (c < 512) {
                throw ctx.fail("Invalid value " + v + " for -s " + key + " option. Value is too small.");
            }
            if (c > 32768) {
                throw ctx.fail("Invalid value " + v + " for -s " + key + " option. Value is too large.");
            }
            if (Long.bitCount(c) != 1) {
                throw ctx.fail("Invalid value " + v + " for -s " + key + " option. Value must be a power of 2.");
            }
            size = c;
        }
        return size;
    }

    /** xfsprogs cvtnum() without block/sector suffixes (unknown while -s itself is parsed): -1 if invalid. */
    private static long xfsCvtnum(String s) {
        int i = 0;
        long base = 10;
        String t = s.strip();
        if (t.startsWith("0x") || t.startsWith("0X")) {
            base = 16;
            i = 2;
        } else if (t.length() > 1 && t.startsWith("0")) {
            base = 8;
            i = 1;
        }
        int digitsStart = i;
        BigInteger v = BigInteger.ZERO;
        while (i < t.length() && Character.digit(t.charAt(i), (int) base) >= 0) {
            v = v.multiply(BigInteger.valueOf(base)).add(BigInteger.valueOf(Character.digit(t.charAt(i), (int) base)));
            i++;
        }
        if (i == digitsStart && base != 8) {
            return -1;
        }
        if (v.bitLength() > 62) {
            return -1;
        }
        long n = v.longValue();
        if (i == t.length()) {
            return n;
        }
        if (i != t.length() - 1) {
            return -1;
        }
        int shift;
        switch (Character.toLowerCase(t.charAt(i))) {
            case 'k': shift = 10; break;
            case 'm': shift = 20; break;
            case 'g': shift = 30; break;
            case 't': shift = 40; break;
            case 'p': shift = 50; break;
            case 'e': shift = 60; break;
            default: return -1;
        }
        return n > (Long.MAX_VALUE >> shift) ? -1 : n << shift;
    }

    private static Command mkfsExt4(List<String> args, Ctx ctx) {
        Getopt g = Getopt.parse("mkfs.ext4", args, "b:cd:e:g:i:jl:m:no:qr:s:t:vC:DE:FG:I:J:KL:M:N:O:R:ST:U:Vz:",
                Map.of(), ctx);
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "n": throw ctx.fail("mkfs.ext4 -n (dry run) writes nothing: nothing to model");
                case "V": throw ctx.fail("mkfs.ext4 -V prints the version: nothing to model");
                case "b": {
                    long b = ext4BlockSize(o.arg());
                    if (b < 1024 || b > 65536) {
                        throw ctx.fail("mkfs.ext4: invalid block size - " + o.arg());
                    }
                    break;
                }
                default: break;
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("mkfs.ext4: no device specified");
        }
        if (g.operands().size() > 2) {
            throw ctx.fail("mkfs.ext4: too many arguments");
        }
        // a second operand is the fs size in blocks (mke2fs DEVICE [fs-size]); it does not change the model
        return new Command.Mkfs(ctx.line(), "ext4", 0, g.operands().get(0));
    }

    /** e2fsprogs parse_num_blocks2() for -b: absolute value; 0 if not a number. */
    private static long ext4BlockSize(String arg) {
        String t = arg.strip();
        int i = 0;
        if (i < t.length() && t.charAt(i) == '-') {
            i++;
        }
        int start = i;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == start || i - start > 12) {
            return 0;
        }
        long n = Long.parseLong(t.substring(start, i));
        if (i == t.length()) {
            return n;
        }
        if (i != t.length() - 1) {
            return 0;
        }
        switch (t.charAt(i)) {
            case 'T': case 't': return n << 40;
            case 'G': case 'g': return n << 30;
            case 'M': case 'm': return n << 20;
            case 'K': case 'k': return n << 10;
            case 's': return n << 9;
            default: return 0;
        }
    }

    // --- mount / umount ----------------------------------------------------------------------------

    private static Command mount(List<String> args, Ctx ctx) {
        Getopt g = Getopt.parse("mount", args, "aBcfFhilL:Mno:O:rRsU:vVwt:N:",
                Map.of("types", "t", "options", "o", "read-only", "r", "rw", "w", "read-write", "w",
                        "verbose", "v", "no-mtab", "n"), ctx);
        String type = "";
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "t": type = o.arg(); break;
                case "o": case "v": case "w": case "r": case "n": case "s": case "i": case "c": break;
                case "f": throw ctx.fail("mount -f (fake) mounts nothing: nothing to model");
                default: throw ctx.fail("mount -" + o.name() + " is not modelled");
            }
        }
        if (g.operands().size() < 2) {
            throw ctx.fail(g.operands().isEmpty() ? "mount without a device and a directory lists mounts:"
                    + " nothing to model" : "mount with one argument (looked up in fstab) is not modelled:"
                    + " give the device and the directory");
        }
        if (g.operands().size() > 2) {
            throw ctx.fail("mount: bad usage");
        }
        return new Command.Mount(ctx.line(), type, g.operands().get(0), g.operands().get(1));
    }

    private static Command umount(List<String> args, Ctx ctx) {
        Getopt g = Getopt.parse("umount", args, "aAcdfhilnRrt:O:vVqN:",
                Map.of("lazy", "l", "force", "f", "verbose", "v", "no-mtab", "n"), ctx);
        for (Opt o : g.options()) {
            if (!"lfvndcq".contains(o.name())) {
                throw ctx.fail("umount -" + o.name() + " is not modelled");
            }
        }
        if (g.operands().size() != 1) {
            throw ctx.fail("umount: bad usage");
        }
        return new Command.Umount(ctx.line(), g.operands().get(0));
    }

    // --- dmsetup -----------------------------------------------------------------------------------

    private static Command dmsetup(List<String> args, Ctx ctx) {
        if (args.isEmpty()) {
            throw ctx.fail("dmsetup without a command is not modelled");
        }
        if (args.get(0).startsWith("-")) {
            throw ctx.fail("dmsetup option " + args.get(0) + " is not modelled");
        }
        String sub = args.get(0);
        List<String> rest = args.subList(1, args.size());
        switch (sub) {
            case "message": {
                if (rest.size() < 2) {
                    throw ctx.fail("Incorrect number of arguments");
                }
                String sectorText = rest.get(1);
                if (!sectorText.matches("[0-9]{1,18}")) {
                    throw ctx.fail("Invalid sector.");
                }
                List<String> words = new ArrayList<>();
                for (String a : rest.subList(2, rest.size())) {
                    for (String w : a.strip().split("\\s+")) {
                        if (!w.isEmpty()) {
                            words.add(w);
                        }
                    }
                }
                if (words.isEmpty()) {
                    throw ctx.fail("No message supplied.");
                }
                return new Command.DmsetupMessage(ctx.line(), rest.get(0), Long.parseLong(sectorText), words);
            }
            case "suspend":
            case "resume": {
                List<String> devices = new ArrayList<>();
                for (String a : rest) {
                    if (a.equals("--nolockfs") || a.equals("--noudevsync") || a.equals("--noudevrules")) {
                        continue;
                    }
                    if (a.startsWith("-")) {
                        throw ctx.fail("dmsetup " + sub + " " + a + " is not modelled");
                    }
                    devices.add(a);
                }
                if (devices.size() != 1) {
                    throw ctx.fail(devices.isEmpty() ? "Incorrect number of arguments"
                            : "dmsetup " + sub + " of several devices in one line is not modelled");
                }
                return new Command.DmsetupSuspendResume(ctx.line(), devices.get(0), sub.equals("suspend"));
            }
            default:
                throw ctx.fail("dmsetup " + sub + " is not modelled (only message, suspend and resume)");
        }
    }

    // --- blkdiscard --------------------------------------------------------------------------------

    private static Command blkdiscard(List<String> args, Ctx ctx) {
        Getopt g = Getopt.parse("blkdiscard", args, "hfsvqzo:l:p:",
                Map.of("offset", "o", "length", "l", "step", "p", "secure", "s", "zeroout", "z", "force", "f",
                        "verbose", "v", "quiet", "q", "help", "h"), ctx);
        long offset = 0;
        OptionalLong length = OptionalLong.empty();
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "o": {
                    BigInteger v = utilLinuxSize(o.arg(), "failed to parse offset", ctx);
                    if (v.bitLength() > 63) {
                        throw ctx.fail("blkdiscard: offset is greater than device size");
                    }
                    offset = v.longValueExact();
                    break;
                }
                case "l": {
                    BigInteger v = utilLinuxSize(o.arg(), "failed to parse length", ctx);
                    // beyond 2^63-1 the range reaches past the end of any device: "to the end"
                    length = v.bitLength() > 63 ? OptionalLong.empty() : OptionalLong.of(v.longValueExact());
                    break;
                }
                case "p": throw ctx.fail("blkdiscard -p/--step is not modelled");
                case "s": throw ctx.fail("blkdiscard -s/--secure is not modelled");
                case "z": throw ctx.fail("blkdiscard -z/--zeroout is not modelled");
                case "h": throw ctx.fail("blkdiscard --help prints help: nothing to model");
                default: break;
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("blkdiscard: no device specified");
        }
        if (g.operands().size() > 1) {
            throw ctx.fail("blkdiscard: unexpected number of arguments");
        }
        return new Command.Blkdiscard(ctx.line(), offset, length, g.operands().get(0));
    }

    private static final BigInteger UINTMAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /**
     * util-linux parse_size() (strtosize_or_err): a number (C base 0: {@code 0x} hex, leading {@code 0}
     * octal) with an optional fraction and suffix K M G T P E Z Y (either case; {@code XiB} or bare = 1024^N,
     * {@code XB} = 1000^N).
     */
    private static BigInteger utilLinuxSize(String str, String what, Ctx ctx) {
        String invalid = "blkdiscard: " + what + ": '" + str + "': Invalid argument";
        String range = "blkdiscard: " + what + ": '" + str + "': Numerical result out of range";
        int p = 0;
        while (p < str.length() && Character.isWhitespace(str.charAt(p))) {
            p++;
        }
        if (str.isEmpty() || (p < str.length() && str.charAt(p) == '-')) {
            throw ctx.fail(invalid);
        }
        if (p < str.length() && str.charAt(p) == '+') {
            p++;
        }
        int base = 10;
        int digits = p;
        if (str.startsWith("0x", p) || str.startsWith("0X", p)) {
            if (p + 2 < str.length() && Character.digit(str.charAt(p + 2), 16) >= 0) {
                base = 16;
                digits = p + 2;
            }
        } else if (str.startsWith("0", p)) {
            base = 8;
        }
        int q = digits;
        BigInteger x = BigInteger.ZERO;
        while (q < str.length() && Character.digit(str.charAt(q), base) >= 0) {
            x = x.multiply(BigInteger.valueOf(base)).add(BigInteger.valueOf(Character.digit(str.charAt(q), base)));
            q++;
        }
        if (q == digits) {
            throw ctx.fail(invalid);
        }
        if (x.compareTo(UINTMAX) > 0) {
            throw ctx.fail(range);
        }
        if (q == str.length()) {
            return x;
        }
        // fraction (decimal point of the C locale)
        String frac = "";
        if (str.charAt(q) == '.') {
            int f = q + 1;
            while (f < str.length() && Character.isDigit(str.charAt(f))) {
                f++;
            }
            frac = str.substring(q + 1, f);
            q = f;
            if (q == str.length()) {
                if (frac.chars().anyMatch(c -> c != '0')) {
                    throw ctx.fail(invalid); // a fraction without a suffix
                }
                return x;
            }
        }
        String suffix = str.substring(q);
        int unitBase;
        if (suffix.length() == 3 && suffix.charAt(1) == 'i' && (suffix.charAt(2) == 'B' || suffix.charAt(2) == 'b')) {
            unitBase = 1024;
        } else if (suffix.length() == 2 && (suffix.charAt(1) == 'B' || suffix.charAt(1) == 'b')) {
            unitBase = 1000;
        } else if (suffix.length() == 1) {
            unitBase = 1024;
        } else {
            throw ctx.fail(invalid);
        }
        int power = "KMGTPEZY".indexOf(Character.toUpperCase(suffix.charAt(0))) + 1;
        if (power == 0 || (Character.isLowerCase(suffix.charAt(0)) && "zy".indexOf(suffix.charAt(0)) >= 0)) {
            throw ctx.fail(invalid);
        }
        BigInteger unit = BigInteger.valueOf(unitBase).pow(power);
        BigInteger value = x.multiply(unit);
        if (value.compareTo(UINTMAX) > 0) {
            throw ctx.fail(range);
        }
        if (!frac.isEmpty() && frac.chars().anyMatch(c -> c != '0')) {
            // parse_size adds frac_base / (seg_div / seg) digit by digit (integer divisions)
            String digitsOnly = frac.replaceFirst("0+$", "");
            int zeros = 0;
            while (zeros < digitsOnly.length() && digitsOnly.charAt(zeros) == '0') {
                zeros++;
            }
            BigInteger fracNum = new BigInteger(digitsOnly.substring(zeros));
            BigInteger fracDiv = BigInteger.TEN;
            while (fracDiv.compareTo(fracNum) < 0) {
                fracDiv = fracDiv.multiply(BigInteger.TEN);
            }
            fracDiv = fracDiv.multiply(BigInteger.TEN.pow(zeros));
            BigInteger poz = BigInteger.ONE;
            BigInteger rest = fracNum;
            do {
                BigInteger[] qr = rest.divideAndRemainder(BigInteger.TEN);
                int seg = qr[1].intValue();
                BigInteger segDiv = fracDiv.divide(poz);
                rest = qr[0];
                poz = poz.multiply(BigInteger.TEN);
                if (seg != 0 && segDiv.divide(BigInteger.valueOf(seg)).signum() != 0) {
                    value = value.add(unit.divide(segDiv.divide(BigInteger.valueOf(seg))));
                }
            } while (rest.signum() != 0);
        }
        return value;
    }

    // --- lvcreate ----------------------------------------------------------------------------------

    private static Command lvcreate(List<String> args, Ctx ctx) {
        Map<String, String> longs = new LinkedHashMap<>();
        longs.put("snapshot", "s");
        longs.put("name", "n");
        longs.put("setactivationskip", "k");
        longs.put("ignoreactivationskip", "K");
        longs.put("activate", "a");
        longs.put("yes", "y");
        longs.put("verbose", "v");
        longs.put("quiet", "q");
        longs.put("size", "L");
        longs.put("extents", "l");
        longs.put("virtualsize", "V");
        longs.put("thin", "T");
        longs.put("thinpool", "\u0001");
        longs.put("type", "\u0002");
        Getopt g = Getopt.parse("lvcreate", args, "sn:k:Ka:yvqL:l:V:Tc:i:I:r:Zt", longs, ctx);
        boolean snapshot = g.options().stream().anyMatch(o -> o.name().equals("s"));
        if (!snapshot) {
            throw ctx.fail("lvcreate without -s is not modelled (only thin snapshots: lvcreate -s [-n NAME]"
                    + " VG/LV)");
        }
        String name = "";
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "s": break;
                case "n": name = o.arg(); break;
                case "k": case "K": case "a": case "y": case "v": case "q": break;
                case "L": case "l":
                    throw ctx.fail("lvcreate -s with -L/-l makes a thick (COW) snapshot: only thin snapshots are"
                            + " modelled");
                default:
                    throw ctx.fail("lvcreate " + (o.name().length() == 1 && Character.isLetter(o.name().charAt(0))
                            ? "-" + o.name() : "option") + " is not modelled (only thin snapshots: lvcreate -s"
                            + " [-n NAME] VG/LV)");
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("Please specify a logical volume to act as the snapshot origin.");
        }
        if (g.operands().size() > 1) {
            throw ctx.fail("Too many arguments: " + String.join(" ", g.operands().subList(1, g.operands().size())));
        }
        String origin = lvPath(g.operands().get(0), ctx);
        String vg = origin.substring(0, origin.indexOf('/'));
        if (name.contains("/")) {
            String nameVg = name.substring(0, name.lastIndexOf('/'));
            if (nameVg.startsWith("/dev/")) {
                nameVg = nameVg.substring(5);
            }
            if (!nameVg.equals(vg)) {
                throw ctx.fail("Inconsistent volume group names given: \"" + nameVg + "\" and \"" + vg + "\"");
            }
            name = name.substring(name.lastIndexOf('/') + 1);
        }
        if (!name.isEmpty() && !validLvmName(name)) {
            throw ctx.fail("Logical volume name \"" + name + "\" is invalid.");
        }
        return new Command.LvcreateSnapshot(ctx.line(), origin, name);
    }

    /** {@code vg/lv}, {@code /dev/vg/lv} or {@code /dev/mapper/vg-lv} to {@code vg/lv}. */
    private static String lvPath(String arg, Ctx ctx) {
        String a = arg;
        if (a.startsWith("/dev/mapper/")) {
            String dm = a.substring("/dev/mapper/".length());
            for (int i = 0; i < dm.length(); i++) {
                if (dm.charAt(i) == '-') {
                    if (i + 1 < dm.length() && dm.charAt(i + 1) == '-') {
                        i++;
                        continue;
                    }
                    String vg = dm.substring(0, i).replace("--", "-");
                    String lv = dm.substring(i + 1).replace("--", "-");
                    if (!vg.isEmpty() && !lv.isEmpty()) {
                        return vg + "/" + lv;
                    }
                }
            }
            throw ctx.fail("origin '" + arg + "' is not a logical volume's dm name (VG-LV)");
        }
        if (a.startsWith("/dev/")) {
            a = a.substring(5);
        }
        int slash = a.indexOf('/');
        if (slash <= 0 || slash != a.lastIndexOf('/') || slash == a.length() - 1) {
            throw ctx.fail("origin '" + arg + "' must be given as VG/LV");
        }
        if (!validLvmName(a.substring(0, slash)) || !validLvmName(a.substring(slash + 1))) {
            throw ctx.fail("origin '" + arg + "' is not a valid VG/LV name");
        }
        return a;
    }

    /** LVM's name rule: [a-zA-Z0-9+_.-], not starting with '-', not "." or "..", at most 127 characters. */
    private static boolean validLvmName(String n) {
        return !n.isEmpty() && n.length() <= 127 && n.charAt(0) != '-' && !n.equals(".") && !n.equals("..")
                && n.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                        || (c >= '0' && c <= '9') || c == '+' || c == '_' || c == '.' || c == '-');
    }

    // ------------------------------------------------------------------------------------------------
    // getopt_long, GNU style (options and operands may mix; "--" ends options)

    private record Opt(String name, String arg) {
    }

    private record Getopt(List<Opt> options, List<String> operands) {

        /**
         * @param shortSpec getopt's optstring ("o:" takes an argument)
         * @param longs long option name to the short option it stands for
         */
        static Getopt parse(String tool, List<String> args, String shortSpec, Map<String, String> longs, Ctx ctx) {
            List<Opt> opts = new ArrayList<>();
            List<String> operands = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (a.equals("--")) {
                    operands.addAll(args.subList(i + 1, args.size()));
                    break;
                }
                if (a.startsWith("--")) {
                    int eq = a.indexOf('=');
                    String lname = eq < 0 ? a.substring(2) : a.substring(2, eq);
                    String key = longs.containsKey(lname) ? lname : null;
                    if (key == null) {
                        List<String> matches = longs.keySet().stream().filter(k -> k.startsWith(lname)).toList();
                        if (matches.size() == 1 && !lname.isEmpty()) {
                            key = matches.get(0);
                        }
                    }
                    if (key == null) {
                        throw ctx.fail(tool + ": unrecognized option '" + (eq < 0 ? a : a.substring(0, eq)) + "'");
                    }
                    String shortName = longs.get(key);
                    boolean takesArg = shortSpec.contains(shortName + ":")
                            || shortName.charAt(0) < ' ';
                    String arg = null;
                    if (takesArg) {
                        if (eq >= 0) {
                            arg = a.substring(eq + 1);
                        } else if (i + 1 < args.size()) {
                            arg = args.get(++i);
                        } else {
                            throw ctx.fail(tool + ": option '--" + key + "' requires an argument");
                        }
                    } else if (eq >= 0) {
                        throw ctx.fail(tool + ": option '--" + key + "' doesn't allow an argument");
                    }
                    opts.add(new Opt(shortName, arg));
                    continue;
                }
                if (a.startsWith("-") && a.length() > 1) {
                    for (int j = 1; j < a.length(); j++) {
                        char c = a.charAt(j);
                        int at = shortSpec.indexOf(c);
                        if (at < 0 || c == ':') {
                            throw ctx.fail(tool + ": invalid option -- '" + c + "'");
                        }
                        boolean takesArg = at + 1 < shortSpec.length() && shortSpec.charAt(at + 1) == ':';
                        if (!takesArg) {
                            opts.add(new Opt(String.valueOf(c), null));
                            continue;
                        }
                        String arg;
                        if (j + 1 < a.length()) {
                            arg = a.substring(j + 1);
                        } else if (i + 1 < args.size()) {
                            arg = args.get(++i);
                        } else {
                            throw ctx.fail(tool + ": option requires an argument -- '" + c + "'");
                        }
                        opts.add(new Opt(String.valueOf(c), arg));
                        break;
                    }
                    continue;
                }
                operands.add(a);
            }
            return new Getopt(opts, operands);
        }
    }

    // ------------------------------------------------------------------------------------------------
    // dd

    /** GNU coreutils 9.x dd's operand parsing ({@code scanargs}, {@code parse_integer}). */
    static final class DdParser {
        // gnulib strtol_error
        private static final int OK = 0;
        private static final int OVERFLOW = 1;
        private static final int INVALID_SUFFIX_CHAR = 2;
        private static final int INVALID = 4;

        private static final BigInteger INTMAX = BigInteger.valueOf(Long.MAX_VALUE);
        /** MIN (IDX_MAX - 1, MIN (SSIZE_MAX, OFF_T_MAX)) on 64-bit Linux. */
        private static final long MAX_BLOCKSIZE = Long.MAX_VALUE - 1;
        private static final String EOVERFLOW = "Value too large for defined data type";
        private static final String DD_SUFFIXES = "bcEGkKMPQRTwYZ0";

        private static final Map<String, Command.DdFlag> FLAGS = new LinkedHashMap<>();
        private static final Map<String, Set<Command.DdConv>> CONVERSIONS = new LinkedHashMap<>();
        private static final List<String> STATUSES = List.of("none", "noxfer", "progress");

        static {
            // dd.c flags[] on GNU/Linux: binary, text, cio and nolinks are 0 there, hence rejected
            FLAGS.put("append", Command.DdFlag.APPEND);
            FLAGS.put("direct", Command.DdFlag.DIRECT);
            FLAGS.put("directory", Command.DdFlag.DIRECTORY);
            FLAGS.put("dsync", Command.DdFlag.DSYNC);
            FLAGS.put("noatime", Command.DdFlag.NOATIME);
            FLAGS.put("nocache", Command.DdFlag.NOCACHE);
            FLAGS.put("noctty", Command.DdFlag.NOCTTY);
            FLAGS.put("nofollow", Command.DdFlag.NOFOLLOW);
            FLAGS.put("nonblock", Command.DdFlag.NONBLOCK);
            FLAGS.put("sync", Command.DdFlag.SYNC);
            FLAGS.put("fullblock", Command.DdFlag.FULLBLOCK);
            FLAGS.put("count_bytes", Command.DdFlag.COUNT_BYTES);
            FLAGS.put("skip_bytes", Command.DdFlag.SKIP_BYTES);
            FLAGS.put("seek_bytes", Command.DdFlag.SEEK_BYTES);

            CONVERSIONS.put("ascii", EnumSet.of(Command.DdConv.ASCII, Command.DdConv.UNBLOCK));
            CONVERSIONS.put("ebcdic", EnumSet.of(Command.DdConv.EBCDIC, Command.DdConv.BLOCK));
            CONVERSIONS.put("ibm", EnumSet.of(Command.DdConv.IBM, Command.DdConv.BLOCK));
            CONVERSIONS.put("block", EnumSet.of(Command.DdConv.BLOCK));
            CONVERSIONS.put("unblock", EnumSet.of(Command.DdConv.UNBLOCK));
            CONVERSIONS.put("lcase", EnumSet.of(Command.DdConv.LCASE));
            CONVERSIONS.put("ucase", EnumSet.of(Command.DdConv.UCASE));
            CONVERSIONS.put("sparse", EnumSet.of(Command.DdConv.SPARSE));
            CONVERSIONS.put("swab", EnumSet.of(Command.DdConv.SWAB));
            CONVERSIONS.put("noerror", EnumSet.of(Command.DdConv.NOERROR));
            CONVERSIONS.put("nocreat", EnumSet.of(Command.DdConv.NOCREAT));
            CONVERSIONS.put("excl", EnumSet.of(Command.DdConv.EXCL));
            CONVERSIONS.put("notrunc", EnumSet.of(Command.DdConv.NOTRUNC));
            CONVERSIONS.put("sync", EnumSet.of(Command.DdConv.SYNC));
            CONVERSIONS.put("fdatasync", EnumSet.of(Command.DdConv.FDATASYNC));
            CONVERSIONS.put("fsync", EnumSet.of(Command.DdConv.FSYNC));
        }

        private DdParser() {
        }

        /** A parsed dd number: its value (0..INTMAX_MAX) and gnulib error bits. */
        record Num(long value, int err) {
        }

        static Command.Dd parse(List<String> argv, List<Redir> redirs, Ctx ctx) {
            List<String> args = gnuOptions(argv, ctx);

            String input = null;
            String output = null;
            long ibs = 0;
            long obs = 0;
            long bs = 0;
            long cbs = 0;
            long count = Long.MAX_VALUE;
            long skip = 0;
            long seek = 0;
            boolean countB = false;
            boolean skipB = false;
            boolean seekB = false;
            Set<Command.DdFlag> iflags = EnumSet.noneOf(Command.DdFlag.class);
            Set<Command.DdFlag> oflags = EnumSet.noneOf(Command.DdFlag.class);
            Set<Command.DdConv> conv = EnumSet.noneOf(Command.DdConv.class);

            for (String arg : args) {
                int eq = arg.indexOf('=');
                if (eq < 0) {
                    throw ctx.fail("dd: unrecognized operand " + quoteaf(arg));
                }
                String name = arg.substring(0, eq);
                String val = arg.substring(eq + 1);
                switch (name) {
                    case "if": input = val; continue;
                    case "of": output = val; continue;
                    case "conv": conv.addAll(symbols(val, CONVERSIONS, "invalid conversion", ctx)); continue;
                    case "iflag": iflags.addAll(flags(val, "invalid input flag", ctx)); continue;
                    case "oflag": oflags.addAll(flags(val, "invalid output flag", ctx)); continue;
                    case "status": status(val, ctx); continue;
                    default: break;
                }
                Num num = parseInteger(val);
                long n = num.value();
                int invalid = num.err();
                boolean hasB = val.indexOf('B') >= 0;
                long nMin = 0;
                long nMax = Long.MAX_VALUE;
                switch (name) {
                    case "ibs": case "obs": case "bs":
                        nMin = 1;
                        nMax = MAX_BLOCKSIZE;
                        break;
                    case "cbs":
                        nMin = 1;
                        break;
                    case "skip": case "iseek":
                        skip = n;
                        skipB = hasB;
                        break;
                    case "seek": case "oseek":
                        seek = n;
                        seekB = hasB;
                        break;
                    case "count":
                        count = n;
                        countB = hasB;
                        break;
                    default:
                        throw ctx.fail("dd: unrecognized operand " + quoteaf(arg));
                }
                if (n < nMin) {
                    invalid = INVALID;
                } else if (nMax < n) {
                    invalid = OVERFLOW;
                }
                if (invalid != OK) {
                    throw ctx.fail("dd: invalid number: " + quoteaf(val)
                            + (invalid == OVERFLOW ? ": " + EOVERFLOW : ""));
                }
                switch (name) {
                    case "ibs": ibs = n; break;
                    case "obs": obs = n; break;
                    case "bs": bs = n; break;
                    case "cbs": cbs = n; break;
                    default: break;
                }
            }

            boolean blockSizeGiven = bs != 0;
            if (blockSizeGiven) {
                ibs = bs;
                obs = bs;
            }
            if (ibs == 0) {
                ibs = 512;
            }
            if (obs == 0) {
                obs = 512;
            }
            if (cbs == 0) {
                conv.remove(Command.DdConv.BLOCK);
                conv.remove(Command.DdConv.UNBLOCK);
            }
            if (oflags.contains(Command.DdFlag.FULLBLOCK)) {
                throw ctx.fail("dd: invalid output flag: 'fullblock'");
            }
            if (skipB) {
                iflags.add(Command.DdFlag.SKIP_BYTES);
            }
            if (countB) {
                iflags.add(Command.DdFlag.COUNT_BYTES);
            }
            if (seekB) {
                oflags.add(Command.DdFlag.SEEK_BYTES);
            }
            int charsets = (conv.contains(Command.DdConv.ASCII) ? 1 : 0) + (conv.contains(Command.DdConv.EBCDIC) ? 1 : 0)
                    + (conv.contains(Command.DdConv.IBM) ? 1 : 0);
            if (charsets > 1) {
                throw ctx.fail("dd: cannot combine any two of {ascii,ebcdic,ibm}");
            }
            if (conv.contains(Command.DdConv.BLOCK) && conv.contains(Command.DdConv.UNBLOCK)) {
                throw ctx.fail("dd: cannot combine block and unblock");
            }
            if (conv.contains(Command.DdConv.LCASE) && conv.contains(Command.DdConv.UCASE)) {
                throw ctx.fail("dd: cannot combine lcase and ucase");
            }
            if (conv.contains(Command.DdConv.EXCL) && conv.contains(Command.DdConv.NOCREAT)) {
                throw ctx.fail("dd: cannot combine excl and nocreat");
            }
            if ((iflags.contains(Command.DdFlag.DIRECT) && iflags.contains(Command.DdFlag.NOCACHE))
                    || (oflags.contains(Command.DdFlag.DIRECT) && oflags.contains(Command.DdFlag.NOCACHE))) {
                throw ctx.fail("dd: cannot combine direct and nocache");
            }

            // shell redirections stand in for if=/of= when those are absent (dd then uses stdin/stdout)
            String stdin = null;
            String stdout = null;
            for (Redir r : redirs) {
                if (r.fd() == 0 && r.op().equals("<")) {
                    stdin = r.target();
                } else if (r.fd() == 1 && (r.op().equals(">") || r.op().equals(">|") || r.op().equals(">>"))) {
                    if (r.op().equals(">>") && !r.target().equals("/dev/null")) {
                        throw ctx.fail("dd >> (append to standard output) is not modelled: use oflag=append"
                                + " conv=notrunc");
                    }
                    stdout = r.target();
                } else if (!(r.fd() == 2 && r.op().equals(">") && r.target().equals("/dev/null"))
                        && !(r.op().equals(">&") || r.op().equals("&>"))) {
                    throw ctx.fail("redirection '" + r.op() + " " + r.target() + "' is not modelled for dd");
                }
            }

            // seek overflow: dd's main() refuses before opening when it would truncate (of= given, no notrunc)
            BigInteger seekTotal = oflags.contains(Command.DdFlag.SEEK_BYTES) ? BigInteger.valueOf(seek)
                    : BigInteger.valueOf(seek).multiply(BigInteger.valueOf(obs));
            boolean seekOverflow = seekTotal.compareTo(INTMAX) > 0;
            if (seekOverflow && output != null && !conv.contains(Command.DdConv.NOTRUNC)) {
                throw ctx.fail("dd: offset too large: cannot truncate to a length of seek=" + seek + " ("
                        + obs + "-byte) blocks");
            }
            BigInteger skipTotal = iflags.contains(Command.DdFlag.SKIP_BYTES) ? BigInteger.valueOf(skip)
                    : BigInteger.valueOf(skip).multiply(BigInteger.valueOf(ibs));
            String inName = input != null ? input : stdin != null ? stdin : "-";
            String outName = output != null ? output : stdout != null ? stdout : "-";
            if (skipTotal.compareTo(INTMAX) > 0) {
                throw ctx.fail("dd: " + quotef(input != null ? input : "standard input") + ": cannot skip: "
                        + EOVERFLOW);
            }
            if (seekOverflow) {
                throw ctx.fail("dd: " + quotef(output != null ? output : "standard output") + ": cannot seek: "
                        + EOVERFLOW);
            }

            OptionalLong countBytes;
            if (count == Long.MAX_VALUE) {
                countBytes = OptionalLong.empty(); // dd's "no limit", given or not
            } else if (iflags.contains(Command.DdFlag.COUNT_BYTES)) {
                countBytes = OptionalLong.of(count);
            } else {
                BigInteger total = BigInteger.valueOf(count).multiply(BigInteger.valueOf(ibs));
                countBytes = OptionalLong.of(total.compareTo(INTMAX) > 0 ? Long.MAX_VALUE : total.longValue());
            }

            return new Command.Dd(ctx.line(), inName, outName, ibs, obs, blockSizeGiven, countBytes,
                    skipTotal.longValueExact(), seekTotal.longValueExact(), iflags, oflags, conv);
        }

        /**
         * dd's parse_gnu_standard_options_only: the first argument that is an option ends dd (only --help and
         * --version exist); "--" ends options.
         */
        private static List<String> gnuOptions(List<String> argv, Ctx ctx) {
            List<String> operands = new ArrayList<>();
            boolean options = true;
            for (String a : argv) {
                if (options && a.equals("--")) {
                    options = false;
                    continue;
                }
                if (options && a.startsWith("--")) {
                    int eq = a.indexOf('=');
                    String n = eq < 0 ? a.substring(2) : a.substring(2, eq);
                    boolean help = !n.isEmpty() && "help".startsWith(n);
                    boolean version = !n.isEmpty() && "version".startsWith(n);
                    if (!help && !version) {
                        throw ctx.fail("dd: unrecognized option '" + (eq < 0 ? a : a.substring(0, eq)) + "'");
                    }
                    String full = help ? "--help" : "--version";
                    if (eq >= 0) {
                        throw ctx.fail("dd: option '" + full + "' doesn't allow an argument");
                    }
                    throw ctx.fail("dd " + full + " prints " + (help ? "help" : "its version")
                            + " and copies nothing");
                }
                if (options && a.startsWith("-") && a.length() > 1) {
                    throw ctx.fail("dd: invalid option -- '" + a.charAt(1) + "'");
                }
                operands.add(a);
            }
            return operands;
        }

        private static Set<Command.DdFlag> flags(String val, String message, Ctx ctx) {
            Map<String, Set<Command.DdFlag>> table = new LinkedHashMap<>();
            FLAGS.forEach((k, v) -> table.put(k, EnumSet.of(v)));
            return symbols(val, table, message, ctx);
        }

        private static void status(String val, Ctx ctx) {
            // exclusive: the last symbol wins, every symbol must be known
            for (String sym : val.split(",", -1)) {
                if (!STATUSES.contains(sym)) {
                    throw ctx.fail("dd: invalid status level: " + localeQuote(sym));
                }
            }
        }

        /** dd's parse_symbols: comma-separated, each exactly a known symbol; the message names the symbol. */
        private static <E extends Enum<E>> Set<E> symbols(String val, Map<String, Set<E>> table, String message,
                Ctx ctx) {
            Set<E> out = new java.util.HashSet<>();
            for (String sym : val.split(",", -1)) {
                Set<E> v = table.get(sym);
                if (v == null) {
                    throw ctx.fail("dd: " + message + ": " + localeQuote(sym));
                }
                out.addAll(v);
            }
            return out;
        }

        /** dd's parse_integer. */
        static Num parseInteger(String str) {
            XResult x = xstrtoumax(str);
            int e = x.err();
            BigInteger n = x.value();
            int suffix = x.suffix();
            if ((e & ~OVERFLOW) == INVALID_SUFFIX_CHAR && charAt(str, suffix) == 'B' && suffix > 0
                    && str.charAt(suffix - 1) != 'B') {
                suffix++;
                if (suffix >= str.length()) {
                    e &= ~INVALID_SUFFIX_CHAR;
                }
            }
            long result;
            if ((e & ~OVERFLOW) == INVALID_SUFFIX_CHAR && charAt(str, suffix) == 'x') {
                Num o = parseInteger(str.substring(suffix + 1));
                int f = o.err();
                if ((f & ~OVERFLOW) != OK) {
                    e = f;
                    result = 0;
                } else {
                    BigInteger product = n.multiply(BigInteger.valueOf(o.value()));
                    if (product.compareTo(INTMAX) > 0 || (product.signum() != 0 && ((e | f) & OVERFLOW) != 0)) {
                        e = OVERFLOW;
                        result = Long.MAX_VALUE;
                    } else {
                        result = product.longValue();
                        e = OK;
                    }
                }
            } else if (n.compareTo(INTMAX) <= 0) {
                result = n.longValue();
            } else {
                e = OVERFLOW;
                result = Long.MAX_VALUE;
            }
            return new Num(result, e);
        }

        private static char charAt(String s, int i) {
            return i >= 0 && i < s.length() ? s.charAt(i) : '\0';
        }

        private record XResult(int err, BigInteger value, int suffix) {
        }

        private static boolean cIsSpace(char c) {
            return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
        }

        /** gnulib xstrtoumax (base 10) with dd's valid suffixes "bcEGkKMPQRTwYZ0". */
        private static XResult xstrtoumax(String s) {
            int q = 0;
            while (q < s.length() && cIsSpace(s.charAt(q))) {
                q++;
            }
            if (q < s.length() && s.charAt(q) == '-') {
                return new XResult(INVALID, BigInteger.ZERO, 0);
            }
            // strtoumax
            int p = q;
            if (p < s.length() && s.charAt(p) == '+') {
                p++;
            }
            int digitsStart = p;
            BigInteger tmp = BigInteger.ZERO;
            while (p < s.length() && s.charAt(p) >= '0' && s.charAt(p) <= '9') {
                tmp = tmp.multiply(BigInteger.TEN).add(BigInteger.valueOf(s.charAt(p) - '0'));
                p++;
            }
            int err = OK;
            if (p == digitsStart) {
                p = 0; // strtoumax sets the end pointer to the start when there is no number
                if (!(!s.isEmpty() && DD_SUFFIXES.indexOf(s.charAt(0)) >= 0)) {
                    return new XResult(INVALID, BigInteger.ZERO, 0);
                }
                tmp = BigInteger.ONE;
            } else if (tmp.compareTo(UINTMAX) > 0) {
                tmp = UINTMAX;
                err = OVERFLOW;
            }
            if (p >= s.length()) {
                return new XResult(err, tmp, p);
            }
            char c = s.charAt(p);
            if (DD_SUFFIXES.indexOf(c) < 0) {
                return new XResult(err | INVALID_SUFFIX_CHAR, tmp, p);
            }
            int base = 1024;
            int suffixes = 1;
            if ("EGgkKMmPQRTtYZ".indexOf(c) >= 0) {
                char c1 = charAt(s, p + 1);
                if (c1 == 'i') {
                    if (charAt(s, p + 2) == 'B') {
                        suffixes += 2;
                    }
                } else if (c1 == 'B' || c1 == 'D') {
                    base = 1000;
                    suffixes++;
                }
            }
            BigInteger[] scaled = {tmp};
            int overflow;
            switch (c) {
                case 'b': overflow = scale(scaled, 512, 1); break;
                case 'c': overflow = OK; break;
                case 'w': overflow = scale(scaled, 2, 1); break;
                case 'k': case 'K': overflow = scale(scaled, base, 1); break;
                case 'M': overflow = scale(scaled, base, 2); break;
                case 'G': overflow = scale(scaled, base, 3); break;
                case 'T': overflow = scale(scaled, base, 4); break;
                case 'P': overflow = scale(scaled, base, 5); break;
                case 'E': overflow = scale(scaled, base, 6); break;
                case 'Z': overflow = scale(scaled, base, 7); break;
                case 'Y': overflow = scale(scaled, base, 8); break;
                case 'R': overflow = scale(scaled, base, 9); break;
                case 'Q': overflow = scale(scaled, base, 10); break;
                default: return new XResult(err | INVALID_SUFFIX_CHAR, tmp, p); // '0': never after digits
            }
            err |= overflow;
            p += suffixes;
            if (p < s.length()) {
                err |= INVALID_SUFFIX_CHAR;
            }
            return new XResult(err, scaled[0], p);
        }

        /** gnulib bkm_scale_by_power: saturates at UINTMAX_MAX and reports overflow. */
        private static int scale(BigInteger[] x, int base, int power) {
            int err = OK;
            for (int i = 0; i < power; i++) {
                BigInteger v = x[0].multiply(BigInteger.valueOf(base));
                if (v.compareTo(UINTMAX) > 0) {
                    x[0] = UINTMAX;
                    err = OVERFLOW;
                } else {
                    x[0] = v;
                }
            }
            return err;
        }
    }

    // ------------------------------------------------------------------------------------------------
    // quoting as coreutils quotes in messages

    /** quoteaf: shell-escape-always style, {@code 'X'}; with a single quote inside, {@code "X"} or {@code 'a'\''b'}. */
    static String quoteaf(String s) {
        if (s.indexOf('\'') < 0) {
            return "'" + s + "'";
        }
        boolean cCompatible = s.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '$'
                && c != '`');
        if (cCompatible) {
            return "\"" + s + "\"";
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** quotef: shell-escape style, quoted only where the shell would need it. */
    static String quotef(String s) {
        boolean plain = !s.isEmpty() && s.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9') || "_./@%+=:,-".indexOf(c) >= 0);
        return plain ? s : quoteaf(s);
    }

    /** locale_quoting_style in the C locale: {@code 'X'} with backslash escapes. */
    static String localeQuote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    // ------------------------------------------------------------------------------------------------

    /** The line being parsed, for errors. */
    private record Ctx(String line, int lineNumber) {
        WorkloadParseException fail(String reason) {
            return new WorkloadParseException(lineNumber, line, reason);
        }
    }
}
