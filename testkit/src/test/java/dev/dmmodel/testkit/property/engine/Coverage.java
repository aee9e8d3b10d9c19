package dev.dmmodel.testkit.property.engine;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counters a property collects over its tries (how many cases had dm splits, disk splits, ...), so a test
 * can show that its generator reaches the situations the property is about instead of passing vacuously.
 */
final class Coverage {
    private final Map<String, Long> counts = new TreeMap<>();
    int tries;
    long millis;

    void add(String label) {
        add(label, 1);
    }

    void add(String label, long n) {
        counts.merge(label, n, Long::sum);
    }

    long get(String label) {
        return counts.getOrDefault(label, 0L);
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
