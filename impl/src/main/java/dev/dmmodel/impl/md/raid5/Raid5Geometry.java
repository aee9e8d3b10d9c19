package dev.dmmodel.impl.md.raid5;

/**
 * The geometry of an md raid4, raid5 or raid6 array ({@code drivers/md/raid5.c}): which member holds an array sector
 * ({@code raid5_compute_sector}), which array sector a member page holds ({@code raid5_compute_blocknr}), where P and
 * Q sit in each stripe, and the order of the data blocks in raid6's Q syndrome ({@code set_syndrome_sources}).
 *
 * <p>All sectors are 512-byte sectors. A member sector is counted from the member's data offset (metadata 1.2 on the
 * recorded 1 GiB disks puts it at 4096), as the kernel's {@code sh->sector} is. An immutable value; equal when level,
 * algorithm, disks and chunk are equal.
 */
public final class Raid5Geometry {
    /** {@code STRIPE_SECTORS}: a stripe head covers one 4 KiB page, 8 sectors, on every member. */
    public static final long STRIPE_SECTORS = 8;

    /** {@code ALGORITHM_LEFT_ASYMMETRIC}: parity rotates from the last disk down, data restarts at disk 0. */
    public static final int ALGORITHM_LEFT_ASYMMETRIC = 0;
    /** {@code ALGORITHM_RIGHT_ASYMMETRIC}: parity rotates from disk 0 up, data restarts at disk 0. */
    public static final int ALGORITHM_RIGHT_ASYMMETRIC = 1;
    /** {@code ALGORITHM_LEFT_SYMMETRIC}: parity from the last disk down, data continues after parity (mdadm's default). */
    public static final int ALGORITHM_LEFT_SYMMETRIC = 2;
    /** {@code ALGORITHM_RIGHT_SYMMETRIC}: parity from disk 0 up, data continues after parity. */
    public static final int ALGORITHM_RIGHT_SYMMETRIC = 3;
    /** {@code ALGORITHM_PARITY_0}: P (and Q) on the first disk(s), no rotation. */
    public static final int ALGORITHM_PARITY_0 = 4;
    /** {@code ALGORITHM_PARITY_N}: P (and Q) on the last disk(s), no rotation (raid4's layout). */
    public static final int ALGORITHM_PARITY_N = 5;
    /** {@code ALGORITHM_ROTATING_ZERO_RESTART}: DDF PRL=6 RLQ=1, raid6 only; Q over the disks in device order. */
    public static final int ALGORITHM_ROTATING_ZERO_RESTART = 8;
    /** {@code ALGORITHM_ROTATING_N_RESTART}: DDF PRL=6 RLQ=2, raid6 only. */
    public static final int ALGORITHM_ROTATING_N_RESTART = 9;
    /** {@code ALGORITHM_ROTATING_N_CONTINUE}: DDF PRL=6 RLQ=3, raid6 only; Q just before P. */
    public static final int ALGORITHM_ROTATING_N_CONTINUE = 10;
    /** {@code ALGORITHM_LEFT_ASYMMETRIC_6}: raid5's left-asymmetric on the first n-1 disks, Q on the last. */
    public static final int ALGORITHM_LEFT_ASYMMETRIC_6 = 16;
    /** {@code ALGORITHM_RIGHT_ASYMMETRIC_6}: raid5's right-asymmetric on the first n-1 disks, Q on the last. */
    public static final int ALGORITHM_RIGHT_ASYMMETRIC_6 = 17;
    /** {@code ALGORITHM_LEFT_SYMMETRIC_6}: raid5's left-symmetric on the first n-1 disks, Q on the last. */
    public static final int ALGORITHM_LEFT_SYMMETRIC_6 = 18;
    /** {@code ALGORITHM_RIGHT_SYMMETRIC_6}: raid5's right-symmetric on the first n-1 disks, Q on the last. */
    public static final int ALGORITHM_RIGHT_SYMMETRIC_6 = 19;
    /** {@code ALGORITHM_PARITY_0_6}: P on disk 0, Q on the last disk. */
    public static final int ALGORITHM_PARITY_0_6 = 20;

    /** The most members this model accepts: raid6's GF(2^8) syndrome covers at most 256 devices. */
    public static final int MAX_RAID_DISKS = 256;

