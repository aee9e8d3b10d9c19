package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.Property;
import dev.dmmodel.testkit.property.PropertyResult;
import java.util.Locale;
import java.util.function.BiConsumer;

/**
 * Runs an engine property over {@link CaseGen#cases()} on the testkit's {@link Property} runner: 1000 tries
 * ({@code -Ddmmodel.tries} overrides, {@code -Pexhaustive} sets 100000), a fixed seed per property so that the
 * build is repeatable ({@code -Ddmmodel.seed} overrides), a failing case shrunk and printed with
 * {@link Case#describe()}.
 */
final class EngineProperties {
    /** The base of every engine property's seed (the property's name picks its own). */
    static final long BASE_SEED = 0x0DD5_EED0_2026_1129L;

    private EngineProperties() {
    }

    /** What a property checks of one case; collects what it saw in the coverage counters. */
    static Coverage forAll(String name, BiConsumer<Case, Coverage> check) {
        return forAll(name, CaseGen.cases(), check);
    }

    /** The same over other cases (e.g. {@link CaseGen#cases(java.util.List)} under more kernel profiles). */
    static Coverage forAll(String name, Gen<Case> cases, BiConsumer<Case, Coverage> check) {
        Coverage coverage = new Coverage();
        PropertyResult result = Property.forAll(cases)
                .named(name)
                .seed(seedOf(name))
                .describedBy(Case::describe)
                .check(c -> check.accept(c, coverage));
        coverage.tries = result.tries();
        coverage.millis = result.millis();
        System.out.printf(Locale.ROOT, "[%s] %s; %s%n", name, result, coverage);
        return coverage;
    }

    /** The fixed seed of a property: the base seed mixed with the name's FNV-1a hash. */
    static long seedOf(String name) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < name.length(); i++) {
            h ^= name.charAt(i);
            h *= 0x100000001b3L;
        }
        long s = BASE_SEED ^ h;
        return s == 0 ? 1 : s;
    }
}
