package dev.dmmodel.testkit.property;

import org.junit.jupiter.api.Assumptions;

/**
 * The gate in front of a property test's coverage checks (did the generator reach what the property is
 * about?). Those checks count cases, so they only mean something over enough tries: with fewer (a quick run
 * with {@code -Ddmmodel.tries=20}) the test reports itself skipped, saying that the property held and over
 * how many tries, instead of passing with its coverage checks silently left out.
 */
public final class CoverageGate {
    /** The fewest tries over which coverage is checked. */
    public static final int MIN_TRIES = 200;

    private CoverageGate() {
    }

    /**
     * Aborts the calling test (a JUnit assumption: reported as skipped, with the message) unless the property
     * ran at least {@link #MIN_TRIES} tries.
     *
     * @param property the property's name, for the message
     * @param tries the tries it ran
     */
    public static void assumeEnoughTries(String property, int tries) {
        Assumptions.assumeTrue(tries >= MIN_TRIES, () -> property + ": the property held over " + tries
                + " tries; its coverage checks need at least " + MIN_TRIES + " (" + Property.TRIES_PROPERTY
                + ") and were skipped");
    }
}
