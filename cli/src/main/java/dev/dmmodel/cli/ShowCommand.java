package dev.dmmodel.cli;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dmmodel show}: the stack as a tree, lsblk style, and as a picture of boxes (text or SVG). */
@Command(name = "show",
        header = "The stack as a tree and a picture of boxes, devices that are not aligned marked with !.",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Prints the stack as a tree: each disk, its partitions and the dm devices stacked on them (a dm"
                + " device on several devices appears under each, as lsblk shows it).",
            "ALIGN is the alignment_offset in bytes the kernel reports; '!' marks a device that is not aligned"
                + " (offset not 0, or -1 when the kernel could not reconcile the alignments below it).",
            "Then the stack as a picture: one row per layer (disks at the bottom, partitions, dm devices and LVs"
                + " above), each device a box over the sectors it maps on the device below; a box whose first"
                + " sector is not on a physical block / io_min / io_opt boundary of its disk starts with '!', and"
                + " is listed with the bytes it misses by and the align.* findings.",
            "--format svg draws the same picture as a self-contained SVG (no script, no external font), with a"
                + " tooltip on every box and on every misaligned start."},
        footerHeading = "%nExample:%n",
        footer = {
            "  dmmodel show --snapshot kernel-traces/limits-sd-512e/snapshot",
            "  NAME                    MAJ:MIN  START  SECTORS  ALIGN  DETAILS",
            "  sdg                     8:96         -   131072      0  disk: lbs 512, ...",
            "  `-sdg1                  8:97        63   131009  ! 512  partition 1 of sdg",
            "    |-dm-0 (lin63)        253:0        -   131009  ! 512  linear sdg1 0",
            "    `-dm-2 (strparts)     253:2        -   258048   ! -1  striped 2 128 ...",
            "  ...",
            "",
            "  dmmodel show --format svg -o stack.svg \\",
            "      --snapshot kernel-traces/limits-sd-512e/snapshot"})
final class ShowCommand implements Callable<Integer> {

    private static final int MAX_TARGETS_SHOWN = 3;

    @Spec
    CommandSpec spec;

