package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.SizeUnit;
import dev.dmmodel.units.Sectors;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A layout file's document, YAML ({@link YamlSyntax}, SnakeYAML) or JSON ({@link JsonSyntax}, the project's JSON
 * reader), with every value read through typed getters that report {@code source:line:column}: the same rules
 * and the same messages in either syntax. A text whose first character other than white space is '{' is JSON;
 * any other is YAML. Both are limited in size and nesting; a key twice in one mapping is refused.
 */
final class LayoutDoc {

    /** At most this many characters (4 Mi): a layout file is a few kilobytes. */
    static final int MAX_CHARS = 4 * 1024 * 1024;
    /** At most this many mappings and lists nested below the top-level one (SnakeYAML's nesting depth limit). */
    static final int MAX_DEPTH = 24;
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]+");

    final String source;
    final String text;
    private final List<String> lines;

    private LayoutDoc(String source, String text) {
        this.source = source;
        this.text = text;
        this.lines = text.lines().toList();
    }

    /** Parses the text, as JSON or as YAML, into a node tree; the root is returned. */
    static Parsed parse(String text, String source) {
        LayoutDoc doc = new LayoutDoc(source, text);
        if (text.length() > MAX_CHARS) {
            throw new LayoutFileException(source, 1, 1, "a file of " + text.length() + " characters",
                    "a layout file of at most " + MAX_CHARS + " characters", null);
        }
        DocNode root = JsonSyntax.isJson(text) ? JsonSyntax.parse(text, source) : YamlSyntax.parse(text, source);
        return new Parsed(doc, root);
    }

    /** A parsed document and its root node (null for an empty document). */
    record Parsed(LayoutDoc doc, DocNode root) {
    }

    // ------------------------------------------------------------------ errors

    LayoutFileException error(DocNode at, String found, String expected) {
        return error(at, found, expected, null);
    }

    LayoutFileException error(DocNode at, String found, String expected, Throwable cause) {
        return new LayoutFileException(source, at.line(), at.column(), found, expected, cause);
    }

    /** The 1-based line and column of the {@code index}th line of a block scalar's text, for inner errors. */
    int[] blockLine(DocNode scalar, int index) {
        if (!(scalar instanceof DocNode.Scalar s) || !s.block()) {
            return new int[] {scalar.line(), scalar.column()};
        }
        int line = scalar.line() + index; // 0-based line of the content line
        if (line >= lines.size()) {
            return new int[] {scalar.line(), scalar.column()};
        }
        String l = lines.get(line);
        int col = 0;
        while (col < l.length() && l.charAt(col) == ' ') {
            col++;
        }
        return new int[] {line + 1, col + 1};
    }

    /** How a node looks in a message. */
    static String describe(DocNode n) {
        if (n instanceof DocNode.Scalar s) {
            if (s.isNull()) {
                return "no value";
            }
            String v = s.text();
            return "'" + (v.length() > 60 ? v.substring(0, 60) + "..." : v).replace("\n", "\\n") + "'";
        }
        return n instanceof DocNode.Mapping ? "a mapping" : "a list";
    }

    // ------------------------------------------------------------------ typed access

    /** A node as a mapping. */
    Fields mapping(DocNode n, String what) {
        if (!(n instanceof DocNode.Mapping m)) {
            throw error(n, describe(n), what + " (a mapping of key: value)");
        }
        return new Fields(this, m, what);
    }

    /** A node as a list. */
    List<DocNode> list(DocNode n, String what) {
        if (!(n instanceof DocNode.Sequence s)) {
            throw error(n, describe(n), what + " (a list)");
        }
        return s.items();
    }

    /** A scalar's text; no value is an error. */
    String text(DocNode n, String what) {
        if (!(n instanceof DocNode.Scalar s) || s.isNull()) {
            throw error(n, describe(n), what);
        }
        return s.text();
    }

    /** A non-empty name without white space or control characters. */
    String name(DocNode n, String what) {
        String t = text(n, what);
        if (t.isEmpty() || !t.codePoints().allMatch(c -> c > ' ' && c != 0x7f)) {
            throw error(n, describe(n), what + " (a non-empty name without spaces or control characters)");
        }
        return t;
    }

    /** A name or the empty string (LVM's generated name). */
    String nameOrEmpty(DocNode n, String what) {
        String t = text(n, what);
        return t.isEmpty() ? t : name(n, what);
    }

    /** A decimal (or 0x hexadecimal when {@code hex}) integer in [min, max]. */
    long integer(DocNode n, String what, long min, long max, boolean hex) {
        String expected = what + ": an integer from " + min + " to " + max;
        String t = text(n, expected).strip();
        BigInteger v;
        if (INTEGER.matcher(t).matches()) {
            v = new BigInteger(t.startsWith("+") ? t.substring(1) : t);
        } else if (hex && HEX.matcher(t).matches()) {
            v = new BigInteger(t.substring(2), 16);
        } else {
            throw error(n, describe(n), expected);
        }
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw error(n, describe(n) + " (out of range)", expected);
        }
        return v.longValue();
    }

    /** true/false (also yes/no, y/n, on/off, as LVM's y|n options). */
    boolean bool(DocNode n, String what) {
        String expected = what + ": true or false";
        String t = text(n, expected).strip().toLowerCase(Locale.ROOT);
        switch (t) {
            case "true": case "yes": case "y": case "on":
                return true;
            case "false": case "no": case "n": case "off":
                return false;
            default:
                throw error(n, describe(n), expected);
        }
    }

    /**
     * A size with a unit ({@link Bytes#parse(String, SizeUnit)}); a bare number is taken in {@code bareUnit}, or
     * refused when it is null.
     */
    Bytes bytes(DocNode n, String what, SizeUnit bareUnit) {
        String expected = what + ": a size such as 2048s, 4KiB, 1MiB or 100GiB"
                + (bareUnit == null ? "" : " (a bare number is in " + unitWord(bareUnit) + ")");
        String t = text(n, expected).strip();
        if (bareUnit == null && INTEGER.matcher(t).matches() && !t.matches("[+]?0+")) {
            throw error(n, describe(n) + " (a number without a unit)", expected);
        }
        try {
            return Bytes.parse(t, bareUnit == null ? SizeUnit.BYTES : bareUnit);
        } catch (IllegalArgumentException e) {
            throw error(n, describe(n) + " (" + e.getMessage() + ")", expected, e);
        }
    }

    /** A size that is a whole number of 512-byte sectors. */
    Sectors sectors(DocNode n, String what, SizeUnit bareUnit) {
        Bytes b = bytes(n, what, bareUnit);
        if (!b.isWholeSectors()) {
            throw error(n, describe(n) + " (" + b.count() + " bytes, not a whole number of 512-byte sectors)",
                    what + ": a size in whole 512-byte sectors");
        }
        return b.toSectors();
    }

    private static String unitWord(SizeUnit u) {
        switch (u) {
            case SECTORS:
                return "512-byte sectors";
            case BYTES:
                return "bytes";
            default:
                return u.name().charAt(0) + u.name().substring(1).toLowerCase(Locale.ROOT);
        }
    }

    /** One of the given words (case-insensitive); its index. */
    int word(DocNode n, String what, List<String> words) {
        String expected = what + ": one of " + String.join(", ", words);
        String t = text(n, expected).strip();
        for (int i = 0; i < words.size(); i++) {
            if (words.get(i).equalsIgnoreCase(t)) {
                return i;
            }
        }
        throw error(n, describe(n), expected);
    }

    /** A mapping's keys and values, with unknown and duplicate keys refused. */
    static final class Fields {
        final LayoutDoc doc;
        final DocNode.Mapping node;
        final String what;
        private final Map<String, DocNode.Entry> entries = new LinkedHashMap<>();

        Fields(LayoutDoc doc, DocNode.Mapping node, String what) {
            this.doc = doc;
            this.node = node;
            this.what = what;
            for (DocNode.Entry t : node.entries()) {
                DocNode k = t.key();
                if (!(k instanceof DocNode.Scalar s) || s.isNull()) {
                    throw doc.error(k, "a key that is " + describe(k), "a plain key in " + what);
                }
                if (entries.putIfAbsent(s.text(), t) != null) {
                    throw doc.error(k, "a second key '" + s.text() + "' in " + what,
                            "each key once (the first is at line " + entries.get(s.text()).key().line() + ")");
                }
            }
        }

        /** Refuses a key not in {@code allowed}, naming the allowed keys. */
        Fields allow(List<String> allowed) {
            for (Map.Entry<String, DocNode.Entry> e : entries.entrySet()) {
                if (!allowed.contains(e.getKey())) {
                    throw doc.error(e.getValue().key(), "unknown key '" + e.getKey() + "' in " + what,
                            "one of " + String.join(", ", allowed));
                }
            }
            return this;
        }

        boolean has(String key) {
            return entries.containsKey(key);
        }

        /** The keys present, in file order. */
        List<String> keys() {
            return new ArrayList<>(entries.keySet());
        }

        Optional<DocNode> get(String key) {
            DocNode.Entry t = entries.get(key);
            return t == null ? Optional.empty() : Optional.of(t.value());
        }

        /** The key's node (for messages). */
        DocNode keyNode(String key) {
            return entries.get(key).key();
        }

        DocNode require(String key, String expected) {
            return get(key).orElseThrow(() -> doc.error(node, what + " without '" + key + "'",
                    "a key '" + key + "': " + expected));
        }
    }
}
