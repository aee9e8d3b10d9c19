package dev.dmmodel.impl.json;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mutations of JSON texts for the fuzz tests (the house pattern of {@code VgMetadataFuzzTest}): character
 * edits, token edits (huge and negative numbers, wrong types, structure), removed and duplicated lines, and
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

    private JsonMutator() {
    }

    /** Token boundaries as {start, end} pairs. */
    public static List<int[]> tokens(String text) {
        List<int[]> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            out.add(new int[] {m.start(), m.end()});
        }
        return out;
    }

    /** One to four random edits; {@code baseTokens} are {@link #tokens(String)} of {@code text}, for the first. */
    public static String mutate(String text, List<int[]> baseTokens, Random r) {
        String mutated = text;
        int edits = 1 + (r.nextInt(4) == 0 ? r.nextInt(4) : 0);
        for (int e = 0; e < edits; e++) {
            mutated = once(mutated, e == 0 ? baseTokens : null, r);
        }
        return mutated;
    }

    /** One to four random edits. */
    public static String mutate(String text, Random r) {
        return mutate(text, tokens(text), r);
    }

    private static String once(String text, List<int[]> known, Random r) {
        if (text.isEmpty()) {
            return String.valueOf(CHARS.charAt(r.nextInt(CHARS.length())));
        }
        int at = r.nextInt(text.length());
        switch (r.nextInt(11)) {
            case 0:
                return text.substring(0, at) + text.substring(at + 1);
            case 1:
                return text.substring(0, at + 1) + text.substring(at);
            case 2:
                return text.substring(0, at) + CHARS.charAt(r.nextInt(CHARS.length())) + text.substring(at + 1);
            case 3: {
                List<int[]> tokens = known != null ? known : tokens(text);
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                return text.substring(0, t[0]) + text.substring(t[1]);
            }
            case 4: {
                List<int[]> tokens = known != null ? known : tokens(text);
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                return text.substring(0, t[1]) + text.substring(t[0]);
            }
            case 5:
            case 6:
            case 7: { // replace a value token: huge numbers, wrong types, structure
                List<int[]> tokens = known != null ? known : tokens(text);
                if (tokens.isEmpty()) {
                    return text;
                }
                int[] t = tokens.get(r.nextInt(tokens.size()));
                String token = text.substring(t[0], t[1]);
                String with;
                if (token.matches("\"-?[0-9]+\"") && r.nextBoolean()) {
                    with = token.substring(1, token.length() - 1); // json_std: a bare number
                } else if (token.matches("-?[0-9]+") && r.nextBoolean()) {
                    with = "\"" + token + "\"";
                } else {
                    with = REPLACEMENTS.get(r.nextInt(REPLACEMENTS.size()));
                }
                return text.substring(0, t[0]) + with + text.substring(t[1]);
            }
            case 8: { // remove a line
                List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                lines.remove(r.nextInt(lines.size()));
                return String.join("\n", lines);
            }
            case 9: { // duplicate a line
                List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                int l = r.nextInt(lines.size());
                lines.add(l, lines.get(l));
                return String.join("\n", lines);
            }
            default: { // deep nesting
                String open = r.nextBoolean() ? "[" : "{\"a\":";
                return text.substring(0, at) + open.repeat(1 + r.nextInt(600)) + text.substring(at);
            }
        }
    }
}
