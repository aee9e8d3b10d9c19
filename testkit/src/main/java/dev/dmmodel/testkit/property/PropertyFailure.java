package dev.dmmodel.testkit.property;

/**
 * A property failed. The message says everything a person needs: the seed to repeat it, the shrunk and
 * the original counterexample, both failures. The cause is the shrunk counterexample's failure (its stack
 * trace is the one to read); the accessors give the same facts to code.
 */
public final class PropertyFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final String property;
    private final long seed;
    private final int tryIndex;
    private final long trySeed;
    private final int passedTries;
    private final transient Object originalValue;
    private final String originalText;
    private final transient Throwable originalFailure;
    private final transient Object shrunkValue;
    private final String shrunkText;
    private final int shrinkSteps;
    private final int shrinkRuns;

    PropertyFailure(String message, Throwable cause, String property, long seed, int tryIndex, long trySeed,
                    int passedTries, Object originalValue, String originalText, Throwable originalFailure,
                    Object shrunkValue, String shrunkText, int shrinkSteps, int shrinkRuns) {
        super(message, cause);
        this.property = property;
        this.seed = seed;
        this.tryIndex = tryIndex;
        this.trySeed = trySeed;
        this.passedTries = passedTries;
        this.originalValue = originalValue;
        this.originalText = originalText;
        this.originalFailure = originalFailure;
        this.shrunkValue = shrunkValue;
        this.shrunkText = shrunkText;
        this.shrinkSteps = shrinkSteps;
        this.shrinkRuns = shrinkRuns;
    }

    /** The property's name. */
    public String property() {
        return property;
    }

    /** The seed the property ran with: run it again with this seed to repeat the failure. */
    public long seed() {
        return seed;
    }

    /** The failing try's index, from 0. */
    public int tryIndex() {
        return tryIndex;
    }

    /** The failing try's own seed ({@link Property#trySeed(long, int)}). */
    public long trySeed() {
        return trySeed;
    }

    /** Tries that passed before the failing one. */
    public int passedTries() {
        return passedTries;
    }

    /** The value the failing try generated (null if generating it failed). */
    public Object originalValue() {
        return originalValue;
    }

    /** The original counterexample as printed. */
    public String originalText() {
        return originalText;
    }

    /** What the original counterexample threw. */
    public Throwable originalFailure() {
        return originalFailure;
    }

    /** The shrunk counterexample (null if generating it failed). */
    public Object shrunkValue() {
        return shrunkValue;
    }

    /** The shrunk counterexample as printed. */
    public String shrunkText() {
        return shrunkText;
    }

    /** What the shrunk counterexample threw (also {@link #getCause()}). */
    public Throwable shrunkFailure() {
        return getCause();
    }

    /** Shrink steps taken: smaller failing values kept. */
    public int shrinkSteps() {
        return shrinkSteps;
    }

    /** Runs of the property while shrinking. */
    public int shrinkRuns() {
        return shrinkRuns;
    }
}
