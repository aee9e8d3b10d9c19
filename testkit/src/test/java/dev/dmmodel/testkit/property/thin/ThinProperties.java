package dev.dmmodel.testkit.property.thin;

import dev.dmmodel.testkit.property.Property;
import dev.dmmodel.testkit.property.PropertyResult;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs a dm-thin property over {@link ThinCase#cases()} on the testkit's {@link Property} runner: 1000 tries
 * ({@code -Ddmmodel.tries} overrides, {@code -Pexhaustive} sets 100000) from a fixed seed ({@code -Ddmmodel.seed}
 * overrides); a failing case is shrunk to fewer thin devices, smaller ones and fewer operations.
 */
final class ThinProperties {
    private ThinProperties() {
    }

    /** The property's result and what its tries reached, summed. */
    record Outcome(PropertyResult result, Map<String, Long> coverage) {
        long get(String label) {
            return coverage.getOrDefault(label, 0L);
        }
    }

    static Outcome forAll(String name, long seed, Set<ThinWorld.Check> checks) {
        Map<String, Long> coverage = new TreeMap<>();
        PropertyResult result = Property.forAll(ThinCase.cases())
                .named(name)
                .seed(seed)
                .check(c -> new ThinWorld(c, checks).run().coverage.forEach((k, v) -> coverage.merge(k, v, Long::sum)));
        System.out.printf(Locale.ROOT, "[%s] %s; %s%n", name, result, coverage);
        return new Outcome(result, coverage);
    }
}
