package dev.dmmodel.testkit.property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Where a {@link Gen} gets its randomness: a sequence of bounded integer <em>choices</em>. Every choice a
 * generator makes is recorded; the recording, not the value, is what a failing try is shrunk on. Replaying
 * an edited recording through the same generator yields a value the generator can produce, so the
 * generator's constraints hold for every shrunk value as they hold for generated ones.
 *
 * <p>A source runs in one of two modes. Generating, it draws choices from a {@link SplittableRandom}.
 * Replaying, it hands out recorded choices in order and, once the recording is used up, the simplest choice
 * (0) — so a shortened recording means "the rest as simple as possible". A replayed choice that is larger
 * than the bound asked for is clamped to the bound.
 *
 * <p>Choice 0 is by convention the simplest: generators map it to their shrink target (the minimum, the
 * first alternative, "no more elements", the default). Generators draw nested generators through
 * {@link #draw(Gen)}, which marks the span of choices each one used; the shrinker deletes, zeroes and
 * reorders whole spans.
 *
 * <p>A source is used by one thread for one value and is not reusable.
 */
public final class Source {

    /** A recording longer than this is abandoned (the try is discarded): a generator that never ends. */
    public static final int MAX_CHOICES = 20_000;

    private final SplittableRandom random;
    private final long[] prefix;
    private long[] choices = new long[64];
    private int size;
    private final List<Span> spans = new ArrayList<>();
    private int depth;

    private Source(SplittableRandom random, long[] prefix) {
        this.random = random;
        this.prefix = prefix;
    }

    /** A source drawing fresh choices from {@code seed}. */
    public static Source random(long seed) {
        return new Source(new SplittableRandom(seed), null);
    }

    /** A source replaying {@code recorded}, then answering 0 (the simplest choice) to every further request. */
    public static Source replay(long[] recorded) {
        return new Source(null, recorded.clone());
    }

    /** A source that answers 0 to everything: the simplest value of any generator. */
    public static Source simplest() {
        return new Source(null, new long[0]);
    }

    /**
     * An integer in {@code [0, max]}, uniform when generating. {@code max} is unsigned: -1 means
     * {@code 2^64 - 1}, every {@code long}.
     */
    public long choice(long max) {
        return record(max, 0);
    }

    /**
     * An integer in {@code [0, max]} (unsigned) biased while generating towards the ends of the range and
     * small values: one draw in eight is 0, one in sixteen is {@code max}, one in eight is at most 255; the
     * rest are uniform. Replaying, it is {@link #choice(long)}.
     */
    public long biasedChoice(long max) {
        return record(max, 1);
    }

    /** A boolean that is true with probability {@code p} while generating; false (0) is the simpler. */
    public boolean bool(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability " + p + " is not in [0, 1]");
        }
        if (random == null) {
            return record(1, 0) == 1;
        }
        long v = p >= 1 ? 1 : p <= 0 ? 0 : random.nextDouble() < p ? 1 : 0;
        return push(v) == 1;
    }

    /**
     * Records {@code value} as a choice without drawing it, in both modes (a replayed value at this position is
     * ignored). For structure that must be there but should look like the optional kind, so that spans keep
     * one shape: {@link Gen#list} marks a mandatory element with a forced "another? yes".
     */
    long forced(long value) {
        return push(value);
    }

    /** Draws a value from a nested generator, marking the span of choices it used. */
    public <T> T draw(Gen<T> gen) {
        Objects.requireNonNull(gen, "gen");
        int start = size;
        int index = spans.size();
        spans.add(null);
        depth++;
        try {
            return gen.generate(this);
        } finally {
            depth--;
            spans.set(index, new Span(start, size, depth));
        }
    }

    /**
     * Gives up on this value: the try (or the shrink candidate) is discarded, not counted as a pass or a
     * failure. {@link Gen#filter} calls it when its retries run out; a property calls
     * {@link Property#assume(boolean)}. It throws; it is declared to return the exception so that callers can
     * write {@code throw Source.discard("why")}.
     */
    public static Discard discard(String reason) {
        throw new Discard(reason);
    }

    /** The number of choices made so far. */
    public int choiceCount() {
        return size;
    }

    long[] recorded() {
        return Arrays.copyOf(choices, size);
    }

    /** Spans of nested draws, those that ended; in start order with parents before children. */
    List<Span> spans() {
        List<Span> out = new ArrayList<>();
        for (Span s : spans) {
            if (s != null && s.end > s.start) {
                out.add(s);
            }
        }
        return out;
    }

    private long record(long max, int mode) {
        if (random == null) {
            long v = size < prefix.length ? prefix[size] : 0;
            if (Long.compareUnsigned(v, max) > 0) {
                v = max;
            }
            return push(v);
        }
        return push(mode == 0 ? uniform(random, max) : biased(random, max));
    }

    private long push(long v) {
        if (size == MAX_CHOICES) {
            throw new Discard("the generator made more than " + MAX_CHOICES + " choices for one value");
        }
        if (size == choices.length) {
            choices = Arrays.copyOf(choices, size * 2);
        }
        choices[size++] = v;
        return v;
    }

    static long uniform(SplittableRandom r, long max) {
        if (max == -1L) {
            return r.nextLong();
        }
        long n = max + 1;
        if (n > 0) {
            return r.nextLong(n);
        }
        while (true) {
            long v = r.nextLong();
            if (Long.compareUnsigned(v, max) <= 0) {
                return v;
            }
        }
    }

    private static long biased(SplittableRandom r, long max) {
        int k = r.nextInt(16);
        if (k < 2) {
            return 0;
        }
        if (k == 2) {
            return max;
        }
        if (k < 5) {
            return Long.compareUnsigned(max, 255) <= 0 ? uniform(r, max) : r.nextLong(256);
        }
        return uniform(r, max);
    }

    /**
     * The choices a nested draw used: {@code [start, end)} at nesting {@code depth} (0 = drawn by the
     * outermost generator).
     */
    record Span(int start, int end, int depth) {
        int length() {
            return end - start;
        }
    }

    /** Thrown to discard a value (see {@link Source#discard(String)}). */
    public static final class Discard extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Discard(String reason) {
            super(reason, null, false, false);
        }
    }
}
