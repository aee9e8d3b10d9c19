package dev.dmmodel.cli;

import dev.dmmodel.impl.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where the stack comes from ({@code --snapshot DIR}; {@code --layout FILE} later) and under which kernel's
 * rules it is built ({@code --kernel}), shared by every command.
 */
final class StackOptions {

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--kernel", paramLabel = "K",
            description = "Kernel rules to apply: 6.12, 6.1, 3.10, 2.6.32 or 2.6.0. Default: the preset closest"
                + " to the snapshot's kernel-release, else 6.12.")
    String kernel;

    /** One source of the stack. */
    static final class Source {
        @Option(names = "--snapshot", paramLabel = "DIR", required = true,
                description = "A host snapshot directory (block/, dmsetup-table.txt; docs/snapshot-format.md).")
        Path snapshot;

        @Option(names = "--layout", paramLabel = "FILE", required = true,
                description = "A layout file (not available yet).")
        Path layout;
    }

    /**
     * The stack as the options describe it, read and built; nothing is printed.
     *
     * @throws CliException for {@code --layout}, an unknown kernel name or an unreadable snapshot
     * @throws dev.dmmodel.impl.snapshot.SnapshotException for a malformed snapshot (naming the path)
     * @throws dev.dmmodel.layout.LayoutException if the snapshot's devices do not form a stack
     */
    Stack load() {
        if (source.layout != null) {
            throw CliException.notAvailableYet("--layout " + source.layout);
        }
        Optional<KernelProfile> asked = Optional.empty();
        if (kernel != null) {
            try {
                asked = Optional.of(KernelProfile.named(kernel.strip()));
            } catch (IllegalArgumentException e) {
                throw new CliException(e.getMessage(), e);
            }
        }
        Snapshot snapshot = Snapshot.read(source.snapshot);
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
        return new Stack(snapshot, profile, why, builder.build());
    }

    /**
     * A snapshot built into a layout.
     *
     * @param snapshot the snapshot as read
     * @param profile the kernel profile applied
     * @param profileSource why that profile ({@code --kernel 6.1}, {@code kernel-release 6.1.0-57-amd64}, ...)
     * @param layout the layout with every computed limit
     */
    record Stack(Snapshot snapshot, KernelProfile profile, String profileSource, Layout layout) {
    }
}