    /**
     * Where an array sector lives.
     *
     * @param dataDisk the member holding it ({@code dd_idx})
     * @param pDisk the member holding that stripe's P ({@code pd_idx})
     * @param qDisk the member holding that stripe's Q ({@code qd_idx}), -1 below raid6
     * @param memberSector the sector on {@code dataDisk}, counted from the member's data offset
     */
    public record Location(int dataDisk, int pDisk, int qDisk, long memberSector) {
        /** Checks that the disks and the sector are not negative (qDisk may be -1). */
        public Location {
            if (dataDisk < 0 || pDisk < 0 || qDisk < -1 || memberSector < 0) {
                throw new IllegalArgumentException("Location: dataDisk (" + dataDisk + "), pDisk (" + pDisk
                        + "), memberSector (" + memberSector + ") must not be negative, qDisk (" + qDisk
                        + ") must be >= -1");
            }
        }
    }

    private final int level;
    private final int algorithm;
    private final int raidDisks;
    private final long chunkSectors;

    /**
     * A geometry as md's {@code setup_conf} accepts it.
     *
     * @param level 4, 5 or 6
     * @param algorithm the layout ({@code ALGORITHM_*}): 0..5 for raid4 and raid5 (raid4 ignores it: parity is
     *     always on the last disk), 0..5, 8..10 or 16..20 for raid6 ({@code algorithm_valid_raid5/6})
     * @param raidDisks members: at least 2 for raid4/5 (one data disk and parity; mdadm's minimum), at least 4 for
     *     raid6 ({@code setup_conf}), at most {@link #MAX_RAID_DISKS}
     * @param chunkSectors the chunk in sectors: a power of two and a multiple of 8 (a whole 4 KiB page,
     *     {@code setup_conf}), at most {@code Integer.MAX_VALUE} (the kernel's {@code int chunk_sectors})
     * @throws IllegalArgumentException naming the field, its value and the rule broken
     */
    public Raid5Geometry(int level, int algorithm, int raidDisks, long chunkSectors) {
        if (level != 4 && level != 5 && level != 6) {
            throw new IllegalArgumentException("level (" + level + ") must be 4, 5 or 6 (drivers/md/raid5.c serves"
                    + " raid4/5/6)");
        }
        if (level == 6 ? !validRaid6(algorithm) : !validRaid5(algorithm)) {
            throw new IllegalArgumentException("algorithm (" + algorithm + ") is not a raid" + level + " layout: "
                    + (level == 6 ? "0..5, 8..10 or 16..20 (algorithm_valid_raid6)" : "0..5 (algorithm_valid_raid5)"));
        }
        int minDisks = level == 6 ? 4 : 2;
        if (raidDisks < minDisks || raidDisks > MAX_RAID_DISKS) {
            throw new IllegalArgumentException("raidDisks (" + raidDisks + ") must be " + minDisks + ".."
                    + MAX_RAID_DISKS + " for raid" + level + (level == 6
                            ? " (setup_conf: raid6 needs at least 4 devices)"
                            : " (one data disk and parity at least)"));
        }
        if (chunkSectors < STRIPE_SECTORS || chunkSectors > Integer.MAX_VALUE
                || Long.bitCount(chunkSectors) != 1) {
            throw new IllegalArgumentException("chunkSectors (" + chunkSectors + ") must be a power of two and a"
                    + " multiple of 8 sectors (a 4 KiB page), at most " + Integer.MAX_VALUE + " (setup_conf)");
        }
        this.level = level;
        this.algorithm = algorithm;
        this.raidDisks = raidDisks;
        this.chunkSectors = chunkSectors;
    }

    // drivers/md/raid5.h: algorithm_valid_raid5
    private static boolean validRaid5(int algorithm) {
        return algorithm >= 0 && algorithm <= 5;
    }

    // drivers/md/raid5.h: algorithm_valid_raid6
    private static boolean validRaid6(int algorithm) {
        return validRaid5(algorithm) || (algorithm >= 8 && algorithm <= 10) || (algorithm >= 16 && algorithm <= 20);
    }

    /** The raid level: 4, 5 or 6. */
    public int level() {
        return level;
    }

