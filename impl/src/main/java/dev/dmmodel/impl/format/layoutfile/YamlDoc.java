package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.SizeUnit;
import dev.dmmodel.units.Sectors;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * A layout file's YAML (or JSON) text as SnakeYAML's node tree, with every value read through typed getters that
 * report {@code source:line:column}. Hardened: no anchors, aliases, explicit tags or second documents (so
 * "billion laughs" cannot expand), a nesting limit, a size limit, no duplicate keys.
 */
final class YamlDoc {

    /** At most this many characters (4 Mi): a layout file is a few kilobytes. */
    static final int MAX_CHARS = 4 * 1024 * 1024;
    private static final int MAX_DEPTH = 24;
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]+");

    final String source;
    final String text;
    private final List<String> lines;

    private YamlDoc(String source, String text) {
        this.source = source;
        this.text = text;
        this.lines = text.lines().toList();
    }

    /** Parses the text into a node tree; the root is returned. */
    static Parsed parse(String text, String source) {
        YamlDoc doc = new YamlDoc(source, text);
        if (text.length() > MAX_CHARS) {
            throw new LayoutFileException(source, 1, 1, "a file of " + text.length() + " characters",
                    "a layout file of at most " + MAX_CHARS + " characters", null);
        }
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(1);
        options.setAllowRecursiveKeys(false);
        options.setAllowDuplicateKeys(false);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setCodePointLimit(MAX_CHARS);
        options.setMergeOnCompose(false);
        options.setTagInspector(tag -> false);
        try {
            // one pass: the composer pulls events through a parser that refuses, as each event comes, what the
            // format has no use for (anchors, aliases, tags, more documents), before anything is composed from it
            Parser parser = new CheckingParser(new ParserImpl(new StreamReader(new StringReader(text)), options), doc);
            Composer composer = new Composer(parser, new NullOnlyResolver(), options);
            Node root = composer.getSingleNode();
            return new Parsed(doc, root);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw doc.error(m, "YAML that does not parse (" + oneLine(problem) + ")", "YAML or JSON syntax", e);
        } catch (YAMLException e) {
            throw new LayoutFileException(source, 1, 1, "YAML that does not parse (" + oneLine(e.getMessage()) + ")",
                    "YAML or JSON syntax", e);
        }
    }

    /**
     * Resolves only YAML's null ({@code ~}, {@code null}, nothing): every other value is read from its text by the
     * typed getters, so the regular expressions for booleans, numbers and timestamps need not run.
     */
    private static final class NullOnlyResolver extends Resolver {
        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.NULL, EMPTY, null);
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
        }
    }

    /** A parser that checks each event before the composer sees it. */
    private static final class CheckingParser implements Parser {
        private final Parser parser;
        private final YamlDoc doc;
        private int documents;

        CheckingParser(Parser parser, YamlDoc doc) {
            this.parser = parser;
            this.doc = doc;
        }

        @Override
        public boolean checkEvent(Event.ID choice) {
            check(parser.peekEvent());
            return parser.checkEvent(choice);
        }

        @Override
        public Event peekEvent() {
            return check(parser.peekEvent());
        }

        @Override
        public Event getEvent() {
            Event e = check(parser.getEvent());
            if (e instanceof DocumentStartEvent && ++documents > 1) {
                throw doc.error(e.getStartMark(), "a second YAML document", "one document per layout file");
            }
            return e;
        }

        private Event check(Event e) {
            if (e instanceof AliasEvent a) {
                throw doc.error(e.getStartMark(), "an alias *" + a.getAnchor(),
                        "no anchors or aliases (write each value out)");
            }
            if (e instanceof NodeEvent n && n.getAnchor() != null) {
                throw doc.error(e.getStartMark(), "an anchor &" + n.getAnchor(),
                        "no anchors or aliases (write each value out)");
            }
            String tag = e instanceof ScalarEvent s ? s.getTag()
                    : e instanceof CollectionStartEvent c ? c.getTag() : null;
            if (tag != null && !tag.equals("!")) {
                throw doc.error(e.getStartMark(), "an explicit tag " + tag, "plain values without tags");
            }
            return e;
        }
    }

    /** A parsed document and its root node (null for an empty document). */
    record Parsed(YamlDoc doc, Node root) {
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "no detail";
        }
        String t = s.strip().replaceAll("\\s+", " ");
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }

    // ------------------------------------------------------------------ errors

    LayoutFileException error(Mark m, String found, String expected) {
        return error(m, found, expected, null);
    }

    LayoutFileException error(Mark m, String found, String expected, Throwable cause) {
        int line = m == null ? 1 : m.getLine() + 1;
        int column = m == null ? 1 : m.getColumn() + 1;
        return new LayoutFileException(source, line, column, found, expected, cause);
    }

    LayoutFileException error(Node at, String found, String expected) {
        return error(at.getStartMark(), found, expected, null);
    }

    LayoutFileException error(Node at, String found, String expected, Throwable cause) {
        return error(at.getStartMark(), found, expected, cause);
    }

    /** The 1-based line and column of the {@code index}th line of a block scalar's text, for inner errors. */
    int[] blockLine(Node scalar, int index) {
        Mark m = scalar.getStartMark();
        ScalarNode s = (ScalarNode) scalar;
        boolean block = s.getScalarStyle() == org.yaml.snakeyaml.DumperOptions.ScalarStyle.LITERAL
                || s.getScalarStyle() == org.yaml.snakeyaml.DumperOptions.ScalarStyle.FOLDED;
        if (!block) {
            return new int[] {m.getLine() + 1, m.getColumn() + 1};
        }
        int line = m.getLine() + 1 + index; // 0-based line of the content line
        if (line >= lines.size()) {
            return new int[] {m.getLine() + 1, m.getColumn() + 1};
        }
        String l = lines.get(line);
        int col = 0;
        while (col < l.length() && l.charAt(col) == ' ') {
            col++;
        }
        return new int[] {line + 1, col + 1};
    }

    /** How a node looks in a message. */
    static String describe(Node n) {
        if (n instanceof ScalarNode s) {
            if (isNull(s)) {
                return "no value";
            }
            String v = s.getValue();
            return "'" + (v.length() > 60 ? v.substring(0, 60) + "..." : v).replace("\n", "\\n") + "'";
        }
        if (n instanceof MappingNode) {
            return "a mapping";
        }
        if (n instanceof SequenceNode) {
            return "a list";
        }
        return "a node";
    }

    static boolean isNull(ScalarNode s) {
        return Tag.NULL.equals(s.getTag()) && s.isPlain();
    }

    // ------------------------------------------------------------------ typed access

    /** A node as a mapping. */
    Fields mapping(Node n, String what) {
        if (!(n instanceof MappingNode m)) {
            throw error(n, describe(n), what + " (a mapping of key: value)");
        }
        return new Fields(this, m, what);
    }

    /** A node as a list. */
    List<Node> list(Node n, String what) {
        if (!(n instanceof SequenceNode s)) {
            throw error(n, describe(n), what + " (a list)");
        }
        return s.getValue();
    }

    /** A scalar's text; no value is an error. */
    String text(Node n, String what) {
        if (!(n instanceof ScalarNode s) || isNull(s)) {
            throw error(n, describe(n), what);
        }
        return s.getValue();
    }

    /** A non-empty name without white space or control characters. */
    String name(Node n, String what) {
        String t = text(n, what);
        if (t.isEmpty() || !t.codePoints().allMatch(c -> c > ' ' && c != 0x7f)) {
            throw error(n, describe(n), what + " (a non-empty name without spaces or control characters)");
        }
        return t;
    }

    /** A name or the empty string (LVM's generated name). */
    String nameOrEmpty(Node n, String what) {
        String t = text(n, what);
        return t.isEmpty() ? t : name(n, what);
    }

    /** A decimal (or 0x hexadecimal when {@code hex}) integer in [min, max]. */
    long integer(Node n, String what, long min, long max, boolean hex) {
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
    boolean bool(Node n, String what) {
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
    Bytes bytes(Node n, String what, SizeUnit bareUnit) {
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
    Sectors sectors(Node n, String what, SizeUnit bareUnit) {
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
    int word(Node n, String what, List<String> words) {
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
        final YamlDoc doc;
        final MappingNode node;
        final String what;
        private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

        Fields(YamlDoc doc, MappingNode node, String what) {
            this.doc = doc;
            this.node = node;
            this.what = what;
            for (NodeTuple t : node.getValue()) {
                Node k = t.getKeyNode();
                if (!(k instanceof ScalarNode s) || isNull(s)) {
                    throw doc.error(k, "a key that is " + describe(k), "a plain key in " + what);
                }
                if (entries.putIfAbsent(s.getValue(), t) != null) {
                    throw doc.error(k, "a second key '" + s.getValue() + "' in " + what,
                            "each key once (the first is at line "
                                    + (entries.get(s.getValue()).getKeyNode().getStartMark().getLine() + 1) + ")");
                }
            }
        }

        /** Refuses a key not in {@code allowed}, naming the allowed keys. */
        Fields allow(List<String> allowed) {
            for (NodeTuple t : entries.values()) {
                String k = ((ScalarNode) t.getKeyNode()).getValue();
                if (!allowed.contains(k)) {
                    throw doc.error(t.getKeyNode(), "unknown key '" + k + "' in " + what,
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

        Optional<Node> get(String key) {
            NodeTuple t = entries.get(key);
            return t == null ? Optional.empty() : Optional.of(t.getValueNode());
        }

        /** The key's node (for messages). */
        Node keyNode(String key) {
            return entries.get(key).getKeyNode();
        }

        Node require(String key, String expected) {
            return get(key).orElseThrow(() -> doc.error(node, what + " without '" + key + "'",
                    "a key '" + key + "': " + expected));
        }
    }
}
