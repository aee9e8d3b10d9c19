package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.Source;
import java.util.function.Supplier;

/**
 * The random decisions of {@link CaseGen}, taken from a testkit {@link Source} so that a failing case shrinks:
 * every decision maps choice 0 to its simplest answer (the first alternative, the smallest number, "no"), and
 * optional repeated parts (another disk, another operation) are one span each, which the shrinker deletes
 * whole.
 */
final class Choices {
    private final Source s;

    Choices(Source s) {
        this.s = s;
    }

    /** {@code [0, n)}, uniformly; shrinks towards 0. */
    int nextInt(int n) {
        return (int) s.choice(n - 1L);
    }

    /** {@code [0, n)}, uniformly; shrinks towards 0. */
    long nextLong(long n) {
        return s.choice(n - 1);
    }

    /** Any long; shrinks towards 0. */
    long nextLong() {
        return s.choice(-1L);
    }

    /** true or false; shrinks towards false. */
    boolean nextBoolean() {
        return s.bool(0.5);
    }

    /** {@code [lo, hi]} spread over orders of magnitude; shrinks towards short values, then {@code lo}. */
    long logUniform(long lo, long hi) {
        return hi <= lo ? lo : s.draw(Gen.logScale(lo, hi));
    }

    /** {@code body}'s value, its choices marked as one span. */
    <T> T span(Supplier<T> body) {
        return s.draw(src -> body.get());
    }

    /** {@code body}'s value with probability {@code p}, else null; the "yes" and the value are one span. */
    <T> T maybe(double p, Supplier<T> body) {
        return s.draw(src -> src.bool(p) ? body.get() : null);
    }
}