    /** The layout number ({@code ALGORITHM_*}). */
    public int algorithm() {
        return algorithm;
    }

    /** The number of members ({@code raid_disks}). */
    public int raidDisks() {
        return raidDisks;
    }

    /** The chunk in sectors. */
    public long chunkSectors() {
        return chunkSectors;
    }

    /** {@code max_degraded}: the parity blocks per stripe, 2 for raid6, else 1. */
    public int maxDegraded() {
        return level == 6 ? 2 : 1;
    }

    /** The data members per stripe: {@code raid_disks - max_degraded}. */
    public int dataDisks() {
        return raidDisks - maxDegraded();
    }

    /** The array sectors in one stripe row: chunk × data disks (md's io_opt, in sectors). */
    public long stripeDataSectors() {
        return chunkSectors * dataDisks();
    }

    /**
     * Whether Q is computed over the blocks in device order from disk 0 ({@code ddf_layout}: the DDF raid6 layouts
     * 8..10) rather than from the disk after Q.
     */
    public boolean ddfLayout() {
        return level == 6 && algorithm >= 8 && algorithm <= 10;
    }

    /**
     * The array's size for members of {@code componentSectors} data sectors each ({@code raid5_size}): the member size
     * rounded down to a whole chunk, times the data disks.
     *
     * @throws IllegalArgumentException if {@code componentSectors} is below one chunk or the size overflows
     */
    public long arraySectors(long componentSectors) {
        if (componentSectors < chunkSectors) {
            throw new IllegalArgumentException("componentSectors (" + componentSectors + ") must be at least one chunk ("
                    + chunkSectors + " sectors)");
        }
        long whole = componentSectors - componentSectors % chunkSectors;
        if (whole > Long.MAX_VALUE / dataDisks()) {
            throw new IllegalArgumentException("componentSectors (" + componentSectors + ") times " + dataDisks()
                    + " data disks overflows a sector count");
        }
        return whole * dataDisks();
    }

    /** P, Q and the disk of each data index in one stripe row. */
    private record Row(int pd, int qd, int[] dataDiskOf) {
    }

