package dev.dmmodel.impl.format.json;

import dev.dmmodel.impl.format.json.JsonValue.JsonArray;
import dev.dmmodel.impl.format.json.JsonValue.JsonBoolean;
import dev.dmmodel.impl.format.json.JsonValue.JsonNull;
import dev.dmmodel.impl.format.json.JsonValue.JsonNumber;
import dev.dmmodel.impl.format.json.JsonValue.JsonObject;
import dev.dmmodel.impl.format.json.JsonValue.JsonString;
import dev.dmmodel.impl.format.json.JsonValue.Member;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A strict RFC 8259 JSON reader: one value surrounded by optional whitespace (space, tab, line feed, carriage
 * return); no comments, no trailing commas, no leading zeros, no control characters inside strings, no
 * single quotes. A leading byte order mark is skipped (RFC 8259 §8.1 allows it). Objects keep duplicate keys
 * in text order. Nesting deeper than {@value #MAX_DEPTH} arrays and objects is refused, so hostile input
 * cannot exhaust the stack. Lines are counted at line feeds; columns in UTF-16 units, both from 1.
 */
public final class JsonReader {

    /** The deepest nesting of arrays and objects accepted. */
    public static final int MAX_DEPTH = 512;

    private final String text;
    private final String source;
    private int pos;
    private int line = 1;
    private int lineStart;

    private JsonReader(String text, String source) {
        this.text = text;
        this.source = source;
    }

    /**
     * Parses a whole text.
     *
     * @param text the JSON text
     * @param source the file name for messages, or {@code <input>}
     * @return the value, with positions
     * @throws JsonException on any syntax error, with the line and column where it is
     */
    public static JsonValue parse(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        JsonReader r = new JsonReader(text, source);
        if (text.startsWith("\uFEFF")) {
            r.pos = 1;
            r.lineStart = 1;
        }
        r.skipWhitespace();
        if (r.pos >= text.length()) {
            throw r.error("found " + (text.isEmpty() ? "an empty text" : "only whitespace") + "; expected a JSON value");
        }
        JsonValue v = r.value(0);
        r.skipWhitespace();
        if (r.pos < text.length()) {
            throw r.error("found " + r.describeHere() + " after the JSON value; expected the end of the text");
        }
        return v;
    }

    private int column() {
        return pos - lineStart + 1;
    }

    private JsonException error(String problem) {
        return new JsonException(source, line, column(), problem);
    }

    private String describeHere() {
        if (pos >= text.length()) {
            return "the end of the text";
        }
        char c = text.charAt(pos);
        if (c < 0x20 || c == 0x7f) {
            return String.format("the control character U+%04X", (int) c);
        }
        return "'" + c + "'";
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\n') {
                pos++;
                line++;
                lineStart = pos;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else {
                return;
            }
        }
    }

    private JsonValue value(int depth) {
        if (pos >= text.length()) {
            throw error("found the end of the text; expected a JSON value");
        }
        char c = text.charAt(pos);
        int l = line;
        int col = column();
        return switch (c) {
            case '{' -> object(depth + 1, l, col);
            case '[' -> array(depth + 1, l, col);
            case '"' -> new JsonString(source, l, col, string());
            case 't' -> literal("true", new JsonBoolean(source, l, col, true));
            case 'f' -> literal("false", new JsonBoolean(source, l, col, false));
            case 'n' -> literal("null", new JsonNull(source, l, col));
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield new JsonNumber(source, l, col, number());
                }
                throw error("found " + describeHere() + "; expected a JSON value (object, array, string, number, "
                        + "true, false or null)");
            }
        };
    }

    private JsonValue literal(String word, JsonValue v) {
        if (!text.startsWith(word, pos)) {
            throw error("found " + describeHere() + "; expected " + word);
        }
        pos += word.length();
        return v;
    }

    private void checkDepth(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("arrays and objects nest deeper than " + MAX_DEPTH + " levels");
        }
    }

    private JsonObject object(int depth, int l, int col) {
        checkDepth(depth);
        pos++; // '{'
        List<Member> members = new ArrayList<>();
        skipWhitespace();
        if (pos < text.length() && text.charAt(pos) == '}') {
            pos++;
            return new JsonObject(source, l, col, members);
        }
        while (true) {
            skipWhitespace();
            if (pos >= text.length() || text.charAt(pos) != '"') {
                throw error("found " + describeHere() + "; expected a member name in double quotes");
            }
            int kl = line;
            int kc = column();
            String key = string();
            skipWhitespace();
            if (pos >= text.length() || text.charAt(pos) != ':') {
                throw error("found " + describeHere() + " after the member name " + JsonValue.quote(key)
                        + "; expected ':'");
            }
            pos++;
            skipWhitespace();
            members.add(new Member(key, kl, kc, value(depth)));
            skipWhitespace();
            if (pos < text.length() && text.charAt(pos) == ',') {
                pos++;
                continue;
            }
            if (pos < text.length() && text.charAt(pos) == '}') {
                pos++;
                return new JsonObject(source, l, col, members);
            }
            throw error("found " + describeHere() + " in the object that starts at " + l + ":" + col
                    + "; expected ',' or '}'");
        }
    }

    private JsonArray array(int depth, int l, int col) {
        checkDepth(depth);
        pos++; // '['
        List<JsonValue> items = new ArrayList<>();
        skipWhitespace();
        if (pos < text.length() && text.charAt(pos) == ']') {
            pos++;
            return new JsonArray(source, l, col, items);
        }
        while (true) {
            skipWhitespace();
            items.add(value(depth));
            skipWhitespace();
            if (pos < text.length() && text.charAt(pos) == ',') {
                pos++;
                continue;
            }
            if (pos < text.length() && text.charAt(pos) == ']') {
                pos++;
                return new JsonArray(source, l, col, items);
            }
            throw error("found " + describeHere() + " in the array that starts at " + l + ":" + col
                    + "; expected ',' or ']'");
        }
    }

    // RFC 8259 §7: the escapes \" \\ \/ \b \f \n \r \t \\uXXXX; no unescaped control characters
    private String string() {
        int startLine = line;
        int startColumn = column();
        pos++; // opening quote
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw new JsonException(source, startLine, startColumn,
                        "found a string without its closing double quote; expected '\"' before the end of the text");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                pos++;
                return b.toString();
            }
            if (c < 0x20) {
                throw error("found " + describeHere() + " inside a string; expected it escaped (\\n, \\t, \\u00XX)");
            }
            if (c != '\\') {
                b.append(c);
                pos++;
                continue;
            }
            if (pos + 1 >= text.length()) {
                pos++;
                throw error("found the end of the text after '\\'; expected an escape");
            }
            char e = text.charAt(pos + 1);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    int v = 0;
                    for (int i = 0; i < 4; i++) {
                        int at = pos + 2 + i;
                        int d = at < text.length() ? Character.digit(text.charAt(at), 16) : -1;
                        if (d < 0) {
                            throw error("found a bad \\u escape; expected four hexadecimal digits after \\u");
                        }
                        v = v * 16 + d;
                    }
                    b.append((char) v);
                    pos += 4;
                }
                default -> {
                    throw error("found the escape '\\" + (e < 0x20 ? "?" : String.valueOf(e))
                            + "'; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
                }
            }
            pos += 2;
        }
    }

    // RFC 8259 §6: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    private String number() {
        int start = pos;
        if (text.charAt(pos) == '-') {
            pos++;
        }
        if (pos >= text.length() || !isDigit(text.charAt(pos))) {
            throw error("found " + describeHere() + " in a number; expected a digit");
        }
        if (text.charAt(pos) == '0') {
            pos++;
            if (pos < text.length() && isDigit(text.charAt(pos))) {
                throw error("found a leading zero in a number; expected no leading zeros");
            }
        } else {
            digits();
        }
        if (pos < text.length() && text.charAt(pos) == '.') {
            pos++;
            if (pos >= text.length() || !isDigit(text.charAt(pos))) {
                throw error("found " + describeHere() + " after a decimal point; expected a digit");
            }
            digits();
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (pos >= text.length() || !isDigit(text.charAt(pos))) {
                throw error("found " + describeHere() + " in an exponent; expected a digit");
            }
            digits();
        }
        return text.substring(start, pos);
    }

    private void digits() {
        while (pos < text.length() && isDigit(text.charAt(pos))) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
