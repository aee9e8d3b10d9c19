package dev.dmmodel.testkit.conformance;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;

/**
 * The recorded kernel cases under {@code ${dmmodel.shared.dir}}, found as {@code LimitsConformanceTest} finds
 * them: a missing folder makes a test factory one skipped test that says where it looked. Only the kernels and
 * device families the model has are run; every other recorded case is one skipped test naming the issue that
 * brings its model ({@link #FOLDERS}).
 */
final class SharedFolders {

    static final String PROPERTY = "dmmodel.shared.dir";
    /**
     * A recorded set: its folder, why the whole set is not run yet (empty: it is run), and the case-name prefixes
     * of device families not modelled yet, with why.
     */
    record TraceFolder(String name, Optional<String> notModelled, java.util.Map<String, String> unmodelledFamilies) {
        /** Why a case of this folder is not run, or empty when it is. */
        Optional<String> skipReason(String caseName) {
            if (notModelled.isPresent()) {
                return notModelled;
            }
            return unmodelledFamilies.entrySet().stream().filter(e -> caseName.startsWith(e.getKey()))
                    .map(java.util.Map.Entry::getValue).findFirst();
        }
    }


    /** Every recorded set, in the order the tests list them. */
    static final List<TraceFolder> FOLDERS = List.of(
            new TraceFolder("kernel-traces", Optional.empty(), java.util.Map.of()),
            new TraceFolder("kernel-traces-6.12", Optional.empty(), java.util.Map.of()),
            new TraceFolder("kernel-traces-5.10", Optional.empty(),
                    java.util.Map.of()),
            new TraceFolder("kernel-traces-7.2", Optional.empty(),
                    java.util.Map.of()),
            new TraceFolder("kernel-traces-6.12-stacks", Optional.empty(), orderedMap()));

    /**
     * The sets the model runs cases of, whole or in part: the ones the conformance counts are taken over, each
     * over its cases that are run ({@link #casesRun}).
     */
    static final List<String> TRACE_FOLDERS = FOLDERS.stream()
            .filter(f -> f.notModelled().isEmpty()).map(TraceFolder::name).toList();

    private static java.util.Map<String, String> orderedMap(String... keyValues) {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    private SharedFolders() {
    }

    /** The shared folder, or empty (then {@link #missingShared()} says why). */
    static Optional<Path> shared() {
        String property = System.getProperty(PROPERTY);
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        return shared != null && Files.isDirectory(shared) ? Optional.of(shared) : Optional.empty();
    }

    /** The skipped test for a missing shared folder. */
    static DynamicNode missingShared(String what) {
        String property = System.getProperty(PROPERTY);
        String where = property == null || property.isBlank() ? "<system property " + PROPERTY + " is not set>"
                : Path.of(property).toAbsolutePath().normalize().toString();
        return skipped(what, "shared/ folder not found at " + where + ": " + what + " skipped");
    }

    /** The skipped test for a missing trace folder. */
    static DynamicNode missingFolder(String what, String folder, Path root) {
        return skipped(what, folder + "/ folder not found at " + root + ": its " + what + " skipped");
    }

    static DynamicNode skipped(String name, String message) {
        return dynamicTest(name, () -> Assumptions.assumeTrue(false, message));
    }

    /** What a per-case test factory makes of one case folder: {@code <trace folder>/<case>} and the folder. */
    @FunctionalInterface
    interface CaseTest {
        DynamicNode of(String id, Path caseDir);
    }

    /**
     * One container per trace folder with one test per case folder that holds {@code file} (a path relative to
     * the case folder), in name order. Without the shared folder: one skipped test saying where it looked; a
     * missing trace folder: a skipped test for it; a trace folder without any such case: a failing test.
     */
    static Stream<DynamicNode> perCase(String what, String file, CaseTest test) {
        Optional<Path> shared = shared();
        if (shared.isEmpty()) {
            return Stream.of(missingShared(what));
        }
        List<DynamicNode> folders = new java.util.ArrayList<>();
        for (TraceFolder set : FOLDERS) {
            String folder = set.name();
            Path root = shared.get().resolve(folder);
            if (!Files.isDirectory(root)) {
                folders.add(missingFolder(what, folder, root));
                continue;
            }
            List<DynamicNode> tests;
            try (Stream<Path> s = Files.list(root)) {
                tests = s.filter(dir -> Files.isRegularFile(dir.resolve(file))).sorted()
                        .map(dir -> {
                            String id = folder + "/" + dir.getFileName();
                            Optional<String> skip = set.skipReason(dir.getFileName().toString());
                            return skip.isPresent() ? skipped(id, id + ": " + what + " skipped: " + skip.get())
                                    : test.of(id, dir);
                        }).toList();
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + root + ": " + e.getMessage(), e);
            }
            // the 6.1, 6.12, 5.10 and 7.2 sets have every kind of case: there an empty list means the folder is broken
            boolean complete = !folder.equals("kernel-traces-6.12-stacks");
            folders.add(org.junit.jupiter.api.DynamicContainer.dynamicContainer(folder, root.toUri(), !tests.isEmpty()
                    ? tests.stream()
                    : complete ? Stream.of(dynamicTest(folder, () -> {
                        throw new AssertionError(root + " holds no case folder with a " + file);
                    }))
                    : Stream.of(skipped(folder, folder + " holds no case with a " + file + ": its " + what
                            + " have nothing to compare"))));
        }
        return folders.stream();
    }

    /**
     * The case folders of trace folder {@code folder} (at {@code root}) that have a {@code compare.txt} and are
     * run: not of a family the model does not have yet ({@link TraceFolder#skipReason}), sorted by name.
     */
    static List<Path> casesRun(String folder, Path root) {
        TraceFolder set = FOLDERS.stream().filter(f -> f.name().equals(folder)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no trace folder " + folder));
        return casesWithTraces(root).stream()
                .filter(dir -> set.skipReason(dir.getFileName().toString()).isEmpty()).toList();
    }

    /** The case folders under a trace folder that have a {@code compare.txt}, sorted by name. */
    static List<Path> casesWithTraces(Path root) {
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(p -> Files.isRegularFile(p.resolve("compare.txt"))).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + root + ": " + e.getMessage(), e);
        }
    }
}