    // drivers/md/raid5.c: raid5_compute_sector — the switch on level and algorithm choosing pd_idx, qd_idx and
    // turning the data index within the row into a disk index
    private Row row(long stripe) {
        int n = raidDisks;
        int data = dataDisks();
        int pd;
        int qd = -1;
        int[] disk = new int[data];
        for (int i = 0; i < data; i++) {
            disk[i] = i;
        }
        if (level == 4) {
            pd = data;
            return new Row(pd, qd, disk);
        }
        if (level == 5) {
            switch (algorithm) {
                case ALGORITHM_LEFT_ASYMMETRIC, ALGORITHM_RIGHT_ASYMMETRIC -> {
                    pd = algorithm == ALGORITHM_LEFT_ASYMMETRIC ? data - mod(stripe, n) : mod(stripe, n);
                    for (int i = 0; i < data; i++) {
                        disk[i] = i >= pd ? i + 1 : i;
                    }
                }
                case ALGORITHM_LEFT_SYMMETRIC, ALGORITHM_RIGHT_SYMMETRIC -> {
                    pd = algorithm == ALGORITHM_LEFT_SYMMETRIC ? data - mod(stripe, n) : mod(stripe, n);
                    for (int i = 0; i < data; i++) {
                        disk[i] = (pd + 1 + i) % n;
                    }
                }
                case ALGORITHM_PARITY_0 -> {
                    pd = 0;
                    for (int i = 0; i < data; i++) {
                        disk[i] = i + 1;
                    }
                }
                default -> pd = data; // ALGORITHM_PARITY_N
            }
            return new Row(pd, qd, disk);
        }
        switch (algorithm) {
            case ALGORITHM_LEFT_ASYMMETRIC, ALGORITHM_RIGHT_ASYMMETRIC, ALGORITHM_ROTATING_ZERO_RESTART,
                    ALGORITHM_ROTATING_N_RESTART -> {
                // ROTATING_ZERO_RESTART places like RIGHT_ASYMMETRIC, ROTATING_N_RESTART like LEFT_ASYMMETRIC one
                // row on (its first row is D D D P Q, not Q D D D P)
                boolean fromTop = algorithm == ALGORITHM_LEFT_ASYMMETRIC || algorithm == ALGORITHM_ROTATING_N_RESTART;
                long s = algorithm == ALGORITHM_ROTATING_N_RESTART ? stripe + 1 : stripe;
                pd = fromTop ? n - 1 - mod(s, n) : mod(s, n);
                if (pd == n - 1) {
                    qd = 0; // Q D D D P
                    for (int i = 0; i < data; i++) {
                        disk[i] = i + 1;
                    }
                } else {
                    qd = pd + 1; // D D P Q D
                    for (int i = 0; i < data; i++) {
                        disk[i] = i >= pd ? i + 2 : i;
                    }
                }
            }
            case ALGORITHM_LEFT_SYMMETRIC, ALGORITHM_RIGHT_SYMMETRIC -> {
                pd = algorithm == ALGORITHM_LEFT_SYMMETRIC ? n - 1 - mod(stripe, n) : mod(stripe, n);
                qd = (pd + 1) % n;
                for (int i = 0; i < data; i++) {
                    disk[i] = (pd + 2 + i) % n;
                }
            }
            case ALGORITHM_PARITY_0 -> {
                pd = 0;
                qd = 1;
                for (int i = 0; i < data; i++) {
                    disk[i] = i + 2;
                }
            }
            case ALGORITHM_PARITY_N -> {
                pd = data;
                qd = data + 1;
            }
            case ALGORITHM_ROTATING_N_CONTINUE -> {
                // left-symmetric with Q just before P
                pd = n - 1 - mod(stripe, n);
                qd = (pd + n - 1) % n;
                for (int i = 0; i < data; i++) {
                    disk[i] = (pd + 1 + i) % n;
                }
            }
            case ALGORITHM_LEFT_ASYMMETRIC_6, ALGORITHM_RIGHT_ASYMMETRIC_6 -> {
                pd = algorithm == ALGORITHM_LEFT_ASYMMETRIC_6 ? data - mod(stripe, n - 1) : mod(stripe, n - 1);
                qd = n - 1;
                for (int i = 0; i < data; i++) {
                    disk[i] = i >= pd ? i + 1 : i;
                }
            }
            case ALGORITHM_LEFT_SYMMETRIC_6, ALGORITHM_RIGHT_SYMMETRIC_6 -> {
                pd = algorithm == ALGORITHM_LEFT_SYMMETRIC_6 ? data - mod(stripe, n - 1) : mod(stripe, n - 1);
                qd = n - 1;
                for (int i = 0; i < data; i++) {
                    disk[i] = (pd + 1 + i) % (n - 1);
                }
            }
            default -> { // ALGORITHM_PARITY_0_6
                pd = 0;
                qd = n - 1;
                for (int i = 0; i < data; i++) {
                    disk[i] = i + 1;
                }
            }
        }
        return new Row(pd, qd, disk);
    }

    private static int mod(long value, int divisor) {
        return (int) (value % divisor);
    }

    /**
     * The member holding an array sector, that stripe's P and Q disks and the member sector
     * ({@code raid5_compute_sector}): chunk number and offset, stripe row = chunk number / data disks, the data index
     * = chunk number mod data disks placed by the layout, member sector = row × chunk + offset.
     *
     * @throws IllegalArgumentException if {@code arraySector} is negative
     */
    public Location computeSector(long arraySector) {
        requireSector("arraySector", arraySector);
        long chunkNumber = arraySector / chunkSectors;
        long chunkOffset = arraySector % chunkSectors;
        long stripe = chunkNumber / dataDisks();
        int dataIndex = (int) (chunkNumber % dataDisks());
        Row r = row(stripe);
        return new Location(r.dataDiskOf[dataIndex], r.pd, r.qd, stripe * chunkSectors + chunkOffset);
    }

    /**
     * The P disk of the stripe row holding {@code memberSector} ({@code stripe_set_idx}).
     *
     * @throws IllegalArgumentException if {@code memberSector} is negative
     */
    public int parityDisk(long memberSector) {
        requireSector("memberSector", memberSector);
        return row(memberSector / chunkSectors).pd;
    }

