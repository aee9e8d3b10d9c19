package dev.dmmodel.impl.dm.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One target line of a table text, split as {@code dmsetup} splits it ({@code _parse_line}: start, length and
 * target type, then the parameters, which the kernel splits on blanks, {@code dm_split_args}); numbers are
 * checked, the arguments are not (that is {@link DmTargets#target}).
 *
 * @param number the 1-based line number in the text
 * @param text the line without leading and trailing blanks
 * @param dmName the device name before {@code ": "}, for a line of {@code dmsetup table} (all devices); empty
 *     for a line of {@code dmsetup table NAME} or a {@code dmsetup create} table file
 * @param start the target's first sector
 * @param length the target's length in sectors, at least 1
 * @param type the target type as written
 * @param args the target's arguments as written
 * @param columns the 1-based columns of start, length, type and each argument in the line as given
 */
public record DmTableLine(int number, String text, Optional<String> dmName, long start, long length, String type,
                          List<String> args, List<Integer> columns) {

    /** {@code dmsetup table}'s line, with a name. */
    static final String NAMED_FORMAT = "'<dm name>: <start> <length> <target> <args...>'";
    /** {@code dmsetup table NAME}'s line, or a line of a table file for {@code dmsetup create}. */
    static final String PLAIN_FORMAT = "'<start> <length> <target> <args...>'";
    /** {@code DM_NAME_LEN} is 128 bytes with the terminating NUL. */
    static final int MAX_NAME_LENGTH = 127;

    /** Rejects nulls, copies the lists. */
    public DmTableLine {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(dmName, "dmName");
        Objects.requireNonNull(type, "type");
        args = List.copyOf(args);
        columns = List.copyOf(columns);
    }

    /** The 1-based column of argument {@code i} in the line. */
    public int argColumn(int i) {
        return columns.get(3 + i);
    }

    /**
     * Splits one line. Blank lines, {@code #} comments and {@code No devices found} are the caller's to skip
     * ({@link #isSkipped(String)}).
     *
     * @param source the text's name for messages
     * @param number the 1-based line number
     * @param raw the line as it is in the text
     * @param named whether the line starts with {@code "<dm name>: "} (the output of {@code dmsetup table}
     *     without a name)
     * @throws DmTableException if the line does not have that form, a number is not a decimal number the model
     *     holds, the length is 0 or the target's end lies beyond the largest sector count
     */
    public static DmTableLine parse(String source, int number, String raw, boolean named) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(raw, "raw");
        raw = withoutSecrets(raw);
        String text = raw.strip();
        int offset = 0; // leading blanks, which strip() removed
        while (offset < raw.length() && Character.isWhitespace(raw.charAt(offset))) {
            offset++;
        }
        String format = named ? NAMED_FORMAT : PLAIN_FORMAT;
        Optional<String> name = Optional.empty();
        int from = 0;
        if (named) {
            int colon = text.indexOf(": ");
            if (colon <= 0) {
                if (text.endsWith(":") && text.length() > 1 && text.indexOf(' ') < 0) {
                    // dmsetup prints "name: " and nothing else for a device without a live table
                    throw new DmTableException(source, number, offset + 1, "device "
                            + DmTableException.quote(text.substring(0, text.length() - 1)) + " without a table",
                            "a device with a live table, " + format);
                }
                throw new DmTableException(source, number, offset + 1, DmTableException.quote(text), format);
            }
            String n = text.substring(0, colon);
            checkName(source, number, offset + 1, n, text);
            name = Optional.of(n);
            from = colon + 2;
        }
        List<String> tokens = new ArrayList<>();
        List<Integer> columns = new ArrayList<>();
        int i = from;
        while (i < text.length()) {
            while (i < text.length() && isBlank(text.charAt(i))) {
                i++;
            }
            int s = i;
            while (i < text.length() && !isBlank(text.charAt(i))) {
                i++;
            }
            if (i > s) {
                tokens.add(text.substring(s, i));
                columns.add(offset + s + 1);
            }
        }
        if (tokens.size() < 3) {
            throw new DmTableException(source, number, offset + 1, DmTableException.quote(text), format);
        }

        for (int t = 0; t < tokens.size(); t++) {
            if (tokens.get(t).indexOf('\\') >= 0) {
                // dm_split_args takes a backslash as an escape; such arguments never name our targets' values
                throw new DmTableException(source, number, columns.get(t), DmTableException.quote(tokens.get(t))
                        + " in '" + text + "'", "arguments without backslash escapes (dm_split_args unescapes "
                        + "them; the model's targets take none)");
            }
        }
        long start = number(source, number, columns.get(0), text, tokens.get(0), "the target's start sector");
        long length = number(source, number, columns.get(1), text, tokens.get(1), "the target's length in sectors");
        if (length == 0) {
            // dm_table_add_target: "zero-length target"
            throw new DmTableException(source, number, columns.get(1), "length 0 in '" + text + "'",
                    "a target of at least one sector (the kernel refuses a zero-length target)");
        }
        if (start > Long.MAX_VALUE - length) {
            throw new DmTableException(source, number, columns.get(1), "a target ending beyond sector "
                    + Long.MAX_VALUE + " in '" + text + "'", "a start and length whose sum is at most "
                    + Long.MAX_VALUE + " (the model's sector range)");
        }
        return new DmTableLine(number, text, name, start, length, tokens.get(2), tokens.subList(3, tokens.size()),
                columns);
    }

    /**
     * The line with every secret replaced by zeros of its length ({@link dev.dmmodel.dm.TargetSecrets}), before
     * anything keeps, prints or logs it, even in the message about a malformed line: the arguments after each
     * word that names a secret-bearing target type (a key in {@code dmsetup table --showkeys} output).
     */
    static String withoutSecrets(String raw) {
        List<int[]> spans = new ArrayList<>();
        int i = 0;
        while (i < raw.length()) {
            while (i < raw.length() && isBlank(raw.charAt(i))) {
                i++;
            }
            int s = i;
            while (i < raw.length() && !isBlank(raw.charAt(i))) {
                i++;
            }
            if (i > s) {
                spans.add(new int[] {s, i});
            }
        }
        StringBuilder safe = null;
        for (int k = 0; k < spans.size(); k++) {
            String type = raw.substring(spans.get(k)[0], spans.get(k)[1]);
            if (!dev.dmmodel.dm.TargetSecrets.bearsSecrets(type)) {
                continue;
            }
            List<String> args = new ArrayList<>();
            for (int[] sp : spans.subList(k + 1, spans.size())) {
                args.add(raw.substring(sp[0], sp[1]));
            }
            List<String> redacted = dev.dmmodel.dm.TargetSecrets.redact(type, args);
            for (int j = 0; j < args.size(); j++) {
                if (!redacted.get(j).equals(args.get(j))) {
                    if (safe == null) {
                        safe = new StringBuilder(raw);
                    }
                    int[] sp = spans.get(k + 1 + j);
                    safe.replace(sp[0], sp[1], redacted.get(j));
                }
            }
        }
        // a malformed or mangled line (its "crypt" word gone, its key run into the cipher) still carries the key:
        // in a line that names a cipher, every run of 32 or more hex digits is key material
        String line = safe == null ? raw : safe.toString();
        if (CIPHER.matcher(line).find()) {
            java.util.regex.Matcher m = KEY_LIKE.matcher(line);
            StringBuilder out = new StringBuilder();
            int last = 0;
            while (m.find()) {
                out.append(line, last, m.start()).append("0".repeat(m.end() - m.start()));
                last = m.end();
            }
            if (last > 0) {
                out.append(line.substring(last));
                safe = out;
            }
        }
        return safe == null ? raw : safe.toString();
    }

    /** A dm-crypt cipher specification's words ({@code aes-xts-plain64}, {@code capi:cbc(aes)-essiv:sha256}). */
    private static final java.util.regex.Pattern CIPHER = java.util.regex.Pattern.compile(
            "(?i)(aes|serpent|twofish|cast5|cast6|des|blowfish|camellia|sm4|capi:|cipher_null|xts|cbc|ecb|lrw|plain"
                    + "|essiv|benbi)");
    /** Key material as {@code dmsetup table --showkeys} prints it: 32 or more hex digits. */
    private static final java.util.regex.Pattern KEY_LIKE = java.util.regex.Pattern.compile("[0-9a-fA-F]{32,}");

    /** Whether a line carries no target: blank, a {@code #} comment ({@code dmsetup create}), or {@code No devices found}. */
    public static boolean isSkipped(String raw) {
        String t = raw.strip();
        return t.isEmpty() || t.startsWith("#") || t.equals("No devices found");
    }

    // dm-ioctl.c check_name / dev_create: at most DM_NAME_LEN - 1 bytes, no '/'; dmsetup prints "name: "
    static void checkName(String source, int line, int column, String name, String text) {
        String problem = null;
        if (name.isEmpty()) {
            problem = "that is empty";
        } else if (name.length() > MAX_NAME_LENGTH) {
            problem = "longer than " + MAX_NAME_LENGTH + " characters";
        } else if (name.indexOf('/') >= 0) {
            problem = "with a '/'";
        } else if (name.equals(".") || name.equals("..")) {
            problem = "that is '.' or '..'";
        } else {
            for (int i = 0; i < name.length(); i++) {
                if (isBlank(name.charAt(i))) {
                    problem = "with a blank";
                    break;
                }
            }
        }
        if (problem != null) {
            throw new DmTableException(source, line, column, "dm name " + DmTableException.quote(name) + " "
                    + problem + " in '" + text + "'", "a device-mapper name: 1 to " + MAX_NAME_LENGTH
                    + " characters, no '/', no blank");
        }
    }

    static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /** A non-negative decimal number as the kernel reads one ({@code kstrtoull}, {@code sscanf %llu}). */
    static long number(String source, int line, int column, String text, String token, String what) {
        boolean digits = !token.isEmpty();
        for (int i = 0; i < token.length() && digits; i++) {
            char c = token.charAt(i);
            digits = c >= '0' && c <= '9';
        }
        if (digits) {
            long v = 0;
            for (int i = 0; i < token.length(); i++) {
                int d = token.charAt(i) - '0';
                if (v > (Long.MAX_VALUE - d) / 10) {
                    throw new DmTableException(source, line, column, DmTableException.quote(token) + " in '" + text
                            + "'", what + ", a non-negative decimal number of at most " + Long.MAX_VALUE
                            + " (the model's range)");
                }
                v = v * 10 + d;
            }
            return v;
        }
        throw new DmTableException(source, line, column, DmTableException.quote(token) + " in '" + text + "'",
                what + ", a non-negative decimal number");
    }
}
