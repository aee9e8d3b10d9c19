package dev.dmmodel.impl.lvm.text;

import dev.dmmodel.lvm.LvmMetadataException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A hand-written lexer and recursive-descent parser for the LVM2 configuration grammar used by text
 * metadata ({@code libdm/libdm-config.c: dm_config_from_string}): sections {@code name { ... }},
 * settings {@code key = value}, integers, floats, double-quoted strings with {@code \"} and {@code \\}
 * escapes, single-quoted strings, bare words, arrays of scalars (commas optional) and {@code #} comments.
 * The result is an immutable tree; every error is an {@link LvmMetadataException} with line and column.
 */
final class LvmConfigParser {

    /** Deepest section nesting accepted (real metadata nests 5 deep). */
    public static final int MAX_DEPTH = 64;

    /** Something with a position in the input. */
    public sealed interface Located permits Node, Value {
        /** 1-based line. */
        int line();

        /** 1-based column. */
        int column();
    }

    /** A setting or a section. */
    public sealed interface Node extends Located permits Setting, Section {
        /** The key or section name. */
        String key();
    }

    /** A scalar or an array. */
    public sealed interface Value extends Located permits IntValue, FloatValue, StringValue, ArrayValue {
        /** How an error message shows the value. */
        String describe();
    }

    /** An integer value. */
    public record IntValue(long value, int line, int column) implements Value {
        @Override
        public String describe() {
            return "\"" + value + "\"";
        }
    }

    /** A floating point value, kept as written. */
    public record FloatValue(String text, int line, int column) implements Value {
        /** Rejects null. */
        public FloatValue {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String describe() {
            return "\"" + text + "\"";
        }
    }

    /** A string value: quoted, or a bare word. */
    public record StringValue(String value, int line, int column) implements Value {
        /** Rejects null. */
        public StringValue {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String describe() {
            return "string \"" + value + "\"";
        }
    }

    /** An array of scalars. */
    public record ArrayValue(List<Value> items, int line, int column) implements Value {
        /** Copies the items. */
        public ArrayValue {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "an array";
        }
    }

    /** {@code key = value}. */
    public record Setting(String key, Value value, int line, int column) implements Node {
        /** Rejects nulls. */
        public Setting {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code key { children }}; the file itself is a section with an empty key at 1:1. */
    public record Section(String key, List<Node> children, int line, int column) implements Node {
        /** Copies the children. */
        public Section {
            Objects.requireNonNull(key, "key");
            children = List.copyOf(children);
        }

        /** The child (setting or section) of that key; keys are unique within a section. */
        public Optional<Node> child(String name) {
            Objects.requireNonNull(name, "name");
            for (Node n : children) {
                if (n.key().equals(name)) {
                    return Optional.of(n);
                }
            }
            return Optional.empty();
        }

        /** The child sections, in order. */
        public List<Section> sections() {
            List<Section> out = new ArrayList<>();
            for (Node n : children) {
                if (n instanceof Section s) {
                    out.add(s);
                }
            }
            return List.copyOf(out);
        }
    }

    private enum Kind { WORD, INT, FLOAT, STRING, EQUALS, LBRACE, RBRACE, LBRACKET, RBRACKET, COMMA, EOF }

    private record Token(Kind kind, String text, long number, int line, int column) {
        String describe() {
            return switch (kind) {
                case EOF -> "end of input";
                case STRING -> "string \"" + text + "\"";
                default -> "\"" + text + "\"";
            };
        }
    }

    private final String source;
    private final String text;
    private int pos;
    private int line = 1;
    private int column = 1;
    private Token current;

    private LvmConfigParser(String text, String source) {
        this.text = text;
        this.source = source;
    }

    /**
     * Parses configuration text.
     *
     * @param text the whole text
     * @param source the file name for messages, or {@code <input>}
     * @return the file as a section with an empty key
     * @throws LvmMetadataException on any syntax error
     */
    public static Section parse(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        LvmConfigParser p = new LvmConfigParser(text, source);
        p.advance();
        List<Node> items = p.items(0, true);
        return new Section("", items, 1, 1);
    }

    /** {@link #parse(String, String)} with source {@code <input>}. */
    public static Section parse(String text) {
        return parse(text, "<input>");
    }

    private LvmMetadataException error(int l, int c, String message) {
        return new LvmMetadataException(source, l, c, message);
    }

    // libdm/libdm-config.c: _file / _section (items until '}' or end of input)
    private List<Node> items(int depth, boolean topLevel) {
        List<Node> items = new ArrayList<>();
        Map<String, Node> seen = new HashMap<>();
        while (true) {
            Token t = current;
            if (t.kind == Kind.EOF) {
                if (!topLevel) {
                    throw error(t.line, t.column, "expected '}', found end of input");
                }
                return items;
            }
            if (t.kind == Kind.RBRACE) {
                if (topLevel) {
                    throw error(t.line, t.column, "expected a key, found \"}\" with no open section");
                }
                return items;
            }
            Node n = item(depth);
            Node first = seen.putIfAbsent(n.key(), n);
            if (first != null) {
                throw error(n.line(), n.column(), "duplicate key \"" + n.key() + "\" (first at line " + first.line()
                        + ", column " + first.column() + ")");
            }
            items.add(n);
        }
    }

    // libdm/libdm-config.c: _section (key '=' value | key '{' items '}')
    private Node item(int depth) {
        Token key = current;
        if (key.kind != Kind.WORD && key.kind != Kind.STRING) {
            throw error(key.line, key.column, "expected a key, found " + key.describe());
        }
        advance();
        Token t = current;
        if (t.kind == Kind.EQUALS) {
            advance();
            Value v = value();
            return new Setting(key.text, v, key.line, key.column);
        }
        if (t.kind == Kind.LBRACE) {
            if (depth + 1 > MAX_DEPTH) {
                throw error(t.line, t.column, "sections nested deeper than " + MAX_DEPTH + " levels");
            }
            advance();
            List<Node> children = items(depth + 1, false);
            advance(); // the '}'
            return new Section(key.text, children, key.line, key.column);
        }
        throw error(t.line, t.column, "expected '=' or '{' after \"" + key.text + "\", found " + t.describe());
    }

    // libdm/libdm-config.c: _value (a scalar or '[' scalars, commas optional ']')
    private Value value() {
        Token t = current;
        if (t.kind == Kind.LBRACKET) {
            advance();
            List<Value> items = new ArrayList<>();
            while (current.kind != Kind.RBRACKET) {
                Token s = current;
                if (!items.isEmpty() && s.kind == Kind.COMMA) {
                    advance();
                    s = current;
                }
                Value v = scalar(true);
                if (v == null) {
                    throw error(s.line, s.column, "expected a value or ']' in the array opened at line " + t.line
                            + ", column " + t.column + ", found " + s.describe());
                }
                items.add(v);
            }
            advance();
            return new ArrayValue(items, t.line, t.column);
        }
        Value v = scalar(false);
        if (v == null) {
            throw error(t.line, t.column, "expected a value, found " + t.describe());
        }
        return v;
    }

    // libdm/libdm-config.c: _type (int, float, string)
    private Value scalar(boolean inArray) {
        Token t = current;
        Value v = switch (t.kind) {
            case INT -> new IntValue(t.number, t.line, t.column);
            case FLOAT -> new FloatValue(t.text, t.line, t.column);
            case STRING, WORD -> new StringValue(t.text, t.line, t.column);
            default -> null;
        };
        if (v != null) {
            advance();
        }
        return v;
    }

    // libdm/libdm-config.c: _get_token
    private void advance() {
        skipBlanks();
        int l = line;
        int c = column;
        if (pos >= text.length()) {
            current = new Token(Kind.EOF, "", 0, l, c);
            return;
        }
        char ch = text.charAt(pos);
        Kind single = switch (ch) {
            case '=' -> Kind.EQUALS;
            case '{' -> Kind.LBRACE;
            case '}' -> Kind.RBRACE;
            case '[' -> Kind.LBRACKET;
            case ']' -> Kind.RBRACKET;
            case ',' -> Kind.COMMA;
            default -> null;
        };
        if (single != null) {
            step();
            current = new Token(single, String.valueOf(ch), 0, l, c);
            return;
        }
        if (ch == '"') {
            current = new Token(Kind.STRING, doubleQuoted(l, c), 0, l, c);
            return;
        }
        if (ch == '\'') {
            current = new Token(Kind.STRING, singleQuoted(l, c), 0, l, c);
            return;
        }
        int start = pos;
        while (pos < text.length() && !isDelimiter(text.charAt(pos))) {
            step();
        }
        String word = text.substring(start, pos);
        int shape = numberShape(word);
        if (shape == 1) {
            current = new Token(Kind.INT, word, integer(word, l, c), l, c);
        } else if (shape == 2) {
            current = new Token(Kind.FLOAT, word, 0, l, c);
        } else {
            current = new Token(Kind.WORD, word, 0, l, c);
        }
    }

    // libdm/libdm-config.c: _type (strtoll with base 0: a leading 0 would mean octal)
    private long integer(String word, int l, int c) {
        String digits = word.charAt(0) == '+' || word.charAt(0) == '-' ? word.substring(1) : word;
        if (digits.length() > 1 && digits.charAt(0) == '0') {
            throw error(l, c, "integer \"" + word + "\" has a leading zero (LVM would read it as octal)");
        }
        if (digits.length() > 19) {
            throw error(l, c, "integer \"" + word + "\" is out of range (-2^63 to 2^63-1)");
        }
        try {
            return Long.parseLong(word.charAt(0) == '+' ? digits : word);
        } catch (NumberFormatException e) {
            throw error(l, c, "integer \"" + word + "\" is out of range (-2^63 to 2^63-1)");
        }
    }

    // libdm/libdm-config.c: _get_token and dm_unescape_double_quotes (only \" and \\ are escapes)
    private String doubleQuoted(int l, int c) {
        step();
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error(l, c, "unterminated string: expected '\"', found end of input");
            }
            char ch = text.charAt(pos);
            if (ch == '"') {
                step();
                return sb.toString();
            }
            if (ch == '\\') {
                int el = line;
                int ec = column;
                step();
                if (pos >= text.length()) {
                    throw error(l, c, "unterminated string: expected '\"', found end of input");
                }
                char e = text.charAt(pos);
                if (e != '"' && e != '\\') {
                    throw error(el, ec, "expected '\\\"' or '\\\\' in a string, found \"\\" + e + "\"");
                }
                sb.append(e);
                step();
                continue;
            }
            sb.append(ch);
            step();
        }
    }

    // libdm/libdm-config.c: _get_token (single-quoted strings have no escapes)
    private String singleQuoted(int l, int c) {
        step();
        int start = pos;
        while (pos < text.length() && text.charAt(pos) != '\'') {
            step();
        }
        if (pos >= text.length()) {
            throw error(l, c, "unterminated string: expected \"'\", found end of input");
        }
        String s = text.substring(start, pos);
        step();
        return s;
    }

    /** 1 for {@code [+-]?[0-9]+}, 2 for {@code [+-]?[0-9]*.[0-9]*} with a digit, else 0. */
    private static int numberShape(String word) {
        int i = word.startsWith("+") || word.startsWith("-") ? 1 : 0;
        int digits = 0;
        int dots = 0;
        for (; i < word.length(); i++) {
            char ch = word.charAt(i);
            if (ch >= '0' && ch <= '9') {
                digits++;
            } else if (ch == '.' && dots == 0) {
                dots++;
            } else {
                return 0;
            }
        }
        if (digits == 0) {
            return 0;
        }
        return dots == 0 ? 1 : 2;
    }

    private static boolean isDelimiter(char ch) {
        return Character.isWhitespace(ch) || ch == '#' || ch == '=' || ch == '{' || ch == '}' || ch == '['
                || ch == ']' || ch == ',' || ch == '"' || ch == '\'' || ch == '\0';
    }

    // libdm/libdm-config.c: _eat_space (whitespace, '#' comments to end of line; NUL ends on-disk text)
    private void skipBlanks() {
        while (pos < text.length()) {
            char ch = text.charAt(pos);
            if (ch == '#') {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    step();
                }
            } else if (Character.isWhitespace(ch) || ch == '\0') {
                step();
            } else {
                return;
            }
        }
    }

    private void step() {
        if (text.charAt(pos) == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        pos++;
    }
}
