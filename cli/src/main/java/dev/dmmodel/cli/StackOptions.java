package dev.dmmodel.cli;

import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.io.LayoutFiles;
import dev.dmmodel.io.Lsblk;
import dev.dmmodel.io.LsblkImport;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanFailure;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.workload.Command;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where the stack comes from ({@code --snapshot DIR}, {@code --layout FILE} or {@code --lsblk FILE}), under
 * which kernel's rules it is built ({@code --kernel}) and the provisioning plans dry-run on it ({@code --plan},
 * in order), shared by every command.
 */
final class StackOptions {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--kernel", paramLabel = "K",
            description = "Kernel rules to apply: a preset (7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0) or any"
                + " release as uname -r prints it (6.8, 4.18.0-553.el8_10.x86_64), whose rules are composed as of"
                + " that release (docs/kernel-releases.md). Default: the snapshot's kernel-release, composed the same"
                + " way, or the layout file's kernel:, else 6.12.")
    String kernel;

    @Option(names = "--plan", paramLabel = "FILE",
            description = "A provisioning plan to dry-run on the host first: a shell script, kickstart file, curtin"
                + " storage config or Ansible play (docs/plans.md). Repeat for several: each applies to the stack the"
                + " one before it left; the first line that would fail stops them all.")
    List<Path> plans = new ArrayList<>();

    @Option(names = "--plan-format", paramLabel = "FORMAT",
            description = "shell, kickstart, curtin or ansible: the format of every --plan (default: recognised"
                + " by each file's name and content).")
    String planFormat;

    /** One source of the stack. */
    static final class Source {
        @Option(names = "--snapshot", paramLabel = "DIR", required = true,
                description = "A host snapshot directory (block/, dmsetup-table.txt; docs/snapshot-format.md)."
                    + " check takes several (a fleet).")
        List<Path> snapshots;

        @Option(names = "--snapshots", paramLabel = "DIR", required = true,
                description = "check only: every subdirectory of DIR that is a snapshot (holds block/), in name"
                    + " order, as a fleet.")
        Path snapshotsDir;

        @Option(names = "--layout", paramLabel = "FILE", required = true,
                description = "A layout file, YAML or JSON (docs/layout-format.md).")
        Path layout;

        @Option(names = "--lsblk", paramLabel = "FILE", required = true,
                description = "lsblk --json --bytes --output-all output: its disks and partitions (dm devices, which"
                    + " lsblk shows without a table, are left out with a note).")
        Path lsblk;
    }

    /** Whether the options name several hosts ({@code --snapshot} repeated, or {@code --snapshots DIR}). */
    boolean fleet() {
        return source.snapshotsDir != null || (source.snapshots != null && source.snapshots.size() > 1);
    }

    /** The {@code --kernel} profile, if given. */
    Optional<KernelProfile> askedKernel() {
        if (kernel == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(KernelProfile.of(kernel.strip()));
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), e);
        }
    }

    /**
     * Every {@code --plan}, read in order (nothing applied yet).
     *
     * @throws dev.dmmodel.plan.PlanException for a plan that cannot be read, naming file, line and column
     * @throws CliException for an unknown {@code --plan-format}
     */
    List<Plan> readPlans() {
        Optional<PlanFormat> format = Optional.empty();
        if (planFormat != null) {
            try {
                format = Optional.of(PlanFormat.named(planFormat.strip()));
            } catch (IllegalArgumentException e) {
                throw new CliException("--plan-format: " + e.getMessage(), e);
            }
        }
        List<Plan> out = new ArrayList<>();
        for (Path p : plans) {
            // as Plan.read(p) reads it, with the CLI's message for a file that is not there
            String text = read(p, "--plan");
            String name = p.getFileName() == null ? p.toString() : p.getFileName().toString();
            out.add(format.isEmpty() ? Plan.parse(text, name) : Plan.parse(text, name, format.get()));
        }
        return out;
    }

    /**
     * The stack as the options describe it, read, built and with every plan applied; nothing is printed.
     *
     * @throws CliException for a kernel that is neither a preset nor a release, several hosts, or an unreadable
     *     file
     * @throws dev.dmmodel.io.FormatException for a malformed snapshot (naming the path), a layout file or lsblk
     *     output that cannot be read or built, or a plan that cannot be read (naming the file, line and column)
     * @throws dev.dmmodel.layout.LayoutException if the snapshot's devices do not form a stack
     */
    Stack load() {
        if (fleet()) {
            throw new CliException(source.snapshotsDir != null
                    ? "--snapshots DIR: only check takes a fleet of snapshots"
                    : "--snapshot given " + source.snapshots.size() + " times: only check takes several snapshots");
        }
        Optional<KernelProfile> asked = askedKernel();
        List<Plan> plans = readPlans();
        if (source.layout != null) {
            return loadLayoutFile(asked).withPlans(plans);
        }
        if (source.lsblk != null) {
            return loadLsblk(asked).withPlans(plans);
        }
        return loadSnapshot(source.snapshots.get(0), asked).withPlans(plans);
    }

    /**
     * A snapshot: {@code --kernel} overrides its {@code kernel-release}, which overrides the default.
     *
     * @param asked the {@code --kernel} profile, if given
     */
    Stack loadSnapshot(Path dir, Optional<KernelProfile> asked) {
        HostSnapshot snapshot = HostSnapshot.read(dir);
        KernelProfile profile;
        String why;
        if (asked.isPresent()) {
            profile = asked.get();
            why = "--kernel " + kernel.strip();
        } else if (snapshot.profile().isPresent()) {
            profile = snapshot.profile().get();
            why = "kernel-release " + snapshot.kernelRelease().orElse("?");
        } else {
            profile = KernelProfile.defaultProfile();
            why = "default; the snapshot has no kernel-release";
        }
        LayoutSpec spec = snapshot.toLayoutSpec(profile);
        List<String> notes = snapshot.filledIn().stream().map(HostSnapshot.FilledAttribute::message).toList();
        return new Stack("--snapshot " + dir, Optional.of(snapshot), spec, profile, why, Layout.of(spec), notes,
                List.of());
    }

    /** A layout file: {@code --kernel} overrides the file's {@code kernel:}, which overrides the default. */
    private Stack loadLayoutFile(Optional<KernelProfile> asked) {
        String name = source.layout.toString();
        String text = LayoutFiles.text(source.layout);
        Optional<KernelProfile> named = LayoutFiles.kernel(text, name);
        KernelProfile profile;
        String why;
        if (asked.isPresent()) {
            profile = asked.get();
            why = "--kernel " + kernel.strip() + named.map(k -> ", overriding kernel: "
                    + k.name().substring("linux-".length()) + " of " + source.layout).orElse("");
        } else if (named.isPresent()) {
            profile = named.get();
            why = "kernel: " + profile.name().substring("linux-".length()) + " in " + source.layout;
        } else {
            profile = KernelProfile.defaultProfile();
            why = "default; " + source.layout + " has no kernel:";
        }
        return new Stack("--layout " + source.layout, Optional.empty(), LayoutFiles.read(text, name, profile), profile,
                why, LayoutFiles.build(text, name, profile), List.of(), List.of());
    }

    /**
     * lsblk's JSON: its disks and partitions under {@code --kernel} or the default (lsblk does not say the
     * kernel); what it lists but cannot be built from it is noted.
     */
    private Stack loadLsblk(Optional<KernelProfile> asked) {
        String name = source.lsblk.toString();
        LsblkImport disks = Lsblk.read(read(source.lsblk, "--lsblk"), name);
        KernelProfile profile = asked.orElse(KernelProfile.defaultProfile());
        String why = asked.isPresent() ? "--kernel " + kernel.strip() : "default; lsblk output does not name a kernel";
        List<String> notes = new ArrayList<>(disks.problems());
        for (LsblkImport.PendingDm dm : disks.dmDevices()) {
            notes.add(name + ": " + dm.kname() + " (" + dm.name() + ", " + dm.type() + ") left out: lsblk shows no"
                    + " dm table (a snapshot has it: bin/dmmodel-snapshot)");
        }
        LayoutSpec spec = disks.toLayoutSpec(profile);
        return new Stack("--lsblk " + source.lsblk, Optional.empty(), spec, profile, why, Layout.of(spec), notes,
                List.of());
    }

    /** The text of a file an option names, or a {@link CliException} saying why it cannot be read. */
    static String read(Path file, String option) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new CliException(option + " " + file + ": no such file", e);
        } catch (CharacterCodingException e) {
            throw new CliException(option + " " + file + ": not UTF-8 text", e);
        } catch (IOException e) {
            throw new CliException(option + " " + file + ": cannot read it: " + e.getMessage(), e);
        }
    }

    /**
     * A snapshot, layout file or lsblk output built into a layout, with the plans applied to it.
     *
     * @param origin where the host came from, as the command line said it ({@code --snapshot DIR},
     *     {@code --layout FILE}, {@code --lsblk FILE})
     * @param snapshot the snapshot as read, or empty for a layout file or lsblk output
     * @param spec the steps that built {@link #layout} (a snapshot's {@link HostSnapshot#toLayoutSpec}, a file's
     *     steps, with every plan's)
     * @param profile the kernel profile applied
     * @param profileSource why that profile ({@code --kernel 6.1}, {@code kernel-release 6.1.0-57-amd64},
     *     {@code kernel: 6.12 in stack.yaml}, ...)
     * @param layout the layout with every computed limit: the host's, or the last plan's result
     * @param notes what the import filled in or left out (a value the snapshot's kernel did not show, a dm
     *     device lsblk shows without its table), one sentence each
     * @param plans the result of each plan applied, in order (none after one that failed)
     */
    record Stack(String origin, Optional<HostSnapshot> snapshot, LayoutSpec spec, KernelProfile profile,
                 String profileSource, Layout layout, List<String> notes, List<PlanResult> plans) {

        /** Copies the lists. */
        Stack {
            notes = List.copyOf(notes);
            plans = List.copyOf(plans);
        }

        /** This host with {@code toApply} applied in order, each to the previous one's layout, up to a failure. */
        Stack withPlans(List<Plan> toApply) {
            Layout current = layout;
            List<PlanResult> results = new ArrayList<>();
            for (Plan plan : toApply) {
                PlanResult r = plan.applyTo(current);
                results.add(r);
                current = r.layout();
                if (!r.succeeded()) {
                    break;
                }
            }
            LayoutSpec finalSpec = results.isEmpty() ? spec : current.spec().orElse(spec);
            return new Stack(origin, snapshot, finalSpec, profile, profileSource, current, notes, results);
        }

        /** The first plan command that would fail on the host, if any. */
        Optional<PlanFailure> planFailure() {
            return plans.stream().flatMap(r -> r.failure().stream()).findFirst();
        }

        /** The plans' filesystem commands ({@code mkfs}, {@code mount}), in order, to run before a workload. */
        List<Command> planSetup() {
            return plans.stream().flatMap(r -> r.setup().commands().stream()).toList();
        }

        /**
         * For {@code show}, {@code limits}, {@code export} and {@code trace}: when a plan would fail on the host,
         * says so on {@code err} ({@code too-big.sh:7: lvcreate: Volume group "vg0" has insufficient free space
         * ...}), as its tool would, and returns true: the command then prints nothing and exits 1, since the stack
         * is not the one the plan describes.
         */
        boolean reportPlanFailure(PrintWriter err) {
            Optional<PlanFailure> f = planFailure();
            f.ifPresent(x -> {
                err.println(x);
                err.flush();
            });
            return f.isPresent();
        }

        /**
         * Says on {@code err}, one {@code dmmodel: note: } line each, first what a profile composed for a release
         * rather than a preset is ({@link #profileNote()}), then what the import filled in because the snapshot's
         * kernel did not show it (a Linux 3.10 host has no {@code queue/virt_boundary_mask}, ...) or left out; nothing
         * for a preset and a layout file or a snapshot that has every attribute. Every command that builds a stack
         * calls it first, so neither a composed rule set nor a value the host never showed is taken silently.
         */
        void printNotes(PrintWriter err) {
            profileNote().ifPresent(n -> err.println("dmmodel: note: " + n));
            notes.forEach(n -> err.println("dmmodel: note: " + n));
            err.flush();
        }

        /**
         * For a profile composed for a release rather than a preset, what it is:
         * {@code kernel linux-4.18: Linux 4.18 (uname -r 4.18.0-553.el8_10.x86_64; RHEL 8: ...): ...}.
         */
        Optional<String> profileNote() {
            if (KernelProfile.presets().contains(profile)) {
                return Optional.empty();
            }
            return Optional.of("kernel " + profile.name() + ": " + profile.description());
        }
    }
}
