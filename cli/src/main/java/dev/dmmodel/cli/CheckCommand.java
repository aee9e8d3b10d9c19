package dev.dmmodel.cli;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.internal.json.JsonWriter;
import dev.dmmodel.io.HostSnapshot;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dmmodel check}: the layout's findings, after the plans' per-line results with {@code --plan}; over a
 * fleet of snapshots, one line per host ({@link FleetCheck}).
 */
@Command(name = "check",
        header = "The stack's findings with their fixes (after a plan's, per line; or per host of a fleet); exit 1 if one is an ERROR.",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {"Prints the stack's findings (alignment problems and the like, most severe first), each"
                + " with its severity, stable id, device, message and fix.",
            "Exits 0 when no finding is an ERROR, 1 when one is (sectors mapped twice: dm.table.overlap,"
                + " partition.overlap; thin metadata too small for its data: thin.pool.metadata-too-small),"
                + " 2 on bad input.",
            "With --plan, first each plan line's result (plan.sh:5: pvcreate: /dev/sda1: pe_start 2753s, ...), then"
                + " the findings of the stack the plans build; a line that would fail on the host is printed on"
                + " stderr in its tool's words (too-big.sh:7: lvcreate: Volume group \"vg0\" has insufficient free"
                + " space ...) and exits 1.",
            "A fleet (--snapshot several times, or --snapshots DIR): one line per host as it is checked (--format"
                + " jsonl: {\"host\", \"kernel\", \"status\": ok|findings|error, \"findings\", \"planFailure\","
                + " \"error\"}); exit 0 when every host is ok, 1 when one has a WARNING or ERROR finding or a failing"
                + " plan line, 2 when one could not be read (the others are still checked), 3 for an internal error."},
        footerHeading = "%nExample:%n",
        footer = {
            "  dmmodel check --snapshot kernel-traces/limits-sd-512e/snapshot",
            "  ERROR dm.table.overlap [dm-2]",
            "    dm-2 (strparts) maps sectors 0-129023 of sdg1 (table line 1, stripe 1), ...",
            "    fix: give each its own sectors of sdg1 (dmsetup reload one table), ...",
            "  ...",
            "  WARNING align.partition.physical-block [sdg1]",
            "    sdg1 starts at sector 63, 3584 bytes past a 4096-byte physical block ...",
            "    fix: recreate sdg1 at sector 2048 (a multiple of 1MiB; parted -a ...",
            "  ...",
            "  8 findings (2 errors, 3 warnings, 3 info) under linux-6.1",
            "",
            "  dmmodel check --snapshot kernel-traces/limits-sd-512e/snapshot --format json",
            "  {\"findings\": [",
            "    {\"id\": \"dm.table.overlap\", \"severity\": \"ERROR\", ...},",
            "    ...",
            "  ]}",
            "",
            "  dmmodel check --layout examples/hosts/raid5-part63.yaml \\",
            "      --plan examples/plans/lvm-default.sh",
            "  lvm-default.sh:4: set: no effect on the block stack",
            "  lvm-default.sh:5: pvcreate: /dev/sda1: pe_start 2753s, data alignment ...",
            "  ...",
            "",
            "  dmmodel check --snapshots docs/examples/snapshots --format jsonl"})
final class CheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StackOptions stack;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json (one host) or jsonl (a fleet: one JSON object a line per host).")
    String format;

    @Override
    public Integer call() {
        String f = CliException.choice("--format", format, "text", "json", "jsonl");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (stack.fleet() || f.equals("jsonl")) {
            if (f.equals("json")) {
                throw new CliException("--format json is for one host; a fleet is written as jsonl (one line a host)"
                        + " or text");
            }
            return new FleetCheck(stack, f.equals("jsonl"), out, err).run();
        }
        StackOptions.Stack s = stack.load();
        s.printNotes(err);
        List<Finding> findings = s.layout().findings();
        boolean plans = !stack.plans.isEmpty();
        if (f.equals("json")) {
            out.print(plans ? json(findings, s) : json(findings));
        } else {
            out.print(PlanOutput.text(s.plans()));
            if (plans) {
                out.println();
            }
            out.print(text(findings, s.profile().name()));
        }
        out.flush();
        s.planFailure().ifPresent(x -> err.println(x));
        // what the snapshot holds but the model could not take (a VG with raid LVs, ...) is said, not dropped
        for (String problem : s.snapshot().map(HostSnapshot::lvmProblems).orElse(List.of())) {
            err.println("dmmodel: note: " + problem);
        }
        err.flush();
        return s.planFailure().isPresent() ? Main.FAILED : exitCode(findings);
    }

    /** check's JSON object with the plans' entries and failure: {@code {"findings": [...], "plan": [...], "planFailure": ..}}. */
    static String json(List<Finding> findings, StackOptions.Stack s) {
        String base = json(findings);
        return base.substring(0, base.length() - "}\n".length()) + ",\n" + PlanOutput.json(s.plans(), s.planFailure())
                + "}\n";
    }

    /** {@link Main#FAILED} if any finding is an ERROR, else {@link Main#OK}. */
    static int exitCode(List<Finding> findings) {
        return findings.stream().anyMatch(x -> x.severity() == Severity.ERROR) ? Main.FAILED : Main.OK;
    }

    /** {@code {"findings": [...]}}, one finding per line. */
    static String json(List<Finding> findings) {
        if (findings.isEmpty()) {
            return "{\"findings\": []}\n";
        }
        StringBuilder sb = new StringBuilder("{\"findings\": [");
        String sep = "\n";
        for (Finding x : findings) {
            sb.append(sep).append("  {\"id\": ").append(JsonWriter.string(x.id()))
                    .append(", \"severity\": ").append(JsonWriter.string(x.severity().name()))
                    .append(", \"device\": ").append(JsonWriter.string(x.device()))
                    .append(", \"message\": ").append(JsonWriter.string(x.message()))
                    .append(", \"fix\": ").append(JsonWriter.string(x.fix()))
                    .append(", \"basis\": [");
            for (int i = 0; i < x.basis().size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(JsonWriter.string(x.basis().get(i).toString()));
            }
            sb.append("]}");
            sep = ",\n";
        }
        return sb.append("\n]}\n").toString();
    }

    /** One block per finding, then a count. */
    static String text(List<Finding> findings, String kernel) {
        StringBuilder sb = new StringBuilder();
        for (Finding x : findings) {
            sb.append(x.severity()).append(' ').append(x.id()).append(" [").append(x.device()).append("]\n");
            sb.append("  ").append(x.message()).append('\n');
            sb.append("  fix: ").append(x.fix()).append('\n');
            if (!x.basis().isEmpty()) {
                // each one explained by `dmmodel limits --explain DEVICE:FIELD`
                sb.append("  rests on: ").append(String.join(", ", x.basis().stream().map(Object::toString).toList()))
                        .append(" (limits --explain)\n");
            }
            sb.append('\n');
        }
        sb.append(count(findings)).append(" under ").append(kernel).append('\n');
        return sb.toString();
    }

    /** {@code 3 findings (0 errors, 2 warnings, 1 info)}. */
    static String count(List<Finding> findings) {
        long errors = findings.stream().filter(x -> x.severity() == Severity.ERROR).count();
        long warnings = findings.stream().filter(x -> x.severity() == Severity.WARNING).count();
        long infos = findings.size() - errors - warnings;
        return findings.size() + (findings.size() == 1 ? " finding" : " findings") + " (" + errors + " error"
                + (errors == 1 ? "" : "s") + ", " + warnings + " warning" + (warnings == 1 ? "" : "s") + ", " + infos
                + " info)";
    }
}
