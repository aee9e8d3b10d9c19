package dev.dmmodel.impl.plan.yaml;

import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The keys of one YAML mapping of a plan (a curtin entry, an Ansible task's arguments), read with the types the
 * format gives them; every value of the wrong shape is a {@link PlanException} naming the key, what was found and
 * what was expected, at the value's line and column.
 */
public final class YamlFields {

    private final String source;
    private final YamlNode.Mapping map;
    private final String what;

    /**
     * @param source the plan's file name
     * @param map the mapping
     * @param what the mapping as messages name it ({@code partition "sda-part1"}, {@code task "make the VG"})
     */
    public YamlFields(String source, YamlNode.Mapping map, String what) {
        this.source = Objects.requireNonNull(source, "source");
        this.map = Objects.requireNonNull(map, "map");
        this.what = Objects.requireNonNull(what, "what");
    }

    /** The mapping. */
    public YamlNode.Mapping map() {
        return map;
    }

    /** The mapping as messages name it. */
    public String what() {
        return what;
    }

    /** An error at a node: {@code source:line:column: WHAT: problem}. */
    public PlanException error(YamlNode at, String problem) {
        return new PlanException(source, at.line(), at.column(), what + ": " + problem);
    }

    /** An error at the mapping itself. */
    public PlanException error(String problem) {
        return error(map, problem);
    }

    /** {@code WHAT: KEY X: expected WHAT} at the key's value. */
    public PlanException expected(String key, YamlNode at, String expected) {
        return error(at, key + " " + at.describe() + ": expected " + expected);
    }

    /** Refuses a key not in {@code allowed}, naming the keys expected. */
    public void allowOnly(Set<String> allowed) {
        for (YamlNode.Entry e : map.entries()) {
            if (!allowed.contains(e.name())) {
                throw error(e.key(), "key " + e.key().describe() + ": expected one of "
                        + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
    }

    /** Whether the key is present (with any value, null included). */
    public boolean has(String key) {
        return map.get(key).isPresent();
    }

    /** The value of a key, if present. */
    public Optional<YamlNode> node(String key) {
        return map.get(key);
    }

    /** The scalar of a key, empty if absent or null; a mapping or list is an error. */
    public Optional<YamlNode.Scalar> scalar(String key) {
        Optional<YamlNode> n = map.get(key);
        if (n.isEmpty()) {
            return Optional.empty();
        }
        if (!(n.get() instanceof YamlNode.Scalar s)) {
            throw expected(key, n.get(), "a single value");
        }
        return s.value() == null ? Optional.empty() : Optional.of(s);
    }

    /** The text of a key, empty if absent or null. */
    public Optional<String> string(String key) {
        return scalar(key).map(YamlNode.Scalar::value);
    }

    /** The text of a key that must be given. */
    public String required(String key, String expected) {
        return scalar(key).map(YamlNode.Scalar::value).orElseThrow(() -> {
            YamlNode at = map.get(key).orElse(map);
            return error(at, "no " + key + ": expected " + key + ": " + expected);
        });
    }

    /** The value of a key as one of a set of words. */
    public Optional<String> oneOf(String key, Set<String> values) {
        Optional<YamlNode.Scalar> s = scalar(key);
        if (s.isPresent() && !values.contains(s.get().value())) {
            throw expected(key, s.get(), "one of " + String.join(", ", new java.util.TreeSet<>(values)));
        }
        return s.map(YamlNode.Scalar::value);
    }

    /** A whole number between {@code min} and {@code max}. */
    public Optional<Long> integer(String key, long min, long max) {
        Optional<YamlNode.Scalar> s = scalar(key);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        String v = s.get().value().strip();
        if (!v.matches("[+-]?[0-9]{1,18}")) {
            throw expected(key, s.get(), "a whole number from " + min + " to " + max);
        }
        long n = Long.parseLong(v);
        if (n < min || n > max) {
            throw expected(key, s.get(), "a whole number from " + min + " to " + max);
        }
        return Optional.of(n);
    }

    /**
     * A list of words: a YAML list of values, or (where {@code commaString}) one value of comma-separated words as
     * Ansible's {@code type=list} splits it.
     */
    public Optional<List<YamlNode.Scalar>> list(String key, boolean commaString) {
        Optional<YamlNode> n = map.get(key);
        if (n.isEmpty() || (n.get() instanceof YamlNode.Scalar s0 && s0.value() == null)) {
            return Optional.empty();
        }
        List<YamlNode.Scalar> out = new ArrayList<>();
        if (n.get() instanceof YamlNode.Sequence seq) {
            for (YamlNode item : seq.items()) {
                if (!(item instanceof YamlNode.Scalar s) || s.value() == null) {
                    throw expected(key, item, "a list of single values");
                }
                out.add(s);
            }
            return Optional.of(out);
        }
        if (commaString && n.get() instanceof YamlNode.Scalar s) {
            for (String part : s.value().split(",", -1)) {
                String p = part.strip();
                if (p.isEmpty()) {
                    throw expected(key, s, "comma-separated values without empty ones");
                }
                out.add(new YamlNode.Scalar(s.line(), s.column(), p, s.plain()));
            }
            return Optional.of(out);
        }
        throw expected(key, n.get(), commaString ? "a list or comma-separated values" : "a list");
    }
}
