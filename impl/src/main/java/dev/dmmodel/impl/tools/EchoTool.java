package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.tools.Shell.Redir;
import dev.dmmodel.impl.tools.Shell.Simple;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.List;

/** {@code echo VALUE > PATH} and {@code echo VALUE | tee PATH}: writes to sysfs and procfs ({@code drop_caches}). */
final class EchoTool {

    private EchoTool() {
    }

    static final String DROP_CACHES = "/proc/sys/vm/drop_caches";

    static List<Command> echoTee(Simple left, Simple right, ParseContext ctx) {
        List<String> lw = Shell.unwrap(left.words());
        List<String> rw = Shell.unwrap(right.words());
        if (lw.isEmpty() || !lw.get(0).equals("echo") || rw.isEmpty() || !rw.get(0).equals("tee")) {
            throw ctx.fail("pipelines are not modelled, except 'echo VALUE | tee PATH'");
        }
        if (left.redirs().stream().anyMatch(r -> r.fd() == 1)) {
            throw ctx.fail("echo's output is redirected away from the pipe: tee receives nothing");
        }
        Shell.harmlessRedirections(left.redirs(), "echo", ctx);
        Shell.harmlessRedirections(right.redirs(), "tee", ctx);
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

    static Command echo(List<String> args, List<Redir> redirs, ParseContext ctx) {
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
    static String echoValue(List<String> args) {
        int i = 0;
        while (i < args.size() && args.get(i).matches("-[neE]+")) {
            i++;
        }
        return String.join(" ", args.subList(i, args.size()));
    }

    static Command write(String path, String value, ParseContext ctx) {
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

}
