package dev.dmmodel.testkit.conformance;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The I/O engine against the kernel's recorded traces: for every case with a {@code compare.txt} in
 * {@code ${dmmodel.shared.dir}/kernel-traces} (Linux 6.1) and {@code .../kernel-traces-6.12}, the case is
 * run through the model under the profile of its snapshot's {@code kernel-release}
 * ({@link KernelConformance#check}) and its trace compared in the case's mode, with its request sizes where
 * {@code request-sizes.txt} says they are deterministic. One dynamic test per case (each case runs once per JVM,
 * shared with {@link ConformanceSummaryTest}'s counts; nothing is printed);
 * a failure says which case, and either where the model stopped (file, line, command and exception) or
 * the comparison's report.
 *
 * <p>Cases listed in {@code conformance/known-gaps.txt} (test resources) with the reason are known not to
 * match yet: such a case is reported as skipped with its reason while it still fails, and fails the build
 * as soon as it matches (so the list cannot go stale). Without the shared folder the factory is one
 * skipped test that says where it looked, as in {@code LimitsConformanceTest}.
 */
class KernelTraceConformanceTest {

    private static final String WHAT = "engine conformance cases";
    private static final java.util.Map<String, String> KNOWN_GAPS = knownGaps();

    /** {@code <folder>/<case>} to the reason it does not match yet. */
    static java.util.Map<String, String> knownGaps() {
        java.util.Map<String, String> gaps = new java.util.LinkedHashMap<>();
        try (var in = KernelTraceConformanceTest.class.getResourceAsStream("/conformance/known-gaps.txt")) {
            if (in == null) {
                return gaps;
            }
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t", 2);
                gaps.put(parts[0].strip(), parts.length > 1 ? parts[1].strip() : "no reason given");
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return gaps;
    }

    @TestFactory
    Stream<DynamicNode> recordedTracesAgreeWithTheEngine() {
        return SharedFolders.perCase(WHAT, "compare.txt", (id, dir) -> caseTest(id.substring(0, id.indexOf('/')),
                dir));
    }

    private static DynamicNode caseTest(String folder, Path dir) {
        String id = folder + "/" + dir.getFileName();
        String gap = KNOWN_GAPS.get(id);
        if (gap == null) {
            return dynamicTest(id, dir.toUri(), () -> check(folder, dir));
        }
        return dynamicTest(id, dir.toUri(), () -> {
            try {
                check(folder, dir);
            } catch (AssertionError expected) {
                org.junit.jupiter.api.Assumptions.abort("known gap: " + gap + " -- " + firstLine(expected.getMessage()));
            }
            throw new AssertionError(id + " now matches the recorded trace: remove it from conformance/known-gaps.txt"
                    + " (listed as: " + gap + ")");
        });
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        String[] lines = message.split("\n");
        return lines.length > 3 ? String.join(" | ", lines[0], lines[1], lines[2]) : String.join(" | ", lines);
    }

    private static void check(String folder, Path dir) {
        ConformanceOutcomes.Outcome outcome = ConformanceOutcomes.of(folder, dir);
        if (outcome.failure().isPresent()) {
            throw outcome.failure().get();
        }
    }
}
