package dev.dmmodel.cli;

import dev.dmmodel.analysis.ThinOverwriteReport;
import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import dev.dmmodel.units.Sizes;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The report page of {@code dmmodel report}: one self-contained HTML document (no script, no external file, no
 * network) with the stack as a picture whose boxes link to their devices, the findings with their fixes and the
 * limits they rest on, every device's limits with the derivation of each on demand ({@code <details>}), and, with
 * a workload, the run's per-device statistics, the thin devices' overwrite analysis with each fix re-run, and
 * per-layer charts of the trace. Readable printed and on a narrow screen (the CSS has both).
 */
final class HtmlReport {

    /** What a workload run adds to the page. */
    record Run(List<String> commands, TraceCharts charts, List<DeviceStats> stats, List<ThinStats> thin,
               List<ThinOverwriteReport> overwrites, List<Finding> findings, List<String> failures) {
        Run {
            commands = List.copyOf(commands);
            stats = List.copyOf(stats);
            thin = List.copyOf(thin);
            overwrites = List.copyOf(overwrites);
            findings = List.copyOf(findings);
            failures = List.copyOf(failures);
        }
    }

    private static final String CSS = ""
            + ":root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg-soft: #f6f8fa; }\n"
            + "* { box-sizing: border-box; }\n"
            + "body { font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: var(--fg);"
            + " margin: 0 auto; padding: 0 16px 40px; max-width: 1120px; }\n"
            + "header { border-bottom: 2px solid var(--line); padding: 12px 0; }\n"
            + "h1 { font-size: 1.6em; margin: 0 0 4px; }\n"
            + "h2 { font-size: 1.3em; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 32px; }\n"
            + "h3 { font-size: 1.05em; margin: 18px 0 6px; }\n"
            + "p.meta { color: var(--muted); margin: 2px 0; }\n"
            + "nav { position: sticky; top: 0; background: #fff; padding: 6px 0; border-bottom: 1px solid var(--line);"
            + " z-index: 1; }\n"
            + "nav a { margin-right: 14px; white-space: nowrap; }\n"
            + "code, pre { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; font-size: 0.92em; }\n"
            + "pre { background: var(--bg-soft); padding: 8px; overflow-x: auto; white-space: pre-wrap;"
            + " word-break: break-all; }\n"
            + ".scroll { overflow-x: auto; max-width: 100%; }\n"
            + "svg { max-width: 100%; height: auto; }\n"
            + "div.picture svg { min-width: 760px; }\n"
            + "table { border-collapse: collapse; margin: 6px 0; }\n"
            + "th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }\n"
            + "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
            + "th { background: var(--bg-soft); }\n"
            + "article.finding { border-left: 6px solid #999; padding: 4px 12px; margin: 10px 0;"
            + " background: var(--bg-soft); }\n"
            + "article.finding.sev-ERROR { border-color: #cf222e; }\n"
            + "article.finding.sev-WARNING { border-color: #bf8700; }\n"
            + "article.finding.sev-INFO { border-color: #0969da; }\n"
            + ".sev { font-weight: bold; }\n"
            + "details > summary { cursor: pointer; }\n"
            + "ul.derivation { margin: 4px 0; padding-left: 18px; }\n"
            + "ul.derivation li { margin: 2px 0; }\n"
            + "span.rule { color: var(--muted); }\n"
            + "section.device:target, tr:target, article:target { outline: 3px solid #0969da; outline-offset: 2px; }\n"
            + "td.works { color: #1a7f37; font-weight: bold; }\n"
            + "td.fails { color: #cf222e; }\n"
            + "figure { margin: 10px 0; }\n"
            + "figcaption { color: var(--muted); font-size: 0.9em; }\n"
            + "footer { margin-top: 40px; color: var(--muted); border-top: 1px solid var(--line); padding-top: 8px; }\n"
            + "@media (max-width: 640px) { body { font-size: 14px; padding: 0 8px 24px; }"
            + " th, td { padding: 2px 4px; } nav a { display: inline-block; margin: 2px 8px 2px 0; } }\n"
            + "@media print { nav { display: none; } body { max-width: none; font-size: 11pt; }"
            + " article.finding, figure, tr { break-inside: avoid; } a { color: inherit; text-decoration: none; }"
            + " details > summary::marker { content: ''; } }\n"
            + TraceCharts.STYLE;