    @Mixin
    StackOptions stack;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default: the tree and the picture) or svg (the picture as an SVG file).")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write to FILE instead of standard output (replaced if it exists).")
    Path output;

    @Override
    public Integer call() {
        String f = CliException.choice("--format", format, "text", "svg");
        StackOptions.Stack s = stack.load();
        s.printNotes(spec.commandLine().getErr());
        if (s.reportPlanFailure(spec.commandLine().getErr())) {
            return Main.FAILED;
        }
        String text = f.equals("svg") ? svg(s) : render(s);
        if (output != null) {
            try {
                Files.writeString(output, text, StandardCharsets.UTF_8);
            } catch (IOException | UncheckedIOException e) {
                throw new CliException("--output " + output + ": cannot write the file: " + e.getMessage(), e);
            }
            return Main.OK;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(text);
        out.flush();
        return Main.OK;
    }

    /** The picture as an SVG document. */
    static String svg(StackOptions.Stack s) {
        StackPicture picture = StackPicture.of(s.layout(), PictureRenderer.SVG_WIDTH, 12, PictureRenderer.SVG_MIN_WIDTH);
        return PictureRenderer.svg(picture, "dmmodel show " + s.origin()
                + " under " + s.profile().name() + " (" + s.profileSource() + ")");
    }

    /** One row of the tree. */
    private record Row(String name, String dev, String start, String sectors, String align, String details) {
    }

    static String render(StackOptions.Stack s) {
        Layout layout = s.layout();
        Map<String, Set<String>> users = new LinkedHashMap<>();
        List<BlockDevice> roots = new ArrayList<>(layout.disks());
        for (DmDevice dm : layout.dmDevices()) {
            List<String> below = dm.table().devices();
            if (below.isEmpty()) {
                roots.add(dm);
            }
            for (String d : below) {
                String name = layout.find(d).map(BlockDevice::name).orElse(d);
                users.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(dm.name());
            }
        }
        for (dev.dmmodel.device.MdDevice md : layout.mdDevices()) {
            for (dev.dmmodel.device.MdMember m : md.spec().members()) {
                users.computeIfAbsent(m.device(), k -> new LinkedHashSet<>()).add(md.name());
            }
        }
        Map<String, List<String>> partitions = new LinkedHashMap<>();
        for (Partition p : layout.partitions()) {
            partitions.computeIfAbsent(p.disk(), k -> new ArrayList<>()).add(p.name());
        }
        List<Row> rows = new ArrayList<>();
        for (BlockDevice root : roots) {
            walk(layout, root, "", "", users, partitions, rows, new LinkedHashSet<>());
        }
        Row header = new Row("NAME", "MAJ:MIN", "START", "SECTORS", "ALIGN", "DETAILS");
        int[] w = new int[5];
        for (Row r : rows) {
            widen(w, r);
        }
        widen(w, header);
        StringBuilder sb = new StringBuilder();
        line(sb, w, header);
        for (Row r : rows) {
            line(sb, w, r);
        }
        sb.append('\n').append(PictureRenderer.text(StackPicture.of(layout, PictureRenderer.TEXT_WIDTH, 2,
                PictureRenderer.TEXT_MIN_WIDTH)));
        sb.append("\nkernel ").append(s.profile().name()).append(" (").append(s.profileSource()).append(")");
        long marked = rows.stream().filter(r -> r.align().startsWith("!")).count();
        if (marked > 0) {
            sb.append("; ! = not aligned: alignment_offset is not 0 (-1: the kernel could not reconcile the"
                    + " alignments below)");
        }
        return sb.append('\n').toString();
    }

    private static void walk(Layout layout, BlockDevice d, String prefix, String childPrefix,
                             Map<String, Set<String>> users, Map<String, List<String>> partitions, List<Row> rows,
                             Set<String> path) {
        rows.add(row(d, prefix + label(d)));
        if (!path.add(d.name())) {
            return; // a cycle cannot be built, but never loop
        }
        List<String> children = new ArrayList<>(partitions.getOrDefault(d.name(), List.of()));
        children.addAll(users.getOrDefault(d.name(), Set.of()));
        for (int i = 0; i < children.size(); i++) {
            boolean last = i == children.size() - 1;
            BlockDevice child = layout.device(children.get(i));
            walk(layout, child, childPrefix + (last ? "`-" : "|-"), childPrefix + (last ? "  " : "| "), users,
                    partitions, rows, path);
        }
        path.remove(d.name());
    }

    private static String label(BlockDevice d) {
        return d instanceof DmDevice dm ? d.name() + " (" + dm.dmName() + ")" : d.name();
    }

    private static Row row(BlockDevice d, String name) {
        QueueLimits l = d.limits();
        long align = l.sysfsAlignmentOffset();
        String a = align == 0 ? "0" : "! " + align;
        String start = d instanceof Partition p ? Long.toString(p.start().count()) : "-";
        String details;
        if (d instanceof Disk disk) {
            details = "disk: lbs " + l.logicalBlockSize() + ", pbs " + l.physicalBlockSize() + ", io_min "
                    + l.ioMin() + ", io_opt " + l.ioOpt();
        } else if (d instanceof Partition p) {
            details = "partition " + p.number() + " of " + p.disk();
        } else if (d instanceof dev.dmmodel.device.MdDevice md) {
            details = mdSummary(md);
        } else {
            details = tableSummary((DmDevice) d);
        }
        return new Row(name, d.devNumber().toString(), start, Long.toString(d.size().count()), a, details);
    }

    /** An md array: level, members, chunk and layout, its io_min and io_opt. */
    static String mdSummary(dev.dmmodel.device.MdDevice md) {
        dev.dmmodel.device.MdArraySpec s = md.spec();
        StringBuilder sb = new StringBuilder("md ").append(s.level().sysfsName()).append(": ")
                .append(s.members().size()).append('/').append(s.raidDisks()).append(" members");
        if (s.level().hasChunk()) {
            sb.append(", chunk ").append(s.chunk().count() / 2).append(" KiB");
        }
        if (s.level().hasParity() || s.level() == dev.dmmodel.device.MdLevel.RAID10) {
            sb.append(", layout ").append(s.layout());
        }
        return sb.append(", io_min ").append(md.limits().ioMin()).append(", io_opt ").append(md.limits().ioOpt())
                .toString();
    }

    /** The table with kernel names, targets joined by {@code ; }, at most three shown. */
    static String tableSummary(DmDevice dm) {
        List<DmTarget> targets = dm.table().targets();
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < targets.size() && i < MAX_TARGETS_SHOWN; i++) {
            DmTarget t = targets.get(i);
            String args = t.arguments(Function.identity()).strip();
            parts.add(args.isEmpty() ? t.type() : t.type() + " " + args);
        }
        String text = String.join("; ", parts);
        if (targets.size() > MAX_TARGETS_SHOWN) {
            text += "; ... (" + targets.size() + " targets)";
        }
        return text;
    }

    private static void widen(int[] w, Row r) {
        w[0] = Math.max(w[0], r.name().length());
        w[1] = Math.max(w[1], r.dev().length());
        w[2] = Math.max(w[2], r.start().length());
        w[3] = Math.max(w[3], r.sectors().length());
        w[4] = Math.max(w[4], r.align().length());
    }

    private static void line(StringBuilder sb, int[] w, Row r) {
        sb.append(pad(r.name(), w[0], false)).append("  ")
                .append(pad(r.dev(), w[1], false)).append("  ")
                .append(pad(r.start(), w[2], true)).append("  ")
                .append(pad(r.sectors(), w[3], true)).append("  ")
                .append(pad(r.align(), w[4], true)).append("  ")
                .append(r.details());
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ') {
            end--;
        }
        sb.setLength(end);
        sb.append('\n');
    }

    private static String pad(String s, int width, boolean right) {
        StringBuilder sb = new StringBuilder(width);
        if (right) {
            sb.append(" ".repeat(Math.max(0, width - s.length()))).append(s);
        } else {
            sb.append(s).append(" ".repeat(Math.max(0, width - s.length())));
        }
        return sb.toString();
    }
}
