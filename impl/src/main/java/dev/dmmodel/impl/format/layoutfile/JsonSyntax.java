package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.impl.format.json.JsonException;
import dev.dmmodel.impl.format.json.JsonReader;
import dev.dmmodel.impl.format.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON layout file through the project's strict JSON reader ({@link JsonReader}, RFC 8259), into
 * {@link DocNode}s: strings, numbers and {@code true}/{@code false} become scalars of their text, {@code null} no
 * value, objects mappings (their keys at the key's opening quote), arrays lists. Nesting is limited as in YAML.
 */
final class JsonSyntax {

    private static final String JSON_PREFIX = "found ";
    private static final String EXPECTED = "; expected ";

    private JsonSyntax() {
    }

    /** Whether a layout file's text is JSON: its first character other than white space is '{'. */
    static boolean isJson(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return c == '{';
            }
        }
        return false;
    }

    /** The document's root. */
    static DocNode parse(String text, String source) {
        JsonValue root;
        try {
            root = JsonReader.parse(text, source);
        } catch (JsonException e) {
            // the reader says "found X; expected Y": the layout file's "found; expected" with the syntax named
            String problem = e.problem();
            int cut = problem.indexOf(EXPECTED);
            if (problem.startsWith(JSON_PREFIX) && cut > 0) {
                throw new LayoutFileException(source, e.line(), e.column(), "JSON that does not parse ("
                        + problem.substring(JSON_PREFIX.length(), cut) + ")", problem.substring(cut + EXPECTED.length()),
                        e);
            }
            throw new LayoutFileException(source, e.line(), e.column(), "JSON that does not parse (" + problem + ")",
                    "JSON as RFC 8259 defines it", e);
        }
        return node(root, 0, source);
    }

    private static DocNode node(JsonValue v, int depth, String source) {
        if (v instanceof JsonValue.JsonObject o) {
            nesting(v, depth, "an object", source);
            List<DocNode.Entry> entries = new ArrayList<>();
            for (JsonValue.Member m : o.members()) {
                entries.add(new DocNode.Entry(new DocNode.Scalar(m.line(), m.column(), m.key(), false),
                        node(m.value(), depth + 1, source)));
            }
            return new DocNode.Mapping(v.line(), v.column(), entries);
        }
        if (v instanceof JsonValue.JsonArray a) {
            nesting(v, depth, "an array", source);
            List<DocNode> items = new ArrayList<>();
            for (JsonValue item : a.items()) {
                items.add(node(item, depth + 1, source));
            }
            return new DocNode.Sequence(v.line(), v.column(), items);
        }
        String text;
        if (v instanceof JsonValue.JsonString s) {
            text = s.value();
        } else if (v instanceof JsonValue.JsonNumber n) {
            text = n.text();
        } else if (v instanceof JsonValue.JsonBoolean b) {
            text = Boolean.toString(b.value());
        } else {
            text = null; // JsonNull: no value
        }
        return new DocNode.Scalar(v.line(), v.column(), text, false);
    }

    // the YAML reader's nesting limit (SnakeYAML's: MAX_DEPTH collections below the top one), for either syntax
    private static void nesting(JsonValue v, int depth, String what, String source) {
        if (depth > LayoutDoc.MAX_DEPTH) {
            throw new LayoutFileException(source, v.line(), v.column(), what + " " + depth
                    + " levels below the top-level object", "objects and arrays nested at most " + LayoutDoc.MAX_DEPTH
                    + " levels below it", null);
        }
    }
}
