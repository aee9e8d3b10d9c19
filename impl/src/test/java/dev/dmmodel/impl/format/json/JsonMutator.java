package dev.dmmodel.impl.format.json;

import dev.dmmodel.impl.fuzz.TextMutator;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * The {@link TextMutator} of JSON texts for the fuzz tests: character edits, token edits (huge and negative
 * numbers, numbers quoted and unquoted, wrong types, structure), removed and duplicated lines, deep nesting, and
 * combinations of these.
 */
public final class JsonMutator {

    private static final Pattern TOKEN = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|-?[0-9][0-9.eE+-]*|true|false|null"
            + "|[{}\\[\\]:,]");
    private static final String CHARS = "{}[]:,\"'\\\n\t 0123456789-+.eEabcxyzSBmg<_()/\0\u00e9\u2028\uFEFF";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "-1", "0", "1", "1.5", "1e3", "null", "true", "false", "[]", "{}", "[1]",
            "{\"a\":1}", "\"\"", "\"-1\"", "\"0\"", "\"1\"", "\"x\"", "\"99999999999999999999\"",
            "\"9223372036854775807\"", "\"9223372036854775807S\"", "\"9223372036854775807B\"", "\"4611686018427387904S\"",
            "\"2048S\"", "\"8192S\"", "\"0S\"", "\"0 \"", "\"4.00m\"", "\"<10.00g\"", "\"1.00m\"", "\"1000B\"", "\"2048\"",
            "\"raid1\"", "\"striped\"", "\"linear\"", "\"thin\"", "\"thin-pool\"", "\"[pool_tdata]\"", "\"[x]\"",
            "\"/dev/sda(999)\"", "\"/dev/sda(0)\"", "\"/dev/sdb:0-0\"", "\"/dev/sda:5-1\"", "[\"/dev/sda(0)\"]", "[1]",
            "\"wz--c-\"", "\"wz--n-p\"", "\"wz\"", "\"-wi------k\"", "\"error\"", "\"queue\"", "\"zero\"", "\"unknown\"",
            "\"passdown\"", "\"weird\"", "\"disk\"", "\"part\"", "\"lvm\"", "\"8:0\"", "\"253:9\"", "\"x:y\"",
            "\"dm-7\"", "\"sda\"", "\"4G\"", "512", "4096", "1000", "-512", "\"[\"", ":", ",", "[", "]", "{", "}");

    /**
     * One to four edits a mutation: characters deleted, duplicated or replaced, tokens deleted, repeated (with
     * nothing between) or replaced (three times as often: a quoted number unquoted as json_std has it, a number
     * quoted, or one of the replacements), lines removed or duplicated, and deep nesting ({@code [} or
     * {@code {"a":} repeated up to 600 times).
     */
    public static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS)
            .withWeights(1, 1, 0, 1, 1, 1, 3, 1, 1, 0)
            .withTokenSeparator("")
            .withReplacer(JsonMutator::replace)
            .withEdit(1, JsonMutator::deepNesting);

    private JsonMutator() {
    }

    private static String replace(TextMutator m, String token, String text, Random r) {
        if (token.matches("\"-?[0-9]+\"") && r.nextBoolean()) {
            return token.substring(1, token.length() - 1); // json_std: a bare number
        }
        if (token.matches("-?[0-9]+") && r.nextBoolean()) {
            return "\"" + token + "\"";
        }
        return m.replacement(r);
    }

    private static String deepNesting(String text, Random r) {
        int at = r.nextInt(text.length());
        String open = r.nextBoolean() ? "[" : "{\"a\":";
        return text.substring(0, at) + open.repeat(1 + r.nextInt(600)) + text.substring(at);
    }
}
