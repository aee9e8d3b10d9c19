package dev.dmmodel.impl.layoutfile;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ErrorTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.dm.ZeroTarget;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A dm table as {@code dmsetup create NAME} reads it from standard input ({@code dm-table.c: dm_table_add_target}
 * per line), with devices written by name ({@code sda1}, {@code dm-0}, {@code /dev/mapper/vg-lv}) rather than
 * {@code major:minor}. Blank lines and lines starting with {@code #} are skipped.
 */
final class DmTableText {

    private static final java.util.regex.Pattern BLANKS = java.util.regex.Pattern.compile("\\s+");
    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("[0-9]{1,18}");

    /** A line that is not a target, with its 0-based index among the text's lines. */
    static final class LineException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        final int index;
        final String found;
        final String expected;

        LineException(int index, String found, String expected) {
            super(found + "; expected " + expected);
            this.index = index;
            this.found = found;
            this.expected = expected;
        }
    }

    private DmTableText() {
    }

    /** The table of a {@code table:} text. */
    static DmTable parse(String text) {
        List<DmTarget> targets = new ArrayList<>();
        List<String> lines = text.lines().toList();
        int last = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            targets.add(target(i, line));
            last = i;
        }
        if (targets.isEmpty()) {
            throw new LineException(0, "a table without a target line",
                    "at least one line '<start> <length> <target type> <arguments>'");
        }
        try {
            return new DmTable(targets);
        } catch (IllegalArgumentException e) {
            throw new LineException(last, "a table the kernel refuses (" + e.getMessage() + ")",
                    "targets back to back from sector 0");
        }
    }

    private static DmTarget target(int i, String line) {
        String[] tokens = BLANKS.split(line);
        if (tokens.length < 3) {
            throw new LineException(i, "'" + line + "'", "'<start> <length> <target type> <arguments>'");
        }
        Sectors start = Sectors.of(number(i, line, tokens[0], "the target's start sector"));
        Sectors length = Sectors.of(number(i, line, tokens[1], "the target's length in sectors"));
        List<String> a = List.of(tokens).subList(3, tokens.length);
        String type = tokens[2];
        try {
            switch (type) {
                case "linear":
                    arity(i, line, a.size() == 2, "linear <device> <offset>");
                    return new LinearTarget(start, length, a.get(0),
                            Sectors.of(number(i, line, a.get(1), "the offset in sectors")));
                case "striped": {
                    String usage = "striped <#stripes> <chunk sectors> (<device> <offset>)...";
                    arity(i, line, a.size() >= 2, usage);
                    long stripes = number(i, line, a.get(0), "the number of stripes");
                    long chunk = number(i, line, a.get(1), "the chunk size in sectors");
                    arity(i, line, stripes >= 1 && stripes <= 1024 && a.size() - 2 == 2 * stripes, usage);
                    List<StripedTarget.Stripe> list = new ArrayList<>();
                    for (int s = 0; s < stripes; s++) {
                        list.add(new StripedTarget.Stripe(a.get(2 + 2 * s),
                                Sectors.of(number(i, line, a.get(3 + 2 * s), "the stripe's offset in sectors"))));
                    }
                    return new StripedTarget(start, length, chunk, list);
                }
                case "thin-pool": {
                    String usage = "thin-pool <metadata device> <data device> <block sectors> <low water mark> "
                            + "<#features> <feature>...";
                    arity(i, line, a.size() >= 5, usage);
                    long block = number(i, line, a.get(2), "the block size in sectors");
                    long lowWater = number(i, line, a.get(3), "the low water mark in blocks");
                    long count = number(i, line, a.get(4), "the number of feature words");
                    arity(i, line, a.size() - 5 == count, usage);
                    Set<ThinPoolFeature> features = EnumSet.noneOf(ThinPoolFeature.class);
                    for (String word : a.subList(5, a.size())) {
                        try {
                            features.add(ThinPoolFeature.ofWord(word));
                        } catch (IllegalArgumentException e) {
                            throw new LineException(i, "thin-pool feature '" + word + "' in '" + line + "'",
                                    "one of skip_block_zeroing, ignore_discard, no_discard_passdown, read_only, "
                                            + "error_if_no_space");
                        }
                    }
                    return new ThinPoolTarget(start, length, a.get(0), a.get(1), block, lowWater, features);
                }
                case "thin":
                    arity(i, line, a.size() == 2 || a.size() == 3,
                            "thin <pool device> <device id> [<external origin device>]");
                    return new ThinTarget(start, length, a.get(0), number(i, line, a.get(1), "the thin device id"),
                            a.size() == 3 ? Optional.of(a.get(2)) : Optional.empty());
                case "zero":
                    arity(i, line, a.isEmpty(), "zero (no arguments)");
                    return new ZeroTarget(start, length);
                case "error":
                    arity(i, line, a.isEmpty(), "error (no arguments)");
                    return new ErrorTarget(start, length);
                default:
                    throw new LineException(i, "target type '" + type + "' in '" + line + "'",
                            "one of linear, striped, thin-pool, thin, zero, error");
            }
        } catch (LineException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new LineException(i, "a " + type + " target that is not valid (" + e.getMessage() + ") in '"
                    + line + "'", "a target the kernel accepts");
        }
    }

    private static void arity(int i, String line, boolean ok, String usage) {
        if (!ok) {
            throw new LineException(i, "'" + line + "'", "'" + usage + "'");
        }
    }

    private static long number(int i, String line, String token, String what) {
        if (NUMBER.matcher(token).matches()) {
            return Long.parseLong(token);
        }
        throw new LineException(i, "'" + token + "' in '" + line + "'",
                what + ", a non-negative decimal number below 10^18");
    }
}
