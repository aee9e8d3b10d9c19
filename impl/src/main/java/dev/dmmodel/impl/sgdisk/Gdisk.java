package dev.dmmodel.impl.sgdisk;

import dev.dmmodel.impl.sfdisk.PartitionWrite.DiskView;
import dev.dmmodel.impl.sfdisk.PartitionWrite.Part;
import java.util.ArrayList;
import java.util.List;

/** GPT fdisk's table in memory and its placement rules, in logical sectors. */
final class Gdisk {

    /** The entries of a new GPT. */
    static final int ENTRIES = 128;
    /** gpt.h: DEFAULT_ALIGNMENT, in 512-byte sectors. */
    private static final long DEFAULT_ALIGNMENT = 2048;
    /** gpt.h: MIN_AF_ALIGNMENT and SMALLEST_ADVANCED_FORMAT. */
    private static final long MIN_AF_ALIGNMENT = 8;
    private static final long SMALLEST_ADVANCED_FORMAT = 585_937_500L;

    private final long ss;
    private final long diskSize;
    final long firstUsable;
    final long lastUsable;
    long alignment;
    final List<Part> parts;

    Gdisk(DiskView d, List<Part> existing) {
        this.ss = d.sectorSize();
        this.diskSize = d.sectors();
        // gpt.cc: GPTData::ClearGPTData — the entries take 128 * 128 bytes after the header; the backup mirrors
        this.firstUsable = 2 + (ENTRIES * 128L + ss - 1) / ss;
        this.lastUsable = diskSize - firstUsable;
        this.parts = new ArrayList<>(existing);
        this.alignment = computeAlignment();
    }

    // gpt.cc: GPTData::ComputeAlignment — 1 MiB in sectors, lowered to the largest power of 2 dividing every
    // partition's start; at least 8 on a disk of SMALLEST_ADVANCED_FORMAT sectors or more
    private long computeAlignment() {
        long align = DEFAULT_ALIGNMENT * 512 / ss;
        int exponent = 63 - Long.numberOfLeadingZeros(Math.max(align, 1));
        for (Part p : parts) {
            while (p.start() % (1L << exponent) != 0) {
                exponent--;
            }
            align = 1L << exponent;
        }
        if (align < MIN_AF_ALIGNMENT && diskSize >= SMALLEST_ADVANCED_FORMAT) {
            align = MIN_AF_ALIGNMENT;
        }
        return align;
    }

    // gpt.cc: GPTData::ClearGPTData — no partitions, the default alignment
    void clear() {
        parts.clear();
        alignment = DEFAULT_ALIGNMENT * 512 / ss;
    }

    boolean used(int number) {
        return parts.stream().anyMatch(p -> p.number() == number);
    }

    // gpt.cc: GPTData::FindFirstFreePart — the first unused entry (0-based), -1 when all are used
    int firstFreePart() {
        for (int i = 0; i < ENTRIES; i++) {
            if (!used(i + 1)) {
                return i;
            }
        }
        return -1;
    }

    // gpt.cc: GPTData::IsFree — inside the usable area and in no partition
    boolean isFree(long sector) {
        if (sector < firstUsable || sector > lastUsable) {
            return false;
        }
        for (Part p : parts) {
            if (sector >= p.start() && sector <= p.end()) {
                return false;
            }
        }
        return true;
    }

