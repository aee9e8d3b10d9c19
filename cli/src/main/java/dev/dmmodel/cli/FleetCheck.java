package dev.dmmodel.cli;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.internal.json.JsonWriter;
import dev.dmmodel.io.FormatException;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanFailure;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code dmmodel check} over a fleet: many snapshots, one line per host as soon as it is checked (JSON Lines or
 * a text table), and an exit code that summarises them. Each host is read, built, dry-run and dropped before
 * the next, so a fleet of thousands needs the memory of one host; a host that cannot be read is a line with
 * its error and does not stop the others.
 *
 * <p>Exit code: the worst host's — {@link Main#INTERNAL_ERROR} if a host met a bug, else {@link Main#BAD_INPUT}
 * if a host could not be read or built, else {@link Main#FAILED} if a host has a WARNING or ERROR finding or a
 * plan line that would fail on it, else {@link Main#OK}.
 */
final class FleetCheck {

    /** A host's verdict. */
    enum Status {
        /** No WARNING or ERROR finding, every plan line applies (INFO findings may be listed). */
        OK("ok"),
        /** A WARNING or ERROR finding, or a plan line that would fail. */
        FINDINGS("findings"),
        /** The snapshot could not be read or built. */
        ERROR("error");

        final String word;

        Status(String word) {
            this.word = word;
        }
    }

    private final StackOptions options;
    private final boolean jsonl;
    private final PrintWriter out;
    private final PrintWriter err;
    private int hosts;
    private int ok;
    private int withFindings;
    private int unreadable;
    private boolean bug;

    /**
     * @param options the hosts ({@code --snapshot} several times or {@code --snapshots DIR}), kernel and plans
     * @param jsonl JSON Lines, else the text table
     */
    FleetCheck(StackOptions options, boolean jsonl, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.jsonl = jsonl;
        this.out = out;
        this.err = err;
    }

    /** Checks every host, printing a line for each as it is done; returns the exit code. */
    int run() {
        Optional<KernelProfile> kernel = options.askedKernel();
        List<Plan> plans = options.readPlans();
        if (!jsonl) {
            out.println(String.format("%-8s  %-10s  %s", "STATUS", "KERNEL", "HOST: FINDINGS"));
        }
        if (options.source.snapshotsDir != null) {
            for (Path dir : snapshotDirs(options.source.snapshotsDir)) {
                check(dir.getFileName().toString(), dir, kernel, plans);
            }
        } else {
            for (Path dir : options.source.snapshots) {
                check(dir.toString(), dir, kernel, plans);
            }
        }
        if (!jsonl) {
            out.println(hosts + (hosts == 1 ? " host: " : " hosts: ") + ok + " ok, " + withFindings
                    + " with findings, " + unreadable + " could not be read");
        }
        out.flush();
        if (bug) {
            return Main.INTERNAL_ERROR;
        }
        return unreadable > 0 ? Main.BAD_INPUT : withFindings > 0 ? Main.FAILED : Main.OK;
    }

    /**
     * The subdirectories of {@code dir} that hold {@code block/}, by name.
     *
     * @throws CliException if {@code dir} is not a directory or holds no snapshot
     */
    static List<Path> snapshotDirs(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new CliException("--snapshots " + dir + ": " + (Files.exists(dir) ? "a file" : "no such directory")
                    + "; expected a directory of snapshot directories");
        }
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (Files.isDirectory(p.resolve("block"))) {
                    found.add(p);
                }
            }
        } catch (IOException e) {
            throw new CliException("--snapshots " + dir + ": cannot list it: " + e.getMessage(), e);
        }
        if (found.isEmpty()) {
            throw new CliException("--snapshots " + dir + ": no snapshot in it; expected subdirectories holding block/");
        }
        found.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        return found;
    }

    /** Reads, builds and dry-runs one host, prints its line and counts its verdict. */
    private void check(String host, Path dir, Optional<KernelProfile> kernel, List<Plan> plans) {
        hosts++;
        String profile = "-";
        try {
            StackOptions.Stack s = options.loadSnapshot(dir, kernel);
            profile = s.profile().name();
            s = s.withPlans(plans);
            for (String note : s.notes()) {
                err.println("dmmodel: note: " + host + ": " + note);
            }
            s.profileNote().ifPresent(n -> err.println("dmmodel: note: " + host + ": " + n));
            err.flush();
            List<Finding> findings = s.layout().findings();
            Optional<PlanFailure> failure = s.planFailure();
            boolean bad = failure.isPresent() || findings.stream().anyMatch(f -> f.severity() != Severity.INFO);
            if (bad) {
                withFindings++;
            } else {
                ok++;
            }
            print(host, profile, bad ? Status.FINDINGS : Status.OK, findings, failure, null);
        } catch (FormatException | CliException | UncheckedIOException e) {
            unreadable++;
            print(host, profile, Status.ERROR, List.of(), Optional.empty(), e.getMessage());
        } catch (LayoutException e) {
            unreadable++;
            print(host, profile, Status.ERROR, List.of(), Optional.empty(), "the stack cannot be built: " + e.getMessage());
        } catch (RuntimeException e) {
            // a bug: said on this host's line, with its trace on stderr, and the others still checked
            bug = true;
            unreadable++;
            err.println("dmmodel: internal error on " + host + ": " + e);
            e.printStackTrace(err);
            err.flush();
            print(host, profile, Status.ERROR, List.of(), Optional.empty(), "internal error: " + e);
        }
    }

    private void print(String host, String kernel, Status status, List<Finding> findings,
                       Optional<PlanFailure> failure, String error) {
        out.println(jsonl ? jsonLine(host, kernel, status, findings, failure, error)
                : textLine(host, kernel, status, findings, failure, error));
        out.flush();
    }

    /**
     * {@code {"host": .., "kernel": .., "status": "ok"|"findings"|"error", "findings": [{"id": .., "severity": ..,
     * "device": ..}, ...], "planFailure": "too-big.sh:7: lvcreate: ..."|null, "error": ..|null}}.
     */
    static String jsonLine(String host, String kernel, Status status, List<Finding> findings,
                           Optional<PlanFailure> failure, String error) {
        StringBuilder sb = new StringBuilder("{\"host\": ").append(JsonWriter.string(host))
                .append(", \"kernel\": ").append(kernel.equals("-") ? "null" : JsonWriter.string(kernel))
                .append(", \"status\": ").append(JsonWriter.string(status.word)).append(", \"findings\": [");
        String sep = "";
        for (Finding f : findings) {
            sb.append(sep).append("{\"id\": ").append(JsonWriter.string(f.id())).append(", \"severity\": ")
                    .append(JsonWriter.string(f.severity().name())).append(", \"device\": ")
                    .append(JsonWriter.string(f.device())).append('}');
            sep = ", ";
        }
        sb.append("], \"planFailure\": ").append(failure.map(f -> JsonWriter.string(f.toString())).orElse("null"));
        sb.append(", \"error\": ").append(error == null ? "null" : JsonWriter.string(error)).append('}');
        return sb.toString();
    }

    /** {@code findings  linux-6.1   HOST: WARNING align.partition.io-min [sda1], ...}. */
    static String textLine(String host, String kernel, Status status, List<Finding> findings,
                           Optional<PlanFailure> failure, String error) {
        StringBuilder sb = new StringBuilder(String.format("%-8s  %-10s  %s", status.word, kernel, host));
        List<String> what = new ArrayList<>();
        failure.ifPresent(f -> what.add("plan fails: " + f));
        for (Finding f : findings) {
            what.add(f.severity() + " " + f.id() + " [" + f.device() + "]");
        }
        if (error != null) {
            what.add(error);
        }
        if (!what.isEmpty()) {
            sb.append(": ").append(String.join(", ", what));
        }
        return sb.toString();
    }
}
