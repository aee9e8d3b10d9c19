package dev.dmmodel.impl.plan.curtin;

import dev.dmmodel.impl.plan.PlanOpFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * Where curtin puts a partition, in the disk's logical blocks: its own arithmetic and that of the tool it runs
 * ({@code sgdisk --new} on gpt, {@code parted mkpart} on msdos; for storage version 2, one {@code sfdisk} table).
 */
final class CurtinPartitions {

    /** One partition in logical blocks: first block and block count. */
    record Blocks(int number, long start, long count) {
        long end() {
            return start + count - 1;
        }
    }

    /** A placed partition and what the tool said doing it. */
    record Placed(long start, long end, String command, List<String> notes) {
    }

    private CurtinPartitions() {
    }

    /** 1 MiB in logical blocks. */
    // curtin/commands/block_meta.py: partition_handler — alignment_offset = int((1 << 20) / logical_block_size_bytes)
    static long alignment(long lbs) {
        return (1L << 20) / lbs;
    }

    /**
     * A version-1 partition's first block: 1 MiB for partition 1, else right after the previous partition (no
     * alignment: curtin relies on the sizes being whole MiB).
     */
    // curtin/commands/block_meta.py: partition_handler (offset_sectors) with calc_partition_info
    static long v1Offset(int number, Blocks previous, long lbs) {
        if (number == 1) {
            return alignment(lbs);
        }
        return previous.start() + previous.count();
    }

    /** A version-1 partition's last block: the size in whole blocks, less one, after the start. */
    // curtin/commands/block_meta.py: partition_handler — length_sectors = int(length_bytes / lbs) - 1
    static long v1End(long offset, long bytes, long lbs) {
        return offset + bytes / lbs - 1;
    }

    // gdisk gpt.cc: GPTData first and last usable LBA — the header and a 16 KiB entry array at each end
    static long gptFirstUsable(long lbs) {
        return 2 + ceilDiv(16384, lbs);
    }

    static long gptLastUsable(long diskBlocks, long lbs) {
        return diskBlocks - 2 - ceilDiv(16384, lbs);
    }

    /** sgdisk's alignment on this disk: 1 MiB, lowered to the largest power of two every existing start has. */
    // gdisk gpt.cc: GPTData::ComputeAlignment
    static long sgdiskAlignment(List<Blocks> existing, long lbs) {
        long align = (2048 * 512) / lbs;
        int exponent = 63 - Long.numberOfLeadingZeros(align);
        for (Blocks b : existing) {
            while (exponent > 0 && b.start() % (1L << exponent) != 0) {
                exponent--;
            }
        }
        return Math.min(align, 1L << exponent);
    }

    /**
     * {@code sgdisk --new N:START:END}: the start moved to the alignment (to the earlier boundary if every block
     * from it is free, else the later one), the end kept; refused where the range is not free.
     */
    // gdisk gpt.cc: GPTData::CreatePartition and GPTData::Align
    static Placed sgdiskNew(String disk, int number, long start, long end, List<Blocks> existing, long diskBlocks,
                            long lbs) {
        long first = gptFirstUsable(lbs);
        long last = gptLastUsable(diskBlocks, lbs);
        long align = sgdiskAlignment(existing, lbs);
        String command = "sgdisk --new " + number + ":" + start + ":" + end + " " + disk;
        List<String> notes = new ArrayList<>();
        boolean numberUsed = existing.stream().anyMatch(b -> b.number() == number);
        long s = start;
        if (!numberUsed && s % align != 0) {
            long earlier = s / align * align;
            long later = earlier + align;
            if (earlier >= first && free(earlier, s - 1, existing, first, last)) {
                s = earlier;
            } else if (later - 1 <= last && free(s + 1, later, existing, first, last)) {
                s = later;
            }
            if (s != start) {
                notes.add("Information: Moved requested sector from " + start + " to " + s + " in order to align on "
                        + align + "-sector boundaries.");
            }
        }
        if (numberUsed || s > end || !free(s, end, existing, first, last)) {
            throw new PlanOpFailure(command + ": Could not create partition " + number + " from " + s + " to " + end);
        }
        return new Placed(s, end, command, notes);
    }

    /**
     * {@code parted DISK --script mkpart primary STARTs ENDs}: sectors given exactly, so parted places the
     * partition there when the range is free (and warns when it is not aligned for best performance).
     */
    // parted/parted.c: do_mkpart with an exact sector range; libparted labels/dos.c: at most four primaries
    static Placed partedMkpart(String disk, int number, long start, long end, List<Blocks> existing, long diskBlocks,
                               String flag) {
        String command = "parted " + disk + " --script mkpart primary " + (flag.equals("swap") ? "linux-swap " : "")
                + start + "s " + end + "s" + (flag.equals("boot") ? " set " + number + " boot on" : "");
        if (existing.size() >= 4 || number > 4) {
            throw new PlanOpFailure(command + ": Error: Too many primary partitions.");
        }
        if (end >= diskBlocks || start < 1) {
            throw new PlanOpFailure(command + ": Error: The location " + (start < 1 ? start : end) + "s is outside "
                    + "of the device " + disk + ".");
        }
        if (start > end) {
            throw new PlanOpFailure(command + ": Error: Can't have a partition outside the disk!");
        }
        for (Blocks b : existing) {
            if (start <= b.end() && b.start() <= end) {
                throw new PlanOpFailure(command + ": Error: Can't have overlapping partitions.");
            }
        }
        return new Placed(start, end, command, List.of());
    }

    /** A version-2 table entry: at {@code offset:} if given, else the previous end rounded up to 1 MiB. */
    // curtin/commands/block_meta_v2.py: GPTPartTable.add, DOSPartTable.add (primary partitions)
    static long v2Start(Long offsetBytes, Blocks previous, long lbs) {
        long mib = alignment(lbs);
        if (offsetBytes != null) {
            return offsetBytes / lbs;
        }
        if (previous == null) {
            return mib;
        }
        return CurtinSize.alignUp(previous.start() + previous.count(), mib);
    }

    private static boolean free(long from, long to, List<Blocks> existing, long first, long last) {
        if (from < first || to > last) {
            return false;
        }
        for (Blocks b : existing) {
            if (from <= b.end() && b.start() <= to) {
                return false;
            }
        }
        return true;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
