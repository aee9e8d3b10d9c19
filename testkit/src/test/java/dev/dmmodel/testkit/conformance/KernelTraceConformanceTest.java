package dev.dmmodel.testkit.conformance;

import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.limits.KernelProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The I/O engine against the kernel's recorded traces: for every case with a {@code compare.txt} in
 * {@code ${dmmodel.shared.dir}/kernel-traces} (Linux 6.1) and {@code .../kernel-traces-6.12}, the case is
 * run through the model under the profile of its snapshot's {@code kernel-release}
 * ({@link KernelConformance#check}) and its trace compared in the case's mode. One dynamic test per case;
 * a failure says which case, and either where the model stopped (file, line, command and exception) or
 * the comparison's report.
 *
 * <p>Runs only with {@code -Ddmmodel.engine.conformance=true} (until the engine lands); otherwise the factory
 * is one skipped test that says so. Without the shared folder it is one skipped test that says where it
 * looked, as in {@code LimitsConformanceTest}.
 */
class KernelTraceConformanceTest {

    static final String ENABLE = "dmmodel.engine.conformance";
    private static final String WHAT = "engine conformance cases";

    @TestFactory
    Stream<DynamicNode> recordedTracesAgreeWithTheEngine() {
        if (!Boolean.parseBoolean(System.getProperty(ENABLE))) {
            return Stream.of(SharedFolders.skipped(WHAT,
                    "engine conformance not enabled yet (run with -D" + ENABLE + "=true)"));
        }
        var shared = SharedFolders.shared();
        if (shared.isEmpty()) {
            return Stream.of(SharedFolders.missingShared(WHAT));
        }
        List<DynamicNode> folders = new ArrayList<>();
        for (String folder : SharedFolders.TRACE_FOLDERS) {
            Path root = shared.get().resolve(folder);
            if (!Files.isDirectory(root)) {
                folders.add(SharedFolders.missingFolder(WHAT, folder, root));
                continue;
            }
            List<Path> cases = SharedFolders.casesWithTraces(root);
            Stream<DynamicNode> tests = cases.isEmpty()
                    ? Stream.of(dynamicTest(folder, () -> {
                        throw new AssertionError(root + " holds no case folder with a compare.txt");
                    }))
                    : cases.stream().map(dir -> caseTest(folder, dir));
            folders.add(dynamicContainer(folder, root.toUri(), tests));
        }
        return folders.stream();
    }

    private static DynamicNode caseTest(String folder, Path dir) {
        String id = folder + "/" + dir.getFileName();
        return dynamicTest(id, dir.toUri(), () -> {
            TraceCase c;
            try {
                c = TraceCase.read(dir);
            } catch (RuntimeException e) {
                throw new AssertionError(id + ": reading the case failed: " + e.getMessage(), e);
            }
            KernelProfile profile = c.snapshot().profile().orElseThrow(() -> new AssertionError(
                    id + ": the snapshot has no kernel-release, so no profile to run the case under"));
            String first = c.setupLines().stream().filter(l -> !l.isBlank()).findFirst()
                    .map(l -> "setup.txt: " + l)
                    .orElse(c.workloadLines().stream().filter(l -> !l.isBlank()).findFirst()
                            .map(l -> "workload.txt: " + l).orElse("<no commands>"));
            Comparison result;
            try {
                result = KernelConformance.check(c, profile);
            } catch (KernelConformance.CaseFailure e) {
                // the message names the case, the file, the line, the command and the exception
                throw new AssertionError(folder + "/" + e.getMessage(), e);
            } catch (RuntimeException e) {
                throw new AssertionError(id + " (" + profile.name() + "): " + e.getClass().getName() + ": "
                        + e.getMessage() + " (the case's first command: " + first + ")", e);
            }
            if (!result.matches()) {
                throw new AssertionError(id + " (" + profile.name() + "): the modelled trace differs from trace.csv\n"
                        + result.report());
            }
        });
    }
}
