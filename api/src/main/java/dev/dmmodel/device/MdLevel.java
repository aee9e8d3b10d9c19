package dev.dmmodel.device;

import java.util.Objects;
import java.util.Optional;

/**
 * The md (Linux software RAID) personalities the model has, as {@code /sys/block/mdN/md/level} names them.
 * Arrays of other levels ({@code linear}, {@code multipath}, {@code faulty}, containers) are imported as
 * devices with their recorded limits and no members.
 */
public enum MdLevel {
    /** Striping ({@code drivers/md/raid0.c}). */
    RAID0("raid0", 0),
    /** Mirroring ({@code drivers/md/raid1.c}). */
    RAID1("raid1", 1),
    /** Dedicated parity disk ({@code drivers/md/raid5.c}, level 4). */
    RAID4("raid4", 4),
    /** Rotating single parity ({@code drivers/md/raid5.c}). */
    RAID5("raid5", 5),
    /** Rotating double parity, P and Q ({@code drivers/md/raid5.c}, level 6). */
    RAID6("raid6", 6),
    /** Striped copies: near, far and offset layouts ({@code drivers/md/raid10.c}). */
    RAID10("raid10", 10);

    private final String sysfsName;
    private final int number;

    MdLevel(String sysfsName, int number) {
        this.sysfsName = sysfsName;
        this.number = number;
    }

    /** The name {@code md/level} shows and {@code mdadm --level} takes ({@code raid5}). */
    public String sysfsName() {
        return sysfsName;
    }

    /** The level number ({@code mddev->level}): 0, 1, 4, 5, 6 or 10. */
    public int number() {
        return number;
    }

    /** Whether the level keeps parity (raid4, raid5, raid6): writes go through raid5's stripe cache. */
    public boolean hasParity() {
        return this == RAID4 || this == RAID5 || this == RAID6;
    }

    /** Whether the array has a chunk size ({@code md/chunk_size}); raid1 has none. */
    public boolean hasChunk() {
        return this != RAID1;
    }

    /**
     * The level of an {@code md/level} file or {@code mdadm --level} argument: {@code raid5}, {@code 5}
     * (mdadm also takes {@code stripe} for 0 and {@code mirror} for 1); empty for a level the model does not have.
     */
    public static Optional<MdLevel> parse(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.strip().toLowerCase(java.util.Locale.ROOT);
        for (MdLevel l : values()) {
            if (t.equals(l.sysfsName) || t.equals(Integer.toString(l.number))) {
                return Optional.of(l);
            }
        }
        if (t.equals("stripe")) {
            return Optional.of(RAID0);
        }
        if (t.equals("mirror")) {
            return Optional.of(RAID1);
        }
        return Optional.empty();
    }
}
