package dev.dmmodel.impl.partition;

import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.block.KernelMath;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.layout.LayoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * Places the partitions of a new partition table the way sfdisk/parted would write them and checks the
 * result the way the kernel reads it: inside the disk (and the label's usable area), no overlaps, whole
 * logical blocks.
 */
public final class PartitionPlacer {

    /** 1 MiB in sectors: parted's default alignment grain ({@code PED_DEFAULT_ALIGNMENT}). */
    static final long DEFAULT_GRAIN = 2048;

    /**
     * A placed partition.
     *
     * @param number partition number
     * @param start first sector on the disk
     * @param size sectors
     */
    public record Placed(int number, long start, long size) {
    }

    private PartitionPlacer() {
    }

    /**
     * Places partitions 1..n.
     *
     * @throws LayoutException naming the disk, the partition, the value and the rule
     */
    public static List<Placed> place(String disk, long diskSectors, Limits limits, PartitionTableType type,
                                     List<PartitionSpec> specs) {
        long lbs = limits.logicalBlockSize / 512;
        long firstUsable = firstUsable(type, limits);
        long endUsable = endUsable(type, diskSectors, limits);
        if (type == PartitionTableType.MSDOS && specs.size() > 4) {
            throw new LayoutException(disk, "partitions", Integer.toString(specs.size()), disk
                    + ": an msdos label holds at most 4 primary partitions, " + specs.size() + " requested");
        }
        if (type == PartitionTableType.GPT && specs.size() > 128) {
            throw new LayoutException(disk, "partitions", Integer.toString(specs.size()), disk
                    + ": a GPT label holds at most 128 partitions, " + specs.size() + " requested");
        }
        List<Placed> out = new ArrayList<>();
        long next = firstUsable;
        for (int i = 0; i < specs.size(); i++) {
            PartitionSpec s = specs.get(i);
            int number = i + 1;
            String pname = disk + " partition " + number;
            long start;
            switch (s.placement()) {
                case EXPLICIT:
                    start = s.start().orElseThrow().count();
                    break;
                case MINIMAL:
                    start = alignUp(next, minimalGrain(limits), limits.alignmentOffset / 512);
                    break;
                case OPTIMAL:
                    start = alignUp(next, optimalGrain(limits), limits.alignmentOffset / 512);
                    break;
                default:
                    throw new AssertionError(s.placement());
            }
            long size = s.size().map(x -> x.count()).orElse(endUsable - start);
            if (start < firstUsable) {
                throw new LayoutException(pname, "start", Long.toString(start), pname + ": start " + start
                        + " lies before the first usable sector " + firstUsable + " of the " + label(type) + " label");
            }
            if (size <= 0 || start + size > endUsable) {
                throw new LayoutException(pname, "size", Long.toString(size), pname + ": sectors " + start + "-"
                        + (start + Math.max(size, 1) - 1) + " lie beyond the end of the usable area ("
                        + (endUsable - 1) + ") of " + disk);
            }
            if (start % lbs != 0 || size % lbs != 0) {
                throw new LayoutException(pname, start % lbs != 0 ? "start" : "size",
                        Long.toString(start % lbs != 0 ? start : size), pname + ": start " + start + " and size "
                        + size + " must be whole logical blocks of " + limits.logicalBlockSize + " bytes ("
                        + lbs + " sectors)");
            }
            if (type == PartitionTableType.MSDOS && (start / lbs + size / lbs - 1 > 0xFFFF_FFFFL)) {
                throw new LayoutException(pname, "end", Long.toString(start + size - 1), pname
                        + ": an msdos label cannot address beyond 2^32 logical blocks");
            }
            for (Placed p : out) {
                if (start < p.start() + p.size() && p.start() < start + size) {
                    throw new LayoutException(pname, "start", Long.toString(start), pname + ": sectors " + start + "-"
                            + (start + size - 1) + " overlap partition " + p.number() + " (" + p.start() + "-"
                            + (p.start() + p.size() - 1) + ")");
                }
            }
            out.add(new Placed(number, start, size));
            next = Math.max(next, start + size);
        }
        return List.copyOf(out);
    }

    private static String label(PartitionTableType type) {
        return type == PartitionTableType.MSDOS ? "msdos" : "gpt";
    }

    // the label's first usable sector: msdos after the MBR, GPT after the header and 16 KiB entry array
    static long firstUsable(PartitionTableType type, Limits l) {
        long lbs = l.logicalBlockSize / 512;
        if (type == PartitionTableType.MSDOS) {
            return lbs;
        }
        return (2 + KernelMath.roundUp(16384, l.logicalBlockSize) / l.logicalBlockSize) * lbs;
    }

    // GPT keeps the backup entry array and header at the end of the disk
    static long endUsable(PartitionTableType type, long diskSectors, Limits l) {
        if (type == PartitionTableType.MSDOS) {
            return diskSectors;
        }
        long lbs = l.logicalBlockSize / 512;
        return diskSectors - (1 + KernelMath.roundUp(16384, l.logicalBlockSize) / l.logicalBlockSize) * lbs;
    }

    // libparted arch/linux.c: linux_get_minimum_alignment — grain = minimum_io_size
    static long minimalGrain(Limits l) {
        return Math.max(l.ioMin / 512, l.logicalBlockSize / 512);
    }

    // libparted arch/linux.c: linux_get_optimum_alignment — 1 MiB when io_opt and io_min divide it, else io_opt
    static long optimalGrain(Limits l) {
        long opt = l.ioOpt / 512;
        long min = l.ioMin / 512;
        boolean optOk = opt == 0 || DEFAULT_GRAIN % opt == 0;
        boolean minOk = min == 0 || DEFAULT_GRAIN % min == 0;
        if (optOk && minOk) {
            return DEFAULT_GRAIN;
        }
        if (opt == 0) {
            return minimalGrain(l);
        }
        return opt;
    }

    // the first sector >= from that is offset modulo grain
    static long alignUp(long from, long grain, long offset) {
        long o = offset % grain;
        long base = KernelMath.roundUp(Math.max(from - o, 0), grain) + o;
        return base < from ? base + grain : base;
    }
}
