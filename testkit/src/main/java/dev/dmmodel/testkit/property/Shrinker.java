package dev.dmmodel.testkit.property;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Shrinks a failing try by editing its recorded choices and replaying them.
 *
 * <p>A candidate is kept only if the property still fails the same way (the same exception class) and its
 * recording, as replayed, is smaller in shortlex order (shorter, or as long and lexicographically smaller,
 * choices compared unsigned). Every kept candidate is therefore strictly smaller than the one before, so
 * shrinking ends; it also ends after {@code maxSteps} kept candidates or {@code maxRuns} runs of the
 * property.
 *
 * <p>The passes, repeated until none makes progress:
 * <ol>
 *   <li>delete the span of one nested draw (a list element with its "another?" choice, an optional part);</li>
 *   <li>delete one or two adjacent choices;</li>
 *   <li>set a span's choices to 0 (the simplest value of that part);</li>
 *   <li>lower each choice: to 0; a small one (at most {@value #SMALL}: an index) to each smaller value in
 *       turn, a larger one by a binary search for the smallest value that still fails;</li>
 *   <li>swap adjacent equal-length sibling spans into order (sort list elements);</li>
 *   <li>only when the passes above make no progress: lower one choice while setting one of the next
 *       {@value #PAIR_WINDOW} to a value up to {@value #PAIR_VALUES} (for "simpler here needs different there"),
 *       and move an amount from one choice to one of the next {@value #PAIR_WINDOW} (for sums).</li>
 * </ol>
 */
final class Shrinker {

    /** Choices up to this are tried one smaller value at a time. */
    static final long SMALL = 32;
    /** How far after a lowered choice {@link #lowerOneRaiseAnother} looks, and the values it tries there. */
    static final int PAIR_WINDOW = 8;
    static final long PAIR_VALUES = 8;

    private final Function<long[], Attempt> runner;
    private final Class<? extends Throwable> failureClass;
    private final int maxSteps;
    private final int maxRuns;
    private final Set<Key> tried = new HashSet<>();
    private Attempt best;
    private int steps;
    private int runs;

    Shrinker(Function<long[], Attempt> runner, Attempt failing, int maxSteps, int maxRuns) {
        this.runner = runner;
        this.best = failing;
        this.failureClass = failing.failure().getClass();
        this.maxSteps = maxSteps;
        this.maxRuns = maxRuns;
        tried.add(new Key(failing.choices()));
    }

    /** Shrinks as far as the passes and limits allow; returns the smallest failing attempt. */
    Attempt shrink() {
        boolean progress = true;
        while (progress && !exhausted()) {
            long[] before = best.choices();
            deleteSpans();
            deleteChoices();
            zeroSpans();
            lowerChoices();
            sortSpans();
            progress = compare(best.choices(), before) < 0;
            if (!progress) {
                // stuck: try the costlier two-choice edits before giving up
                lowerOneRaiseAnother();
                redistribute();
                progress = compare(best.choices(), before) < 0;
            }
        }
        return best;
    }

    int steps() {
        return steps;
    }

    int runs() {
        return runs;
    }

    private boolean exhausted() {
        return steps >= maxSteps || runs >= maxRuns;
    }

    private void deleteSpans() {
        // from the end: later parts depend on earlier ones, so deleting them disturbs less
        List<Source.Span> spans = best.spans();
        for (int i = spans.size() - 1; i >= 0 && !exhausted(); i--) {
            spans = best.spans();
            if (i >= spans.size()) {
                continue;
            }
            Source.Span sp = spans.get(i);
            consider(delete(best.choices(), sp.start(), sp.end()));
        }
    }

    private void deleteChoices() {
        for (int k = 2; k >= 1; k--) {
            for (int i = best.choices().length - k; i >= 0 && !exhausted(); i--) {
                if (i + k <= best.choices().length) {
                    consider(delete(best.choices(), i, i + k));
                }
            }
        }
    }

    private void zeroSpans() {
        List<Source.Span> spans = best.spans();
        for (int i = 0; i < spans.size() && !exhausted(); i++) {
            spans = best.spans();
            if (i >= spans.size()) {
                break;
            }
            Source.Span sp = spans.get(i);
            long[] c = best.choices();
            if (sp.end() > c.length || allZero(c, sp.start(), sp.end())) {
                continue;
            }
            long[] cand = c.clone();
            Arrays.fill(cand, sp.start(), sp.end(), 0);
            consider(cand);
        }
    }

    private void lowerChoices() {
        for (int i = 0; i < best.choices().length && !exhausted(); i++) {
            long v = best.choices()[i];
            if (v == 0) {
                continue;
            }
            if (consider(with(best.choices(), i, 0))) {
                continue;
            }
            if (Long.compareUnsigned(v, 1) == 0) {
                continue;
            }
            if (Long.compareUnsigned(v, SMALL) <= 0) {
                // small choices are often indexes (a preset, an alternative) where failing is not monotone:
                // try each smaller one
                for (long w = 1; w < v && !exhausted(); w++) {
                    if (i < best.choices().length && consider(with(best.choices(), i, w))) {
                        break;
                    }
                }
                continue;
            }
            // smallest failing value in (0, v]: lo passes, hi fails (assuming failure is monotone in it)
            long lo = 0;
            long hi = v;
            while (Long.compareUnsigned(hi - lo, 1) > 0 && !exhausted()) {
                long mid = lo + Long.divideUnsigned(hi - lo, 2);
                if (i < best.choices().length && consider(with(best.choices(), i, mid))) {
                    hi = mid;
                } else {
                    lo = mid;
                }
                if (i >= best.choices().length || best.choices()[i] != hi) {
                    break;
                }
            }
        }
    }

    private void sortSpans() {
        List<Source.Span> spans = best.spans();
        for (int i = 0; i + 1 < spans.size() && !exhausted(); i++) {
            spans = best.spans();
            if (i + 1 >= spans.size()) {
                break;
            }
            Source.Span a = spans.get(i);
            Source.Span b = null;
            for (int j = i + 1; j < spans.size(); j++) {
                Source.Span x = spans.get(j);
                if (x.start() >= a.end()) {
                    if (x.start() == a.end() && x.depth() == a.depth()) {
                        b = x;
                    }
                    break;
                }
            }
            if (b == null || a.length() != b.length()) {
                continue;
            }
            long[] c = best.choices();
            if (b.end() > c.length || Arrays.compareUnsigned(c, b.start(), b.end(), c, a.start(), a.end()) >= 0) {
                continue;
            }
            long[] cand = c.clone();
            System.arraycopy(c, b.start(), cand, a.start(), b.length());
            System.arraycopy(c, a.start(), cand, b.start(), a.length());
            consider(cand);
        }
    }

    /**
     * Lowers one choice (to 0, or by one) while setting a later one nearby to a small value: for local
     * minima where simplifying one part needs another to change ("no override of the physical block size,
     * but the preset that has 4 KiB blocks").
     */
    private void lowerOneRaiseAnother() {
        for (int i = 0; i < best.choices().length && !exhausted(); i++) {
            long v = best.choices()[i];
            if (v == 0) {
                continue;
            }
            boolean kept = false;
            long[] lowered = Long.compareUnsigned(v, 1) == 0 ? new long[] {0} : new long[] {0, v - 1};
            for (long lower : lowered) {
                for (int j = i + 1; j <= i + PAIR_WINDOW && !kept && !exhausted(); j++) {
                    for (long w = 0; w <= PAIR_VALUES && !kept && !exhausted(); w++) {
                        long[] c = best.choices();
                        if (j >= c.length || c[i] != v || c[j] == w) {
                            continue;
                        }
                        long[] cand = with(c, i, lower);
                        cand[j] = w;
                        kept = consider(cand);
                    }
                }
            }
        }
    }

    /**
     * Moves an amount from one choice to a later one nearby (halving the amount until one works): for two
     * numbers whose sum matters, the earlier one as small as possible.
     */
    private void redistribute() {
        for (int i = 0; i < best.choices().length && !exhausted(); i++) {
            for (int j = i + 1; j <= i + PAIR_WINDOW && !exhausted(); j++) {
                boolean moved = true;
                while (moved && !exhausted()) {
                    moved = false;
                    long[] c = best.choices();
                    if (j >= c.length || c[i] == 0 || c[i] < 0 || c[j] < 0) {
                        break;
                    }
                    for (long d = c[i]; d > 0 && !moved && !exhausted(); d /= 2) {
                        if (c[j] > Long.MAX_VALUE - d) {
                            continue;
                        }
                        long[] cand = with(c, i, c[i] - d);
                        cand[j] = c[j] + d;
                        moved = consider(cand);
                    }
                }
            }
        }
    }

    /** Runs a candidate; keeps it if it fails the same way and is smaller. */
    private boolean consider(long[] candidate) {
        if (exhausted() || compare(candidate, best.choices()) >= 0 || !tried.add(new Key(candidate))) {
            return false;
        }
        runs++;
        Attempt a = runner.apply(candidate);
        if (a.failure() == null || a.discarded() || a.failure().getClass() != failureClass) {
            return false;
        }
        tried.add(new Key(a.choices()));
        if (compare(a.choices(), best.choices()) >= 0) {
            return false;
        }
        best = a;
        steps++;
        return true;
    }

    private static long[] delete(long[] c, int from, int to) {
        long[] out = new long[c.length - (to - from)];
        System.arraycopy(c, 0, out, 0, from);
        System.arraycopy(c, to, out, from, c.length - to);
        return out;
    }

    private static long[] with(long[] c, int i, long v) {
        long[] out = c.clone();
        out[i] = v;
        return out;
    }

    private static boolean allZero(long[] c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (c[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Shortlex: shorter first, then lexicographic with choices compared unsigned. */
    static int compare(long[] a, long[] b) {
        if (a.length != b.length) {
            return Integer.compare(a.length, b.length);
        }
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * One run of generator and property on a recording.
     *
     * @param choices the choices the generator actually made
     * @param spans the spans of its nested draws
     * @param value the generated value (null if generation failed)
     * @param failure what the property (or the generator) threw, or null if it passed
     * @param discarded whether the value was discarded (filter exhausted, assumption false)
     */
    record Attempt(long[] choices, List<Source.Span> spans, Object value, Throwable failure, boolean discarded) {
        Attempt {
            spans = List.copyOf(spans);
        }
    }

    private record Key(long[] choices) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(choices, k.choices);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(choices);
        }
    }
}