    /**
     * The Q disk of the stripe row holding {@code memberSector}, -1 below raid6 ({@code stripe_set_idx}).
     *
     * @throws IllegalArgumentException if {@code memberSector} is negative
     */
    public int qDisk(long memberSector) {
        requireSector("memberSector", memberSector);
        return row(memberSector / chunkSectors).qd;
    }

    /**
     * Whether {@code disk} holds data (not P or Q) in the stripe row holding {@code memberSector}.
     *
     * @throws IllegalArgumentException if the sector is negative or the disk is not a member
     */
    public boolean isDataDisk(long memberSector, int disk) {
        requireDisk(disk);
        Row r = row(memberSector(memberSector) / chunkSectors);
        return disk != r.pd && disk != r.qd;
    }

    /**
     * The array sector held at {@code memberSector} of data member {@code disk} ({@code raid5_compute_blocknr}): the
     * data index from the disk index by inverting the layout, then (row × data disks + index) × chunk + offset. The
     * kernel checks the answer by mapping it forward again; so does this (a mismatch is a bug here:
     * IllegalStateException).
     *
     * @throws IllegalArgumentException if the sector is negative or too large for its array sector to fit a long,
     *     the disk is not a member, or it holds P or Q in that row (use {@link #remapFromSector})
     */
    public long computeBlockNr(long memberSector, int disk) {
        requireDisk(disk);
        requireSector("memberSector", memberSector);
        if (memberSector > Long.MAX_VALUE / raidDisks) {
            throw new IllegalArgumentException("memberSector (" + memberSector + ") is too large: its array sector"
                    + " would overflow a sector count");
        }
        long stripe = memberSector / chunkSectors;
        long chunkOffset = memberSector % chunkSectors;
        Row r = row(stripe);
        if (disk == r.pd || disk == r.qd) {
            throw new IllegalArgumentException("disk (" + disk + ") holds " + (disk == r.pd ? "P" : "Q")
                    + " at memberSector " + memberSector + ": parity has no array sector (raid5_compute_blocknr)");
        }
        int dataIndex = dataIndexOf(disk, r.pd);
        long arraySector = (stripe * dataDisks() + dataIndex) * chunkSectors + chunkOffset;
        Location check = computeSector(arraySector);
        if (check.dataDisk() != disk || check.memberSector() != memberSector || check.pDisk() != r.pd
                || check.qDisk() != r.qd) {
            throw new IllegalStateException("compute_blocknr: map not correct for disk " + disk + " at " + memberSector);
        }
        return arraySector;
    }

    // drivers/md/raid5.c: raid5_compute_blocknr — the per-layout inverse of the data index placement
    private int dataIndexOf(int disk, int pd) {
        int n = raidDisks;
        int i = disk;
        if (level == 4) {
            return i;
        }
        if (level == 5) {
            switch (algorithm) {
                case ALGORITHM_LEFT_ASYMMETRIC, ALGORITHM_RIGHT_ASYMMETRIC -> {
                    if (i > pd) {
                        i--;
                    }
                }
                case ALGORITHM_LEFT_SYMMETRIC, ALGORITHM_RIGHT_SYMMETRIC -> {
                    if (i < pd) {
                        i += n;
                    }
                    i -= pd + 1;
                }
                case ALGORITHM_PARITY_0 -> i -= 1;
                default -> {
                    // ALGORITHM_PARITY_N: the data index is the disk index
                }
            }
            return i;
        }
        switch (algorithm) {
            case ALGORITHM_LEFT_ASYMMETRIC, ALGORITHM_RIGHT_ASYMMETRIC, ALGORITHM_ROTATING_ZERO_RESTART,
                    ALGORITHM_ROTATING_N_RESTART -> {
                if (pd == n - 1) {
                    i--; // Q D D D P
                } else if (i > pd) {
                    i -= 2; // D D P Q D
                }
            }
            case ALGORITHM_LEFT_SYMMETRIC, ALGORITHM_RIGHT_SYMMETRIC -> {
                if (pd == n - 1) {
                    i--; // Q D D D P
                } else {
                    if (i < pd) {
                        i += n;
                    }
                    i -= pd + 2;
                }
            }
            case ALGORITHM_PARITY_0 -> i -= 2;
            case ALGORITHM_PARITY_N -> {
                // the data index is the disk index
            }
            case ALGORITHM_ROTATING_N_CONTINUE -> {
                if (pd == 0) {
                    i--; // P D D D Q
                } else {
                    if (i < pd) {
                        i += n;
                    }
                    i -= pd + 1; // D D Q P D
                }
            }
            case ALGORITHM_LEFT_ASYMMETRIC_6, ALGORITHM_RIGHT_ASYMMETRIC_6 -> {
                if (i > pd) {
                    i--;
                }
            }
            case ALGORITHM_LEFT_SYMMETRIC_6, ALGORITHM_RIGHT_SYMMETRIC_6 -> {
                if (i < pd) {
                    i += dataDisks() + 1;
                }
                i -= pd + 1;
            }
            default -> i -= 1; // ALGORITHM_PARITY_0_6
        }
        return i;
    }

