package dev.dmmodel.testkit.property;

/**
 * What a property that held did.
 *
 * @param name the property's name
 * @param tries tries that passed (all of them)
 * @param discarded tries discarded by filters or assumptions
 * @param seed the seed it ran with (print it to repeat the run)
 * @param millis how long it took
 */
public record PropertyResult(String name, int tries, long discarded, long seed, long millis) {

    @Override
    public String toString() {
        return "property '" + name + "': " + tries + " tries passed" + (discarded > 0 ? ", " + discarded
                + " discarded" : "") + ", seed " + Property.hex(seed) + ", " + millis + " ms";
    }
}
