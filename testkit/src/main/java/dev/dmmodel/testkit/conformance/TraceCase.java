package dev.dmmodel.testkit.conformance;

import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormat;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A recorded kernel trace case ({@code docs/snapshot-format.md}): a folder with {@code README.txt}, the host
 * {@code snapshot/}, the {@code setup.txt} and {@code workload.txt} command lines, the normalized
 * {@code trace.csv} and the {@code compare.txt} mode. A case without {@code compare.txt} (the
 * {@code limits-*} cases) has no trace to compare: {@link #compareMode()} is empty and so is
 * {@link #trace()}.
 */
public final class TraceCase {

    private final Path directory;
    private final Optional<String> readme;
    private final HostSnapshot snapshot;
    private final List<String> setup;
    private final List<String> workload;
    private final List<TraceEvent> trace;
    private final Optional<CompareMode> compareMode;

    private TraceCase(Path directory, Optional<String> readme, HostSnapshot snapshot, List<String> setup,
                      List<String> workload, List<TraceEvent> trace, Optional<CompareMode> compareMode) {
        this.directory = directory;
        this.readme = readme;
        this.snapshot = snapshot;
        this.setup = List.copyOf(setup);
        this.workload = List.copyOf(workload);
        this.trace = List.copyOf(trace);
        this.compareMode = compareMode;
    }

    /**
     * Reads a case folder. {@code README.txt}, {@code setup.txt} and {@code workload.txt} are optional;
     * {@code snapshot/} is required; {@code trace.csv} is required when {@code compare.txt} is present, and
     * read (if present) only then.
     *
     * @throws IllegalArgumentException naming the file for a missing or malformed part (a
     *     {@link dev.dmmodel.trace.TraceFormatException} as its cause for {@code trace.csv})
     * @throws UncheckedIOException if a file cannot be read
     */
    public static TraceCase read(Path caseDir) {
        Objects.requireNonNull(caseDir, "caseDir");
        Path dir = caseDir.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("trace case " + dir + " is not a directory");
        }
        Optional<String> readme = Files.isRegularFile(dir.resolve("README.txt"))
                ? Optional.of(readString(dir.resolve("README.txt"))) : Optional.empty();
        Path snapshotDir = dir.resolve("snapshot");
        if (!Files.isDirectory(snapshotDir)) {
            throw new IllegalArgumentException("trace case " + dir + " has no snapshot/ folder");
        }
        HostSnapshot snapshot = HostSnapshot.read(snapshotDir);
        List<String> setup = lines(dir.resolve("setup.txt"));
        List<String> workload = lines(dir.resolve("workload.txt"));
        Optional<CompareMode> mode = Optional.empty();
        List<TraceEvent> trace = List.of();
        Path compare = dir.resolve("compare.txt");
        if (Files.isRegularFile(compare)) {
            String word = readString(compare).strip();
            try {
                mode = Optional.of(CompareMode.ofWord(word));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(compare + ": " + e.getMessage(), e);
            }
            Path csv = dir.resolve("trace.csv");
            if (!Files.isRegularFile(csv)) {
                throw new IllegalArgumentException("trace case " + dir + " has compare.txt but no trace.csv");
            }
            try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
                trace = TraceFormat.readCsv(r);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + csv + ": " + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(csv + ": " + e.getMessage(), e);
            }
        }
        return new TraceCase(dir, readme, snapshot, setup, workload, trace, mode);
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<String> lines(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The case's name: its folder's name ({@code thin-b2048-zon-direct4k}). */
    public String name() {
        return directory.getFileName().toString();
    }

    /** The case folder (absolute). */
    public Path directory() {
        return directory;
    }

    /** The text of {@code README.txt}, if present. */
    public Optional<String> readme() {
        return readme;
    }

    /** The host snapshot ({@code snapshot/}). */
    public HostSnapshot snapshot() {
        return snapshot;
    }

    /** The lines of {@code setup.txt} as written (empty if absent): run before tracing started. */
    public List<String> setupLines() {
        return setup;
    }

    /** The lines of {@code workload.txt} as written (empty if absent): the traced commands. */
    public List<String> workloadLines() {
        return workload;
    }

    /** The recorded events of {@code trace.csv}; empty when the case has no {@code compare.txt}. */
    public List<TraceEvent> trace() {
        return trace;
    }

    /** How the trace is compared ({@code compare.txt}); empty when the case has no trace to compare. */
    public Optional<CompareMode> compareMode() {
        return compareMode;
    }

    /** Whether the case has a trace to compare ({@code compare.txt} present). */
    public boolean hasTrace() {
        return compareMode.isPresent();
    }

    @Override
    public String toString() {
        return "TraceCase[" + name() + ", " + compareMode.map(CompareMode::word).orElse("no trace") + ", "
                + trace.size() + " events]";
    }
}
