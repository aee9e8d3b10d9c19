package dev.dmmodel.impl.plan.shell;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.impl.lvm.cmd.LvmPlanCommand;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.tools.WorkloadParser;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.io.FormatException;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.WorkloadParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The readers of the storage commands other than the partitioning tools: LVM's (read by
 * {@link LvmPlanCommand}), {@code wipefs}, {@code mkfs.*} and {@code mount} (read by the workload's own readers,
 * which the engine runs before a workload), {@code dmsetup create}, {@code mdadm --create} and {@code blockdev}; cryptsetup's is
 * {@link dev.dmmodel.impl.cryptsetup.CryptsetupCommand}.
 */
final class ShellTools {

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:=,+%@-]+");

    private ShellTools() {
    }

    // ---- LVM

    static PlanOp lvm(ShellCommand c) {
        List<String> words = new ArrayList<>();
        List<int[]> places = new ArrayList<>();
        for (Word w : c.words()) {
            words.add(w.text());
            places.add(new int[] {w.line(), w.column()});
        }
        words.set(0, c.name());
        return LvmPlanCommand.read(c.origin(), words, places);
    }

    // ---- wipefs

    // misc-utils/wipefs.c: -a erases every signature it finds (-f: even on a device in use); without -a it lists
    static PlanOp wipefs(ShellCommand c) {
        boolean all = false;
        List<Word> devices = new ArrayList<>();
        boolean options = true;
        for (Word w : c.args()) {
            String t = w.text();
            if (options && t.equals("--")) {
                options = false;
            } else if (options && t.startsWith("--")) {
                switch (t) {
                    case "--all" -> all = true;
                    case "--force", "--quiet", "--noheadings", "--no-act", "--backup" -> {
                        if (t.equals("--no-act")) {
                            all = false;
                        }
                    }
                    default -> throw c.expected(w, "option", "-a/--all, -f/--force, -q/--quiet or a device");
                }
            } else if (options && t.startsWith("-") && t.length() > 1) {
                for (char o : t.substring(1).toCharArray()) {
                    switch (o) {
                        case 'a' -> all = true;
                        case 'f', 'q', 'n', 'i', 'b' -> {
                        }
                        default -> throw c.expected(w, "option", "-a, -f, -q or a device");
                    }
                }
            } else {
                devices.add(w);
            }
        }
        if (devices.isEmpty()) {
            throw c.error("wipefs without a device: expected wipefs -a DEVICE");
        }
        boolean erase = all;
        List<String> names = devices.stream().map(Word::text).toList();
        return PlanOp.of(c.origin(), "wipefs", state -> {
            List<String> out = new ArrayList<>();
            for (String ref : names) {
                BlockDevice d = state.device(ref, "wipefs");
                if (!erase) {
                    out.add(ref + ": signatures listed, nothing erased (no -a)");
                    continue;
                }
                Optional<String> held = state.holder(d.name());
                boolean orphanPv = state.layout().physicalVolumes().stream()
                        .anyMatch(pv -> pv.device().equals(d.name()) && pv.isOrphan());
                if (held.isPresent() && !orphanPv) {
                    throw new PlanOpFailure("error: " + ref + ": probing initialization failed: Device or resource "
                            + "busy (in use: " + held.get() + ")");
                }
                if (d instanceof Disk && !state.partitions(d.name()).isEmpty()) {
                    int n = state.partitions(d.name()).size();
                    state.removePartitions(d.name(), "wipefs");
                    out.add(ref + ": partition table erased; the kernel drops its " + n + " partition"
                            + (n == 1 ? "" : "s"));
                } else if (orphanPv) {
                    List<LayoutStep> kept = new ArrayList<>();
                    for (LayoutStep s : state.steps()) {
                        if (s instanceof LayoutStep.PvCreate p && state.layout().find(p.device())
                                .map(x -> x.name().equals(d.name())).orElse(false)) {
                            continue;
                        }
                        kept.add(s);
                    }
                    state.replace(kept);
                    out.add(ref + ": LVM2_member signature erased");
                } else {
                    out.add(ref + ": " + state.filesystem(d.name()).map(f -> f + " signature erased")
                            .orElse("no signature the plan made (the host's own are not known)"));
                }
            }
            return out;
        });
    }

    // ---- filesystems: the workload's own readers, run again before a workload

    static PlanOp mkfs(ShellCommand c) {
        Command parsed = workload(c);
        if (!(parsed instanceof Command.Mkfs m)) {
            throw c.error(c.name() + ": expected mkfs.xfs or mkfs.ext4 with a device");
        }
        String line = line(c);
        return PlanOp.of(c.origin(), c.name(), state -> {
            BlockDevice d = state.device(m.device(), c.name());
            Optional<String> held = state.holder(d.name());
            if (held.isPresent()) {
                throw new PlanOpFailure("cannot open " + m.device() + ": Device or resource busy (in use: "
                        + held.get() + ")");
            }
            state.mkfs(d.name(), m.fsType(), line);
            long sector = m.sectorSize() != 0 ? m.sectorSize() : d.limits().logicalBlockSize();
            return List.of(m.device() + ": " + m.fsType() + ", sector size " + sector + " ("
                    + (m.sectorSize() != 0 ? "-s size" : "the device's logical_block_size") + ")");
        });
    }

    static PlanOp mount(ShellCommand c) {
        Command parsed = workload(c);
        String line = line(c);
        if (parsed instanceof Command.Mount m) {
            return PlanOp.of(c.origin(), "mount", state -> {
                BlockDevice d = state.device(m.device(), "mount");
                Optional<String> fs = state.filesystem(d.name());
                state.mount(d.name(), m.mountPoint(), line);
                return List.of(m.device() + " on " + m.mountPoint() + fs.map(f -> " (" + f + " made by the plan)")
                        .orElse(" (a filesystem the plan did not make)"));
            });
        }
        throw c.error("mount: expected mount [-t TYPE] DEVICE DIRECTORY");
    }

    private static Command workload(ShellCommand c) {
        try {
            return WorkloadParser.parse(line(c), c.origin().line());
        } catch (WorkloadParseException e) {
            throw c.error(e.reason());
        }
    }

    /** The command's words as one shell line the workload reader reads. */
    private static String line(ShellCommand c) {
        List<String> quoted = new ArrayList<>();
        for (Word w : c.words()) {
            String t = w.text();
            quoted.add(SAFE.matcher(t).matches() ? t : "'" + t.replace("'", "'\\''") + "'");
        }
        return String.join(" ", quoted);
    }

    // ---- dmsetup create NAME [-u UUID] [--table TABLE | a table on stdin]

    static PlanOp dmsetup(ShellCommand c) {
        List<Word> args = c.args();
        if (args.isEmpty()) {
            throw c.error("dmsetup without a command: expected dmsetup create NAME --table '...'");
        }
        Word sub = args.get(0);
        if (List.of("info", "table", "status", "ls", "udevcomplete_all", "mknodes", "version", "targets")
                .contains(sub.text())) {
            return PlanOp.of(c.origin(), "dmsetup", state -> List.of());
        }
        if (!sub.text().equals("create")) {
            throw c.expected(sub, "command", "create (or info, table, status, ls: no effect)");
        }
        String name = null;
        String uuid = "";
        String table = null;
        for (int i = 1; i < args.size(); i++) {
            Word w = args.get(i);
            switch (w.text()) {
                case "--table" -> table = value(c, args, ++i, "--table");
                case "-u", "--uuid" -> uuid = value(c, args, ++i, w.text());
                case "-r", "--readonly", "--noudevsync", "--notable" -> {
                    if (w.text().equals("--notable")) {
                        throw c.expected(w, "option", "a table (--table or on standard input)");
                    }
                }
                default -> {
                    if (w.text().startsWith("-") || name != null) {
                        throw c.expected(w, "argument", "dmsetup create NAME [-u UUID] [--table TABLE]");
                    }
                    name = w.text();
                }
            }
        }
        if (name == null) {
            throw c.error("dmsetup create without a name: expected dmsetup create NAME");
        }
        if (table == null) {
            table = c.stdin().orElseThrow(() -> c.error("dmsetup create " + args.get(1).text() + " without a table: "
                    + "expected --table '...' or the table on standard input (a here-document)"));
        }
        StringBuilder listed = new StringBuilder();
        for (String l : table.split("[\n;]")) {
            if (!l.isBlank()) {
                listed.append(name).append(": ").append(l.strip()).append('\n');
            }
        }
        Map<String, DmTable> tables;
        try {
            tables = DmTables.read(listed.toString(), c.origin().source());
        } catch (FormatException e) {
            throw c.error("dmsetup create " + name + ": the table: " + e.problem());
        }
        DmTable t = tables.get(name);
        if (t == null) {
            throw c.error("dmsetup create " + name + ": an empty table");
        }
        String dmName = name;
        String dmUuid = uuid;
        return PlanOp.of(c.origin(), "dmsetup", state -> {
            state.add(new LayoutStep.DmCreate(dmName, dmUuid, t, Optional.empty(), Optional.empty()));
            BlockDevice d = state.device("/dev/mapper/" + dmName, "dmsetup");
            return List.of(dmName + " is " + d.name() + " (" + d.devNumber() + "), " + d.size().count()
                    + " sectors, " + t.targets().size() + " target" + (t.targets().size() == 1 ? "" : "s"));
        });
    }

    private static String value(ShellCommand c, List<Word> args, int i, String option) {
        if (i >= args.size()) {
            throw c.error(option + " without its value");
        }
        return args.get(i).text();
    }

    // ---- mdadm --create: mdadm's own defaults (impl.mdadm), as the workload's mdadm does it

    static PlanOp mdadm(ShellCommand c) {
        boolean create = c.args().stream().anyMatch(w -> w.text().equals("--create") || w.text().equals("-C")
                || w.text().startsWith("--create="));
        if (!create) {
            boolean harmless = c.args().stream().anyMatch(w -> List.of("--detail", "-D", "--examine", "-E",
                    "--query", "-Q", "--wait", "-W").contains(w.text()));
            if (harmless) {
                return PlanOp.of(c.origin(), "mdadm", state -> List.of());
            }
            throw c.error("mdadm: expected mdadm --create (or --detail, --examine, --wait: no effect)");
        }
        Command parsed = workload(c);
        if (!(parsed instanceof Command.MdadmCreate m)) {
            throw c.error("mdadm: expected mdadm --create /dev/mdN --level=L --raid-devices=N DEVICES");
        }
        return PlanOp.of(c.origin(), "mdadm", state -> {
            java.util.Set<String> before = new java.util.HashSet<>();
            state.layout().mdDevices().forEach(x -> before.add(x.name()));
            state.add(new LayoutStep.MdadmCreate(m.request()));
            BlockDevice md = state.layout().mdDevices().stream().filter(x -> !before.contains(x.name())).findFirst()
                    .orElseThrow();
            return List.of("array " + md.path() + " started: " + md.size().count() + " sectors, io_min "
                    + md.limits().ioMin() + " io_opt " + md.limits().ioOpt());
        });
    }

    // ---- blockdev: --rereadpt and the queries have no effect; --setra/--setbsz belong to workloads

    static PlanOp blockdev(ShellCommand c) {
        for (Word w : c.args()) {
            if (w.text().startsWith("--set")) {
                throw c.expected(w, "option", "--rereadpt, --flushbufs or a query (--getsz ...): settings such as "
                        + w.text() + " belong to the workload (trace --workload)");
            }
        }
        return PlanOp.of(c.origin(), "blockdev", state -> List.of());
    }

    // ---- vgchange: activating is what the model's LVs already are; deactivating is not modelled in a plan

    static PlanOp vgchange(ShellCommand c) {
        for (Word w : c.args()) {
            String t = w.text();
            if (t.matches("-a[n]|--activate(=|$).*n|-an") || (t.equals("--activate") || t.equals("-a"))
                    && c.args().indexOf(w) + 1 < c.args().size()
                    && c.args().get(c.args().indexOf(w) + 1).text().startsWith("n")) {
                throw c.expected(w, "option", "-ay (every LV a plan makes is active; deactivating is not modelled)");
            }
        }
        return PlanOp.of(c.origin(), "vgchange", state -> List.of());
    }

}
