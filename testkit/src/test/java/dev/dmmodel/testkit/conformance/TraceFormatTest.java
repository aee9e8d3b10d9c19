package dev.dmmodel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormat;
import dev.dmmodel.trace.TraceFormatException;
import dev.dmmodel.trace.TraceListener;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class TraceFormatTest {

    private static final String HEADER = "seq,device,event,rwbs,sector,nr_sectors,extra\r\n";

    /** Rows as the recorded files have them, including the 6.1 flush completion at (sector_t)-1. */
    private static final String RECORDED = HEADER
            + "0,dm-0,block_bio_queue,WS,64,2048,\r\n"
            + "1,sda,block_bio_remap,WS,2112,64,from=dm-0:64\r\n"
            + "2,dm-0,block_split,WS,128,,new_sector=128\r\n"
            + "3,sda,block_rq_issue,FF,0,0,bytes=0\r\n"
            + "4,sda,block_rq_complete,FF,18446744073709551615,0,err=0\r\n"
            + "5,sda1,block_bio_remap,WS,2753,128,from=dm-0:0\r\n";

    private static List<TraceEvent> events() {
        return List.of(
                new TraceEvent(0, "dm-0", EventType.BIO_QUEUE, "WS", 64, 2048, ""),
                new TraceEvent(1, "sda", EventType.BIO_REMAP, "WS", 2112, 64, "from=dm-0:64"),
                new TraceEvent(2, "dm-0", EventType.SPLIT, "WS", 128, -1, "new_sector=128"),
                new TraceEvent(3, "sda", EventType.RQ_ISSUE, "FF", 0, 0, "bytes=0"),
                new TraceEvent(4, "sda", EventType.RQ_COMPLETE, "FF", -1, 0, "err=0"),
                new TraceEvent(5, "sda1", EventType.BIO_REMAP, "WS", 2753, 128, "from=dm-0:0"));
    }

    private static List<TraceEvent> awkward() {
        return List.of(
                new TraceEvent(0, "dm-0", EventType.BIO_QUEUE, "W", 0, 8, "a,b"),
                new TraceEvent(1, "dm-0", EventType.BIO_QUEUE, "W", 0, 8, "say \"hi\""),
                new TraceEvent(2, "dm-0", EventType.BIO_QUEUE, "W", 0, 8, "two\r\nlines\nhere"),
                new TraceEvent(3, "dm-0", EventType.BIO_QUEUE, "W", 0, 8, "\""),
                new TraceEvent(4, "dm-0", EventType.BIO_QUEUE, "W", Long.MAX_VALUE, Long.MAX_VALUE, "tab\there\\"),
                new TraceEvent(5, "dm-0", EventType.UNPLUG, "", Long.MIN_VALUE, -1, "\u0001 ünïcode €"));
    }

    private static String write(TraceFormat format, List<TraceEvent> events) {
        StringBuilder sb = new StringBuilder();
        format.write(events, sb);
        return sb.toString();
    }

    private static List<TraceEvent> read(String csv) {
        return TraceFormat.readCsv(new StringReader(csv));
    }

    @Nested
    class Csv {

        @Test
        void writesTheRecordedFormat() {
            assertThat(write(TraceFormat.CSV, events())).isEqualTo(RECORDED);
        }

        @Test
        void aWriterGetsTheSameCharactersAsAnyAppendable() {
            // the Writer path (the CLI's) skips the String per line; it must write exactly what the other path does,
            // the unsigned sector 2^64 - 1 (sector -1) and quoted fields included, in every format
            for (TraceFormat f : TraceFormat.values()) {
                for (List<TraceEvent> list : List.of(events(), awkward())) {
                    java.io.StringWriter w = new java.io.StringWriter();
                    f.write(list, w);
                    assertThat(w.toString()).as(f.name()).isEqualTo(write(f, list));
                }
            }
            assertThat(write(TraceFormat.CSV, events())).contains(",18446744073709551615,");
        }

        @Test
        void readsTheRecordedFormat() {
            assertThat(read(RECORDED)).containsExactlyElementsOf(events());
        }

        @Test
        void anEmptyTraceIsTheHeader() {
            assertThat(write(TraceFormat.CSV, List.of())).isEqualTo(HEADER);
            assertThat(read(HEADER)).isEmpty();
        }

        @Test
        void quotesOnlyFieldsThatNeedIt() {
            assertThat(write(TraceFormat.CSV, awkward())).isEqualTo(HEADER
                    + "0,dm-0,block_bio_queue,W,0,8,\"a,b\"\r\n"
                    + "1,dm-0,block_bio_queue,W,0,8,\"say \"\"hi\"\"\"\r\n"
                    + "2,dm-0,block_bio_queue,W,0,8,\"two\r\nlines\nhere\"\r\n"
                    + "3,dm-0,block_bio_queue,W,0,8,\"\"\"\"\r\n"
                    + "4,dm-0,block_bio_queue,W,9223372036854775807,9223372036854775807,tab\there\\\r\n"
                    + "5,dm-0,block_unplug,,9223372036854775808,,\u0001 ünïcode €\r\n");
        }

        @Test
        void roundTrips() {
            for (List<TraceEvent> events : List.of(events(), awkward())) {
                String csv = write(TraceFormat.CSV, events);

                assertThat(read(csv)).containsExactlyElementsOf(events);
                assertThat(write(TraceFormat.CSV, read(csv))).isEqualTo(csv);
            }
        }

        @Test
        void everyEventTypeRoundTrips() {
            List<TraceEvent> all = new ArrayList<>();
            for (EventType t : EventType.values()) {
                all.add(new TraceEvent(all.size(), "nvme0n1p1", t, "RAS", 7, all.size() % 2 == 0 ? 8 : -1, ""));
            }
            assertThat(read(write(TraceFormat.CSV, all))).containsExactlyElementsOf(all);
        }

        @Test
        void acceptsLfLineEndsAndANoFinalLineEnd() {
            String lf = RECORDED.replace("\r\n", "\n");

            assertThat(read(lf)).containsExactlyElementsOf(events());
            assertThat(read(lf.substring(0, lf.length() - 1))).containsExactlyElementsOf(events());
            assertThat(read(RECORDED.substring(0, RECORDED.length() - 2))).containsExactlyElementsOf(events());
        }

        @Test
        void acceptsQuotedFieldsAnywhere() {
            assertThat(read(HEADER + "\"7\",\"dm-0\",\"block_bio_queue\",\"W\",\"0\",\"\",\"\"\r\n"))
                    .containsExactly(new TraceEvent(7, "dm-0", EventType.BIO_QUEUE, "W", 0, -1, ""));
        }

        @Test
        void theStreamingWriterWritesAsEventsArrive() {
            StringBuilder out = new StringBuilder();
            TraceListener w = TraceFormat.CSV.writer(out);

            assertThat(out).hasToString(HEADER);
            w.onEvent(events().get(0));
            assertThat(out).hasToString(HEADER + "0,dm-0,block_bio_queue,WS,64,2048,\r\n");
            w.onEvent(events().get(2));
            assertThat(out).hasToString(HEADER + "0,dm-0,block_bio_queue,WS,64,2048,\r\n"
                    + "2,dm-0,block_split,WS,128,,new_sector=128\r\n");
        }

        @Test
        void aFailingAppendableIsReportedUnchecked() {
            Appendable broken = new Appendable() {
                @Override
                public Appendable append(CharSequence csq) throws IOException {
                    throw new IOException("disk full");
                }

                @Override
                public Appendable append(CharSequence csq, int start, int end) throws IOException {
                    throw new IOException("disk full");
                }

                @Override
                public Appendable append(char c) throws IOException {
                    throw new IOException("disk full");
                }
            };
            assertThatThrownBy(() -> TraceFormat.CSV.write(events(), broken))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("disk full");
        }
    }

    @Nested
    class MalformedCsv {

        private TraceFormatException malformed(String csv) {
            try {
                read(csv);
            } catch (TraceFormatException e) {
                return e;
            }
            throw new AssertionError("no TraceFormatException for:\n" + csv);
        }

        @Test
        void anEmptyFile() {
            TraceFormatException e = malformed("");

            assertThat(e).hasMessage("line 1, column 1 (seq): expected the header "
                    + "'seq,device,event,rwbs,sector,nr_sectors,extra', found an empty file");
            assertThat(e.lineNumber()).isEqualTo(1);
        }

        @Test
        void aWrongHeader() {
            TraceFormatException e = malformed("seq,device,event,rwbs,sector,size,extra\r\n0,sda,block_bio_queue,W,0,8,\r\n");

            assertThat(e).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("line 1, column 6 (nr_sectors): expected the header "
                            + "'seq,device,event,rwbs,sector,nr_sectors,extra', found 'seq,device,event,rwbs,sector,size,extra'");
            assertThat(e.lineNumber()).isEqualTo(1);
            assertThat(e.column()).isEqualTo(6);
            assertThat(e.columnName()).isEqualTo("nr_sectors");
        }

        @Test
        void aMissingHeader() {
            assertThat(malformed("0,dm-0,block_bio_queue,WS,64,2048,\r\n"))
                    .hasMessageStartingWith("line 1, column 1 (seq): expected the header");
        }

        @Test
        void aHeaderWithAnExtraColumn() {
            assertThat(malformed("seq,device,event,rwbs,sector,nr_sectors,extra,comm\r\n"))
                    .hasMessageStartingWith("line 1, column 8 (beyond extra): expected the header");
        }

        @Test
        void tooFewColumns() {
            TraceFormatException e = malformed(HEADER + "0,dm-0,block_bio_queue,WS,64,2048,\r\n1,sda,block_bio_remap,WS,2112,64\r\n");

            assertThat(e).hasMessage("line 3, column 7 (extra): expected 7 columns "
                    + "(seq,device,event,rwbs,sector,nr_sectors,extra), found 6 columns");
            assertThat(e.lineNumber()).isEqualTo(3);
        }

        @Test
        void tooManyColumns() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,64,2048,,dd\r\n"))
                    .hasMessage("line 2, column 8 (beyond extra): expected 7 columns "
                            + "(seq,device,event,rwbs,sector,nr_sectors,extra), found 8 columns");
        }

        @Test
        void anExtraWithAnUnquotedComma() {
            assertThat(malformed(HEADER + "0,sda,block_bio_remap,WS,2112,64,from=dm-0:64,x\r\n"))
                    .hasMessageStartingWith("line 2, column 8 (beyond extra): expected 7 columns");
        }

        @Test
        void anEmptyLine() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,64,2048,\r\n\r\n"))
                    .hasMessage("line 3, column 2 (device): expected 7 columns "
                            + "(seq,device,event,rwbs,sector,nr_sectors,extra), found an empty line");
        }

        @Test
        void aNonNumericSector() {
            TraceFormatException e = malformed(HEADER + "0,dm-0,block_bio_queue,WS,0x40,2048,\r\n");

            assertThat(e).hasMessage("line 2, column 5 (sector): expected a sector number (decimal digits, "
                    + "at most 2^64-1), found '0x40'");
            assertThat(e.column()).isEqualTo(5);
            assertThat(e.columnName()).isEqualTo("sector");
        }

        @Test
        void aNegativeOrEmptySector() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,-1,8,\r\n"))
                    .hasMessageEndingWith("found '-1'");
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,,8,\r\n"))
                    .hasMessage("line 2, column 5 (sector): expected a sector number (decimal digits, at most 2^64-1), "
                            + "found an empty field");
        }

        @Test
        void aSectorBeyond64Bits() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,18446744073709551616,8,\r\n"))
                    .hasMessageEndingWith("found '18446744073709551616' (too large)")
                    .hasCauseInstanceOf(NumberFormatException.class);
        }

        @Test
        void aNonNumericSize() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,0,-1,\r\n"))
                    .hasMessage("line 2, column 6 (nr_sectors): expected a number of sectors (decimal digits) or an "
                            + "empty field, found '-1'");
        }

        @Test
        void aNonNumericSeq() {
            assertThat(malformed(HEADER + " 0,dm-0,block_bio_queue,WS,0,8,\r\n"))
                    .hasMessage("line 2, column 1 (seq): expected a sequence number (decimal digits), found ' 0'");
        }

        @Test
        void anEmptyDevice() {
            assertThat(malformed(HEADER + "0,,block_bio_queue,WS,0,8,\r\n"))
                    .hasMessage("line 2, column 2 (device): expected a kernel device name (sda, sda1, dm-0), "
                            + "found an empty field");
        }

        @Test
        void anUnknownEventName() {
            TraceFormatException e = malformed(RECORDED + "6,sda,block_bio_bounce,W,0,8,\r\n");

            assertThat(e).hasMessageStartingWith("line 8, column 3 (event): expected a block tracepoint name "
                            + "(block_bio_queue, block_bio_remap, block_split, ")
                    .hasMessageEndingWith("), found 'block_bio_bounce'");
            assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("unknown block tracepoint 'block_bio_bounce'");
        }

        @Test
        void anUnterminatedQuote() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,0,8,\"from=\r\n"))
                    .hasMessage("line 2, column 7 (extra): expected a closing quote, found the end of the input");
        }

        @Test
        void aQuoteInsideAnUnquotedField() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,0,8,a\"b\r\n"))
                    .hasMessage("line 2, column 7 (extra): expected a field without quotes or one quoted as a whole "
                            + "(\"...\"), found a quote inside 'a'");
        }

        @Test
        void textAfterAClosingQuote() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,WS,0,8,\"a\"b\r\n"))
                    .hasMessage("line 2, column 7 (extra): expected ',' or the end of the line after the closing "
                            + "quote of \"a\", found 'b'");
        }

        @Test
        void lineNumbersCountLineBreaksInsideQuotes() {
            assertThat(malformed(HEADER + "0,dm-0,block_bio_queue,W,0,8,\"a\r\nb\"\r\n1,dm-0,block_bio_queue,W,x,8,\r\n"))
                    .hasMessageStartingWith("line 4, column 5 (sector)");
        }
    }

    @Nested
    class Json {

        @Test
        void oneObjectPerLine() {
            assertThat(write(TraceFormat.JSON, events().subList(0, 3))).isEqualTo(
                    "{\"seq\":0,\"device\":\"dm-0\",\"event\":\"block_bio_queue\",\"rwbs\":\"WS\",\"sector\":64,"
                            + "\"nr_sectors\":2048,\"extra\":\"\"}\n"
                    + "{\"seq\":1,\"device\":\"sda\",\"event\":\"block_bio_remap\",\"rwbs\":\"WS\",\"sector\":2112,"
                            + "\"nr_sectors\":64,\"extra\":\"from=dm-0:64\"}\n"
                    + "{\"seq\":2,\"device\":\"dm-0\",\"event\":\"block_split\",\"rwbs\":\"WS\",\"sector\":128,"
                            + "\"nr_sectors\":null,\"extra\":\"new_sector=128\"}\n");
        }

        @Test
        void everyLineIsValidJsonWithTheEventsValues() {
            List<TraceEvent> all = new ArrayList<>(events());
            all.addAll(awkward());
            String json = write(TraceFormat.JSON, all);
            List<String> lines = json.lines().toList();

            assertThat(json).endsWith("}\n");
            assertThat(lines).hasSize(all.size());
            for (int i = 0; i < all.size(); i++) {
                TraceEvent e = all.get(i);
                Map<String, Object> o = new MiniJson(lines.get(i)).object();
                assertThat(o.keySet()).containsExactly("seq", "device", "event", "rwbs", "sector", "nr_sectors", "extra");
                assertThat(o.get("seq")).isEqualTo(BigInteger.valueOf(e.seq()));
                assertThat(o.get("device")).isEqualTo(e.device());
                assertThat(o.get("event")).isEqualTo(e.type().tracepoint());
                assertThat(o.get("rwbs")).isEqualTo(e.rwbs());
                assertThat(o.get("sector")).isEqualTo(new BigInteger(Long.toUnsignedString(e.sector())));
                assertThat(o.get("nr_sectors")).isEqualTo(e.hasSize() ? BigInteger.valueOf(e.nrSectors()) : null);
                assertThat(o.get("extra")).isEqualTo(e.extra());
            }
        }

        @Test
        void escapesQuotesBackslashesAndControlCharacters() {
            assertThat(TraceFormat.JSON.format(new TraceEvent(0, "d", EventType.BIO_QUEUE, "W", 0, 8,
                    "q\" b\\ n\n r\r t\t u\u0001 \u2028")))
                    .endsWith("\"extra\":\"q\\\" b\\\\ n\\n r\\r t\\t u\\u0001 \\u2028\"}");
        }
    }

    @Nested
    class Text {

        @Test
        void blkparseLikeLines() {
            assertThat(write(TraceFormat.TEXT, events())).isEqualTo(
                    "      0 dm-0     block_bio_queue      WS   64 + 2048\n"
                    + "      1 sda      block_bio_remap      WS   2112 + 64  from=dm-0:64\n"
                    + "      2 dm-0     block_split          WS   128  new_sector=128\n"
                    + "      3 sda      block_rq_issue       FF   0 + 0  bytes=0\n"
                    + "      4 sda      block_rq_complete    FF   18446744073709551615 + 0  err=0\n"
                    + "      5 sda1     block_bio_remap      WS   2753 + 128  from=dm-0:0\n");
        }

        @Test
        void theStreamingWriterHasNoHeader() {
            StringBuilder out = new StringBuilder();
            TraceListener w = TraceFormat.TEXT.writer(out);
            assertThat(out).isEmpty();
            w.onEvent(new TraceEvent(12, "sda", EventType.BIO_QUEUE, "WS", 2112, 64, ""));
            assertThat(out).hasToString("     12 sda      block_bio_queue      WS   2112 + 64\n");
        }
    }

    /** Just enough of a JSON parser to check the writer's lines: one flat object of strings, integers, null. */
    private static final class MiniJson {
        private final String s;
        private int i;

        MiniJson(String s) {
            this.s = s;
        }

        Map<String, Object> object() {
            Map<String, Object> out = new LinkedHashMap<>();
            expect('{');
            if (s.charAt(i) != '}') {
                do {
                    String key = string();
                    expect(':');
                    out.put(key, value());
                } while (s.charAt(i++) == ',');
                i--;
            }
            expect('}');
            if (i != s.length()) {
                throw new AssertionError("text after the object at " + i + ": " + s);
            }
            return out;
        }

        private Object value() {
            char c = s.charAt(i);
            if (c == '"') {
                return string();
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            if (c == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            String number = s.substring(start, i);
            if (!number.matches("-?(0|[1-9][0-9]*)")) {
                throw new AssertionError("bad number '" + number + "' in " + s);
            }
            return new BigInteger(number);
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw new AssertionError("raw control character in a JSON string: " + s);
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> throw new AssertionError("bad escape \\" + e + " in " + s);
                }
            }
        }

        private void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) {
                throw new AssertionError("expected '" + c + "' at " + i + " in " + s);
            }
            i++;
        }
    }
}
