package dev.dmmodel.cli;

import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-layer charts of a trace, as SVG: for every device, the sizes of the bios it received
 * ({@code block_bio_queue}) and of the requests it issued ({@code block_rq_issue}), and the requests' offsets in
 * issue order (seekwatcher's view); for every thin device, the data written against the zeroing and copying it
 * caused. The collector keeps counts by size and at most {@link #MAX_POINTS} offsets a device, so its memory does
 * not grow with the trace.
 */
final class TraceCharts implements TraceListener {

    /** Offsets kept per device for the issue-order chart; later requests are counted, not drawn. */
    static final int MAX_POINTS = 4000;
    /** Distinct sizes drawn one bar each; more are grouped into power-of-two ranges. */
    static final int MAX_BARS = 24;

    private static final int W = 640;
    private static final int H = 200;
    private static final int LEFT = 70;
    private static final int BOTTOM = 36;
    private static final int TOP = 26;

    /** What one device saw. */
    static final class Layer {
        final String device;
        final TreeMap<Long, Long> bioSizes = new TreeMap<>();
        final TreeMap<Long, Long> requestSizes = new TreeMap<>();
        final List<long[]> offsets = new ArrayList<>();
        long requests;
        long requestSectors;
        long splits;
        long remapsIn;
        long bios;
        long bioSectors;
        /** Bios merged into a request ({@code block_bio_backmerge}, {@code block_bio_frontmerge}). */
        long merges;
        /** Sectors of the write bios received. */
        long writeSectors;

        Layer(String device) {
            this.device = device;
        }

        boolean hasRequests() {
            return requests > 0;
        }
    }

    private final Map<String, Layer> layers = new LinkedHashMap<>();
    private long events;

    @Override
    public void onEvent(TraceEvent e) {
        events++;
        switch (e.type()) {
            case BIO_QUEUE -> {
                Layer l = layer(e.device());
                l.bios++;
                if (e.nrSectors() > 0) {
                    l.bioSizes.merge(e.nrSectors(), 1L, Long::sum);
                    l.bioSectors = Math.addExact(l.bioSectors, e.nrSectors());
                    if (e.rwbs().indexOf('W') >= 0) {
                        l.writeSectors = Math.addExact(l.writeSectors, e.nrSectors());
                    }
                }
            }
            case RQ_ISSUE -> {
                Layer l = layer(e.device());
                if (e.nrSectors() > 0) {
                    l.requestSizes.merge(e.nrSectors(), 1L, Long::sum);
                    l.requestSectors = Math.addExact(l.requestSectors, e.nrSectors());
                }
                if (l.offsets.size() < MAX_POINTS) {
                    l.offsets.add(new long[] {l.requests, e.sector()});
                }
                l.requests++;
            }
            case SPLIT -> layer(e.device()).splits++;
            case BIO_BACKMERGE, BIO_FRONTMERGE -> layer(e.device()).merges++;
            case BIO_REMAP -> layer(e.device()).remapsIn++;
            default -> {
            }
        }
    }

    private Layer layer(String device) {
        return layers.computeIfAbsent(device, Layer::new);
    }

    /** The devices that saw events, in the order they first did. */
    List<Layer> layers() {
        return List.copyOf(layers.values());
    }

    /** What {@code device} saw, or null if it saw no event. */
    Layer find(String device) {
        return layers.get(device);
    }

    /** Bytes of the write bios {@code device} received. */
    long dataBytes(String device) {
        Layer l = find(device);
        return l == null ? 0 : Math.multiplyExact(l.writeSectors, 512L);
    }

    /** Events seen. */
    long events() {
        return events;
    }

    /**
     * The per-layer statistics ({@code trace --summary}): one line per device that saw events, in the order it first
     * did — bios received and their sectors, splits, bios remapped to it, merges, requests issued and their sizes —
     * then one line per thin device written (blocks provisioned, partial first writes, zeroing, copies).
     */
    String summary(List<ThinStats> thin) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-10s %12s %14s %10s %12s %10s %12s %14s %8s %8s%n", "device", "bios",
                "bio_sectors", "splits", "remapped_in", "merges", "requests", "rq_sectors", "rq_avg", "rq_max"));
        for (Layer l : layers.values()) {
            sb.append(String.format(Locale.ROOT, "%-10s %12d %14d %10d %12d %10d %12d %14d %8s %8s%n", l.device,
                    l.bios, l.bioSectors, l.splits, l.remapsIn, l.merges, l.requests, l.requestSectors,
                    l.requests == 0 ? "-" : String.format(Locale.ROOT, "%.1f", (double) l.requestSectors / l.requests),
                    l.requestSizes.isEmpty() ? "-" : Long.toString(l.requestSizes.lastKey())));
        }
        for (ThinStats t : thin) {
            if (t.writeBios() > 0) {
                sb.append(String.format(Locale.ROOT, "thin %s on %s: %d blocks of %d sectors provisioned, %d first written"
                                + " partially, %d zeroed, %d copied, %s written besides the data%n", t.thinDevice(),
                        t.poolDevice(), t.blocksProvisioned(), t.blockSectors(), t.partialFirstWrites(),
                        t.blocksZeroed(), t.blocksCopied(), Sizes.format(t.extraBytesWritten())));
            }
        }
        sb.append(events).append(" events\n");
        return sb.toString();
    }

    /** Every chart of the trace as one SVG document ({@code trace --format svg}). */
    String svgDocument(String caption, List<ThinStats> thin) {
        List<String> charts = new ArrayList<>();
        for (Layer l : layers.values()) {
            charts.addAll(charts(l));
        }
        for (ThinStats t : thin) {
            if (t.writeBios() > 0) {
                charts.add(thinChart(t, dataBytes(t.thinDevice())));
            }
        }
        int height = 30 + charts.size() * (H + 14);
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(W).append(' ').append(height).append("\">\n");
        sb.append("<title>").append(PictureRenderer.xml(caption)).append("</title>\n");
        sb.append("<style>\n").append(STYLE).append("</style>\n");
        sb.append("<text class=\"caption\" x=\"4\" y=\"18\">").append(PictureRenderer.xml(caption)).append("</text>\n");
        int y = 30;
        for (String c : charts) {
            sb.append("<g transform=\"translate(0,").append(y).append(")\">\n").append(c).append("</g>\n");
            y += H + 14;
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    /** One chart as an SVG element of its own, for a page that holds several (the HTML report). */
    static String standalone(String chart) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + W + " " + H + "\" width=\"" + W
                + "\" height=\"" + H + "\">" + chart + "</svg>";
    }

    /** The chart style, shared by the SVG document and the HTML report. */
    static final String STYLE = ""
            + "svg text { font-family: sans-serif; font-size: 11px; fill: #222; }\n"
            + "text.caption, text.chart-title { font-weight: bold; }\n"
            + "rect.frame { fill: #fff; stroke: #bbb; }\n"
            + "rect.bar-bio { fill: #4a78b5; }\n"
            + "rect.bar-rq { fill: #d08c2f; }\n"
            + "rect.bar-data { fill: #4a78b5; }\n"
            + "rect.bar-zero { fill: #c0392b; }\n"
            + "rect.bar-copy { fill: #8e44ad; }\n"
            + "circle.offset { fill: #2a7f62; }\n"
            + "line.axis { stroke: #555; }\n";

    /** The charts of one device: bio sizes, request sizes, request offsets; those it has data for. */
    static List<String> charts(Layer l) {
        List<String> out = new ArrayList<>();
        if (!l.bioSizes.isEmpty()) {
            out.add(histogram(l.device + ": bios received (block_bio_queue) by size, " + l.bios + " bios, "
                    + l.splits + " splits", l.bioSizes, "bar-bio"));
        }
        if (!l.requestSizes.isEmpty()) {
            out.add(histogram(l.device + ": requests issued (block_rq_issue) by size, " + l.requests + " requests",
                    l.requestSizes, "bar-rq"));
        }
        if (!l.offsets.isEmpty()) {
            out.add(offsets(l));
        }
        return out;
    }

    /** Bars of counts by size in sectors; many distinct sizes are grouped into power-of-two ranges. */
    static String histogram(String title, TreeMap<Long, Long> bySize, String barClass) {
        List<String> labels = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        if (bySize.size() <= MAX_BARS) {
            bySize.forEach((size, n) -> {
                labels.add(Long.toString(size));
                counts.add(n);
            });
        } else {
            TreeMap<Integer, Long> byPower = new TreeMap<>();
            bySize.forEach((size, n) -> byPower.merge(63 - Long.numberOfLeadingZeros(size), n, Long::sum));
            byPower.forEach((p, n) -> {
                labels.add((1L << p) + "-" + ((1L << (p + 1)) - 1));
                counts.add(n);
            });
        }
        long max = counts.stream().mapToLong(Long::longValue).max().orElse(1);
        StringBuilder sb = frame(title, "count", "size (sectors)");
        double plotW = W - LEFT - 10;
        double plotH = H - TOP - BOTTOM;
        double slot = plotW / labels.size();
        for (int i = 0; i < labels.size(); i++) {
            double h = plotH * counts.get(i) / max;
            double x = LEFT + i * slot + slot * 0.1;
            sb.append("<rect class=\"").append(barClass).append("\" x=\"").append(num(x)).append("\" y=\"")
                    .append(num(TOP + plotH - h)).append("\" width=\"").append(num(slot * 0.8)).append("\" height=\"")
                    .append(num(h)).append("\"><title>").append(PictureRenderer.xml(labels.get(i) + " sectors ("
                            + sizeLabel(labels.get(i)) + "): " + counts.get(i))).append("</title></rect>\n");
            if (labels.size() <= 12 || i % ((labels.size() + 11) / 12) == 0) {
                sb.append("<text x=\"").append(num(x + slot * 0.4)).append("\" y=\"").append(H - BOTTOM + 13)
                        .append("\" text-anchor=\"middle\">").append(PictureRenderer.xml(labels.get(i)))
                        .append("</text>\n");
            }
        }
        yTicks(sb, max);
        return sb.append("</g>\n").toString();
    }

    private static String sizeLabel(String sectors) {
        if (sectors.contains("-")) {
            return sectors + " sectors";
        }
        return Sizes.format(Long.parseLong(sectors) * 512);
    }

    /** The requests' start sectors in issue order: a line is sequential I/O, scatter is seeking. */
    static String offsets(Layer l) {
        long maxSector = 1;
        long minSector = Long.MAX_VALUE;
        for (long[] p : l.offsets) {
            maxSector = Math.max(maxSector, p[1]);
            minSector = Math.min(minSector, p[1]);
        }
        long span = Math.max(1, maxSector - minSector);
        long n = l.offsets.size();
        String title = l.device + ": request offsets in issue order" + (l.requests > n ? " (first " + n + " of "
                + l.requests + ")" : "") + ", sectors " + minSector + "-" + maxSector;
        StringBuilder sb = frame(title, "sector", "request # in issue order");
        double plotW = W - LEFT - 10;
        double plotH = H - TOP - BOTTOM;
        for (long[] p : l.offsets) {
            double x = LEFT + (n == 1 ? plotW / 2 : plotW * p[0] / (n - 1));
            double y = TOP + plotH - plotH * (p[1] - minSector) / span;
            sb.append("<circle class=\"offset\" cx=\"").append(num(x)).append("\" cy=\"").append(num(y))
                    .append("\" r=\"2\"/>\n");
        }
        sb.append("<text x=\"").append(LEFT - 4).append("\" y=\"").append(TOP + 8).append("\" text-anchor=\"end\">")
                .append(maxSector).append("</text>\n");
        sb.append("<text x=\"").append(LEFT - 4).append("\" y=\"").append(num(TOP + plotH)).append("\" text-anchor=\"end\">")
                .append(minSector).append("</text>\n");
        sb.append("<text x=\"").append(W - 12).append("\" y=\"").append(H - BOTTOM + 13).append("\" text-anchor=\"end\">")
                .append(n).append("</text>\n");
        return sb.append("</g>\n").toString();
    }

    /** Data a thin device was sent against what provisioning made the pool write besides. */
    static String thinChart(ThinStats t, long dataBytes) {
        long data = dataBytes;
        long zeroed = Math.multiplyExact(Math.multiplyExact(t.blocksZeroed(), t.blockSectors()), 512L);
        long copied = Math.multiplyExact(Math.multiplyExact(t.blocksCopied(), t.blockSectors()), 512L);
        String[] names = {"written to " + t.thinDevice(), "zeroing", "copies"};
        long[] values = {data, zeroed, copied};
        String[] classes = {"bar-data", "bar-zero", "bar-copy"};
        long max = Math.max(1, Math.max(data, Math.max(zeroed, copied)));
        StringBuilder sb = frame(t.thinDevice() + " on " + t.poolDevice() + ": " + t.blocksProvisioned()
                + " blocks of " + Sizes.format(t.blockSectors() * 512) + " provisioned, " + t.partialFirstWrites()
                + " first written partially", "bytes", "");
        double plotW = W - LEFT - 10;
        double plotH = H - TOP - BOTTOM;
        double slot = plotW / 3;
        for (int i = 0; i < 3; i++) {
            double h = plotH * values[i] / max;
            double x = LEFT + i * slot + slot * 0.15;
            sb.append("<rect class=\"").append(classes[i]).append("\" x=\"").append(num(x)).append("\" y=\"")
                    .append(num(TOP + plotH - h)).append("\" width=\"").append(num(slot * 0.7)).append("\" height=\"")
                    .append(num(h)).append("\"><title>").append(PictureRenderer.xml(names[i] + ": "
                            + Sizes.format(values[i]))).append("</title></rect>\n");
            sb.append("<text x=\"").append(num(x + slot * 0.35)).append("\" y=\"").append(H - BOTTOM + 13)
                    .append("\" text-anchor=\"middle\">").append(PictureRenderer.xml(names[i] + " "
                            + Sizes.format(values[i]))).append("</text>\n");
        }
        return sb.append("</g>\n").toString();
    }

    private static StringBuilder frame(String title, String yLabel, String xLabel) {
        StringBuilder sb = new StringBuilder();
        sb.append("<g class=\"chart\" role=\"img\" aria-label=\"").append(PictureRenderer.xml(title)).append("\">\n");
        sb.append("<rect class=\"frame\" x=\"0.5\" y=\"0.5\" width=\"").append(W - 1).append("\" height=\"")
                .append(H - 1).append("\"/>\n");
        sb.append("<text class=\"chart-title\" x=\"8\" y=\"16\">").append(PictureRenderer.xml(title)).append("</text>\n");
        sb.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(TOP).append("\" x2=\"")
                .append(LEFT).append("\" y2=\"").append(H - BOTTOM).append("\"/>\n");
        sb.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(H - BOTTOM).append("\" x2=\"")
                .append(W - 10).append("\" y2=\"").append(H - BOTTOM).append("\"/>\n");
        sb.append("<text x=\"8\" y=\"").append(TOP + (H - TOP - BOTTOM) / 2).append("\">")
                .append(PictureRenderer.xml(yLabel)).append("</text>\n");
        sb.append("<text x=\"").append(LEFT + (W - LEFT) / 2).append("\" y=\"").append(H - 6)
                .append("\" text-anchor=\"middle\">").append(PictureRenderer.xml(xLabel)).append("</text>\n");
        return sb;
    }

    private static void yTicks(StringBuilder sb, long max) {
        sb.append("<text x=\"").append(LEFT - 4).append("\" y=\"").append(TOP + 8).append("\" text-anchor=\"end\">")
                .append(max).append("</text>\n");
        sb.append("<text x=\"").append(LEFT - 4).append("\" y=\"").append(H - BOTTOM).append("\" text-anchor=\"end\">0")
                .append("</text>\n");
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
