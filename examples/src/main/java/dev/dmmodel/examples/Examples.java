package dev.dmmodel.examples;

/** Runs every example in turn: {@code ./mvnw -q -Prun-examples -DskipTests package}. */
public final class Examples {
    private Examples() {
    }

    /** Runs all examples. */
    public static void main(String[] args) {
        Seed003RaidPartitionLvm.run(System.out);
    }
}
