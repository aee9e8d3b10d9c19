package dev.dmmodel.examples;

/** Runs every example in turn: {@code ./mvnw -q -Prun-examples -DskipTests package}. */
public final class Examples {
    private Examples() {
    }

    /** Runs all examples. */
    public static void main(String[] args) {
        Seed000SeekyLvm.run(System.out);
        Seed001RawReadWhileMounted.run(System.out);
        Seed002IostatOnDm.run(System.out);
        Seed003RaidPartitionLvm.run(System.out);
        Seed004ThinSplit.run(System.out);
        LuksOnLvm.run(System.out);
        SnapshotBackup.run(System.out);
    }
}
