package dev.dmmodel.testkit.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A generator of values of type {@code T} with integrated shrinking.
 *
 * <p>A generator turns the choices of a {@link Source} into a value. It has no separate shrink function:
 * when a property fails, the runner shrinks the recorded choices (deletes spans of them, lowers them,
 * reorders them) and replays them through the same generator. Whatever a generator does with its choices —
 * {@link #map}, {@link #filter}, {@link #flatMap} into a generator that depends on an earlier value —
 * holds for shrunk values too, because they are generated the same way.
 *
 * <p>Every generator here maps choice 0 to its simplest value, so "smaller choices" means "simpler value":
 * integers shrink towards their minimum (or a chosen target), {@link #oneOf} and {@link #elements} towards
 * the first alternative, lists towards fewer elements and simpler elements, booleans towards false.
 * Write generators so that the simplest value comes from choice 0, and order alternatives from the
 * simplest to the most unusual.
 *
 * <pre>{@code
 * Gen<Long> sizes = Gen.choose(1, 1024).map(mib -> mib << 20);
 * Gen<List<Long>> volumes = sizes.listOf(1, 4);
 * Property.forAll(volumes).check(v -> assertThat(plan(v)).isValid());
 * }</pre>
 *
 * @param <T> the type of the values
 */
@FunctionalInterface
public interface Gen<T> {

    /** How many times {@link #filter(Predicate)} draws again before it discards the try. */
    int DEFAULT_FILTER_RETRIES = 100;

    /**
     * Draws one value. Implementations take every random decision from {@code source} (through its
     * {@code choice} methods, or {@link Source#draw(Gen)} for nested generators) and nothing else, so the same
     * choices always give the same value.
     */
    T generate(Source source);

    // ---- values

    /**
     * The value of {@code seed}: what this generator draws from {@code Source.random(seed)}.
     *
     * @throws Source.Discard if the generator gave up (a filter's retries ran out)
     */
    default T sample(long seed) {
        return Source.random(seed).draw(this);
    }

    /** The simplest value: every choice 0 (for instance the minimum of a range, or the empty list). */
    default T simplest() {
        return Source.simplest().draw(this);
    }

    // ---- combinators

    /** The values mapped by {@code f}; they shrink as the values they came from. */
    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        Objects.requireNonNull(f, "f");
        return s -> f.apply(s.draw(this));
    }

    /**
     * A generator chosen by this generator's value, then drawn from: for values that depend on earlier
     * ones ("a partition no larger than its disk"). Shrinking may simplify the first value, and the second
     * is then drawn again, from the same later choices, under its new constraints.
     */
    default <R> Gen<R> flatMap(Function<? super T, ? extends Gen<? extends R>> f) {
        Objects.requireNonNull(f, "f");
        return s -> {
            T first = s.draw(this);
            Gen<? extends R> next = Objects.requireNonNull(f.apply(first), "flatMap function returned null");
            return s.draw(next);
        };
    }

    /**
     * Only values that satisfy {@code p}: draws again (at most {@value #DEFAULT_FILTER_RETRIES} times),
     * then discards the try. Prefer generating valid values directly; a filter that rejects most values
     * makes the property discard most tries.
     */
    default Gen<T> filter(Predicate<? super T> p) {
        return filter(p, DEFAULT_FILTER_RETRIES);
    }

    /** As {@link #filter(Predicate)}, drawing at most {@code retries} times. */
    default Gen<T> filter(Predicate<? super T> p, int retries) {
        Objects.requireNonNull(p, "p");
        if (retries < 1) {
            throw new IllegalArgumentException("retries (" + retries + ") must be at least 1");
        }
        return s -> {
            for (int i = 0; i < retries; i++) {
                T v = s.draw(this);
                if (p.test(v)) {
                    return v;
                }
            }
            throw Source.discard("no value passed the filter in " + retries + " draws");
        };
    }

    /** Lists of {@code min} to {@code max} values of this generator (see {@link #list(Gen, int, int)}). */
    default Gen<List<T>> listOf(int min, int max) {
        return list(this, min, max);
    }

    // ---- factories

    /** Always {@code value}; it has nothing to shrink. */
    static <T> Gen<T> constant(T value) {
        return s -> value;
    }

    /**
     * A {@code long} in {@code [min, max]}, shrinking towards {@code min}. Generation favours the ends of
     * the range and values near {@code min} a little, where bugs live.
     */
    static Gen<Long> choose(long min, long max) {
        checkRange(min, max);
        return s -> min + s.biasedChoice(max - min);
    }

    /**
     * A {@code long} in {@code [min, max]}, shrinking towards {@code target} (which must be in the range):
     * towards a default or a round number rather than towards the minimum. Values closer to the target
     * are simpler, above before below at equal distance.
     */
    static Gen<Long> choose(long min, long max, long target) {
        checkRange(min, max);
        if (max - min < 0) {
            throw new IllegalArgumentException("[" + min + ", " + max
                    + "] is too wide for a target (at most 2^63 - 1 values)");
        }
        if (target < min || target > max) {
            throw new IllegalArgumentException("target " + target + " is not in [" + min + ", " + max + "]");
        }
        return s -> around(min, max, target, s.biasedChoice(max - min));
    }

    /** An {@code int} in {@code [min, max]}, shrinking towards {@code min}. */
    static Gen<Integer> ints(int min, int max) {
        return choose(min, max).map(Long::intValue);
    }

    /**
     * A {@code long} in {@code [min, max]} spread over orders of magnitude: its bit length is chosen first,
     * then the value within that length; shrinks to short values, then towards {@code min}. For sizes
     * ({@code 4 KiB .. 4 TiB}) where a uniform draw would almost never be small.
     */
    static Gen<Long> logScale(long min, long max) {
        checkRange(min, max);
        if (min < 0) {
            throw new IllegalArgumentException("logScale needs a range of non-negative numbers, not [" + min + ", "
                    + max + "]");
        }
        long span = max - min;
        int bits = 64 - Long.numberOfLeadingZeros(span);
        return s -> {
            int b = (int) s.choice(bits);
            long top = b == 0 ? 0 : b == 64 ? -1L : (1L << b) - 1;
            if (Long.compareUnsigned(top, span) > 0) {
                top = span;
            }
            return min + s.biasedChoice(top);
        };
    }

    /**
     * A power of two in {@code [min, max]} (both powers of two), shrinking towards {@code min}.
     */
    static Gen<Long> powerOfTwo(long min, long max) {
        checkPowerOfTwo(min);
        checkPowerOfTwo(max);
        checkRange(min, max);
        int lo = Long.numberOfTrailingZeros(min);
        int hi = Long.numberOfTrailingZeros(max);
        return s -> 1L << (lo + s.biasedChoice(hi - lo));
    }

    /** A power of two in {@code [min, max]}, shrinking towards {@code target} (a power of two in the range). */
    static Gen<Long> powerOfTwo(long min, long max, long target) {
        checkPowerOfTwo(min);
        checkPowerOfTwo(max);
        checkPowerOfTwo(target);
        checkRange(min, max);
        int lo = Long.numberOfTrailingZeros(min);
        int hi = Long.numberOfTrailingZeros(max);
        int t = Long.numberOfTrailingZeros(target);
        if (t < lo || t > hi) {
            throw new IllegalArgumentException("target " + target + " is not in [" + min + ", " + max + "]");
        }
        return s -> 1L << around(lo, hi, t, s.biasedChoice(hi - lo));
    }

    /** true or false, equally likely; shrinks to false. */
    static Gen<Boolean> booleans() {
        return s -> s.bool(0.5);
    }

    /** One of {@code values}, shrinking towards the first. */
    @SafeVarargs
    static <T> Gen<T> elements(T... values) {
        List<T> list = new ArrayList<>();
        for (T v : values) {
            list.add(v);
        }
        return elements(list);
    }

    /** One of {@code values}, shrinking towards the first. */
    static <T> Gen<T> elements(List<? extends T> values) {
        List<T> copy = List.copyOf(values);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("elements of an empty list");
        }
        return s -> copy.get((int) s.choice(copy.size() - 1));
    }

    /** A value of one of the generators, chosen equally; shrinks towards the first generator. */
    @SafeVarargs
    static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
        List<Gen<? extends T>> list = new ArrayList<>();
        for (Gen<? extends T> g : gens) {
            list.add(Objects.requireNonNull(g, "generator"));
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("oneOf needs at least one generator");
        }
        return s -> s.draw(list.get((int) s.choice(list.size() - 1)));
    }

    /**
     * A value of one of the generators, chosen in proportion to its weight; shrinks towards the first
     * generator whatever the weights.
     */
    @SafeVarargs
    static <T> Gen<T> frequency(Weighted<? extends T>... options) {
        List<Weighted<? extends T>> list = new ArrayList<>();
        for (Weighted<? extends T> w : options) {
            list.add(w);
        }
        return frequency(list);
    }

    /** {@link #frequency(Weighted[])} with the options in a list. */
    static <T> Gen<T> frequency(List<? extends Weighted<? extends T>> options) {
        List<Weighted<? extends T>> list = List.copyOf(options);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("frequency needs at least one option");
        }
        long total = 0;
        for (Weighted<? extends T> w : list) {
            total += w.weight();
        }
        long sum = total;
        return s -> {
            // choice 0 is the first option, whatever its weight: draw a point, then find its option
            long point = s.choice(sum - 1);
            for (Weighted<? extends T> w : list) {
                if (point < w.weight()) {
                    return s.draw(w.gen());
                }
                point -= w.weight();
            }
            throw new AssertionError("frequency: point beyond the total weight");
        };
    }

    /** An option of {@link #frequency}: {@code gen} with a positive {@code weight}. */
    static <T> Weighted<T> weighted(int weight, Gen<T> gen) {
        return new Weighted<>(weight, gen);
    }

    /**
     * Lists of {@code min} to {@code max} elements. Before each element beyond the {@code min}th, a
     * choice says whether another follows, so shrinking deletes elements anywhere in the list (the
     * choice and the element's span go together) as well as simplifying each one. While generating, another
     * element follows with probability 3/4: about three beyond {@code min} on average, when {@code max}
     * allows. Elements must not be null.
     */
    static <T> Gen<List<T>> list(Gen<T> element, int min, int max) {
        Objects.requireNonNull(element, "element");
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("list length range [" + min + ", " + max + "] is empty or negative");
        }
        // every element is one span, "another?" and the element, so that deleting any element's span (the
        // first one too) leaves a valid list; for the first min elements the answer is forced
        Gen<Optional<T>> optional = s -> s.bool(0.75) ? Optional.of(s.draw(element)) : Optional.empty();
        Gen<T> mandatory = s -> {
            s.forced(1);
            return s.draw(element);
        };
        return s -> {
            List<T> out = new ArrayList<>();
            while (out.size() < min) {
                out.add(s.draw(mandatory));
            }
            while (out.size() < max) {
                Optional<T> next = s.draw(optional);
                if (next.isEmpty()) {
                    break;
                }
                out.add(next.get());
            }
            return java.util.Collections.unmodifiableList(out);
        };
    }

    /** Pairs drawn from two generators in turn. */
    static <A, B> Gen<Pair<A, B>> zip(Gen<A> a, Gen<B> b) {
        return zip(a, b, Pair::new);
    }

    /** Triples drawn from three generators in turn. */
    static <A, B, C> Gen<Triple<A, B, C>> zip(Gen<A> a, Gen<B> b, Gen<C> c) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(c, "c");
        return s -> new Triple<>(s.draw(a), s.draw(b), s.draw(c));
    }

    /** Values combined from two generators drawn in turn. */
    static <A, B, R> Gen<R> zip(Gen<A> a, Gen<B> b, BiFunction<? super A, ? super B, ? extends R> f) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(f, "f");
        return s -> f.apply(s.draw(a), s.draw(b));
    }

    /** A generator built when first drawn from: for recursive generators. */
    static <T> Gen<T> lazy(Supplier<? extends Gen<T>> gen) {
        Objects.requireNonNull(gen, "gen");
        return s -> s.draw(gen.get());
    }

    // ---- values of the combinators

    /**
     * An option of {@link #frequency}.
     *
     * @param weight how often, relative to the other options; positive
     * @param gen the generator
     * @param <T> the type of its values
     */
    record Weighted<T>(int weight, Gen<T> gen) {
        /** Rejects a weight below 1. */
        public Weighted {
            Objects.requireNonNull(gen, "gen");
            if (weight < 1) {
                throw new IllegalArgumentException("weight (" + weight + ") must be positive");
            }
        }
    }

    /**
     * Two values.
     *
     * @param first the first
     * @param second the second
     * @param <A> the first's type
     * @param <B> the second's type
     */
    record Pair<A, B>(A first, B second) {
        @Override
        public String toString() {
            return "(" + first + ", " + second + ")";
        }
    }

    /**
     * Three values.
     *
     * @param first the first
     * @param second the second
     * @param third the third
     * @param <A> the first's type
     * @param <B> the second's type
     * @param <C> the third's type
     */
    record Triple<A, B, C>(A first, B second, C third) {
        @Override
        public String toString() {
            return "(" + first + ", " + second + ", " + third + ")";
        }
    }

    // ---- helpers (not part of the API)

    private static void checkRange(long min, long max) {
        if (max < min) {
            throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
        }
    }

    private static void checkPowerOfTwo(long v) {
        if (v <= 0 || Long.bitCount(v) != 1) {
            throw new IllegalArgumentException(v + " is not a power of two");
        }
    }

    /**
     * The value at distance rank {@code c} from {@code target} in {@code [min, max]}: 0 is the target, then
     * target+1, target-1, target+2, ... while both sides last, then the longer side alone. A bijection
     * from {@code [0, max-min]} onto the range.
     */
    private static long around(long min, long max, long target, long c) {
        long above = max - target;
        long below = target - min;
        long both = Math.min(above, below);
        if (Long.compareUnsigned(c, 2 * both) <= 0) {
            if (c == 0) {
                return target;
            }
            return (c & 1) == 1 ? target + (c + 1) / 2 : target - c / 2;
        }
        long beyond = c - 2 * both;
        return above > below ? target + both + beyond : target - both - beyond;
    }
}
