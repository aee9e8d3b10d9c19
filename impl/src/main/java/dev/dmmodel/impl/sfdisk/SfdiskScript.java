package dev.dmmodel.impl.sfdisk;

import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.plan.PlanException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An sfdisk script (its input format and its {@code --dump} format) as libfdisk reads it: header lines, then one
 * partition a line, named ({@code start=2048, size=1G, type=83}) or positional ({@code 2048,+,8e,*}).
 */
final class SfdiskScript {

    /** A number as written: sectors when bare, bytes with a unit suffix (libfdisk divides them by the sector size). */
    record Num(long value, boolean bytes) {
    }

    /**
     * One partition line.
     *
     * @param line the plan's line
     * @param partno the partition number the line names ({@code /dev/sda2 :}), if any
     * @param start the start, or empty for the default
     * @param size the size, or empty for the default ({@code +}: as large as possible)
     * @param type the type as written, or empty for the default
     * @param bootable the bootable flag
     */
    record Line(int line, OptionalInt partno, Optional<Num> start, Optional<Num> size, Optional<String> type,
                boolean bootable) {
    }

    /**
     * @param headers header name to value, in script order
     * @param lines the partition lines
     */
    record Script(Map<String, String> headers, List<Line> lines) {
        Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name));
        }
    }

    private static final Set<String> HEADERS = Set.of("label", "unit", "label-id", "device", "grain", "first-lba",
            "last-lba", "table-length", "sector-size");
    private static final Pattern SIZE = Pattern.compile("([0-9]+)(?:\\.([0-9]+))?(?:([KMGTPEZYkmgtpezy])(iB|B)?)?");
    private static final Pattern GUID = Pattern.compile(
            "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}");
    private static final Pattern HEX = Pattern.compile("(0[xX])?[0-9A-Fa-f]{1,2}");

    /** The GPT type GUIDs of libfdisk's shortcuts and aliases (include/pt-gpt-partnames.h). */
    static final Map<String, String> GPT_SHORTCUTS = Map.of(
            "L", "0FC63DAF-8483-4772-8E79-3D69D8477DE4",
            "S", "0657FD6D-A4AB-43C4-84E5-0933C84B4F4F",
            "H", "933AC7E1-2EB4-4F13-B844-0E14E2AEF915",
            "U", "C12A7328-F81F-11D2-BA4B-00A0C93EC93B",
            "R", "A19D880F-05FC-4D3B-A006-743F0F84911E",
            "V", "E6D6D379-F507-44C2-A23C-238F2A3DF928");
    /** libfdisk's type aliases (libfdisk/src/parttype.c: fdisk_label_advparse_parttype, shortcuts and aliases). */
    static final Map<String, String> ALIASES = Map.of("linux", "L", "swap", "S", "extended", "E", "home", "H",
            "uefi", "U", "raid", "R", "lvm", "V");
    /** The MBR codes of the shortcuts (include/pt-mbr-partnames.h). */
    static final Map<String, Integer> DOS_SHORTCUTS = Map.of("L", 0x83, "S", 0x82, "E", 0x05, "U", 0xef,
            "R", 0xfd, "V", 0x8e, "X", 0x85);
    /** GPT type names libfdisk accepts (a subset of include/pt-gpt-partnames.h: the Linux and EFI ones). */
    static final Map<String, String> GPT_NAMES = Map.of(
            "linux filesystem", "L", "linux swap", "S", "linux home", "H", "efi system", "U",
            "linux raid", "R", "linux lvm", "V");

    private SfdiskScript() {
    }

    // libfdisk/src/script.c: fdisk_script_read_buffer — headers while no partition is defined, then name=value or
    // positional lines; '#' starts a comment line
    static Script read(Origin origin, String text, int firstLine) {
        Map<String, String> headers = new LinkedHashMap<>();
        List<Line> lines = new ArrayList<>();
        String[] raw = text.split("\n", -1);
        for (int i = 0; i < raw.length; i++) {
            int lineNo = firstLine + i;
            String s = raw[i];
            if (s.endsWith("\r")) {
                s = s.substring(0, s.length() - 1);
            }
            int indent = 0;
            while (indent < s.length() && (s.charAt(indent) == ' ' || s.charAt(indent) == '\t')) {
                indent++;
            }
            String t = s.substring(indent);
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            Reader r = new Reader(origin, lineNo, indent + 1, t);
            if (lines.isEmpty() && isHeader(t)) {
                header(r, t, headers);
            } else if (t.indexOf('=') >= 0) {
                lines.add(named(r, t));
            } else {
                lines.add(positional(r, t));
            }
        }
        return new Script(headers, List.copyOf(lines));
    }

    // libfdisk/src/script.c: is_header_line — "name: value" with no '='
    private static boolean isHeader(String s) {
        int p = s.indexOf(':');
        return p > 0 && p + 1 < s.length() && s.indexOf('=') < 0;
    }

    // libfdisk/src/script.c: parse_line_header
    private static void header(Reader r, String s, Map<String, String> headers) {
        int p = s.indexOf(':');
        String name = s.substring(0, p).strip();
        String value = s.substring(p + 1).strip();
        if (value.isEmpty()) {
            throw r.error(0, "sfdisk script header \"" + name + "\" without a value: expected NAME: VALUE");
        }
        if (!HEADERS.contains(name)) {
            throw r.error(0, "sfdisk script header \"" + name + "\": expected one of label, unit, label-id, device, "
                    + "first-lba, last-lba, sector-size, grain, table-length (sfdisk ignores it: Unknown script "
                    + "header)");
        }
        int at = s.indexOf(value, p + 1);
        switch (name) {
            case "label" -> {
                if (!value.equals("dos") && !value.equals("gpt")) {
                    throw r.error(at, "sfdisk label \"" + value + "\": expected dos or gpt (the labels dmmodel models)");
                }
            }
            case "unit" -> {
                if (!value.equals("sectors")) {
                    throw r.error(at, "sfdisk unit \"" + value + "\": expected sectors (the only unit libfdisk reads)");
                }
            }
            case "first-lba", "last-lba", "table-length" -> number(r, at, name, value);
            case "sector-size" -> {
                long v = number(r, at, name, value);
                if (v == 0 || v % 512 != 0) {
                    throw r.error(at, "sfdisk sector-size \"" + value + "\": expected a multiple of 512");
                }
            }
            case "grain" -> {
                Num g = size(r, at, "grain", value);
                long bytes = g.value();
                if (bytes < 512 || bytes % 512 != 0) {
                    throw r.error(at, "sfdisk grain \"" + value + "\": expected a size of whole 512-byte sectors");
                }
            }
            default -> {
                // label-id and device are informational for a new label
            }
        }
        headers.put(name, value);
    }

    private static long number(Reader r, int at, String field, String value) {
        if (!value.matches("[0-9]{1,18}")) {
            throw r.error(at, "sfdisk " + field + " \"" + value + "\": expected a number");
        }
        return Long.parseLong(value);
    }

    // libfdisk/src/script.c: parse_line_nameval — "[DEVICE :] start=N, size=N, type=T, bootable, name=..."
    private static Line named(Reader r, String s) {
        int colon = s.indexOf(" : ");
        int skip = 3;
        if (colon < 0) {
            colon = s.indexOf(" :");
            skip = 2;
        }
        if (colon < 0) {
            colon = s.indexOf(": ");
            skip = 2;
        }
        if (colon < 0) {
            colon = s.indexOf(':');
            skip = 1;
        }
        int eq = s.indexOf('=');
        OptionalInt partno = OptionalInt.empty();
        int pos = 0;
        if (colon >= 0 && colon < eq) {
            String dev = s.substring(0, colon).strip();
            Matcher m = Pattern.compile("([0-9]+)$").matcher(dev);
            if (m.find() && m.group(1).length() <= 9) {
                int n = Integer.parseInt(m.group(1));
                if (n < 1) {
                    throw r.error(0, "sfdisk partition \"" + dev + "\": expected a partition number of 1 or more");
                }
                partno = OptionalInt.of(n);
            } else if (m.find(0)) {
                throw r.error(0, "sfdisk partition \"" + dev + "\": expected a partition number below 10^9");
            }
            pos = colon + skip;
            if (pos < s.length() && s.charAt(pos) == ':') {
                pos++;
            }
        }
        Optional<Num> start = Optional.empty();
        Optional<Num> size = Optional.empty();
        Optional<String> type = Optional.empty();
        boolean bootable = false;
        while (true) {
            pos = skipBlank(s, pos);
            if (pos >= s.length()) {
                break;
            }
            String rest = s.substring(pos).toLowerCase(Locale.ROOT);
            if (rest.startsWith("start=")) {
                pos += 6;
                Token t = token(r, s, pos, "start");
                start = t.isDefault ? Optional.empty() : Optional.ofNullable(startValue(r, t));
                pos = t.next;
            } else if (rest.startsWith("size=")) {
                pos += 5;
                Token t = token(r, s, pos, "size");
                size = t.isDefault ? Optional.empty() : Optional.ofNullable(sizeValue(r, t));
                pos = t.next;
            } else if (rest.startsWith("bootable")) {
                Token t = token(r, s, pos, "bootable");
                if (!t.text.equalsIgnoreCase("bootable")) {
                    throw r.error(pos, "sfdisk field \"" + t.text + "\": expected bootable");
                }
                bootable = true;
                pos = t.next;
            } else if (rest.startsWith("type=") || rest.startsWith("id=")) {
                pos += rest.startsWith("id=") ? 3 : 5;
                Token t = token(r, s, pos, "type");
                if (t.text.isEmpty()) {
                    throw r.error(pos, "sfdisk type without a value: expected a type code, GUID or alias");
                }
                type = Optional.of(type(r, t.at, t.text));
                pos = t.next;
            } else if (rest.startsWith("name=") || rest.startsWith("uuid=") || rest.startsWith("attrs=")) {
                pos += rest.indexOf('=') + 1;
                Token t = token(r, s, pos, "value");
                pos = t.next;
            } else {
                int end = pos;
                while (end < s.length() && s.charAt(end) != ',' && s.charAt(end) != ' ') {
                    end++;
                }
                throw r.error(pos, "sfdisk field \"" + s.substring(pos, end) + "\": expected start=, size=, type=, "
                        + "bootable, name=, uuid= or attrs=");
            }
        }
        return new Line(r.line, partno, start, size, type, bootable);
    }

    // libfdisk/src/script.c: parse_line_valcommas — "start, size, type, bootable" separated by ',' or ';'
    private static Line positional(Reader r, String s) {
        Optional<Num> start = Optional.empty();
        Optional<Num> size = Optional.empty();
        Optional<String> type = Optional.empty();
        boolean bootable = false;
        int pos = 0;
        int item = 0;
        while (pos < s.length()) {
            pos = skipBlank(s, pos);
            if (pos >= s.length()) {
                break;
            }
            int begin = pos;
            switch (item) {
                case 0 -> {
                    Token t = token(r, s, pos, "start");
                    start = t.isDefault ? Optional.empty() : Optional.ofNullable(startValue(r, t));
                    pos = t.next;
                }
                case 1 -> {
                    Token t = token(r, s, pos, "size");
                    size = t.isDefault ? Optional.empty() : Optional.ofNullable(sizeValue(r, t));
                    pos = t.next;
                }
                case 2 -> {
                    Token t = token(r, s, pos, "type");
                    if (!t.isDefault) {
                        type = Optional.of(type(r, t.at, t.text));
                    }
                    pos = t.next;
                }
                case 3 -> {
                    Token t = token(r, s, pos, "bootable");
                    switch (t.text) {
                        case "*", "+" -> bootable = true;
                        case "-", "" -> bootable = false;
                        default -> throw r.error(t.at, "sfdisk bootable \"" + t.text + "\": expected *, + or -");
                    }
                    pos = t.next;
                }
                default -> throw r.error(pos, "sfdisk field \"" + s.substring(pos)
                        + "\": expected at most start, size, type and bootable");
            }
            item++;
            if (pos == begin) {
                pos++;
            }
        }
        return new Line(r.line, OptionalInt.empty(), start, size, type, bootable);
    }

    /** A field's token: its text (quotes removed), where it starts, where the next field starts. */
    private record Token(String text, int at, int next, boolean isDefault) {
    }

    // libfdisk/src/script.c: next_token and is_default_value — a token ends at a blank, ',' or ';'; an empty field
    // or a lone '-' is the default
    private static Token token(Reader r, String s, int from, String field) {
        int p = skipBlank(s, from);
        int q = p;
        if (q < s.length() && s.charAt(q) == '-') {
            int x = skipBlank(s, q + 1);
            if (x >= s.length() || s.charAt(x) == ',' || s.charAt(x) == ';' || x > q + 1) {
                int next = x < s.length() && (s.charAt(x) == ',' || s.charAt(x) == ';') ? x + 1 : x;
                return new Token("", p, next, true);
            }
        }
        if (p >= s.length()) {
            return new Token("", p, p, true);
        }
        if (s.charAt(p) == ',' || s.charAt(p) == ';') {
            return new Token("", p, p + 1, true);
        }
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        int i = p;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                continue;
            }
            if (!quoted && (c == ' ' || c == '\t' || c == ',' || c == ';')) {
                break;
            }
            b.append(c);
        }
        if (quoted) {
            throw r.error(p, "sfdisk " + field + " " + s.substring(p) + ": expected a closing \"");
        }
        int next = skipBlank(s, i);
        if (next < s.length() && (s.charAt(next) == ',' || s.charAt(next) == ';')) {
            next++;
        }
        return new Token(b.toString(), p, next, false);
    }

    private static int skipBlank(String s, int p) {
        while (p < s.length() && (s.charAt(p) == ' ' || s.charAt(p) == '\t')) {
            p++;
        }
        return p;
    }

    // libfdisk/src/script.c: parse_start_value — "+" is the default; an optional sign; a size with a suffix is bytes
    private static Num startValue(Reader r, Token t) {
        if (t.text.equals("+")) {
            return null;
        }
        return size(r, t.at, "start", unsigned(t.text));
    }

    // libfdisk/src/script.c: parse_size_value — "+" is as large as possible; bare numbers are explicit sectors
    private static Num sizeValue(Reader r, Token t) {
        if (t.text.equals("+")) {
            return null;
        }
        return size(r, t.at, "size", unsigned(t.text));
    }

    private static String unsigned(String s) {
        return s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
    }

    // lib/strutils.c: ul_parse_size — NUM[.FRAC][K|M|G|T|P|E|Z|Y][iB|B]: 1024-based, or 1000-based with "B"
    static Num size(Reader r, int at, String field, String text) {
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw r.error(at, "sfdisk " + field + " \"" + text + "\": expected a number of sectors or a size such "
                    + "as 2048, 1G, 512MiB, +");
        }
        if (m.group(3) == null) {
            if (m.group(2) != null || m.group(1).length() > 18) {
                throw r.error(at, "sfdisk " + field + " \"" + text + "\": expected a whole number of sectors below "
                        + "10^18");
            }
            return new Num(Long.parseLong(m.group(1)), false);
        }
        int power = "KMGTPEZY".indexOf(Character.toUpperCase(m.group(3).charAt(0))) + 1;
        BigDecimal base = BigDecimal.valueOf("B".equals(m.group(4)) ? 1000 : 1024).pow(power);
        BigDecimal v = new BigDecimal(m.group(1) + (m.group(2) == null ? "" : "." + m.group(2))).multiply(base);
        if (v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw r.error(at, "sfdisk " + field + " \"" + text + "\": expected a size below 8EiB");
        }
        return new Num(v.longValue(), true);
    }

    // libfdisk/src/parttype.c: fdisk_label_advparse_parttype — a code (MBR hex, GPT GUID), a shortcut, an alias
    // or a name; which of them fit the label is checked when the label is known
    static String type(Reader r, int at, String text) {
        String t = text.strip();
        String upper = t.toUpperCase(Locale.ROOT);
        String lower = t.toLowerCase(Locale.ROOT);
        if (HEX.matcher(t).matches() || GUID.matcher(t).matches() || DOS_SHORTCUTS.containsKey(upper)
                || ALIASES.containsKey(lower) || GPT_NAMES.containsKey(lower)) {
            String shortcut = ALIASES.getOrDefault(lower, upper);
            // the shortcut before the code (FDISK_PARTTYPE_PARSE_DATALAST): "E" is extended, not 0x0e
            int code = DOS_SHORTCUTS.containsKey(shortcut) ? DOS_SHORTCUTS.get(shortcut)
                    : HEX.matcher(t).matches() ? Integer.parseInt(t.replaceFirst("^0[xX]", ""), 16) : -1;
            if (code == 0x05 || code == 0x0f || code == 0x85) {
                throw r.error(at, "sfdisk type \"" + text + "\": an extended partition (and the logical partitions "
                        + "in it) is not modelled; expected a primary partition type");
            }
            return t;
        }
        throw r.error(at, "sfdisk type \"" + text + "\": expected an MBR code (83, 8e, 0xfd), a GPT type GUID, a "
                + "shortcut (L, S, U, R, V, H) or an alias (linux, swap, uefi, raid, lvm, home)");
    }

    /** A line's place, for errors. */
    static final class Reader {
        final Origin origin;
        final int line;
        final int column;
        final String text;

        Reader(Origin origin, int line, int column, String text) {
            this.origin = origin;
            this.line = line;
            this.column = column;
            this.text = text;
        }

        PlanException error(int offset, String problem) {
            return origin.error(line, column + offset, problem);
        }
    }
}
