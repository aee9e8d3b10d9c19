package dev.dmmodel.cli;

import dev.dmmodel.units.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@link StackPicture} drawn as text (one line per lane, top row first) and as a self-contained SVG. */
final class PictureRenderer {

    /** Characters of the text picture's boxes (the row titles come before). */
    static final int TEXT_WIDTH = 96;
    /** Narrowest box in the text picture: {@code [dm-12]}. */
    static final int TEXT_MIN_WIDTH = 7;
    /** Pixels of the SVG picture's boxes. */
    static final int SVG_WIDTH = 960;
    /** Narrowest box in the SVG picture, in pixels. */
    static final int SVG_MIN_WIDTH = 8;

    private static final int SVG_LEFT = 110;
    private static final int SVG_TOP = 34;
    private static final int SVG_LANE = 50;
    private static final int SVG_BOX = 44;
    private static final double SVG_CHAR = 6.6;

    private PictureRenderer() {
    }

    // ---------------------------------------------------------------- text

    /**
     * The text picture: each lane a line, boxes as {@code [name   ]} with the kernel name, a box whose start is
     * misaligned opens with {@code !} instead of {@code [}; then one line per misaligned start.
     */
    static String text(StackPicture picture) {
        List<StackPicture.Row> rows = picture.rows();
        int titleWidth = rows.stream().mapToInt(r -> r.title().length()).max().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (int r = rows.size() - 1; r >= 0; r--) {
            StackPicture.Row row = rows.get(r);
            for (int lane = row.lanes() - 1; lane >= 0; lane--) {
                char[] line = new char[TEXT_WIDTH + TEXT_MIN_WIDTH];
                java.util.Arrays.fill(line, ' ');
                int end = 0;
                for (StackPicture.Box b : row.boxes()) {
                    if (b.lane() != lane) {
                        continue;
                    }
                    int c0 = (int) Math.round(b.x0());
                    int c1 = Math.max(c0 + TEXT_MIN_WIDTH, (int) Math.round(b.x1())) - 1;
                    c1 = Math.min(c1, line.length - 1);
                    line[c0] = b.misaligned() ? '!' : '[';
                    line[c1] = ']';
                    for (int c = c0 + 1; c < c1; c++) {
                        line[c] = ' ';
                    }
                    String label = b.device();
                    int room = c1 - c0 - 1;
                    if (label.length() > room) {
                        label = room <= 0 ? "" : label.substring(0, room - 1) + "~";
                    }
                    label.getChars(0, label.length(), line, c0 + 1);
                    end = Math.max(end, c1 + 1);
                }
                String title = lane == 0 ? row.title() : "";
                sb.append(title).append(" ".repeat(titleWidth - title.length() + 2))
                        .append(new String(line, 0, end)).append('\n');
            }
        }
        for (StackPicture.Box b : picture.boxes()) {
            if (b.misaligned()) {
                sb.append("! ").append(markText(b)).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * {@code dm-0 (lin63) starts at sector 0 (0 bytes) of sdg1, sector 63 of sdg: 3584 bytes past a 4096-byte
     * boundary (align.device.offset)}.
     */
    static String markText(StackPicture.Box b) {
        StackPicture.Mark m = b.mark();
        return b.label() + " starts at sector " + b.startOnBelow() + " (" + bytes(b.startOnBelow()) + " bytes) of "
                + b.below() + (b.below().equals(m.disk()) ? "" : ", sector " + m.diskSector() + " of " + m.disk())
                + ": " + m.bytesPast() + " bytes past a " + m.grainBytes() + "-byte boundary"
                + (m.findingIds().isEmpty() ? "" : " (" + String.join(", ", m.findingIds()) + ")");
    }

    private static String bytes(long sectors) {
        // a sector count from a layout fits in a long once in bytes (sizes are checked when built)
        return Long.toString(Math.multiplyExact(sectors, 512L));
    }

    // ---------------------------------------------------------------- SVG

    /**
     * The SVG picture: no script, no external font or image; every name XML-escaped. Rows bottom up (disks at
     * the bottom), each box a {@code <g class="box">} with its {@code <title>}, a {@code <rect>} and up to three
     * lines of text (name; start on the device below in sectors and bytes; size); a misaligned start a
     * {@code <line class="misaligned">} on the box's left edge with a {@code <title>} naming the findings.
     */
    static String svg(StackPicture picture, String caption) {
        return svg(picture, caption, null);
    }

    /**
     * {@link #svg(StackPicture, String)} with each box a link to {@code linkPrefix + device} (the report page's
     * device sections), or no links when {@code linkPrefix} is null.
     */
    static String svg(StackPicture picture, String caption, String linkPrefix) {
        List<StackPicture.Row> rows = picture.rows();
        int lanes = rows.stream().mapToInt(StackPicture.Row::lanes).sum();
        int height = SVG_TOP + lanes * SVG_LANE + 10;
        int width = SVG_LEFT + SVG_WIDTH + SVG_MIN_WIDTH + 10;
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\">\n");
        sb.append("<title>").append(xml(caption)).append("</title>\n");
        sb.append("<style>\n"
                + "text { font-family: monospace; font-size: 11px; fill: #222; }\n"
                + "text.row { font-weight: bold; }\n"
                + "rect.disk { fill: #d9e2ec; stroke: #334e68; }\n"
                + "rect.partition { fill: #e3f8e3; stroke: #2f6f2f; }\n"
                + "rect.dm { fill: #fff3c4; stroke: #8d6e00; }\n"
                + "rect.bad { stroke: #c00; }\n"
                + "line.misaligned { stroke: #c00; stroke-width: 4; stroke-dasharray: 4 2; }\n"
                + "</style>\n");
        sb.append("<text x=\"4\" y=\"16\">").append(xml(caption)).append("</text>\n");
        int laneFromTop = 0;
        for (int r = rows.size() - 1; r >= 0; r--) {
            StackPicture.Row row = rows.get(r);
            int rowTop = SVG_TOP + laneFromTop * SVG_LANE;
            sb.append("<g class=\"row\" id=\"row-").append(row.index()).append("\">\n");
            sb.append("<text class=\"row\" x=\"4\" y=\"").append(rowTop + (row.lanes() * SVG_LANE) / 2 + 4).append("\">")
                    .append(xml(row.title())).append("</text>\n");
            for (StackPicture.Box b : row.boxes()) {
                int y = rowTop + (row.lanes() - 1 - b.lane()) * SVG_LANE;
                if (linkPrefix != null) {
                    sb.append("<a href=\"").append(xml(linkPrefix + HtmlReport.anchor(b.device()))).append("\">");
                    box(sb, b, y);
                    sb.append("</a>\n");
                } else {
                    box(sb, b, y);
                }
            }
            sb.append("</g>\n");
            laneFromTop += row.lanes();
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static void box(StringBuilder sb, StackPicture.Box b, int y) {
        double x0 = SVG_LEFT + b.x0();
        double w = Math.max(SVG_MIN_WIDTH, b.x1() - b.x0());
        String kind = b.kind();
        List<String> lines = new ArrayList<>();
        lines.add(b.label());
        if (b.row() > 0) {
            lines.add("at " + b.startOnBelow() + " s (" + bytes(b.startOnBelow()) + " B) of " + b.below());
        }
        lines.add(b.sectors() + " s (" + Sizes.format(Math.multiplyExact(b.sectors(), 512L)) + ")");
        String tooltip = String.join("; ", lines) + (b.misaligned() ? "; misaligned: " + markText(b) : "");
        sb.append("<g class=\"box\" data-device=\"").append(xml(b.device())).append("\">");
        sb.append("<title>").append(xml(tooltip)).append("</title>");
        sb.append("<rect class=\"").append(kind).append(b.misaligned() ? " bad" : "").append("\" x=\"")
                .append(num(x0)).append("\" y=\"").append(y).append("\" width=\"").append(num(w))
                .append("\" height=\"").append(SVG_BOX).append("\"/>");
        int fit = (int) ((w - 6) / SVG_CHAR);
        for (int i = 0; i < lines.size() && fit >= 2; i++) {
            String t = lines.get(i);
            if (t.length() > fit) {
                t = t.substring(0, fit - 1) + "~";
            }
            sb.append("<text x=\"").append(num(x0 + 4)).append("\" y=\"").append(y + 13 + 13 * i).append("\">")
                    .append(xml(t)).append("</text>");
        }
        if (b.misaligned()) {
            sb.append("<line class=\"misaligned\" x1=\"").append(num(x0)).append("\" y1=\"").append(y - 3)
                    .append("\" x2=\"").append(num(x0)).append("\" y2=\"").append(y + SVG_BOX + 3).append("\">")
                    .append("<title>").append(xml(markText(b))).append("</title></line>");
        }
        sb.append("</g>\n");
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** XML escaping of text and attribute values; characters XML 1.0 cannot hold become U+FFFD. */
    static String xml(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> {
                    boolean ok = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF)
                            || Character.isSurrogate(c) || (c >= 0xE000 && c <= 0xFFFD);
                    sb.append(ok ? c : '\uFFFD');
                }
            }
        }
        return sb.toString();
    }
}
