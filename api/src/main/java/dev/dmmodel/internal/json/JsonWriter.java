package dev.dmmodel.internal.json;

import java.util.Objects;

/**
 * Strings as JSON strings (RFC 8259 §7), the one place the project escapes them: {@code "} and {@code \} and
 * the control characters below U+0020 as RFC 8259 requires ({@code \b \f \n \r \t} in their short forms, the
 * others as {@code \}{@code u00XX}), and also as {@code \}{@code uXXXX}: DEL and the C1 controls
 * (U+007F–U+009F), U+2028 and U+2029 (line breaks to JavaScript and YAML), U+FEFF, U+FFFE, U+FFFF and unpaired
 * surrogates. RFC 8259 lets any character be escaped, so the result is JSON that every reader takes; it is also a
 * YAML double-quoted scalar that reads back as {@code s} (YAML's printable set leaves those characters out),
 * which the layout file writer relies on. Hexadecimal digits are lower case.
 */
public final class JsonWriter {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonWriter() {
    }

    /** {@code s} as a JSON string, quotes included. */
    public static String string(String s) {
        Objects.requireNonNull(s, "s");
        return appendString(new StringBuilder(s.length() + 2), s).toString();
    }

    /** Appends {@code s} as a JSON string, quotes included, to {@code sb}; returns {@code sb}. */
    public static StringBuilder appendString(StringBuilder sb, String s) {
        Objects.requireNonNull(sb, "sb");
        Objects.requireNonNull(s, "s");
        sb.append('"');
        int plain = 0; // start of the run of characters not yet appended
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String shortForm = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                default -> null;
            };
            if (shortForm == null && !needsUnicodeEscape(s, i, c)) {
                continue;
            }
            sb.append(s, plain, i);
            if (shortForm != null) {
                sb.append(shortForm);
            } else {
                sb.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
                        .append(HEX[c & 0xf]);
            }
            plain = i + 1;
        }
        return sb.append(s, plain, s.length()).append('"');
    }

    private static boolean needsUnicodeEscape(String s, int i, char c) {
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || c == '\uFEFF'
                || c == '\uFFFE' || c == '\uFFFF') {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }
}