    // gpt.cc: GPTData::FindFirstAvailable — 0 when nothing is free from start on
    long firstAvailable(long start) {
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

    // gpt.cc: GPTData::FindLastInFree — the sector before the next partition, or the last usable one; with -I the
    // end is aligned (the sector after it moved by Align) when that sector is free
    long lastInFree(long start, boolean alignEnd) {
        long nearest = lastUsable;
        for (Part p : parts) {
            if (nearest > p.start() && p.start() > start) {
                nearest = p.start() - 1;
            }
        }
        if (alignEnd) {
            long plus = nearest + 1;
            long moved = align(plus);
            if (moved != plus && isFree(moved - 1) && moved > start) {
                nearest = moved - 1;
            }
        }
        return nearest;
    }

    // gpt.cc: GPTData::FindFirstInLargest
    long firstInLargest() {
        long start = 0;
        long selected = 0;
        long selectedSize = 0;
        while (true) {
            long first = firstAvailable(start);
            if (first == 0) {
                return selected;
            }
            long last = lastInFree(first, false);
            if (last - first + 1 > selectedSize) {
                selectedSize = last - first + 1;
                selected = first;
            }
            start = last + 1;
        }
    }

    // gpt.cc: GPTData::Align — an unaligned sector moves down to the alignment if every sector from there to it is
    // free (and not before the first usable one), else up if every sector up to the aligned one is free
    long align(long sector) {
        if (sector % alignment == 0) {
            return sector;
        }
        long earlier = sector / alignment * alignment;
        long later = earlier + alignment;
        if (earlier >= firstUsable && allFree(earlier, sector - 1)) {
            return earlier;
        }
        if (later <= lastUsable && allFree(sector + 1, later)) {
            return later;
        }
        return sector;
    }

    private boolean allFree(long from, long to) {
        // the test walks sector by sector; free areas are intervals, so their ends suffice
        for (Part p : parts) {
            if (p.start() <= to && p.end() >= from) {
                return false;
            }
        }
        return from >= firstUsable && to <= lastUsable || from > to;
    }

    // gpt.cc: GPTData::CreatePartition — the start aligned, then it and every sector to the end must be free
    String create(int index, long start, long end) {
        if (index < 0 || index >= ENTRIES || used(index + 1)) {
            return null;
        }
        long aligned = align(start);
        if (!isFree(aligned) || aligned > end || lastInFree(aligned, false) < end) {
            return null;
        }
        Part p = new Part(index + 1, aligned, end - aligned + 1);
        parts.add(p);
        String moved = aligned != start ? "; start " + start + " moved to " + aligned + " (" + alignment
                + "-sector alignment)" : "";
        return "partition " + p.number() + ": start " + p.start() + ", end " + p.end() + ", size " + p.size()
                + moved;
    }

    // support.cc: IeeeToInt — sectors, or K/M/G/T/P/E (1024-based) of the sector size; "+N" from the default (a
    // start) or from low less one (an end: when the default is within one alignment of high); "-N" back from
    // high; 0 or nothing is the default; bad input is 0
    static long ieeeToInt(String text, long sSize, long low, long high, long alignment, long def) {
        String in = text.stripLeading();
        char sign = ' ';
        if (!in.isEmpty() && (in.charAt(0) == '+' || in.charAt(0) == '-')) {
            sign = in.charAt(0);
            in = in.substring(1);
        }
        boolean bad = !in.isEmpty() && !Character.isDigit(in.charAt(0));
        int i = 0;
        while (i < in.length() && Character.isDigit(in.charAt(i))) {
            i++;
        }
        long response = i == 0 ? 0 : i > 18 ? Long.MAX_VALUE : Long.parseLong(in.substring(0, i));
        String suffixes = "KMGTPE";
        int found = -1;
        if (i < in.length()) {
            // the first character after the number is upper-cased before the search; the later ones (after a
            // decimal point) are searched as written
            char c = Character.toUpperCase(in.charAt(i));
            found = suffixes.indexOf(c);
            int k = i + 1;
            while (found < 0 && k < in.length()) {
                found = suffixes.indexOf(in.charAt(k));
                k++;
            }
        }
        if (bad) {
            return 0;
        }
        if (in.isEmpty() || response == 0) {
            return def;
        }
        if (found >= 0) {
            long bytesPerUnit = 1L << (10 * (found + 1));
            long mult = bytesPerUnit / sSize;
            long divide = sSize / bytesPerUnit;
            if (mult > 1) {
                if (response > Long.MAX_VALUE / mult) {
                    bad = true;
                } else {
                    response *= mult;
                }
            } else if (divide > 1) {
                response /= divide;
            }
        }
        if (sign == '+') {
            if (high - def < alignment) {
                if (response > 0) {
                    response--;
                }
                if (response > Long.MAX_VALUE - low) {
                    bad = true;
                } else {
                    response += low;
                }
            } else if (response > Long.MAX_VALUE - def) {
                bad = true;
            } else {
                response += def;
            }
        } else if (sign == '-') {
            if (response > high) {
                bad = true;
            } else {
                response = high - response;
            }
        }
        return bad ? 0 : response;
    }
}
