package dev.dmmodel.impl.parted;

import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.Word;
import dev.dmmodel.impl.sfdisk.PartitionWrite.DiskView;
import dev.dmmodel.impl.sfdisk.PartitionWrite.Part;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** libparted's units, its device alignment and its placement of a new partition, in logical sectors. */
final class Libparted {

    /** {@code -a}: the device constraint do_mkpart uses. */
    enum Align { OPTIMAL, MINIMAL, NONE }

    /** libparted/unit.c: the units, with their size in bytes (0 where it depends on the device). */
    enum Unit {
        SECTOR(0), BYTE(1), KILOBYTE(1000), MEGABYTE(1000_000), GIGABYTE(1000_000_000L),
        TERABYTE(1000_000_000_000L), KIBIBYTE(1L << 10), MEBIBYTE(1L << 20), GIBIBYTE(1L << 30),
        TEBIBYTE(1L << 40), PERCENT(0), COMPACT(0);

        final long bytes;

        Unit(long bytes) {
            this.bytes = bytes;
        }

        boolean iec() {
            return this == KIBIBYTE || this == MEBIBYTE || this == GIBIBYTE || this == TEBIBYTE;
        }
    }

    /** A location as written: its number, its unit (or none: the default unit), whether it counts from the end. */
    record Loc(String text, BigDecimal number, Optional<Unit> unit, boolean negative) {
    }

    private static final Pattern LOCATION = Pattern.compile("(-?[0-9]{1,18}(?:\\.[0-9]{1,18})?)([A-Za-z%]*)");
    /** PED_DEFAULT_ALIGNMENT: 1 MiB. */
    private static final long DEFAULT_ALIGNMENT = 1024 * 1024;

    // libparted/unit.c: ped_unit_get_by_name — the unit command's names, case-insensitive
    static Optional<Unit> unit(String name) {
        return Optional.ofNullable(switch (name.toLowerCase(Locale.ROOT)) {
            case "s" -> Unit.SECTOR;
            case "b" -> Unit.BYTE;
            case "kb" -> Unit.KILOBYTE;
            case "mb" -> Unit.MEGABYTE;
            case "gb" -> Unit.GIGABYTE;
            case "tb" -> Unit.TERABYTE;
            case "kib" -> Unit.KIBIBYTE;
            case "mib" -> Unit.MEBIBYTE;
            case "gib" -> Unit.GIBIBYTE;
            case "tib" -> Unit.TEBIBYTE;
            case "%" -> Unit.PERCENT;
            case "compact" -> Unit.COMPACT;
            default -> null;
        });
    }

    // libparted/unit.c: ped_unit_parse_custom, find_suffix and parse_unit_suffix — a number, then a unit told by
    // its first letter (and an 'i' second for KiB, MiB, GiB, TiB); two punctuation marks make it C,H,S
    static Loc location(ShellCommand c, Word w, String defaultUnit) {
        String t = w.text().strip();
        long punct = t.chars().filter(ch -> "!\"#$&'()*+,-./:;<=>?@[\\]^_`{|}~%".indexOf(ch) >= 0).count();
        if (punct == 2) {
            throw c.error(w, "parted location \"" + w.text() + "\" reads as cylinder,head,sector, which is not "
                    + "modelled: expected a location such as 1MiB, 50%, -1s");
        }
        Matcher m = LOCATION.matcher(t);
        if (!m.matches()) {
            throw c.expected(w, "location", "a number with an optional unit (s, B, kB, MB, GB, TB, KiB, MiB, GiB, "
                    + "TiB, %), such as 1MiB, 0%, 100%, -1s");
        }
        String suffix = m.group(2);
        Optional<Unit> u = Optional.empty();
        if (suffix.length() > 1 && Character.toLowerCase(suffix.charAt(1)) == 'i') {
            u = Optional.ofNullable(switch (Character.toLowerCase(suffix.charAt(0))) {
                case 'k' -> Unit.KIBIBYTE;
                case 'm' -> Unit.MEBIBYTE;
                case 'g' -> Unit.GIBIBYTE;
                case 't' -> Unit.TEBIBYTE;
                default -> null;
            });
        }
        if (u.isEmpty() && !suffix.isEmpty()) {
            u = Optional.ofNullable(switch (Character.toLowerCase(suffix.charAt(0))) {
                case 's' -> Unit.SECTOR;
                case 'b' -> Unit.BYTE;
                case 'k' -> Unit.KILOBYTE;
                case 'm' -> Unit.MEGABYTE;
                case 'g' -> Unit.GIGABYTE;
                case 't' -> Unit.TERABYTE;
                case '%' -> Unit.PERCENT;
                default -> null;
            });
            if (u.isEmpty()) {
                throw c.expected(w, "location", "a unit parted knows (s, B, kB, MB, GB, TB, KiB, MiB, GiB, TiB, %)");
            }
        }
        BigDecimal num = new BigDecimal(m.group(1));
        if (num.signum() > 0 && num.compareTo(BigDecimal.ONE) < 0) {
            throw c.error(w, "parted location \"" + w.text() + "\": expected a value of at least 1 (parted: Use a "
                    + "smaller unit instead of a value < 1)");
        }
        return new Loc(w.text(), num, u, t.startsWith("-"));
    }

