package dev.dmmodel.impl.plan.kickstart;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A kickstart command's options as pykickstart's {@code KSOptionParser} (an argparse parser, no abbreviations)
 * reads them: {@code --name=value} or {@code --name value}, flags without a value, everything else positional.
 * Options pykickstart knows that the dry run cannot model are refused by name.
 */
final class KsOptions {

    enum Kind { FLAG, INT, TEXT }

    private final KsLine line;
    private final Map<String, Kind> known;
    private final Map<String, String> notModelled;
    private final Map<String, KsLine.Word> values = new LinkedHashMap<>();
    private final Map<String, KsLine.Word> at = new LinkedHashMap<>();
    private final List<KsLine.Word> positional = new ArrayList<>();

    private KsOptions(KsLine line, Map<String, Kind> known, Map<String, String> notModelled) {
        this.line = line;
        this.known = known;
        this.notModelled = notModelled;
    }

    /**
     * Reads a line's options.
     *
     * @param known option name (with its dashes) to kind; aliases map to the same kind and are named by
     *     {@link #canonical}
     * @param notModelled pykickstart options the dry run refuses, with the reason
     */
    static KsOptions read(KsLine line, Map<String, Kind> known, Map<String, String> notModelled,
                          Map<String, String> aliases) {
        KsOptions o = new KsOptions(line, known, notModelled);
        List<KsLine.Word> w = line.words();
        for (int i = 1; i < w.size(); i++) {
            KsLine.Word word = w.get(i);
            String t = word.text();
            if (!t.startsWith("--") || t.equals("--")) {
                if (t.startsWith("-") && t.length() > 1) {
                    throw line.error(word, line.command() + " option \"" + t + "\": expected one of " + o.names());
                }
                o.positional.add(word);
                continue;
            }
            int eq = t.indexOf('=');
            String name = eq < 0 ? t : t.substring(0, eq);
            name = aliases.getOrDefault(name, name);
            if (notModelled.containsKey(name)) {
                throw line.error(word, line.command() + " " + name + " is not modelled by the dry run: "
                        + notModelled.get(name));
            }
            Kind kind = known.get(name);
            if (kind == null) {
                throw line.error(word, line.command() + " option \"" + (eq < 0 ? t : t.substring(0, eq))
                        + "\": expected one of " + o.names());
            }
            if (o.at.containsKey(name) && kind != Kind.FLAG) {
                throw line.error(word, line.command() + " " + name + " given twice: expected it once");
            }
            o.at.put(name, word);
            if (kind == Kind.FLAG) {
                if (eq >= 0) {
                    throw line.error(word, line.command() + " " + name + " takes no value: found \""
                            + t.substring(eq + 1) + "\"");
                }
                continue;
            }
            KsLine.Word value;
            if (eq >= 0) {
                value = new KsLine.Word(t.substring(eq + 1), word.column() + eq + 1);
            } else {
                if (i + 1 >= w.size()) {
                    throw line.error(word, line.command() + " " + name + " without its value: expected " + name
                            + "=" + (kind == Kind.INT ? "NUMBER" : "VALUE"));
                }
                value = w.get(++i);
            }
            if (kind == Kind.INT) {
                o.integer(name, value);
            }
            o.values.put(name, value);
        }
        return o;
    }

    private String names() {
        Set<String> all = new TreeSet<>(known.keySet());
        return String.join(", ", all);
    }

    private long integer(String name, KsLine.Word value) {
        String t = value.text();
        if (!t.matches("[0-9]{1,18}")) {
            throw line.error(value, line.command() + " " + name + " \"" + t + "\": expected a whole number"
                    + (t.matches("[0-9]+") ? " below 10^18" : ""));
        }
        return new BigInteger(t).longValueExact();
    }

    boolean has(String name) {
        return at.containsKey(name);
    }

    KsLine.Word word(String name) {
        return at.get(name);
    }

    KsLine.Word value(String name) {
        return values.get(name);
    }

    String text(String name, String otherwise) {
        KsLine.Word v = values.get(name);
        return v == null ? otherwise : v.text();
    }

    long number(String name, long otherwise) {
        KsLine.Word v = values.get(name);
        return v == null ? otherwise : integer(name, v);
    }

    List<KsLine.Word> positional() {
        return List.copyOf(positional);
    }

    /** A comma-separated list value ({@code --drives=sda,sdb}), each name checked. */
    List<String> list(String name) {
        KsLine.Word v = values.get(name);
        if (v == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : v.text().split(",", -1)) {
            String d = s.strip();
            if (d.startsWith("/dev/")) {
                d = d.substring(5);
            }
            if (!d.matches("[A-Za-z0-9_.:+-][A-Za-z0-9_./:+-]*")) {
                throw line.error(v, line.command() + " " + name + " \"" + v.text() + "\": expected disk names "
                        + "separated by commas (sda,sdb)");
            }
            out.add(d);
        }
        return out;
    }
}
