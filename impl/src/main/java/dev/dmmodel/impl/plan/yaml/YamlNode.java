package dev.dmmodel.impl.plan.yaml;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A node of a YAML plan with its 1-based line and column. */
public sealed interface YamlNode permits YamlNode.Scalar, YamlNode.Mapping, YamlNode.Sequence {

    /** The 1-based line where the node starts. */
    int line();

    /** The 1-based column where the node starts. */
    int column();

    /** What the node is, for messages: {@code "sda"}, {@code a mapping}, {@code a list}, {@code nothing}. */
    String describe();

    /**
     * A scalar.
     *
     * @param value its text, or null for YAML's null (nothing, {@code ~}, {@code null})
     * @param plain whether it was written without quotes (only plain scalars are booleans or null)
     */
    record Scalar(int line, int column, String value, boolean plain) implements YamlNode {
        @Override
        public String describe() {
            if (value == null) {
                return "nothing";
            }
            String v = value.length() > 60 ? value.substring(0, 60) + "..." : value;
            return "\"" + v.replace("\n", "\\n") + "\"";
        }
    }

    /** A key and its value. */
    record Entry(Scalar key, YamlNode value) {
        /** Rejects nulls. */
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        /** The key's text ({@code ""} for a null key). */
        public String name() {
            return key.value() == null ? "" : key.value();
        }
    }

    /** A mapping, its entries in document order. */
    record Mapping(int line, int column, List<Entry> entries) implements YamlNode {
        /** Copies the entries. */
        public Mapping {
            entries = List.copyOf(entries);
        }

        /** The entry of a key. */
        public Optional<Entry> entry(String key) {
            return entries.stream().filter(e -> e.name().equals(key)).findFirst();
        }

        /** The value of a key. */
        public Optional<YamlNode> get(String key) {
            return entry(key).map(Entry::value);
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    /** A sequence. */
    record Sequence(int line, int column, List<YamlNode> items) implements YamlNode {
        /** Copies the items. */
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }
}
