package dev.dmmodel.impl.fuzz;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Random edits of a text for the fuzz tests: characters deleted, duplicated, inserted or replaced (from an
 * alphabet), tokens deleted, duplicated or replaced (from a list of replacements: huge and negative numbers, wrong
 * types, structure), lines removed, duplicated or swapped, and format-specific edits added with
 * {@link #withEdit(int, Edit)}. Each kind is chosen with a weight; instances are immutable (the tokens of the texts
 * given to {@link #mutate} are cached).
 */
public final class TextMutator {

    /** The common edit kinds. */
    public enum Kind {
        /** A character deleted. */
        DELETE_CHAR,
        /** A character repeated in place. */
        DUPLICATE_CHAR,
        /** A character of the alphabet inserted. */
        INSERT_CHAR,
        /** A character replaced by one of the alphabet. */
        REPLACE_CHAR,
        /** A token deleted. */
        DELETE_TOKEN,
        /** A token repeated after itself, with the token separator between. */
        DUPLICATE_TOKEN,
        /** A token replaced, by default by one of the replacements. */
        REPLACE_TOKEN,
        /** A line removed. */
        REMOVE_LINE,
        /** A line repeated in place. */
        DUPLICATE_LINE,
        /** Two lines swapped. */
        SWAP_LINES
    }

    /** A format-specific edit of a whole text. */
    @FunctionalInterface
    public interface Edit {
        /**
         * Edits a text.
         *
         * @param text the text, not empty
         * @param r the random source
         * @return the edited text
         */
        String apply(String text, Random r);
    }

    /** Chooses what a token is replaced with. */
    @FunctionalInterface
    public interface Replacer {
        /**
         * The replacement of one token.
         *
         * @param mutator the mutator (for {@link #replacement(Random)} and {@link #tokens(String)})
         * @param token the token replaced
         * @param text the whole text
         * @param r the random source
         * @return the text put in the token's place
         */
        String replace(TextMutator mutator, String token, String text, Random r);
    }

    private record Weighted(int weight, Edit edit) {
    }

    private static final int CACHED_TEXTS = 64;

    private final Pattern token;
    private final String chars;
    private final List<String> replacements;
    private final Map<Kind, Integer> weights;
    private final List<Weighted> extra;
    private final Replacer replacer;
    private final String tokenSeparator;
    private final Map<String, List<int[]>> tokenCache = new ConcurrentHashMap<>();

    private TextMutator(Pattern token, String chars, List<String> replacements, Map<Kind, Integer> weights,
            List<Weighted> extra, Replacer replacer, String tokenSeparator) {
        this.token = token;
        this.chars = chars;
        this.replacements = replacements;
        this.weights = weights;
        this.extra = extra;
        this.replacer = replacer;
        this.tokenSeparator = tokenSeparator;
    }

    /**
     * A mutator with every kind of weight 1 except {@link Kind#REPLACE_TOKEN} (2) and {@link Kind#INSERT_CHAR} (0),
     * tokens duplicated with a blank between.
     *
     * @param token what a token is
     * @param chars the alphabet of inserted and replacing characters, not empty
     * @param replacements what tokens are replaced with, not empty
     * @return the mutator
     */
    public static TextMutator of(Pattern token, String chars, List<String> replacements) {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(chars, "chars");
        if (chars.isEmpty() || replacements.isEmpty()) {
            throw new IllegalArgumentException("chars and replacements must not be empty");
        }
        Map<Kind, Integer> weights = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) {
            weights.put(k, 1);
        }
        weights.put(Kind.REPLACE_TOKEN, 2);
        weights.put(Kind.INSERT_CHAR, 0);
        return new TextMutator(token, chars, List.copyOf(replacements), weights, List.of(),
                (m, t, text, r) -> m.replacement(r), " ");
    }

    /**
     * This mutator with one kind weighted otherwise (0: never).
     *
     * @param kind the kind
     * @param weight its weight, at least 0
     * @return the new mutator
     */
    public TextMutator withWeight(Kind kind, int weight) {
        if (weight < 0) {
            throw new IllegalArgumentException("weight " + weight + " < 0");
        }
        Map<Kind, Integer> w = new EnumMap<>(weights);
        w.put(Objects.requireNonNull(kind, "kind"), weight);
        return new TextMutator(token, chars, replacements, w, extra, replacer, tokenSeparator);
    }

    /**
     * This mutator with all common kinds weighted as given, in the order of {@link Kind}.
     *
     * @param weights one weight per kind
     * @return the new mutator
     */
    public TextMutator withWeights(int... weights) {
        if (weights.length != Kind.values().length) {
            throw new IllegalArgumentException(weights.length + " weights for " + Kind.values().length + " kinds");
        }
        TextMutator m = this;
        for (Kind k : Kind.values()) {
            m = m.withWeight(k, weights[k.ordinal()]);
        }
        return m;
    }

    /**
     * This mutator with a format-specific edit too.
     *
     * @param weight its weight, at least 1
     * @param edit the edit
     * @return the new mutator
     */
    public TextMutator withEdit(int weight, Edit edit) {
        if (weight < 1) {
            throw new IllegalArgumentException("weight " + weight + " < 1");
        }
        List<Weighted> e = new ArrayList<>(extra);
        e.add(new Weighted(weight, Objects.requireNonNull(edit, "edit")));
        return new TextMutator(token, chars, replacements, weights, List.copyOf(e), replacer, tokenSeparator);
    }

    /**
     * This mutator replacing tokens otherwise (the default picks one of the replacements).
     *
     * @param replacer the replacer
     * @return the new mutator
     */
    public TextMutator withReplacer(Replacer replacer) {
        return new TextMutator(token, chars, replacements, weights, extra, Objects.requireNonNull(replacer, "replacer"),
                tokenSeparator);
    }

    /**
     * This mutator putting another separator between a duplicated token and its copy.
     *
     * @param separator the separator, possibly empty
     * @return the new mutator
     */
    public TextMutator withTokenSeparator(String separator) {
        return new TextMutator(token, chars, replacements, weights, extra, replacer,
                Objects.requireNonNull(separator, "separator"));
    }

    /**
     * One to four edits (four in five inputs get one), as every fuzz test does.
     *
     * @param text the text
     * @param r the random source
     * @return the edited text
     */
    public String mutate(String text, Random r) {
        return mutate(text, r, 1 + (r.nextInt(4) == 0 ? r.nextInt(4) : 0));
    }

    /**
     * A number of edits, one after the other.
     *
     * @param text the text
     * @param r the random source
     * @param edits how many
     * @return the edited text
     */
    public String mutate(String text, Random r, int edits) {
        String mutated = Objects.requireNonNull(text, "text");
        for (int e = 0; e < edits; e++) {
            mutated = once(mutated, e == 0 ? cachedTokens(mutated) : null, r);
        }
        return mutated;
    }

    /**
     * A random one of the replacements.
     *
     * @param r the random source
     * @return the replacement
     */
    public String replacement(Random r) {
        return replacements.get(r.nextInt(replacements.size()));
    }

    /**
     * The tokens of a text.
     *
     * @param text the text
     * @return {start, end} of each token, in order
     */
    public List<int[]> tokens(String text) {
        List<int[]> out = new ArrayList<>();
        Matcher m = token.matcher(text);
        while (m.find()) {
            out.add(new int[] {m.start(), m.end()});
        }
        return out;
    }

    /**
     * Gives every truncation of a text, the empty one and the whole text included.
     *
     * @param text the text
     * @param input what takes each truncation
     */
    public static void truncations(String text, Consumer<String> input) {
        for (int cut = 0; cut <= text.length(); cut++) {
            input.accept(text.substring(0, cut));
        }
    }

    private List<int[]> cachedTokens(String text) {
        if (tokenCache.size() >= CACHED_TEXTS && !tokenCache.containsKey(text)) {
            tokenCache.clear();
        }
        return tokenCache.computeIfAbsent(text, this::tokens);
    }

    private char randomChar(Random r) {
        return chars.charAt(r.nextInt(chars.length()));
    }

    private String once(String text, List<int[]> known, Random r) {
        if (text.isEmpty()) {
            return String.valueOf(randomChar(r));
        }
        int total = 0;
        for (int w : weights.values()) {
            total += w;
        }
        for (Weighted w : extra) {
            total += w.weight();
        }
        int pick = r.nextInt(total);
        for (Kind k : Kind.values()) {
            pick -= weights.get(k);
            if (pick < 0) {
                return apply(k, text, known, r);
            }
        }
        for (Weighted w : extra) {
            pick -= w.weight();
            if (pick < 0) {
                return w.edit().apply(text, r);
            }
        }
        throw new AssertionError("no edit picked");
    }

    private String apply(Kind kind, String text, List<int[]> known, Random r) {
        switch (kind) {
            case DELETE_CHAR: {
                int at = r.nextInt(text.length());
                return text.substring(0, at) + text.substring(at + 1);
            }
            case DUPLICATE_CHAR: {
                int at = r.nextInt(text.length());
                return text.substring(0, at + 1) + text.substring(at);
            }
            case INSERT_CHAR: {
                int at = r.nextInt(text.length());
                return text.substring(0, at) + randomChar(r) + text.substring(at);
            }
            case REPLACE_CHAR: {
                int at = r.nextInt(text.length());
                return text.substring(0, at) + randomChar(r) + text.substring(at + 1);
            }
            case DELETE_TOKEN:
            case DUPLICATE_TOKEN:
            case REPLACE_TOKEN: {
                List<int[]> tokens = known != null ? known : tokens(text);
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                if (kind == Kind.DELETE_TOKEN) {
                    return text.substring(0, t[0]) + text.substring(t[1]);
                }
                if (kind == Kind.DUPLICATE_TOKEN) {
                    return text.substring(0, t[1]) + tokenSeparator + text.substring(t[0]);
                }
                String with = replacer.replace(this, text.substring(t[0], t[1]), text, r);
                return text.substring(0, t[0]) + with + text.substring(t[1]);
            }
            default: {
                List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                int i = r.nextInt(lines.size());
                if (kind == Kind.REMOVE_LINE) {
                    lines.remove(i);
                } else if (kind == Kind.DUPLICATE_LINE) {
                    lines.add(i, lines.get(i));
                } else {
                    int j = r.nextInt(lines.size());
                    String x = lines.get(i);
                    lines.set(i, lines.get(j));
                    lines.set(j, x);
                }
                return String.join("\n", lines);
            }
        }
    }
}