    /**
     * The sector {@code block_bio_remap} shows as {@code from=md0:<sector>} for the page of {@code disk} in the stripe
     * head at {@code memberSector}: {@code sh->dev[i].sector}, which {@code init_stripe} sets from
     * {@code raid5_compute_blocknr} — the page's array sector for data, 0 for P and Q (the recordings show
     * {@code from=md0:0} for every parity page).
     *
     * @throws IllegalArgumentException as {@link #computeBlockNr} for a data page
     */
    public long remapFromSector(long memberSector, int disk) {
        requireDisk(disk);
        requireSector("memberSector", memberSector);
        Row r = row(memberSector / chunkSectors);
        if (disk == r.pd || disk == r.qd) {
            return 0;
        }
        return computeBlockNr(memberSector, disk);
    }

    /**
     * The position of data member {@code disk}'s block in raid6's Q syndrome for the row holding
     * {@code memberSector} ({@code set_syndrome_sources} with {@code raid6_d0} and {@code raid6_idx_to_slot}): Q is
     * the sum of g^slot × block. md layouts count the data disks only, starting at the disk after Q (disk 0 when Q is
     * the last); DDF layouts count every device from disk 0, so the slot is the disk index.
     *
     * @throws IllegalArgumentException below raid6, for a negative sector, a non-member, or a P or Q disk
     */
    public int syndromeSlot(long memberSector, int disk) {
        if (level != 6) {
            throw new IllegalArgumentException("syndromeSlot: level (" + level + ") has no Q syndrome (raid6 only)");
        }
        requireDisk(disk);
        requireSector("memberSector", memberSector);
        Row r = row(memberSector / chunkSectors);
        if (disk == r.pd || disk == r.qd) {
            throw new IllegalArgumentException("disk (" + disk + ") holds " + (disk == r.pd ? "P" : "Q")
                    + " at memberSector " + memberSector + ", not a syndrome source");
        }
        if (ddfLayout()) {
            return disk;
        }
        int d0 = r.qd == raidDisks - 1 ? 0 : r.qd + 1;
        int slot = 0;
        for (int i = d0; i != disk; i = (i + 1) % raidDisks) {
            if (i != r.pd && i != r.qd) {
                slot++;
            }
        }
        return slot;
    }

    private void requireDisk(int disk) {
        if (disk < 0 || disk >= raidDisks) {
            throw new IllegalArgumentException("disk (" + disk + ") must be a member index 0.." + (raidDisks - 1));
        }
    }

    private static long memberSector(long memberSector) {
        requireSector("memberSector", memberSector);
        return memberSector;
    }

    private static void requireSector(String name, long sector) {
        if (sector < 0) {
            throw new IllegalArgumentException(name + " (" + sector + ") must not be negative");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Raid5Geometry g && g.level == level && g.algorithm == algorithm
                && g.raidDisks == raidDisks && g.chunkSectors == chunkSectors;
    }

    @Override
    public int hashCode() {
        return ((level * 31 + algorithm) * 31 + raidDisks) * 31 + Long.hashCode(chunkSectors);
    }

    @Override
    public String toString() {
        return "raid" + level + " algorithm " + algorithm + ", " + raidDisks + " disks, chunk " + chunkSectors
                + " sectors";
    }
}