    private HtmlReport() {
    }

    /** The page. */
    static String render(StackOptions.Stack s, Optional<Run> run, String version) {
        Layout layout = s.layout();
        List<Finding> findings = layout.findings();
        StringBuilder h = new StringBuilder(64 * 1024);
        // HTML5 written as well-formed XML too (void elements closed), so that tools and tests can read it as such
        h.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                        + "<meta charset=\"utf-8\"/>\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
                .append("<title>dmmodel report: ").append(esc(s.origin())).append("</title>\n")
                .append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        h.append("<header>\n<h1>dmmodel report</h1>\n")
                .append("<p class=\"meta\" id=\"origin\">").append(esc(s.origin())).append("</p>\n")
                .append("<p class=\"meta\" id=\"kernel\">kernel profile <strong>").append(esc(s.profile().name()))
                .append("</strong> (").append(esc(s.profileSource())).append(")</p>\n")
                .append("<p class=\"meta\">").append(layout.devices().size()).append(" devices, ")
                .append(CheckCommand.count(findings)).append("</p>\n</header>\n");
        h.append("<nav><a href=\"#stack\">Stack</a><a href=\"#findings\">Findings</a>");
        if (run.isPresent()) {
            h.append("<a href=\"#workload\">Workload</a>");
        }
        h.append("<a href=\"#devices\">Devices and limits</a></nav>\n<main>\n");
        stack(h, s);
        findings(h, findings, "findings", "Findings of the stack");
        run.ifPresent(r -> workload(h, r));
        devices(h, layout);
        h.append("</main>\n<footer>Generated by ").append(esc(version)).append(" from ").append(esc(s.origin()))
                .append(". Every limit's explanation is the kernel's rule named next to it; see"
                        + " <code>dmmodel limits --explain</code>.</footer>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void stack(StringBuilder h, StackOptions.Stack s) {
        StackPicture picture = StackPicture.of(s.layout(), PictureRenderer.SVG_WIDTH, 12, PictureRenderer.SVG_MIN_WIDTH);
        String svg = PictureRenderer.svg(picture, "the stack of " + s.origin() + " under " + s.profile().name(),
                "#" + "dev-");
        h.append("<section id=\"stack\">\n<h2>The stack</h2>\n")
                .append("<p>One row per layer, disks at the bottom; each box covers the sectors it maps on the device"
                        + " below. A red edge marks a start that misses a physical block, io_min or io_opt boundary"
                        + " of its disk. Select a box for the device's limits.</p>\n")
                .append("<div class=\"scroll picture\">\n")
                .append(svg.substring(svg.indexOf("<svg"))).append("</div>\n</section>\n");
    }

    private static void findings(StringBuilder h, List<Finding> findings, String id, String title) {
        h.append("<section id=\"").append(id).append("\">\n<h2>").append(esc(title)).append(" (")
                .append(esc(CheckCommand.count(findings))).append(")</h2>\n");
        if (findings.isEmpty()) {
            h.append("<p>None.</p>\n");
        }
        int n = 0;
        for (Finding f : findings) {
            h.append("<article class=\"finding sev-").append(f.severity()).append("\" id=\"").append(id).append('-')
                    .append(n++).append("\">\n<h3><span class=\"sev\">").append(f.severity()).append("</span> <code>")
                    .append(esc(f.id())).append("</code> on ").append(deviceLink(f.device())).append("</h3>\n")
                    .append("<p>").append(esc(f.message())).append("</p>\n")
                    .append("<p class=\"fix\"><strong>Fix:</strong> ").append(esc(f.fix())).append("</p>\n");
            if (!f.basis().isEmpty()) {
                h.append("<p class=\"basis\"><strong>Rests on:</strong> ");
                for (int i = 0; i < f.basis().size(); i++) {
                    LimitRef r = f.basis().get(i);
                    h.append(i == 0 ? "" : ", ").append("<a href=\"#").append(limitId(r.device(), r.field()))
                            .append("\">").append(esc(r.device())).append(' ').append(esc(r.field().sysfsName()))
                            .append("</a>");
                }
                h.append("</p>\n");
            }
            h.append("</article>\n");
        }
        h.append("</section>\n");
    }

    private static void workload(StringBuilder h, Run r) {
        h.append("<section id=\"workload\">\n<h2>Workload</h2>\n<pre>");
        for (String c : r.commands()) {
            h.append(esc(c)).append('\n');
        }
        h.append("</pre>\n");
        for (String f : r.failures()) {
            h.append("<p class=\"failure\"><strong>Failed:</strong> ").append(esc(f)).append("</p>\n");
        }
        h.append("<p>").append(r.charts().events()).append(" block events.</p>\n");
        h.append("<h3>What each device did (iostat -x counters of the workload)</h3>\n<div class=\"scroll\">"
                + "<table id=\"device-stats\"><tr><th>device</th><th>bios received</th><th>splits</th>"
                + "<th>requests issued</th><th>writes</th><th>write sectors</th><th>avg write (sectors)</th>"
                + "<th>reads</th><th>read sectors</th><th>discards</th><th>flushes</th></tr>\n");
        for (DeviceStats d : r.stats()) {
            TraceCharts.Layer l = r.charts().find(d.device());
            if (l == null && d.writeIos() + d.readIos() + d.discardIos() + d.flushIos() == 0) {
                continue;
            }
            h.append("<tr><td>").append(deviceLink(d.device())).append("</td>")
                    .append(num(l == null ? 0 : l.bios)).append(num(l == null ? 0 : l.splits))
                    .append(num(l == null ? 0 : l.requests)).append(num(d.writeIos())).append(num(d.writeSectors()))
                    .append("<td class=\"num\">").append(String.format(Locale.ROOT, "%.1f", d.averageWriteSectors()))
                    .append("</td>").append(num(d.readIos())).append(num(d.readSectors())).append(num(d.discardIos()))
                    .append(num(d.flushIos())).append("</tr>\n");
        }
        h.append("</table></div>\n");
        for (ThinOverwriteReport o : r.overwrites()) {
            thinOverwrite(h, o);
        }
        if (!r.findings().isEmpty()) {
            findings(h, r.findings(), "run-findings", "Findings of the run");
        }
        h.append("<h3>Charts, layer by layer</h3>\n");
        for (TraceCharts.Layer l : r.charts().layers()) {
            List<String> charts = TraceCharts.charts(l);
            if (charts.isEmpty()) {
                continue;
            }
            h.append("<figure class=\"layer\" id=\"chart-").append(anchor(l.device)).append("\">\n");
            for (String c : charts) {
                h.append(TraceCharts.standalone(c)).append('\n');
            }
            h.append("<figcaption>").append(deviceLink(l.device)).append(": ").append(l.bios).append(" bios received, ")
                    .append(l.splits).append(" splits, ").append(l.remapsIn).append(" bios remapped to it, ")
                    .append(l.requests).append(" requests issued</figcaption>\n</figure>\n");
        }
        for (ThinStats t : r.thin()) {
            if (t.writeBios() > 0) {
                h.append("<figure class=\"thin\" id=\"chart-thin-").append(anchor(t.thinDevice())).append("\">")
                        .append(TraceCharts.standalone(TraceCharts.thinChart(t, r.charts().dataBytes(t.thinDevice()))))
                        .append('\n')
                        .append("<figcaption>zeroing and copies of ").append(deviceLink(t.thinDevice()))
                        .append(": ").append(esc(Sizes.format(t.extraBytesWritten()))).append(" written besides the"
                                + " data, ").append(esc(Sizes.format(t.extraBytesRead()))).append(" read for copies")
                        .append("</figcaption></figure>\n");
            }
        }
        h.append("</section>\n");
    }

    private static void thinOverwrite(StringBuilder h, ThinOverwriteReport o) {
        h.append("<h3 id=\"overwrite-").append(anchor(o.thinDevice())).append("\">Full-block overwrites on ")
                .append(deviceLink(o.thinDevice())).append("</h3>\n<ol class=\"causes\">\n");
        for (String c : o.causes()) {
            h.append("<li>").append(esc(c)).append("</li>\n");
        }
        h.append("</ol>\n");
        if (o.fixes().isEmpty()) {
            return;
        }
        h.append("<div class=\"scroll\"><table class=\"fixes\"><tr><th>fix, re-run through the model</th>"
                + "<th>blocks zeroed</th><th>blocks copied</th><th>extra written</th><th>partial first writes</th>"
                + "<th>result</th><th>caveat</th></tr>\n");
        for (ThinOverwriteReport.FixOutcome f : o.fixes()) {
            h.append("<tr><td>").append(esc(f.description())).append("</td>").append(num(f.blocksZeroed()))
                    .append(num(f.blocksCopied())).append("<td class=\"num\">")
                    .append(esc(Sizes.format(f.extraBytesWritten()))).append("</td>").append(num(f.partialFirstWrites()))
                    .append(f.works() ? "<td class=\"works\">works</td>" : "<td class=\"fails\">does not remove it</td>")
                    .append("<td>").append(esc(f.caveat())).append("</td></tr>\n");
        }
        h.append("</table></div>\n");
    }

    private static void devices(StringBuilder h, Layout layout) {
        h.append("<section id=\"devices\">\n<h2>Devices and their limits</h2>\n<p>Each value is what the kernel"
                + " would show in <code>/sys/block/DEV/queue/</code>; open a row to see how it was derived, down to"
                + " what the hardware reports.</p>\n");
        for (BlockDevice d : layout.devices()) {
            h.append("<section class=\"device\" id=\"dev-").append(anchor(d.name())).append("\">\n<h3>")
                    .append(esc(d.name())).append(" <span class=\"rule\">").append(esc(describe(d))).append("</span></h3>\n");
            h.append("<div class=\"scroll\"><table class=\"limits\">"
                    + "<tr><th>limit</th><th>value</th><th>derivation (open for the inputs)</th></tr>\n");
            for (Derivation x : layout.explain(d.name())) {
                h.append("<tr id=\"").append(limitId(d.name(), x.field())).append("\"><td><code>")
                        .append(esc(x.field().sysfsName())).append("</code></td>").append(num(x.value()))
                        .append("<td><details><summary>").append(esc(x.source().name().toLowerCase(Locale.ROOT)))
                        .append(": ").append(esc(x.rule())).append("</summary>\n<ul class=\"derivation\">");
                tree(h, x);
                h.append("</ul></details></td></tr>\n");
            }
            h.append("</table></div>\n</section>\n");
        }
        h.append("</section>\n");
    }

    private static void tree(StringBuilder h, Derivation d) {
        h.append("<li><code>").append(esc(d.device())).append(' ').append(esc(d.field().sysfsName())).append(' ')
                .append(d.value()).append("</code> ").append(esc(d.detail()));
        if (!d.rule().isEmpty()) {
            h.append(" <span class=\"rule\">[").append(esc(d.rule())).append("]</span>");
        }
        if (!d.inputs().isEmpty()) {
            h.append("<ul>");
            for (Derivation in : d.inputs()) {
                tree(h, in);
            }
            h.append("</ul>");
        }
        h.append("</li>");
    }

    private static String describe(BlockDevice d) {
        String size = Sizes.format(Math.multiplyExact(d.size().count(), 512L));
        if (d instanceof Disk) {
            return "disk, " + size;
        }
        if (d instanceof Partition p) {
            return "partition of " + p.disk() + " at sector " + p.start().count() + ", " + size;
        }
        if (d instanceof DmDevice dm) {
            List<String> types = dm.table().targets().stream().map(t -> t.type()).distinct().toList();
            return "dm " + dm.dmName() + " (" + String.join(", ", types) + "), " + size;
        }
        if (d instanceof MdDevice md) {
            return "md " + md.spec().level().sysfsName() + ", " + size;
        }
        return size;
    }

    private static String deviceLink(String device) {
        return "<a href=\"#dev-" + anchor(device) + "\">" + esc(device) + "</a>";
    }

    /** The id of a limit's row: {@code lim-sda1-alignment_offset}. */
    static String limitId(String device, LimitField field) {
        return "lim-" + anchor(device) + "-" + field.sysfsName();
    }

    /** A device name as an id: kernel names are already safe; anything else becomes {@code _}. */
    static String anchor(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' ? c : '_');
        }
        return b.toString();
    }

    private static String num(long v) {
        return "<td class=\"num\">" + v + "</td>";
    }

    private static String esc(String s) {
        return PictureRenderer.xml(s);
    }
}