    final DiskView d;
    final long ss;
    final long length;
    final Align align;
    final long grain;
    final long offset;
    long first;
    long last;
    PartitionTableType type;
    final List<Part> parts;

    Libparted(DiskView d, Align align) {
        this.d = d;
        this.ss = d.sectorSize();
        this.length = d.sectors();
        this.align = align;
        long[] a = switch (align) {
            case OPTIMAL -> optimum();
            case MINIMAL -> minimum();
            case NONE -> new long[] {0, 1};
        };
        this.grain = a[1];
        this.offset = Math.floorMod(a[0], a[1]);
        this.parts = new ArrayList<>(d.partitions());
    }

    // libparted/arch/linux.c: linux_get_minimum_alignment — minimum_io_size, from the alignment offset
    private long[] minimum() {
        if (d.ioMin() == 0) {
            return new long[] {0, Math.max(d.physicalSize() / ss, 1)};
        }
        return new long[] {d.alignmentOffset() / ss, Math.max(d.ioMin() / ss, 1)};
    }

    // libparted/arch/linux.c: linux_get_optimum_alignment — 1 MiB when it is a multiple of the I/O sizes given,
    // else optimal_io_size, else the minimum alignment
    private long[] optimum() {
        long opt = d.ioOpt();
        long min = d.ioMin();
        boolean optDivides = opt != 0 && DEFAULT_ALIGNMENT % opt == 0;
        boolean minDivides = min != 0 && DEFAULT_ALIGNMENT % min == 0;
        if (opt == 0 && min == 0 || optDivides && minDivides || min == 0 && optDivides || opt == 0 && minDivides) {
            return new long[] {d.alignmentOffset() / ss, DEFAULT_ALIGNMENT / ss};
        }
        if (opt == 0) {
            return minimum();
        }
        return new long[] {d.alignmentOffset() / ss, Math.max(opt / ss, 1)};
    }

    /** {@code mklabel}: no partitions; the label's usable sectors. */
    void newLabel(PartitionTableType t) {
        parts.clear();
        label(t);
    }

    // libparted/labels/gpt.c: the entry array of 128 entries after the header, its backup before the last
    // sector; libparted/labels/dos.c: _no_geom_constraint — sectors 1 to the last
    void label(PartitionTableType t) {
        this.type = t;
        if (t == PartitionTableType.GPT) {
            long ptes = (128 * 128 + ss - 1) / ss;
            first = 2 + ptes;
            last = length - 2 - ptes;
        } else {
            first = 1;
            last = length - 1;
        }
    }

    /** A location on this device: the sector and the range around it libparted accepts. */
    record Place(long sector, long from, long to) {
    }

