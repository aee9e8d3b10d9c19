package dev.dmmodel.testkit.property;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Runs a property: a check that must hold for every value of a generator.
 *
 * <pre>{@code
 * Property.forAll(DmGens.stacks())
 *         .named("no LV is misaligned")
 *         .tries(1000)
 *         .check(plan -> assertThat(plan.build().findings()).noneMatch(f -> f.id().startsWith("align.")));
 * }</pre>
 *
 * <p>Each try draws a value from its own seed, derived from the property's seed and the try's index. The
 * first try that fails (throws anything but a discard) stops the run; its recorded choices are shrunk (see
 * {@link Gen}) to the simplest value that still fails the same way, and a {@link PropertyFailure} reports
 * the seed, the original and the shrunk counterexample and both failures. Running again with that seed
 * repeats the same tries, the same failure and the same shrinking.
 *
 * <p>System properties override the code, so a build can change every property at once:
 * <ul>
 *   <li>{@code dmmodel.tries}: the number of tries ({@code -Pexhaustive} sets 100000);</li>
 *   <li>{@code dmmodel.seed}: the seed, decimal or {@code 0x} hex, as a failure prints it.</li>
 * </ul>
 * Without either, a property whose seed is 0 (the default) takes a new seed from the clock each run, and
 * prints it when it fails.
 */
public final class Property {

    /** Tries when none are given. */
    public static final int DEFAULT_TRIES = 1000;
    /** Kept shrink steps when no limit is given. */
    public static final int DEFAULT_MAX_SHRINKS = 1000;
    /** System property that overrides every property's number of tries. */
    public static final String TRIES_PROPERTY = "dmmodel.tries";
    /** System property that overrides every property's seed. */
    public static final String SEED_PROPERTY = "dmmodel.seed";
    /** Runs of the property allowed while shrinking, per allowed shrink step. */
    static final int RUNS_PER_SHRINK = 50;

    private Property() {
    }

    /** A property over the values of {@code gen}; configure it, then {@link Runner#check}. */
    public static <T> Runner<T> forAll(Gen<T> gen) {
        return new Runner<>(gen);
    }

    /** A property over pairs from two generators. */
    public static <A, B> Runner<Gen.Pair<A, B>> forAll(Gen<A> a, Gen<B> b) {
        return new Runner<>(Gen.zip(a, b));
    }

    /**
     * Discards the current try unless {@code condition} holds: it then counts neither as a pass nor as a
     * failure. Too many discards fail the property; prefer generators that only make what you need.
     */
    public static void assume(boolean condition) {
        if (!condition) {
            throw Source.discard("assumption not met");
        }
    }

    /** The check of one value: returns normally if the property holds, throws if not. */
    @FunctionalInterface
    public interface Check<T> {
        /** Checks one value. */
        void check(T value) throws Throwable;
    }

    /** A property being configured; every setter returns this. */
    public static final class Runner<T> {
        private final Gen<T> gen;
        private String name = "property";
        private int tries = DEFAULT_TRIES;
        private long seed;
        private int maxShrinks = DEFAULT_MAX_SHRINKS;
        private Function<? super T, String> describer = Property::describe;

        Runner(Gen<T> gen) {
            this.gen = Objects.requireNonNull(gen, "gen");
        }

        /** Names the property in reports. */
        public Runner<T> named(String v) {
            this.name = Objects.requireNonNull(v, "name");
            return this;
        }

        /** Tries to pass (discarded tries do not count); overridden by {@code -Ddmmodel.tries}. */
        public Runner<T> tries(int v) {
            if (v < 1) {
                throw new IllegalArgumentException("tries (" + v + ") must be at least 1");
            }
            this.tries = v;
            return this;
        }

        /** The seed; 0 (the default) takes one from the clock. Overridden by {@code -Ddmmodel.seed}. */
        public Runner<T> seed(long v) {
            this.seed = v;
            return this;
        }

        /** At most this many shrink steps (smaller failing values kept); 0 reports the first failure as is. */
        public Runner<T> maxShrinks(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("maxShrinks (" + v + ") must not be negative");
            }
            this.maxShrinks = v;
            return this;
        }

        /**
         * How counterexamples are printed. By default with {@link String#valueOf(Object)}, except a
         * {@link dev.dmmodel.layout.Layout}, which prints one line per device ({@link StackPlan#describe}).
         */
        public Runner<T> describedBy(Function<? super T, String> v) {
            this.describer = Objects.requireNonNull(v, "describer");
            return this;
        }

        /**
         * Runs the property.
         *
         * @return what ran, if every try passed
         * @throws PropertyFailure with the seed and the shrunk counterexample if a try failed
         * @throws AssertionError if so many tries were discarded that the property gave up
         */
        public PropertyResult check(Check<? super T> check) {
            Objects.requireNonNull(check, "check");
            int n = effectiveTries(tries);
            long base = effectiveSeed(seed);
            long maxDiscards = Math.max(1000L, 10L * n);
            long t0 = System.nanoTime();
            int passed = 0;
            long discarded = 0;
            for (int index = 0; passed < n; index++) {
                long trySeed = trySeed(base, index);
                Shrinker.Attempt a = run(Source.random(trySeed), check);
                if (a.discarded()) {
                    discarded++;
                    if (discarded > maxDiscards) {
                        throw new AssertionError(String.format(Locale.ROOT, "property '%s' gave up: %d tries "
                                + "discarded (filters or assumptions), only %d of %d passed (seed %s)", name,
                                discarded, passed, n, hex(base)));
                    }
                    continue;
                }
                if (a.failure() != null) {
                    throw fail(base, index, trySeed, passed, discarded, a, check);
                }
                passed++;
            }
            return new PropertyResult(name, passed, discarded, base, (System.nanoTime() - t0) / 1_000_000);
        }

