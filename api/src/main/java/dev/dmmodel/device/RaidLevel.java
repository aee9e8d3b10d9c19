package dev.dmmodel.device;

/** RAID levels of a hardware RAID volume, with how many of its disks carry data in a stripe. */
public enum RaidLevel {
    /** Striping, no redundancy: all disks carry data. */
    RAID0,
    /** Mirroring: one disk's worth of data. */
    RAID1,
    /** Single parity: n − 1 data disks. */
    RAID5,
    /** Double parity: n − 2 data disks. */
    RAID6,
    /** Striped mirrors: n / 2 data disks. */
    RAID10;

    /**
     * The number of data disks in a full stripe of {@code disks} member disks.
     *
     * @throws IllegalArgumentException if the level needs more disks or an even count
     */
    public int dataDisks(int disks) {
        switch (this) {
            case RAID0:
                require(disks >= 1, disks, "at least 1");
                return disks;
            case RAID1:
                require(disks >= 2, disks, "at least 2");
                return 1;
            case RAID5:
                require(disks >= 3, disks, "at least 3");
                return disks - 1;
            case RAID6:
                require(disks >= 4, disks, "at least 4");
                return disks - 2;
            case RAID10:
                require(disks >= 4 && disks % 2 == 0, disks, "an even number of at least 4");
                return disks / 2;
            default:
                throw new AssertionError(this);
        }
    }

    private void require(boolean ok, int disks, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(name() + " with " + disks + " disks: the level needs " + rule + " disks");
        }
    }
}
