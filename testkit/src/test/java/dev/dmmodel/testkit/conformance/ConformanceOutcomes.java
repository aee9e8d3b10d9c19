package dev.dmmodel.testkit.conformance;

import dev.dmmodel.limits.KernelProfile;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each recorded case run through the model once per test JVM ({@link KernelConformance#check}), so that
 * {@link KernelTraceConformanceTest}'s per-case tests and {@link ConformanceSummaryTest}'s counts share the
 * work whichever runs first. Nothing is printed or logged: a case's outcome is a value.
 */
final class ConformanceOutcomes {

    /**
     * What became of one case.
     *
     * @param id {@code <trace folder>/<case>}
     * @param mode its {@code compare.txt} mode, if it could be read
     * @param requestSizesCompared whether its request sizes were compared (a comparison was made and
     *     {@link KernelConformance#requestSizesDeterministic} said so)
     * @param failure why it does not match (the case could not be read or run, or the traces differ), or empty
     *     if it matches
     */
    record Outcome(String id, Optional<CompareMode> mode, boolean requestSizesCompared,
                   Optional<AssertionError> failure) {
        boolean matches() {
            return failure.isEmpty();
        }
    }

    private static final Map<Path, Outcome> CACHE = new ConcurrentHashMap<>();

    private ConformanceOutcomes() {
    }

    /** The outcome of the case in {@code dir} of trace folder {@code folder}, computed on first use. */
    static Outcome of(String folder, Path dir) {
        return CACHE.computeIfAbsent(dir.toAbsolutePath().normalize(), d -> run(folder, d));
    }

    private static Outcome run(String folder, Path dir) {
        String id = folder + "/" + dir.getFileName();
        TraceCase c;
        try {
            c = TraceCase.read(dir);
        } catch (RuntimeException e) {
            return failed(id, Optional.empty(), new AssertionError(id + ": reading the case failed: " + e.getMessage(), e));
        }
        Optional<CompareMode> mode = c.compareMode();
        Optional<KernelProfile> profile = c.snapshot().profile();
        if (profile.isEmpty()) {
            return failed(id, mode, new AssertionError(
                    id + ": the snapshot has no kernel-release, so no profile to run the case under"));
        }
        String first = c.setupLines().stream().filter(l -> !l.isBlank()).findFirst()
                .map(l -> "setup.txt: " + l)
                .orElse(c.workloadLines().stream().filter(l -> !l.isBlank()).findFirst()
                        .map(l -> "workload.txt: " + l).orElse("<no commands>"));
        Comparison result;
        try {
            result = KernelConformance.check(c, profile.get());
        } catch (KernelConformance.CaseFailure e) {
            // the message names the case, the file, the line, the command and the exception
            return failed(id, mode, new AssertionError(folder + "/" + e.getMessage(), e));
        } catch (RuntimeException e) {
            return failed(id, mode, new AssertionError(id + " (" + profile.get().name() + "): " + e.getClass().getName()
                    + ": " + e.getMessage() + " (the case's first command: " + first + ")", e));
        }
        if (!result.matches()) {
            return new Outcome(id, mode, result.requestSizesCompared(), Optional.of(new AssertionError(id + " ("
                    + profile.get().name() + "): the modelled trace differs from trace.csv\n" + result.report())));
        }
        return new Outcome(id, mode, result.requestSizesCompared(), Optional.empty());
    }

    private static Outcome failed(String id, Optional<CompareMode> mode, AssertionError e) {
        return new Outcome(id, mode, false, Optional.of(e));
    }
}