        private PropertyFailure fail(long base, int index, long trySeed, int passed, long discarded,
                                     Shrinker.Attempt original, Check<? super T> check) {
            rethrowFatal(original.failure());
            long maxRuns = Math.min(Integer.MAX_VALUE, (long) RUNS_PER_SHRINK * maxShrinks);
            Shrinker shrinker = new Shrinker(choices -> run(Source.replay(choices), check), original, maxShrinks,
                    (int) maxRuns);
            Shrinker.Attempt shrunk = shrinker.shrink();
            String originalText = describe(original);
            String shrunkText = describe(shrunk);
            StringBuilder sb = new StringBuilder();
            sb.append("Property '").append(name).append("' failed on try ").append(index + 1).append(" (")
                    .append(passed).append(" passed");
            if (discarded > 0) {
                sb.append(", ").append(discarded).append(" discarded");
            }
            sb.append("), seed ").append(hex(base)).append(" (try seed ").append(hex(trySeed)).append(").\n\n");
            sb.append("Shrunk counterexample (").append(shrinker.steps()).append(" shrink steps, ")
                    .append(shrinker.runs()).append(" runs):\n").append(indent(shrunkText)).append('\n');
            sb.append("Shrunk failure:\n").append(indent(String.valueOf(shrunk.failure()))).append("\n\n");
            sb.append("Original counterexample:\n").append(indent(originalText)).append('\n');
            sb.append("Original failure:\n").append(indent(String.valueOf(original.failure()))).append("\n\n");
            sb.append("Reproduce with seed ").append(hex(base)).append(": .seed(").append(hex(base))
                    .append("L), @PropertyTest(seed = ").append(hex(base)).append("L) or -D").append(SEED_PROPERTY)
                    .append('=').append(hex(base));
            return new PropertyFailure(sb.toString(), shrunk.failure(), name, base, index, trySeed, passed,
                    original.value(), originalText, original.failure(), shrunk.value(), shrunkText,
                    shrinker.steps(), shrinker.runs());
        }

        @SuppressWarnings("unchecked")
        private String describe(Shrinker.Attempt a) {
            if (a.value() == null && a.failure() != null) {
                return "(the generator itself failed)";
            }
            try {
                return describer.apply((T) a.value());
            } catch (RuntimeException e) {
                return String.valueOf(a.value()) + " (describing it failed: " + e + ")";
            }
        }

        private Shrinker.Attempt run(Source source, Check<? super T> check) {
            T value = null;
            Throwable failure = null;
            boolean discarded = false;
            try {
                value = source.draw(gen);
                check.check(value);
            } catch (Source.Discard d) {
                discarded = true;
            } catch (Throwable t) {
                rethrowFatal(t);
                if (isAborted(t)) {
                    discarded = true;
                } else {
                    failure = t;
                }
            }
            return new Shrinker.Attempt(source.recorded(), source.spans(), value, failure, discarded);
        }
    }

    /** How a value is printed unless the property says otherwise: a {@link dev.dmmodel.layout.Layout} compactly. */
    static String describe(Object value) {
        if (value instanceof dev.dmmodel.layout.Layout layout) {
            return StackPlan.describe(layout);
        }
        return String.valueOf(value);
    }

    // ---- settings

    /** {@code tries}, unless {@code -Ddmmodel.tries} says otherwise. */
    static int effectiveTries(int tries) {
        String v = System.getProperty(TRIES_PROPERTY);
        if (v == null || v.isBlank()) {
            return tries;
        }
        int n;
        try {
            n = Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + TRIES_PROPERTY + "=" + v + " is not a number", e);
        }
        if (n < 1) {
            throw new IllegalArgumentException("-D" + TRIES_PROPERTY + "=" + v + " must be at least 1");
        }
        return n;
    }

    /** {@code -Ddmmodel.seed} if given, else {@code seed} if not 0, else a seed from the clock. */
    static long effectiveSeed(long seed) {
        String v = System.getProperty(SEED_PROPERTY);
        if (v != null && !v.isBlank()) {
            return parseSeed(v);
        }
        if (seed != 0) {
            return seed;
        }
        long s = mix64(System.nanoTime() ^ System.currentTimeMillis() * 0x9E37_79B9_7F4A_7C15L);
        return s == 0 ? 1 : s;
    }

    /** The seed of try {@code index} (from 0) of a property with seed {@code base}. */
    public static long trySeed(long base, int index) {
        return mix64(base + (index + 1L) * 0x9E37_79B9_7F4A_7C15L);
    }

    /** A seed as failures print it: {@code 0x} and 16 hex digits. */
    public static String hex(long seed) {
        return String.format(Locale.ROOT, "0x%016x", seed);
    }

    /** Reads a seed: {@code 0x} hex (as printed, an optional {@code L} after it) or a decimal {@code long}. */
    public static long parseSeed(String text) {
        String s = text.strip();
        if (s.endsWith("L") || s.endsWith("l")) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("seed '" + text + "' is neither 0x hex nor a decimal long", e);
        }
    }

    /** SplitMix64's finalizer: spreads nearby seeds over the whole range. */
    static long mix64(long z) {
        long v = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
        v = (v ^ (v >>> 27)) * 0x94d0_49bb_1331_11ebL;
        return v ^ (v >>> 31);
    }

    static String indent(String text) {
        return "    " + text.replace("\n", "\n    ");
    }

    static void rethrowFatal(Throwable t) {
        if (t instanceof VirtualMachineError e) {
            throw e;
        }
    }

    /** JUnit's and opentest4j's "test aborted" (a failed {@code Assumptions.assume...}): a discard here. */
    static boolean isAborted(Throwable t) {
        for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals("org.opentest4j.TestAbortedException")) {
                return true;
            }
        }
        return false;
    }
}
