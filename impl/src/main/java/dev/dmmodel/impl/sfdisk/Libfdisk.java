package dev.dmmodel.impl.sfdisk;

import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.sfdisk.PartitionWrite.DiskView;
import dev.dmmodel.impl.sfdisk.PartitionWrite.Part;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * libfdisk's placement of new partitions on a dos or gpt label, in logical sectors: the alignment grain and first
 * LBA from the disk's topology, the default start, and the end of a size given with a unit aligned so that the next
 * partition starts on the grain.
 */
final class Libfdisk {

    private static final long MIB = 1024 * 1024;
    private static final long UINT_MAX = 0xFFFF_FFFFL;
    /** GPT_NPARTITIONS: the entries of a new GPT. */
    static final int GPT_ENTRIES = 128;

    /** A partition libfdisk could not add: its warning (if any) and the errno sfdisk reports. */
    static final class AddFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String errno;

        AddFailure(String warning, String errno) {
            super(warning);
            this.errno = errno;
        }
    }

    static final String EINVAL = "Invalid argument";
    static final String ERANGE = "Numerical result out of range";
    static final String ENOSPC = "No space left on device";

    final PartitionTableType type;
    final long ss;
    final long phy;
    final long minIo;
    final long ioSize;
    final long optIo;
    final long alignmentOffset;
    final long total;
    long grain;
    long firstLba;
    final long firstUsable;
    final long lastUsable;
    final List<Part> parts;

    /**
     * @param grainHeader the script's {@code grain:} in bytes, 0 for none
     * @param firstLbaHeader the script's {@code first-lba:} (gpt), if any
     * @param lastLbaHeader the script's {@code last-lba:} (gpt), if any
     */
    Libfdisk(DiskView d, PartitionTableType type, List<Part> existing, long grainHeader, OptionalLong firstLbaHeader,
             OptionalLong lastLbaHeader, int entries) {
        this.type = type;
        this.ss = d.sectorSize();
        this.phy = Math.max(d.physicalSize(), ss);
        this.minIo = d.ioMin();
        // libfdisk/src/alignment.c: fdisk_discover_topology — io_size is optimal_io_size, else minimum_io_size
        this.ioSize = d.ioOpt() != 0 ? d.ioOpt() : d.ioMin();
        this.optIo = d.ioOpt();
        this.alignmentOffset = d.alignmentOffset();
        this.total = d.sectors();
        this.grain = grainHeader != 0 ? Math.max(grainHeader, ss) : topologyGrain();
        this.firstLba = topologyFirstLba();
        this.parts = new ArrayList<>(existing);
        if (type == PartitionTableType.GPT) {
            long entrySectors = (entries * 128L + ss - 1) / ss;
            long flba = 2 + entrySectors;
            long llba = total - 2 - entrySectors;
            // libfdisk/src/gpt.c: count_first_last_lba — the script's first-lba/last-lba, else the topology's first
            // LBA when it lies inside the UEFI range, else the UEFI minimum
            long first = firstLbaHeader.orElse(flba < firstLba && firstLba < llba ? firstLba : flba);
            this.firstUsable = first;
            this.lastUsable = lastLbaHeader.orElse(llba);
            // libfdisk/src/gpt.c: gpt_reset_alignment — a GPT header's first usable LBA is the first LBA
            this.firstLba = first;
        } else {
            this.firstUsable = firstLba;
            this.lastUsable = Math.min(total - 1, UINT_MAX - 1);
        }
    }

    /** The range {@code first-lba}/{@code last-lba} must lie in on a new GPT of that many entries. */
    static long[] uefiRange(long ss, long total, int entries) {
        long entrySectors = (entries * 128L + ss - 1) / ss;
        return new long[] {2 + entrySectors, total - 2 - entrySectors};
    }

    // libfdisk/src/alignment.c: topology_get_grain — io_size, at least 1 MiB; the physical sector on a disk of
    // at most 4 grains
    private long topologyGrain() {
        long res = Math.max(ioSize, MIB);
        if (total <= res * 4 / ss) {
            res = phy;
        }
        return res;
    }

    // libfdisk/src/alignment.c: has_topology — optimal_io_size, an alignment offset or an odd minimum_io_size
    private boolean hasTopology() {
        return optIo != 0 || alignmentOffset != 0 || Long.bitCount(minIo) != 1;
    }

    // libfdisk/src/alignment.c: topology_get_first_lba — the alignment offset, or an I/O size above 1 MiB, else
    // 1 MiB; one physical sector on a disk of at most 4 times that
    private long topologyFirstLba() {
        long x = 0;
        if (hasTopology()) {
            if (alignmentOffset != 0) {
                x = alignmentOffset;
            } else if (ioSize > MIB) {
                x = ioSize;
            }
        }
        if (x == 0) {
            x = MIB;
        }
        long res = x / ss;
        if (total <= res * 4) {
            res = phy / ss;
        }
        return res;
    }

    boolean alignmentRequired() {
        return grain != ss;
    }

    // libfdisk/src/alignment.c: lba_is_aligned — on the grain (at least max(physical sector, minimum_io_size)),
    // shifted by the alignment offset
    boolean lbaIsAligned(long lba) {
        long granularity = Math.max(Math.max(phy, minIo), grain);
        long offset = Math.floorMod(Math.floorMod(lba, granularity) * ss, granularity);
        return Math.floorMod(granularity + alignmentOffset - offset, granularity) == 0;
    }

    enum Dir { UP, DOWN, NEAREST }

    // libfdisk/src/alignment.c: fdisk_align_lba
    long alignLba(long lba, Dir dir) {
        if (lbaIsAligned(lba)) {
            return lba;
        }
        long sects = grain / ss;
        long res;
        if (lba < firstLba) {
            res = firstLba;
        } else if (dir == Dir.UP) {
            res = (lba + sects) / sects * sects;
        } else if (dir == Dir.DOWN) {
            res = lba / sects * sects;
        } else {
            res = (lba + sects / 2) / sects * sects;
        }
        if (alignmentOffset != 0 && !lbaIsAligned(res) && res > alignmentOffset / ss) {
            res -= (Math.max(phy, minIo) - alignmentOffset) / ss;
            if (dir == Dir.UP && res < lba) {
                res += sects;
            }
        }
        return res;
    }

    // libfdisk/src/alignment.c: fdisk_align_lba_in_range
    long alignInRange(long lba, long start, long stop) {
        long lo = alignLba(start, Dir.UP);
        long hi = alignLba(stop, Dir.DOWN);
        long x = alignLba(lba, Dir.NEAREST);
        if (x < lo) {
            return lo;
        }
        return x > hi ? hi : x;
    }

    private Part covering(long sector) {
        for (Part p : parts) {
            if (sector >= p.start() && sector <= p.end()) {
                return p;
            }
        }
        return null;
    }

    /** The partition numbers in use. */
    boolean used(int number) {
        return parts.stream().anyMatch(p -> p.number() == number);
    }

    // ---- dos (libfdisk/src/dos.c)

    // libfdisk/src/dos.c: find_first_free_sector_in_range — past every partition that covers it
    private long firstFree(long from, long end) {
        long first = from;
        boolean moved;
        do {
            moved = false;
            for (Part p : parts) {
                if (first >= p.start() && first <= p.end()) {
                    first = p.end() + 1;
                    moved = true;
                    if (first > end) {
                        return -1;
                    }
                }
            }
        } while (moved);
        return first;
    }

    // libfdisk/src/dos.c: find_last_free_sector_in_range — the last sector not in a partition, from the end down
    private long lastFreeInRange(long begin, long end) {
        long last = end;
        boolean moved;
        do {
            moved = false;
            for (Part p : parts) {
                if (last >= p.start() && last <= p.end()) {
                    last = p.start() - 1;
                    moved = true;
                    if (last < begin) {
                        return -1;
                    }
                }
            }
        } while (moved);
        return last;
    }

    // libfdisk/src/dos.c: find_last_free — the end of the free area that starts at start
    private long lastFree(long start, long limit) {
        long last = limit;
        for (Part p : parts) {
            if (p.start() > start && p.start() - 1 < last) {
                last = p.start() - 1;
            }
        }
        return last;
    }

    /** What an add decided besides the partition: libfdisk's informational messages. */
    final List<String> notes = new ArrayList<>();

    // libfdisk/src/dos.c: dos_add_partition — which primary slot a line takes, and when there is none
    Part addDos(OptionalInt partno, OptionalLong start, OptionalLong size, boolean sizeExplicit) {
        if (partno.isPresent() && partno.getAsInt() > 4) {
            throw new AddFailure("Extended partition does not exists. Failed to add logical partition.", EINVAL);
        }
        int n;
        if (partno.isPresent()) {
            n = partno.getAsInt();
            if (used(n)) {
                throw new AddFailure("Partition " + n + " is already defined.  Delete it before re-adding it.",
                        EINVAL);
            }
        } else {
            long g = grain > ss ? grain / ss : 1;
            long first = firstLba;
            boolean freeSectors = false;
            int freePrimary = 0;
            List<Part> primaries = new ArrayList<>(parts);
            primaries.sort(Comparator.comparingInt(Part::number));
            for (int i = 1; i <= 4; i++) {
                int num = i;
                Part p = primaries.stream().filter(x -> x.number() == num).findFirst().orElse(null);
                if (p != null) {
                    if (first + g <= p.start()) {
                        freeSectors = true;
                    }
                    first = p.start() + p.size();
                } else {
                    freePrimary++;
                }
            }
            if (first + g - 1 <= total - 1) {
                freeSectors = true;
            }
            if (freePrimary == 0) {
                throw new AddFailure("To create more partitions, first replace a primary with an extended "
                        + "partition.", EINVAL);
            }
            if (!freeSectors) {
                throw new AddFailure("All space for primary partitions is in use.", EINVAL);
            }
            n = 1;
            while (used(n)) {
                n++;
            }
        }
        return addDosPartition(n, start, size, sizeExplicit);
    }

    // libfdisk/src/dos.c: add_partition — the first sector (the aligned default, or the script's, which may lie
    // below the first LBA), then the last (aligned to end one sector before the grain unless given in sectors)
    private Part addDosPartition(int n, OptionalLong wanted, OptionalLong size, boolean sizeExplicit) {
        long rangeStop = lastUsable;
        long limit = lastFreeInRange(firstLba, rangeStop);
        if (limit < 0) {
            throw new AddFailure("No free sectors available.", ENOSPC);
        }
        if (wanted.isPresent() && wanted.getAsLong() >= 1 && wanted.getAsLong() < firstLba) {
            // a script may start a partition before the first LBA: libfdisk lowers it to 1
            firstLba = 1;
            limit = lastFreeInRange(firstLba, rangeStop);
        }
        long low = firstFree(firstLba, limit);
        if (low < 0) {
            throw new AddFailure("No free sectors available.", ENOSPC);
        }
        long start;
        if (wanted.isEmpty()) {
            long from = low;
            while (true) {
                long dflt = from;
                long aligned;
                do {
                    aligned = alignInRange(dflt, dflt, limit);
                    dflt = firstFree(aligned, limit);
                } while (dflt >= 0 && dflt != aligned && dflt > aligned && dflt < limit);
                start = dflt < 0 || dflt >= limit ? from : dflt;
                if (size.isPresent()) {
                    long last = lastFree(start, limit);
                    if (last - start + 1 < size.getAsLong()) {
                        from = firstFree(last + 1, limit);
                        if (from < 0 || last + 1 > limit) {
                            throw new AddFailure("No free sectors available.", ENOSPC);
                        }
                        continue;
                    }
                }
                break;
            }
        } else {
            start = wanted.getAsLong();
            if (start < low || start > limit) {
                throw new AddFailure("Start sector " + start + " out of range.", ERANGE);
            }
            long moved = firstFree(start, limit);
            if (moved < 0) {
                throw new AddFailure("No free sectors available.", ENOSPC);
            }
            if (moved != start) {
                notes.add("Sector " + start + " is already allocated.");
                start = moved;
            }
            if (size.isPresent()) {
                long last = lastFree(start, limit);
                if (last - start + 1 < size.getAsLong()) {
                    throw new AddFailure("No free sectors available.", ENOSPC);
                }
            }
        }
        limit = lastFree(start, limit);
        long stop;
        boolean isrel = false;
        if (start == limit || size.isEmpty()) {
            stop = limit;
        } else {
            stop = start + size.getAsLong();
            isrel = !sizeExplicit;
            if ((!isrel || !alignmentRequired()) && stop > start) {
                stop -= 1;
            }
        }
        if (stop > limit) {
            stop = limit;
        }
        if (isrel && stop - start < grain / ss) {
            // libfdisk does not align a size below one grain (and keeps start + size as the last sector)
            isrel = false;
        }
        if (stop < limit && isrel && alignmentRequired()) {
            stop = alignInRange(stop, start, limit);
            if (stop > start) {
                stop -= 1;
            }
            if (stop > limit) {
                stop = limit;
            }
        }
        Part p = new Part(n, start, stop - start + 1);
        parts.add(p);
        return p;
    }

    // ---- gpt (libfdisk/src/gpt.c)

    // libfdisk/src/gpt.c: find_first_available — 0 when nothing is free from start on
    private long firstAvailable(long start) {
        long first = Math.max(start, firstUsable);
        boolean moved;
        do {
            moved = false;
            for (Part p : parts) {
                if (first >= p.start() && first <= p.end()) {
                    first = p.end() + 1;
                    moved = true;
                }
            }
        } while (moved);
        return first > lastUsable ? 0 : first;
    }

    // libfdisk/src/gpt.c: find_last_free — the sector before the next partition, or the last usable LBA
    private long gptLastFree(long start) {
        long nearest = lastUsable;
        for (Part p : parts) {
            if (nearest > p.start() && p.start() > start) {
                nearest = p.start() - 1;
            }
        }
        return nearest;
    }

    // libfdisk/src/gpt.c: find_first_in_largest
    private long firstInLargest() {
        long start = 0;
        long selected = 0;
        long selectedSize = 0;
        while (true) {
            long first = firstAvailable(start);
            if (first == 0) {
                return selected;
            }
            long last = gptLastFree(first);
            if (last - first + 1 > selectedSize) {
                selectedSize = last - first + 1;
                selected = first;
            }
            start = last + 1;
        }
    }

    // libfdisk/src/gpt.c: gpt_add_partition — the default start is the aligned first sector of the largest free
    // area; a given start must be free; the default end is aligned when it is the last usable LBA
    Part addGpt(OptionalInt partno, OptionalLong wanted, OptionalLong size, boolean sizeExplicit, int entries) {
        int n;
        if (partno.isPresent()) {
            n = partno.getAsInt();
            if (n > entries) {
                throw new AddFailure("", ERANGE);
            }
            if (used(n)) {
                throw new AddFailure("Partition " + n + " is already defined.  Delete it before re-adding it.",
                        ERANGE);
            }
        } else {
            n = 1;
            while (used(n)) {
                n++;
            }
            if (n > entries) {
                throw new AddFailure("All partitions are already in use.", ENOSPC);
            }
        }
        if (firstAvailable(0) == 0) {
            throw new AddFailure("No free sectors available.", ENOSPC);
        }
        long dfltF = firstInLargest();
        long dfltL = gptLastFree(dfltF);
        if (wanted.isEmpty() && dfltL - dfltF + 1 < grain / ss) {
            throw new AddFailure("No enough free sectors available.", ENOSPC);
        }
        dfltF = alignInRange(dfltF, dfltF, dfltL);
        long userF;
        if (wanted.isEmpty()) {
            userF = dfltF;
        } else {
            userF = wanted.getAsLong();
            if (userF != firstAvailable(userF)) {
                throw new AddFailure("", ERANGE);
            }
        }
        long maxL = gptLastFree(userF);
        dfltL = maxL;
        if (maxL == lastUsable) {
            dfltL = alignInRange(maxL, userF, maxL) - 1;
        }
        long userL;
        if (size.isEmpty()) {
            userL = dfltL;
        } else {
            long sz = size.getAsLong();
            userL = sz > lastUsable ? Long.MAX_VALUE : userF + sz - 1;
            if (userL != dfltL && !sizeExplicit && alignmentRequired() && userL - userF > grain / ss) {
                userL = alignInRange(userL, userF, dfltL);
                if (userL > userF) {
                    userL -= 1;
                }
            }
        }
        if (userF > userL) {
            throw new AddFailure("Could not create partition " + n, EINVAL);
        }
        if (userL > lastUsable) {
            throw new AddFailure("The last usable GPT sector is " + lastUsable + ", but "
                    + (userL == Long.MAX_VALUE ? "more" : Long.toString(userL)) + " is requested.", EINVAL);
        }
        Part p = new Part(n, userF, userL - userF + 1);
        parts.add(p);
        return p;
    }
}
