package dev.dmmodel.impl.fuzz;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Runs fuzz inputs through a parser and counts how each ended: {@link #PARSED} (or another outcome the parse
 * names), {@link #REJECTED} with the documented exception, or a problem (any other throwable, or a documented
 * exception that is badly formed). Keeps the first five problems with their inputs, then {@code "..."}.
 */
public final class FuzzTally {

    /** The outcome of an input that parsed. */
    public static final String PARSED = "parsed";
    /** The outcome of an input refused with the documented exception. */
    public static final String REJECTED = "rejected";

    private static final int KEPT_PROBLEMS = 5;

    /** The parse of one input. */
    @FunctionalInterface
    public interface Parse {
        /**
         * Parses.
         *
         * @return the outcome name, usually {@link #PARSED}
         * @throws Exception the documented exception, or a problem
         */
        String run() throws Exception;
    }

    private final Map<String, Integer> outcomes = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();
    private final long started = System.nanoTime();
    private int total;
    private int problemCount;

    /**
     * Runs one input. A documented exception counts as {@link #REJECTED}, and also as a problem if
     * {@code wellFormed} says no (a message without source, line or column).
     *
     * @param <E> the documented exception type
     * @param input the input, shown with a problem
     * @param parse the parse
     * @param documented the documented exception type
     * @param wellFormed whether a documented exception is as documented
     */
    public <E extends Throwable> void run(String input, Parse parse, Class<E> documented,
            Predicate<? super E> wellFormed) {
        total++;
        try {
            add(Objects.requireNonNull(parse.run(), "outcome"));
        } catch (Throwable t) { // the property under test: nothing but the documented exception may escape
            if (documented.isInstance(t)) {
                add(REJECTED);
                if (!wellFormed.test(documented.cast(t))) {
                    problem(input, t);
                }
            } else {
                problem(input, t);
            }
        }
    }

    private void add(String outcome) {
        outcomes.merge(outcome, 1, Integer::sum);
    }

    /**
     * Records a problem found with an input (the first five are kept).
     *
     * @param input the input
     * @param t what went wrong
     */
    public void problem(String input, Throwable t) {
        problemCount++;
        if (problems.size() < KEPT_PROBLEMS) {
            StringWriter w = new StringWriter();
            t.printStackTrace(new PrintWriter(w));
            problems.add(w.toString().lines().limit(8).reduce("", (a, b) -> a + b + "\n") + "--- input ---\n"
                    + (input.length() > 3000 ? input.substring(0, 3000) + "..." : input));
        } else if (problems.size() == KEPT_PROBLEMS) {
            problems.add("...");
        }
    }

    /**
     * The problems kept.
     *
     * @return the first five problems, then {@code "..."} if there were more
     */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * How many inputs ran.
     *
     * @return the number of inputs
     */
    public int total() {
        return total;
    }

    /**
     * How many inputs ended with an outcome.
     *
     * @param outcome the outcome name
     * @return the count
     */
    public int count(String outcome) {
        return outcomes.getOrDefault(outcome, 0);
    }

    /**
     * How many inputs parsed.
     *
     * @return the count of {@link #PARSED}
     */
    public int parsed() {
        return count(PARSED);
    }

    /**
     * How many inputs were refused with the documented exception.
     *
     * @return the count of {@link #REJECTED}
     */
    public int rejected() {
        return count(REJECTED);
    }

    /**
     * How many inputs ended with some outcome (all of them, when there is no problem).
     *
     * @return the sum of the outcome counts
     */
    public int counted() {
        return outcomes.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** {@return the counts and the time since this tally was made, e.g. "100000 inputs: 900 parsed, ..."} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(total).append(" inputs:");
        outcomes.forEach((k, v) -> sb.append(' ').append(v).append(' ').append(k).append(','));
        return sb.append(String.format(" %d problems, %.1f s", problemCount, (System.nanoTime() - started) / 1e9))
                .toString();
    }
}
