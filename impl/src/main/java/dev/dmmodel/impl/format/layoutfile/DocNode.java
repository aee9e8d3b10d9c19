package dev.dmmodel.impl.format.layoutfile;

import java.util.List;
import java.util.Objects;

/**
 * A layout file's document as the reader checks it, whichever syntax it came in: YAML ({@link YamlSyntax}) or JSON
 * ({@link JsonSyntax}). Every node knows the 1-based line and column where it starts. Scalars are text, as the
 * reader takes every value from its text ({@code 4096}, {@code "4096"} and {@code 4KiB} alike).
 */
sealed interface DocNode permits DocNode.Scalar, DocNode.Mapping, DocNode.Sequence {

    /** The 1-based line where the node starts. */
    int line();

    /** The 1-based column where the node starts. */
    int column();

    /**
     * A scalar.
     *
     * @param text its text; null for no value (YAML's {@code ~}, {@code null} or nothing; JSON's {@code null})
     * @param block whether it is a YAML literal or folded block, whose lines stand on lines of their own
     */
    record Scalar(int line, int column, String text, boolean block) implements DocNode {
        /** Whether the scalar has no value. */
        boolean isNull() {
            return text == null;
        }
    }

    /** A mapping (a JSON object): its entries in file order, a key repeated kept (the reader refuses it). */
    record Mapping(int line, int column, List<Entry> entries) implements DocNode {
        /** Copies the entries. */
        public Mapping {
            entries = List.copyOf(entries);
        }
    }

    /** One {@code key: value} of a mapping; in YAML the key need not be a scalar (the reader refuses it). */
    record Entry(DocNode key, DocNode value) {
        /** Checks the parts. */
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** A list (a JSON array). */
    record Sequence(int line, int column, List<DocNode> items) implements DocNode {
        /** Copies the items. */
        public Sequence {
            items = List.copyOf(items);
        }
    }
}
