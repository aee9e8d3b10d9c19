package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.tools.Shell.Pipeline;
import dev.dmmodel.impl.tools.Shell.Simple;
import dev.dmmodel.impl.tools.Shell.Tok;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import dev.dmmodel.workload.WorkloadParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
 * <p>Each tool reads its own arguments in its class ({@link DdTool}, {@link BlkdiscardTool}, ...), as the
 * tool itself reads them.
 */
public final class WorkloadParser {

    private WorkloadParser() {
    }

    /** Command words that make {@code "# WORD ..."} a root prompt rather than a comment in a script. */
    static final Set<String> KNOWN_COMMANDS = Set.of("dd", "echo", "sync", "blockdev", "mkfs.xfs",
            "mkfs.ext4", "mount", "umount", "dmsetup", "blkdiscard", "lvcreate", "lvremove", "mdadm", "sleep", "sudo", "time", "sh",
            "bash");

    /**
     * Parses one line holding one command.
     *
     * @throws WorkloadParseException naming the line and the tool's reason
     */
    public static Command parse(String line, int lineNumber) {
        Objects.requireNonNull(line, "line");
        String trimmed = line.strip();
        ParseContext ctx = new ParseContext(trimmed, lineNumber);
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
    public static Script parseScript(String text) {
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
            commands.addAll(parseLogicalLine(line, new ParseContext(line, lineNumber)));
        }
        return new Script(commands);
    }

    static boolean endsWithContinuation(CharSequence s) {
        int backslashes = 0;
        for (int j = s.length() - 1; j >= 0 && s.charAt(j) == '\\'; j--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    /** A script line starting with '#' is a comment unless it reads "# KNOWN-COMMAND ...". */
    static boolean isComment(String line) {
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

    static String stripPrompt(String line) {
        if (line.equals("$") || line.equals(">") || line.equals("#")) {
            return "";
        }
        if (line.startsWith("$ ") || line.startsWith("> ") || line.startsWith("# ")) {
            return line.substring(2).strip();
        }
        return line;
    }

    static List<Command> parseLogicalLine(String line, ParseContext ctx) {
        String body = stripPrompt(line);
        if (body.isEmpty() || body.startsWith("#")) {
            return List.of();
        }
        return parseShell(body, ctx);
    }

    /** Tokenizes and interprets shell text (a line, or the argument of {@code sh -c}). */
    static List<Command> parseShell(String text, ParseContext ctx) {
        List<Tok> tokens = new Shell.Tokenizer(text, ctx).tokenize();
        List<Pipeline> pipelines = Shell.structure(tokens, ctx);
        List<Command> out = new ArrayList<>();
        for (Pipeline p : pipelines) {
            out.addAll(interpret(p, ctx));
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------
    // Commands

    static List<Command> interpret(Pipeline p, ParseContext ctx) {
        if (p.commands().size() == 2) {
            return EchoTool.echoTee(p.commands().get(0), p.commands().get(1), ctx);
        }
        if (p.commands().size() > 2) {
            throw ctx.fail("pipelines are not modelled, except 'echo VALUE | tee PATH'");
        }
        Simple simple = p.commands().get(0);
        List<String> words = Shell.unwrap(simple.words());
        if (words.isEmpty()) {
            throw ctx.fail("sudo or time without a command has nothing to model");
        }
        String name = words.get(0);
        List<String> args = words.subList(1, words.size());
        if ((name.equals("sh") || name.equals("bash")) && args.size() == 2 && args.get(0).equals("-c")) {
            Shell.harmlessRedirections(simple.redirs(), name, ctx);
            return parseShell(args.get(1), ctx);
        }
        if (name.equals("echo")) {
            return List.of(EchoTool.echo(args, simple.redirs(), ctx));
        }
        if (name.equals("dd")) {
            return List.of(DdTool.parse(args, simple.redirs(), ctx));
        }
        Shell.harmlessRedirections(simple.redirs(), name, ctx);
        switch (name) {
            case "sync": return List.of(SyncTool.sync(args, ctx));
            case "blockdev": return List.of(BlockdevTool.blockdev(args, ctx));
            case "mkfs.xfs": return List.of(MkfsTool.mkfsXfs(args, ctx));
            case "mkfs.ext4": return List.of(MkfsTool.mkfsExt4(args, ctx));
            case "mount": return List.of(MountTool.mount(args, ctx));
            case "umount": return List.of(MountTool.umount(args, ctx));
            case "dmsetup": return List.of(DmsetupTool.dmsetup(args, ctx));
            case "blkdiscard": return List.of(BlkdiscardTool.blkdiscard(args, ctx));
            case "lvcreate": return List.of(LvcreateTool.lvcreate(args, ctx));
            case "lvremove": return List.of(LvremoveTool.lvremove(args, ctx));
            case "mdadm": return List.of(MdadmTool.mdadm(args, ctx));
            case "sleep": return List.of(SleepTool.sleep(args, ctx));
            default: throw ctx.fail("unknown command '" + name + "'");
        }
    }

}
