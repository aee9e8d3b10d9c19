package dev.dmmodel.impl.engine.property;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A seeded generator loop standing in for a property-testing engine (no jqwik: see
 * {@code docs/decisions/0001-no-jqwik.md}). Every try of a property gets its own seed, derived from a fixed
 * base seed, the property's name and the try's index; the case is generated from that seed alone, so a
 * failing try is reproduced by its seed.
 *
 * <ul>
 *   <li>{@code -Ddmmodel.tries=N}: tries per property (default {@value #DEFAULT_TRIES}).</li>
 *   <li>{@code -Ddmmodel.seed=0x...}: run only the case of that seed (as printed in a failure).</li>
 * </ul>
 *
 * <p>All tries run even after a failure; the failure then reports how many tries failed and shows the
 * smallest failing case (fewest devices, targets and operations) in full, with the seeds of the others.
 */
final class PropertyRunner {
    /** The fixed base seed of every property. */
    static final long BASE_SEED = 0x0DD5_EED0_2026_1129L;
    static final int DEFAULT_TRIES = 1000;
    private static final int MAX_REPORTED_SEEDS = 20;

    private PropertyRunner() {
    }

    /** What a property checks of one generated case; throws {@link AssertionError} on a violation. */
    @FunctionalInterface
    interface Check {
        void check(Case c, Coverage coverage);
    }

    /** The number of tries: {@code dmmodel.tries}, default 1000. */
    static int tries() {
        return Integer.getInteger("dmmodel.tries", DEFAULT_TRIES);
    }

    /** The seed of try {@code index} of a property. */
    static long seedOf(String property, int index) {
        long root = BASE_SEED ^ fnv1a(property);
        return mix64(root + (index + 1) * 0x9E37_79B9_7F4A_7C15L);
    }

    /**
     * Runs the property over {@link #tries()} generated cases (or the one case of {@code dmmodel.seed}).
     *
     * @return the coverage counters collected by the checks
     */
    static Coverage forAll(String property, Class<?> testClass, Check check) {
        String only = System.getProperty("dmmodel.seed");
        List<Long> seeds = new ArrayList<>();
        if (only != null && !only.isBlank()) {
            seeds.add(parseSeed(only.strip()));
        } else {
            int n = tries();
            for (int i = 0; i < n; i++) {
                seeds.add(seedOf(property, i));
            }
        }
        Coverage coverage = new Coverage();
        List<Failure> failures = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < seeds.size(); i++) {
            long seed = seeds.get(i);
            Case c;
            try {
                c = CaseGen.generate(seed);
            } catch (RuntimeException | AssertionError e) {
                failures.add(new Failure(i, seed, null, "generating the case failed: " + stackTrace(e)));
                continue;
            }
            try {
                check.check(c, coverage);
            } catch (AssertionError e) {
                failures.add(new Failure(i, seed, c, e.getMessage()));
            } catch (RuntimeException e) {
                failures.add(new Failure(i, seed, c, "the engine threw " + stackTrace(e)));
            }
        }
        coverage.tries = seeds.size();
        coverage.millis = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf(Locale.ROOT, "[property %s] %d tries in %d ms, %d failed; %s%n", property, seeds.size(),
                coverage.millis, failures.size(), coverage);
        if (!failures.isEmpty()) {
            throw new AssertionError(report(property, testClass, seeds.size(), failures));
        }
        return coverage;
    }

    private static String report(String property, Class<?> testClass, int tries, List<Failure> failures) {
        Failure smallest = failures.stream()
                .min(Comparator.comparingLong((Failure f) -> f.c == null ? Long.MAX_VALUE : f.c.weight())
                        .thenComparingInt(f -> f.index))
                .orElseThrow();
        StringBuilder sb = new StringBuilder();
        sb.append("property '").append(property).append("' failed in ").append(failures.size()).append(" of ")
                .append(tries).append(" tries (base seed ").append(hex(BASE_SEED)).append(").\n");
        sb.append("Smallest failing case: try ").append(smallest.index).append(", seed ").append(hex(smallest.seed))
                .append("\n  reproduce: ./mvnw -q -B -pl api,impl -am test -Dtest='").append(testClass.getName())
                .append("' -Dsurefire.failIfNoSpecifiedTests=false -Ddmmodel.seed=").append(hex(smallest.seed))
                .append("\n\n");
        if (smallest.c != null) {
            sb.append(smallest.c.describe()).append('\n');
        }
        sb.append("Violation:\n").append(smallest.message).append('\n');
        sb.append("\nFailing seeds (first ").append(Math.min(MAX_REPORTED_SEEDS, failures.size())).append("):");
        for (int i = 0; i < Math.min(MAX_REPORTED_SEEDS, failures.size()); i++) {
            Failure f = failures.get(i);
            String first = f.message == null ? "" : f.message.lines().findFirst().orElse("");
            sb.append("\n  try ").append(f.index).append(" seed ").append(hex(f.seed)).append(": ").append(first);
        }
        return sb.toString();
    }

    private record Failure(int index, long seed, Case c, String message) {
    }

    static String hex(long seed) {
        return String.format(Locale.ROOT, "0x%016x", seed);
    }

    static long parseSeed(String s) {
        if (s.startsWith("0x") || s.startsWith("0X")) {
            return Long.parseUnsignedLong(s.substring(2), 16);
        }
        return Long.parseLong(s);
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        String[] lines = w.toString().split("\n");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(lines.length, 14); i++) {
            sb.append(lines[i]).append('\n');
        }
        return sb.toString();
    }

    private static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64's finalizer. */
    static long mix64(long z) {
        long v = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        v = (v ^ (v >>> 27)) * 0x94d049bb133111ebL;
        return v ^ (v >>> 31);
    }
}
