package dev.dmmodel.trace;

import dev.dmmodel.internal.json.JsonWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Text forms of a trace: {@link #CSV} (the recorded cases' {@code trace.csv}), {@link #JSON} (JSON Lines)
 * and {@link #TEXT} (one blkparse-like line per event, for people).
 *
 * <p>Every format writes {@link TraceEvent#sector()} as the kernel's unsigned 64-bit {@code sector_t}: a
 * negative value stands for a sector of 2<sup>63</sup> or more. The kernel prints such sectors for requests
 * without data, e.g. the flush request's completion on 6.1 ({@code block_rq_complete FF
 * 18446744073709551615 + 0}, which is {@code (sector_t)-1}); {@link #readCsv} reads them back as -1.
 * {@link TraceEvent#nrSectors()} of -1 (no size, e.g. {@code block_split}) is written as an empty CSV
 * field, {@code null} in JSON and nothing in TEXT.
 *
 * <p>Writers report an {@link IOException} of the {@link Appendable} as an {@link UncheckedIOException}. They
 * neither flush nor close it.
 */
public enum TraceFormat {

    /**
     * The normalized trace format of {@code trace.csv}: the header {@value #CSV_HEADER}, then one row per
     * event, every line ended by CRLF as RFC 4180 specifies (and as the recorded files are). {@code nr_sectors}
     * is empty when the event has no size. A field is written bare unless it contains a comma, a double
     * quote, CR or LF; then it is quoted RFC 4180 style ({@code "a ""b"", c"}). Rewriting a recorded
     * {@code trace.csv} read with {@link #readCsv} gives the same bytes. {@link TraceEvent#why()} is not part of
     * this format and is not written.
     */
    CSV {
        @Override
        void appendTo(StringBuilder sb, TraceEvent e) {
            sb.append(e.seq()).append(',');
            appendCsvField(sb, e.device());
            sb.append(',').append(e.type().tracepoint()).append(',');
            appendCsvField(sb, e.rwbs());
            sb.append(',');
            appendUnsigned(sb, e.sector());
            sb.append(',');
            if (e.hasSize()) {
                sb.append(e.nrSectors());
            }
            sb.append(',');
            appendCsvField(sb, e.extra());
        }

        @Override
        String header() {
            return CSV_HEADER;
        }

        @Override
        String lineEnd() {
            return "\r\n";
        }
    },

    /**
     * JSON Lines: one JSON object per line, ended by LF, no enclosing array, no header; every line is a
     * complete JSON text:
     * <pre>{"seq":3,"device":"dm-0","event":"block_split","rwbs":"WS","sector":128,"nr_sectors":null,"extra":"new_sector=128"}</pre>
     * {@code event} is the tracepoint name, {@code sector} the unsigned sector (it may exceed 2<sup>63</sup>),
     * {@code nr_sectors} a number or {@code null}; strings are escaped as RFC 8259 requires ({@code \"},
     * {@code \\}, and control characters as {@code \n}, {@code \t}, ... or {@code \}{@code u00XX}), and DEL,
     * the C1 controls, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF and unpaired surrogates as {@code \}{@code uXXXX}.
     * An event that says why ({@link TraceEvent#why()} not empty) has one more member, {@code "why"}, last.
     */
    JSON {
        @Override
        void appendTo(StringBuilder sb, TraceEvent e) {
            sb.append("{\"seq\":").append(e.seq());
            sb.append(",\"device\":");
            JsonWriter.appendString(sb, e.device());
            sb.append(",\"event\":");
            JsonWriter.appendString(sb, e.type().tracepoint());
            sb.append(",\"rwbs\":");
            JsonWriter.appendString(sb, e.rwbs());
            sb.append(",\"sector\":");
            appendUnsigned(sb, e.sector());
            sb.append(",\"nr_sectors\":");
            if (e.hasSize()) {
                sb.append(e.nrSectors());
            } else {
                sb.append("null");
            }
            sb.append(",\"extra\":");
            JsonWriter.appendString(sb, e.extra());
            if (!e.why().isEmpty()) {
                sb.append(",\"why\":");
                JsonWriter.appendString(sb, e.why());
            }
            sb.append('}');
        }

        @Override
        String header() {
            return null;
        }

        @Override
        String lineEnd() {
            return "\n";
        }
    },

    /**
     * One readable line per event in blkparse's spirit, ended by LF, no header: sequence number (right
     * aligned, 7 wide), device (8 wide), tracepoint (20 wide), rwbs (4 wide), then {@code SECTOR + NR}
     * ({@code SECTOR} alone when the event has no size) and, after two spaces, the extra details:
     * <pre>     12 sda      block_bio_remap      WS   2112 + 64  from=dm-0:64</pre>
     * and, for an event that says why ({@link TraceEvent#why()}), two spaces, {@code why: } and the reason.
     * For reading, not for parsing.
     */
    TEXT {
        @Override
        void appendTo(StringBuilder sb, TraceEvent e) {
            padLeft(sb, Long.toString(e.seq()), 7);
            sb.append(' ');
            padRight(sb, e.device(), 8);
            sb.append(' ');
            padRight(sb, e.type().tracepoint(), 20);
            sb.append(' ');
            padRight(sb, e.rwbs(), 4);
            sb.append(' ');
            appendUnsigned(sb, e.sector());
            if (e.hasSize()) {
                sb.append(" + ").append(e.nrSectors());
            }
            if (!e.extra().isEmpty()) {
                sb.append("  ").append(e.extra());
            }
            if (!e.why().isEmpty()) {
                sb.append("  why: ").append(e.why());
            }
        }

        @Override
        String header() {
            return null;
        }

        @Override
        String lineEnd() {
            return "\n";
        }
    };

    /** The header line of the CSV format. */
    public static final String CSV_HEADER = "seq,device,event,rwbs,sector,nr_sectors,extra";

    private static final List<String> COLUMNS = List.of(CSV_HEADER.split(","));

    /** One event as a line of this format, without the line end. */
    public String format(TraceEvent event) {
        StringBuilder sb = new StringBuilder(96);
        appendTo(sb, Objects.requireNonNull(event, "event"));
        return sb.toString();
    }

    /** Appends one event as a line of this format, without the line end. */
    abstract void appendTo(StringBuilder sb, TraceEvent e);

    /** A sector as the unsigned number the kernel prints; a non-negative one without an intermediate string. */
    private static void appendUnsigned(StringBuilder sb, long v) {
        if (v >= 0) {
            sb.append(v);
        } else {
            sb.append(Long.toUnsignedString(v));
        }
    }

    /** The header line, or null if the format has none. */
    abstract String header();

    /** The line terminator. */
    abstract String lineEnd();

    /**
     * Writes the events (and the CSV header first, even for no events) to {@code out}.
     *
     * @throws UncheckedIOException if {@code out} fails
     */
    public void write(Iterable<TraceEvent> events, Appendable out) {
        Objects.requireNonNull(events, "events");
        TraceListener w = writer(out);
        for (TraceEvent e : events) {
            w.onEvent(e);
        }
    }

    /**
     * A listener that writes every event it receives to {@code out} as it arrives, so that traces of any
     * length stream. For {@link #CSV} the header is written at once, by this call.
     *
     * @throws UncheckedIOException if {@code out} fails (here or in {@link TraceListener#onEvent})
     */
    public TraceListener writer(Appendable out) {
        Objects.requireNonNull(out, "out");
        String header = header();
        String end = lineEnd();
        if (header != null) {
            append(out, header, end);
        }
        // one buffer per writer, reused for every line; a Writer takes the characters without a String between
        StringBuilder sb = new StringBuilder(128);
        if (out instanceof Writer w) {
            char[][] chars = {new char[256]};
            return e -> {
                sb.setLength(0);
                appendTo(sb, Objects.requireNonNull(e, "event"));
                sb.append(end);
                int n = sb.length();
                if (chars[0].length < n) {
                    chars[0] = new char[Math.max(n, 2 * chars[0].length)];
                }
                sb.getChars(0, n, chars[0], 0);
                try {
                    w.write(chars[0], 0, n);
                } catch (IOException ex) {
                    throw new UncheckedIOException("writing a trace failed: " + ex.getMessage(), ex);
                }
            };
        }
        return e -> {
            sb.setLength(0);
            appendTo(sb, Objects.requireNonNull(e, "event"));
            append(out, sb, end);
        };
    }

    private static void append(Appendable out, CharSequence line, String end) {
        try {
            out.append(line).append(end);
        } catch (IOException ex) {
            throw new UncheckedIOException("writing a trace failed: " + ex.getMessage(), ex);
        }
    }

    // --------------------------------------------------------------------------------------------- reading

    /**
     * Reads a trace in the {@link #CSV} format: the exact header {@value #CSV_HEADER}, then rows of seven
     * fields. Lines may end in CRLF (as recorded) or LF; fields may be quoted RFC 4180 style. {@code seq}
     * and {@code sector} are unsigned decimal numbers ({@code sector} up to 2<sup>64</sup>-1, read as the
     * {@code long} with the same bits), {@code nr_sectors} a decimal number or empty (-1), {@code event} a
     * tracepoint {@link EventType} knows, {@code device} not empty. {@code rwbs} and {@code extra} are taken
     * as they are. The reader is read to its end and not closed.
     *
     * @throws TraceFormatException for malformed input, naming the line, the column and what was expected
     * @throws UncheckedIOException if reading fails
     */
    public static List<TraceEvent> readCsv(Reader in) {
        Objects.requireNonNull(in, "in");
        CsvReader csv = new CsvReader(in);
        List<String> header = csv.next();
        if (header == null) {
            throw new TraceFormatException(1, 1, COLUMNS.get(0), "expected the header '" + CSV_HEADER
                    + "', found an empty file", null);
        }
        if (!header.equals(COLUMNS)) {
            int i = 0;
            while (i < header.size() && i < COLUMNS.size() && header.get(i).equals(COLUMNS.get(i))) {
                i++;
            }
            throw new TraceFormatException(1, i + 1, i < COLUMNS.size() ? COLUMNS.get(i) : "beyond extra",
                    "expected the header '" + CSV_HEADER + "', found '" + String.join(",", header) + "'", null);
        }
        RowParser rows = new RowParser();
        List<TraceEvent> events = new ArrayList<>();
        List<String> fields;
        while ((fields = csv.next()) != null) {
            events.add(rows.parse(csv.recordLine(), fields));
        }
        return events;
    }

    /** Turns the fields of one row into an event, sharing the strings that repeat. */
    private static final class RowParser {
        private final Map<String, String> devices = new HashMap<>();
        private final Map<String, String> rwbs = new HashMap<>();
        private final Map<String, EventType> events = new HashMap<>();

        TraceEvent parse(long line, List<String> f) {
            if (f.size() != COLUMNS.size()) {
                int column = Math.min(f.size(), COLUMNS.size()) + 1;
                String name = column <= COLUMNS.size() ? COLUMNS.get(column - 1) : "beyond extra";
                String found = f.size() == 1 && f.get(0).isEmpty() ? "an empty line" : f.size() + " columns";
                throw new TraceFormatException(line, column, name, "expected " + COLUMNS.size() + " columns ("
                        + CSV_HEADER + "), found " + found, null);
            }
            long seq = number(line, 1, f.get(0), "a sequence number (decimal digits)", false);
            String device = f.get(1);
            if (device.isEmpty()) {
                throw new TraceFormatException(line, 2, COLUMNS.get(1),
                        "expected a kernel device name (sda, sda1, dm-0), found an empty field", null);
            }
            device = devices.computeIfAbsent(device, d -> d);
            EventType type = events.get(f.get(2));
            if (type == null) {
                try {
                    type = EventType.ofTracepoint(f.get(2));
                } catch (IllegalArgumentException e) {
                    throw new TraceFormatException(line, 3, COLUMNS.get(2), "expected a block tracepoint name ("
                            + String.join(", ", Arrays.stream(EventType.values()).map(EventType::tracepoint).toList())
                            + "), found '" + f.get(2) + "'", e);
                }
                events.put(f.get(2), type);
            }
            String flags = rwbs.computeIfAbsent(f.get(3), r -> r);
            long sector = number(line, 5, f.get(4), "a sector number (decimal digits, at most 2^64-1)", true);
            long nrSectors = f.get(5).isEmpty() ? -1
                    : number(line, 6, f.get(5), "a number of sectors (decimal digits) or an empty field", false);
            String extra = f.get(6).isEmpty() ? "" : f.get(6);
            return new TraceEvent(seq, device, type, flags, sector, nrSectors, extra);
        }

        private static long number(long line, int column, String text, String expected, boolean unsigned) {
            boolean digits = !text.isEmpty();
            for (int i = 0; i < text.length() && digits; i++) {
                char c = text.charAt(i);
                digits = c >= '0' && c <= '9';
            }
            if (digits) {
                try {
                    return unsigned ? Long.parseUnsignedLong(text) : Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw new TraceFormatException(line, column, COLUMNS.get(column - 1),
                            "expected " + expected + ", found '" + text + "' (too large)", e);
                }
            }
            throw new TraceFormatException(line, column, COLUMNS.get(column - 1),
                    "expected " + expected + ", found " + (text.isEmpty() ? "an empty field" : "'" + text + "'"), null);
        }
    }

    /** RFC 4180 records from a reader: CRLF or LF line ends, quoted fields with doubled quotes. */
    private static final class CsvReader {
        private static final int EOF = -1;
        private final Reader in;
        private final char[] buf = new char[1 << 16];
        private int pos;
        private int len;
        private long line = 1;
        private long recordLine = 1;
        private final StringBuilder field = new StringBuilder(64);

        CsvReader(Reader in) {
            this.in = in;
        }

        long recordLine() {
            return recordLine;
        }

        private int read() {
            if (pos == len) {
                try {
                    len = in.read(buf, 0, buf.length);
                } catch (IOException e) {
                    throw new UncheckedIOException("reading a trace failed at line " + line + ": " + e.getMessage(), e);
                }
                pos = 0;
                if (len <= 0) {
                    len = 0;
                    return EOF;
                }
            }
            return buf[pos++];
        }

        private int peek() {
            int c = read();
            if (c != EOF) {
                pos--;
            }
            return c;
        }

        /** The next record's fields, or null at the end of the input. */
        List<String> next() {
            int c = read();
            if (c == EOF) {
                return null;
            }
            recordLine = line;
            List<String> fields = new ArrayList<>(8);
            while (true) {
                field.setLength(0);
                int column = fields.size() + 1;
                if (c == '"') {
                    c = quoted(column);
                } else {
                    while (c != ',' && c != '\r' && c != '\n' && c != EOF) {
                        if (c == '"') {
                            throw error(column, "expected a field without quotes or one quoted as a whole"
                                    + " (\"...\"), found a quote inside '" + field + "'");
                        }
                        field.append((char) c);
                        c = read();
                    }
                }
                fields.add(field.toString());
                if (c == ',') {
                    c = read();
                    continue;
                }
                if (c == '\r' && peek() == '\n') {
                    read();
                }
                if (c != EOF) {
                    line++;
                }
                return fields;
            }
        }

        /** Reads a quoted field after its opening quote; returns the character after the closing quote. */
        private int quoted(int column) {
            long start = line;
            while (true) {
                int c = read();
                if (c == EOF) {
                    throw new TraceFormatException(start, column, columnName(column),
                            "expected a closing quote, found the end of the input", null);
                }
                if (c == '"') {
                    int after = read();
                    if (after == '"') {
                        field.append('"');
                        continue;
                    }
                    if (after != ',' && after != '\r' && after != '\n' && after != EOF) {
                        throw error(column, "expected ',' or the end of the line after the closing quote of \""
                                + field + "\", found '" + (char) after + "'");
                    }
                    return after;
                }
                if (c == '\n') {
                    line++;
                }
                field.append((char) c);
            }
        }

        private TraceFormatException error(int column, String reason) {
            return new TraceFormatException(line, column, columnName(column), reason, null);
        }

        private static String columnName(int column) {
            return column <= COLUMNS.size() ? COLUMNS.get(column - 1) : "beyond extra";
        }
    }

    // --------------------------------------------------------------------------------------------- helpers

    private static void appendCsvField(StringBuilder sb, String value) {
        boolean quote = false;
        for (int i = 0; i < value.length() && !quote; i++) {
            char c = value.charAt(i);
            quote = c == ',' || c == '"' || c == '\r' || c == '\n';
        }
        if (!quote) {
            sb.append(value);
            return;
        }
        sb.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                sb.append('"');
            }
            sb.append(c);
        }
        sb.append('"');
    }

    private static void padLeft(StringBuilder sb, String s, int width) {
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
        sb.append(s);
    }

    private static void padRight(StringBuilder sb, String s, int width) {
        sb.append(s);
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
    }
}