    // libparted/unit.c: ped_unit_parse_custom — sector = number * unit / sector size (towards zero), from the end
    // when negative; the range is half a unit either side, none for the IEC units
    Place place(Loc loc, String defaultUnit) {
        Unit def = unit(defaultUnit).orElse(Unit.COMPACT);
        Unit u = loc.unit().orElse(def == Unit.COMPACT ? Unit.MEGABYTE : def);
        if (u == Unit.COMPACT) {
            u = Unit.MEGABYTE;
        }
        long unitSize = switch (u) {
            case SECTOR -> ss;
            case PERCENT -> Math.multiplyExact(length, ss) / 100;
            default -> u.bytes;
        };
        long radius = u.iec() ? 0 : Math.max((unitSize + ss - 1) / ss / 2 - 1, 0);
        BigDecimal exact = loc.number().multiply(BigDecimal.valueOf(unitSize)).divide(BigDecimal.valueOf(ss), 0,
                RoundingMode.DOWN);
        if (exact.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 4)) > 0) {
            throw new PlanOpFailure("Error: The location " + loc.text() + " is outside of the device "
                    + d.disk().path() + ".");
        }
        long sector = exact.longValue();
        if (loc.negative()) {
            sector += length;
        }
        long from = clip(sector - radius);
        long to = clip(sector + radius);
        // libparted/unit.c: geometry_from_centre_radius — no part of the range on the device
        if (sector - to > radius || from - sector > radius) {
            throw new PlanOpFailure("Error: The location " + loc.text() + " is outside of the device "
                    + d.disk().path() + ".");
        }
        return new Place(clip(sector), from, to);
    }

    private long clip(long s) {
        return Math.max(0, Math.min(s, length - 1));
    }

    // libparted/cs/natmath.c: ped_alignment_align_up/down and _closest_inside_geometry
    private static long up(long off, long g, long lo, long hi, long x) {
        long r = x + Math.floorMod(off - x, g);
        return inside(off, g, lo, hi, r);
    }

    private static long down(long off, long g, long lo, long hi, long x) {
        long r = x - Math.floorMod(x - off, g);
        return inside(off, g, lo, hi, r);
    }

    private static long inside(long off, long g, long lo, long hi, long r) {
        if (lo > hi) {
            return -1;
        }
        if (r < lo) {
            r += (lo - r + g - 1) / g * g;
        }
        if (r > hi) {
            r -= (r - hi + g - 1) / g * g;
        }
        return r >= lo && r <= hi ? r : -1;
    }

    // libparted/cs/natmath.c: ped_alignment_align_nearest — the closer of the two, the lower one on a tie
    static long nearest(long off, long g, long lo, long hi, long x) {
        long a = up(off, g, lo, hi, x);
        long b = down(off, g, lo, hi, x);
        if (a == -1) {
            return b;
        }
        if (b == -1) {
            return a;
        }
        return Math.abs(x - a) < Math.abs(x - b) ? a : b;
    }

    // parted/parted.c: do_mkpart — the words by label (msdos: a partition type; gpt: a name), an optional file
    // system type, START and END; the partition placed by the constraint solver, else anywhere near and then
    // checked against the ranges
    String mkpart(List<Word> args, String unit, PartitionTableType label) {
        int i = 0;
        String typeOrName;
        if (args.size() < 2) {
            throw new PlanOpFailure("Error: Expecting a partition type.");
        }
        typeOrName = args.get(i++).text();
        if (label == PartitionTableType.MSDOS && !typeOrName.equals("primary")) {
            throw new PlanOpFailure("Error: invalid token: " + typeOrName + " (expected a partition type: primary)");
        }
        if (i < args.size() && !(Character.isDigit(args.get(i).text().charAt(0))
                || args.get(i).text().startsWith("-"))) {
            i++; // the file system type
        }
        if (args.size() - i != 2) {
            throw new PlanOpFailure("Error: mkpart on a " + (label == PartitionTableType.GPT ? "gpt label takes a "
                    + "NAME first" : "msdos label takes a TYPE first") + ": \"" + typeOrName + "\" was read as it, "
                    + "which leaves no END");
        }
        if (label == PartitionTableType.MSDOS && parts.size() >= 4) {
            throw new PlanOpFailure("Error: Too many primary partitions.");
        }
        // the words were checked when the plan was read
        Loc startLoc = location(null, args.get(i), unit);
        Word endWord = args.get(i + 1);
        Loc endLoc = location(null, endWord, unit);
        Place s = place(startLoc, unit);
        Place e = place(endLoc, unit);
        long endSector = e.sector();
        long endFrom = e.from();
        long endTo = e.to();
        // parted/parted.c: _adjust_end_if_iec — an end in an IEC unit is the sector before it
        Unit def = unit(unit).orElse(Unit.COMPACT);
        boolean iec = endLoc.unit().map(Unit::iec).orElse(def.iec());
        if (s.sector() != endSector && iec) {
            endSector--;
            endFrom--;
            endTo--;
        }
        if (endSector < s.sector()) {
            throw new PlanOpFailure("Error: Can't have the end before the start! (start sector=" + s.sector()
                    + " length=" + (endSector - s.sector() + 1) + ")");
        }
        // libparted/disk.c: _partition_get_overlap_constraint — the free space the requested start lies in
        long gapLo = first;
        long gapHi = last;
        for (Part p : parts) {
            if (s.sector() >= p.start() && s.sector() <= p.end()) {
                throw new PlanOpFailure("Error: Can't have overlapping partitions.");
            }
            if (p.end() < s.sector()) {
                gapLo = Math.max(gapLo, p.end() + 1);
            } else {
                gapHi = Math.min(gapHi, p.start() - 1);
            }
        }
        long startLo = Math.max(s.from(), gapLo);
        long startHi = Math.min(Math.min(s.to(), gapHi), Math.min(endTo, gapHi));
        long endLo = Math.max(endFrom, gapLo);
        long endHi = Math.min(endTo, gapHi);
        long start = nearest(offset, grain, startLo, startHi, s.sector());
        long end = -1;
        if (start != -1) {
            end = nearest(Math.floorMod(offset - 1, grain), grain, Math.max(endLo, start), endHi, endSector);
        }
        String alignment = switch (align) {
            case OPTIMAL -> "optimal alignment " + grain + "s";
            case MINIMAL -> "minimal alignment " + grain + "s";
            case NONE -> "no alignment";
        } + (offset != 0 ? " + " + offset + "s" : "");
        String warning = null;
        if (start == -1 || end == -1) {
            // parted/parted.c: do_mkpart — again with any constraint: as near as the free space allows
            if (gapLo > gapHi) {
                throw new PlanOpFailure("Error: Can't have overlapping partitions.");
            }
            start = Math.max(gapLo, Math.min(s.sector(), gapHi));
            end = Math.max(start, Math.min(Math.max(endSector, gapLo), gapHi));
            if (start < s.from() || start > s.to() || end < endFrom || end > endTo) {
                throw new PlanOpFailure("Error: You requested a partition from " + startLoc.text() + " to "
                        + endWord.text() + " (sectors " + s.sector() + ".." + endSector + "). The closest location "
                        + "we can manage is " + start + "s to " + end + "s (sectors " + start + ".." + end + ").");
            }
            // parted/parted.c: partition_align_check — start modulo the grain against the offset
            if (align != Align.NONE && Math.floorMod(start, grain) != offset) {
                warning = "Warning: The resulting partition is not properly aligned for best performance: " + start
                        + "s % " + grain + "s != " + offset + "s";
            }
        }
        int number = 1;
        while (true) {
            int n = number;
            if (parts.stream().noneMatch(p -> p.number() == n)) {
                break;
            }
            number++;
        }
        Part p = new Part(number, start, end - start + 1);
        parts.add(p);
        String result = "partition " + number + ": start " + start + ", end " + end + ", size " + p.size()
                + " (START " + startLoc.text() + " is sectors " + s.from() + "-" + s.to() + ", END " + endWord.text()
                + " " + endFrom + "-" + endTo + "; " + alignment + ")";
        return warning == null ? result : result + "; " + warning;
    }
}
