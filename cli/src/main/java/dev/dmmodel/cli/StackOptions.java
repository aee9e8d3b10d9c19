package dev.dmmodel.cli;

import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.io.LayoutFiles;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where the stack comes from ({@code --snapshot DIR} or {@code --layout FILE}) and under which kernel's
 * rules it is built ({@code --kernel}), shared by every command.
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

    /** One source of the stack. */
    static final class Source {
        @Option(names = "--snapshot", paramLabel = "DIR", required = true,
                description = "A host snapshot directory (block/, dmsetup-table.txt; docs/snapshot-format.md).")
        Path snapshot;

        @Option(names = "--layout", paramLabel = "FILE", required = true,
                description = "A layout file, YAML or JSON (docs/layout-format.md).")
        Path layout;
    }

    /**
     * The stack as the options describe it, read and built; nothing is printed.
     *
     * @throws CliException for a kernel that is neither a preset nor a release, or an unreadable snapshot
     * @throws dev.dmmodel.io.FormatException for a malformed snapshot (naming the path) or a layout file that
     *     cannot be read or built (naming the file, line and column)
     * @throws dev.dmmodel.layout.LayoutException if the snapshot's devices do not form a stack
     */
    Stack load() {
        Optional<KernelProfile> asked = Optional.empty();
        if (kernel != null) {
            try {
                asked = Optional.of(KernelProfile.of(kernel.strip()));
            } catch (IllegalArgumentException e) {
                throw new CliException(e.getMessage(), e);
            }
        }
        if (source.layout != null) {
            return loadLayoutFile(asked);
        }
        HostSnapshot snapshot = HostSnapshot.read(source.snapshot);
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
        LayoutBuilder builder = Layout.builder(spec.profile());
        for (LayoutStep step : spec.steps()) {
            builder.step(step);
        }
        return new Stack("--snapshot " + source.snapshot, Optional.of(snapshot), spec, profile, why, builder.build());
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
                why, LayoutFiles.build(text, name, profile));
    }

    /**
     * A snapshot or a layout file built into a layout.
     *
     * @param origin where the stack came from, as the command line said it ({@code --snapshot DIR},
     *     {@code --layout FILE})
     * @param snapshot the snapshot as read, or empty for a layout file
     * @param spec the steps that built the layout (a snapshot's {@link HostSnapshot#toLayoutSpec}, a file's steps)
     * @param profile the kernel profile applied
     * @param profileSource why that profile ({@code --kernel 6.1}, {@code kernel-release 6.1.0-57-amd64},
     *     {@code kernel: 6.12 in stack.yaml}, ...)
     * @param layout the layout with every computed limit
     */
    record Stack(String origin, Optional<HostSnapshot> snapshot, LayoutSpec spec, KernelProfile profile, String profileSource,
                 Layout layout) {

        /**
         * Says on {@code err}, one {@code dmmodel: note: } line each, first what a profile composed for a release
         * rather than a preset is ({@link #profileNote()}), then what the import filled in because the snapshot's
         * kernel did not show it (a Linux 3.10 host has no {@code queue/virt_boundary_mask}, ...); nothing for a preset
         * and a layout file or a snapshot that has every attribute. Every command that builds a stack calls it first,
         * so neither a composed rule set nor a value the host never showed is taken silently.
         */
        void printNotes(PrintWriter err) {
            profileNote().ifPresent(n -> err.println("dmmodel: note: " + n));
            snapshot.ifPresent(h -> h.filledIn().forEach(f -> err.println("dmmodel: note: " + f.message())));
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
