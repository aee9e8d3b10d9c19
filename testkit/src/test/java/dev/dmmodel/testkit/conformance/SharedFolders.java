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
 * The recorded kernel cases in {@code ${dmmodel.shared.dir}/kernel-traces} (Linux 6.1) and
 * {@code .../kernel-traces-6.12}, found as {@code LimitsConformanceTest} finds them: a missing folder makes
 * a test factory one skipped test that says where it looked.
 */
final class SharedFolders {

    static final String PROPERTY = "dmmodel.shared.dir";
    static final List<String> TRACE_FOLDERS = List.of("kernel-traces", "kernel-traces-6.12");

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
        for (String folder : TRACE_FOLDERS) {
            Path root = shared.get().resolve(folder);
            if (!Files.isDirectory(root)) {
                folders.add(missingFolder(what, folder, root));
                continue;
            }
            List<DynamicNode> tests;
            try (Stream<Path> s = Files.list(root)) {
                tests = s.filter(dir -> Files.isRegularFile(dir.resolve(file))).sorted()
                        .map(dir -> test.of(folder + "/" + dir.getFileName(), dir)).toList();
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + root + ": " + e.getMessage(), e);
            }
            folders.add(org.junit.jupiter.api.DynamicContainer.dynamicContainer(folder, root.toUri(), tests.isEmpty()
                    ? Stream.of(dynamicTest(folder, () -> {
                        throw new AssertionError(root + " holds no case folder with a " + file);
                    }))
                    : tests.stream()));
        }
        return folders.stream();
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
