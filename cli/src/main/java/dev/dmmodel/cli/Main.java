package dev.dmmodel.cli;

import dev.dmmodel.io.FormatException;
import dev.dmmodel.layout.LayoutException;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code dmmodel} command: {@code limits}, {@code trace}, {@code check}, {@code export} and
 * {@code show} for a host snapshot ({@code docs/cli.md}).
 *
 * <p>Exit codes: {@value #OK} success; {@value #FAILED} findings with an ERROR ({@code check}) or a workload
 * command that failed ({@code trace}); {@value #BAD_INPUT} bad input or usage, with one message on stderr;
 * {@value #INTERNAL_ERROR} an internal error (a bug), with its stack trace.
 */
@Command(name = "dmmodel",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Models the Linux block layer of a host snapshot: queue limits, the I/O path, findings.",
            "A snapshot is a directory as docs/snapshot-format.md describes (block/<kname>/..., dmsetup-table.txt);"
                + " --layout FILE and --lsblk FILE describe a host too, and --plan FILE dry-runs a provisioning plan"
                + " on it (docs/plans.md). examples/hosts/ and examples/plans/ have some to try."},
        subcommands = {
            LimitsCommand.class,
            TraceCommand.class,
            CheckCommand.class,
            ExportCommand.class,
            ShowCommand.class,
            ReportCommand.class,
            CommandLine.HelpCommand.class},
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  success",
            "  1  check found an ERROR (a fleet: a WARNING too); a --plan line would fail on the host; trace ran a"
                + " workload command that failed",
            "  2  bad input or usage (one message on stderr)",
            "  3  internal error",
            "",
            "Example:",
            "  dmmodel show --snapshot docs/examples/snapshots/limits-sd-512e",
            "  dmmodel limits --snapshot docs/examples/snapshots/limits-sd-512e \\",
            "      --kernel 6.12 --format text",
            "  dmmodel check --layout examples/hosts/blank-raid5.yaml \\",
            "      --plan examples/plans/too-big.sh",
            "  dmmodel trace --help"})
public final class Main implements Callable<Integer> {

    /** Success. */
    public static final int OK = 0;
    /**
     * {@code check} found an ERROR finding (a fleet: a WARNING); a {@code --plan} line would fail on the host; a
     * {@code trace} workload command failed; {@code export --to lvm-commands} could not express something.
     */
    public static final int FAILED = 1;
    /** Bad input or usage. */
    public static final int BAD_INPUT = 2;
    /** An internal error. */
    public static final int INTERNAL_ERROR = 3;

    @Spec
    CommandSpec spec;

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        // stdout's own descriptor, not System.out (a PrintStream that flushes every write): a trace streams megabytes
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
                new java.io.FileOutputStream(java.io.FileDescriptor.out), StandardCharsets.UTF_8), 1 << 16), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = commandLine(out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /**
     * The command line with its output and error streams and the exit-code rules; {@code execute(args)} runs
     * it. Output is flushed before every message written to {@code err} and at the end.
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExitCodeExceptionMapper(t -> t instanceof ParameterException ? BAD_INPUT : INTERNAL_ERROR);
        cl.setParameterExceptionHandler(Main::usageError);
        cl.setExecutionExceptionHandler(Main::executionError);
        return cl;
    }

    @Override
    public Integer call() {
        // no subcommand: say what to do, as a usage error
        throw new ParameterException(spec.commandLine(), "missing a command: one of limits, trace, check, export, show, report");
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        cl.getOut().flush();
        PrintWriter err = cl.getErr();
        String message = e.getMessage() == null ? "bad usage" : e.getMessage();
        if (message.startsWith("Error: ")) {
            message = message.substring("Error: ".length());
        }
        if (e instanceof UnmatchedArgumentException u && cl.getCommandSpec().parent() == null
                && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            message = "unknown command '" + u.getUnmatched().get(0) + "' (known: limits, trace, check, export, show, report,"
                    + " help)";
        }
        err.println("dmmodel: " + message + " (see '" + cl.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
        return BAD_INPUT;
    }

    private static int executionError(Exception e, CommandLine cl, ParseResult parsed) {
        cl.getOut().flush();
        PrintWriter err = cl.getErr();
        int code;
        if (e instanceof CliException || e instanceof FormatException) {
            err.println("dmmodel: " + e.getMessage());
            code = BAD_INPUT;
        } else if (e instanceof LayoutException) {
            err.println("dmmodel: the stack cannot be built: " + e.getMessage());
            code = BAD_INPUT;
        } else if (e instanceof UncheckedIOException) {
            err.println("dmmodel: " + e.getMessage());
            code = BAD_INPUT;
        } else {
            err.println("dmmodel: internal error: " + e);
            e.printStackTrace(err);
            code = INTERNAL_ERROR;
        }
        err.flush();
        return code;
    }

    /** The version from the jar's manifest. */
    /**
     * {@code --version}: the release (the jar manifest's {@code Implementation-Version}; a build run from classes
     * has none and says so) and every kernel profile preset it knows, oldest first, marking the default.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            dev.dmmodel.limits.KernelProfile byDefault = dev.dmmodel.limits.KernelProfile.defaultProfile();
            StringBuilder profiles = new StringBuilder("kernel profiles:");
            String sep = " ";
            for (dev.dmmodel.limits.KernelProfile p : dev.dmmodel.limits.KernelProfile.presets()) {
                profiles.append(sep).append(p.name()).append(p.equals(byDefault) ? " (default)" : "");
                sep = ", ";
            }
            return new String[] {"dmmodel " + (v == null ? "(development build)" : v), profiles.toString()};
        }
    }
}
