package dev.dmmodel.impl.parted;

import dev.dmmodel.device.Disk;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.Word;
import dev.dmmodel.impl.sfdisk.PartitionWrite;
import dev.dmmodel.impl.sfdisk.PartitionWrite.DiskView;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a {@code parted} command line of a provisioning script: {@code parted [-s] [-a optimal|minimal|none] DEVICE
 * [--] COMMAND...} with {@code mklabel}, {@code mkpart}, {@code set}, {@code toggle}, {@code name}, {@code unit},
 * {@code rm} and {@code print}, run in order on the device.
 */
public final class PartedCommand {

    static final Set<String> COMMANDS = Set.of("mklabel", "mktable", "mkpart", "set", "toggle", "name", "unit",
            "print", "rm", "align-check", "quit", "help", "disk_set", "disk_toggle", "resizepart", "rescue",
            "select", "version", "type");
    static final Set<String> FLAGS = Set.of("boot", "root", "swap", "hidden", "raid", "lvm", "lba", "legacy_boot",
            "irst", "esp", "chromeos_kernel", "bls_boot", "msftres", "msftdata", "diag", "prep", "palo", "atvrecv",
            "bios_grub", "linux-home", "no_automount");
    static final Set<String> FS_TYPES = Set.of("ext2", "ext3", "ext4", "xfs", "btrfs", "linux-swap",
            "linux-swap(v1)", "linux-swap(v0)", "fat16", "fat32", "ntfs", "hfs", "hfs+", "hfsx", "jfs", "reiserfs",
            "udf", "zfs", "swsusp", "apfs1", "apfs2", "nilfs2", "f2fs", "bcachefs", "affs0", "amufs", "asfs",
            "freebsd-ufs", "hp-ufs", "sun-ufs", "ufs");

    private PartedCommand() {
    }

    /** One parted command of the call, with its words. */
    record Cmd(String name, List<Word> args, Word at) {
    }

    /**
     * Reads one {@code parted} command.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp parse(ShellCommand command) {
        Libparted.Align align = Libparted.Align.OPTIMAL; // parted/parted.c: alignment defaults to optimal
        boolean list = false;
        Word device = null;
        List<Word> words = new ArrayList<>();
        List<Word> args = command.args();
        boolean options = true;
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String t = w.text();
            if (options && t.equals("--")) {
                options = false;
                continue;
            }
            if (options && t.startsWith("-") && t.length() > 1) {
                // parted/parted.c: getopt_long permutes, so every word before "--" that starts with '-' is an option
                if (t.startsWith("--")) {
                    String name = t.contains("=") ? t.substring(0, t.indexOf('=')) : t;
                    switch (name) {
                        case "--script", "--machine", "--fix", "--json", "--pretend-input-tty" -> { }
                        case "--list" -> list = true;
                        case "--align" -> {
                            String v = t.contains("=") ? t.substring(t.indexOf('=') + 1) : null;
                            if (v == null) {
                                if (i + 1 >= args.size()) {
                                    throw command.error(w, "parted --align without its type: expected --align "
                                            + "optimal|minimal|none");
                                }
                                w = args.get(++i);
                                v = w.text();
                            }
                            align = alignment(command, w, v);
                        }
                        case "--help", "--version" -> list = true;
                        default -> throw command.expected(w, "option", "a parted option (-s, -m, -a TYPE, -f, "
                                + "-l) or, after --, a command");
                    }
                    continue;
                }
                for (int k = 1; k < t.length(); k++) {
                    char c = t.charAt(k);
                    switch (c) {
                        case 's', 'm', 'f', 'j' -> { }
                        case 'l', 'h', 'v' -> list = true;
                        case 'a' -> {
                            String v = t.substring(k + 1);
                            Word at = w;
                            if (v.isEmpty()) {
                                if (i + 1 >= args.size()) {
                                    throw command.error(w, "parted -a without its type: expected -a "
                                            + "optimal|minimal|none");
                                }
                                at = args.get(++i);
                                v = at.text();
                            }
                            align = alignment(command, at, v);
                            k = t.length();
                        }
                        default -> throw command.expected(w, "option", Character.isDigit(c)
                                ? "-- before a negative location (parted reads \"" + t + "\" as options)"
                                : "a parted option (-s, -m, -a TYPE, -f, -l)");
                    }
                }
                continue;
            }
            if (device == null) {
                device = w;
            } else {
                words.add(w);
            }
        }
        if (device == null) {
            if (list) {
                return PartitionWrite.op(command.origin(), "parted", s -> List.of("listing only; nothing changes"));
            }
            throw command.error("parted without a device: expected parted -s DEVICE COMMAND...");
        }
        List<Cmd> cmds = commands(command, words);
        String dev = device.text();
        Libparted.Align a = align;
        return PartitionWrite.op(command.origin(), "parted", state -> run(state, dev, a, cmds));
    }

    private static Libparted.Align alignment(ShellCommand c, Word at, String v) {
        return switch (v) {
            case "optimal", "opt" -> Libparted.Align.OPTIMAL;
            case "minimal", "min" -> Libparted.Align.MINIMAL;
            case "none" -> Libparted.Align.NONE;
            case "cylinder", "cyl" -> throw c.error(at, "parted alignment \"" + v + "\" is not modelled: expected "
                    + "optimal, minimal or none");
            default -> throw c.expected(at, "alignment", "optimal, minimal or none");
        };
    }

    // parted/parted.c: each command takes its words; mkpart takes the words up to the next command
    private static List<Cmd> commands(ShellCommand c, List<Word> words) {
        List<Cmd> out = new ArrayList<>();
        int i = 0;
        String unit = "compact";
        while (i < words.size()) {
            Word w = words.get(i);
            String name = w.text();
            if (!COMMANDS.contains(name)) {
                throw c.expected(w, "command", "a parted command (mklabel, mkpart, set, name, unit, rm, print)");
            }
            i++;
            List<Word> a = new ArrayList<>();
            int need = switch (name) {
                case "mklabel", "mktable", "unit", "rm", "disk_set" -> name.equals("disk_set") ? 2 : 1;
                case "set" -> 3;
                case "toggle", "name", "align-check", "type" -> 2;
                default -> 0;
            };
            if (name.equals("mkpart")) {
                while (i < words.size() && !COMMANDS.contains(words.get(i).text())) {
                    a.add(words.get(i++));
                }
            } else if (name.equals("print")) {
                if (i < words.size() && Set.of("devices", "free", "list", "all").contains(words.get(i).text())) {
                    a.add(words.get(i++));
                }
            } else {
                for (int k = 0; k < need; k++) {
                    if (i >= words.size()) {
                        throw c.error(w, "parted " + name + " without its " + (need - k) + " argument"
                                + (need - k == 1 ? "" : "s") + ": expected " + usage(name));
                    }
                    a.add(words.get(i++));
                }
            }
            switch (name) {
                case "mklabel", "mktable" -> {
                    String l = a.get(0).text();
                    if (!l.equals("gpt") && !l.equals("msdos")) {
                        throw c.expected(a.get(0), "label", "gpt or msdos (the labels dmmodel models)");
                    }
                }
                case "unit" -> {
                    unit = a.get(0).text();
                    if (Libparted.unit(unit).isEmpty()) {
                        throw c.expected(a.get(0), "unit", "s, B, kB, MB, GB, TB, KiB, MiB, GiB, TiB, % or compact");
                    }
                }
                case "set", "toggle" -> {
                    number(c, a.get(0));
                    if (!FLAGS.contains(a.get(1).text())) {
                        throw c.expected(a.get(1), "flag", "a partition flag (boot, esp, lvm, raid, bios_grub, "
                                + "swap, ...)");
                    }
                    if (name.equals("set") && !Set.of("on", "off").contains(a.get(2).text())) {
                        throw c.expected(a.get(2), "state", "on or off");
                    }
                }
                case "rm", "name", "type" -> number(c, a.get(0));
                case "mkpart" -> mkpart(c, w, a, unit);
                case "resizepart", "rescue", "select", "disk_toggle" -> throw c.error(w, "parted " + name
                        + " is not modelled: expected mklabel, mkpart, set, name, unit, rm or print");
                default -> { }
            }
            out.add(new Cmd(name, List.copyOf(a), w));
        }
        return List.copyOf(out);
    }

    private static String usage(String name) {
        return switch (name) {
            case "mklabel", "mktable" -> name + " gpt|msdos";
            case "set" -> "set NUMBER FLAG on|off";
            case "toggle" -> "toggle NUMBER FLAG";
            case "name" -> "name NUMBER NAME";
            case "unit" -> "unit UNIT";
            case "rm" -> "rm NUMBER";
            default -> name + " ARGUMENTS";
        };
    }

    private static void number(ShellCommand c, Word w) {
        if (!w.text().matches("[1-9][0-9]{0,8}")) {
            throw c.expected(w, "partition number", "a partition number (1, 2, ...)");
        }
    }

    // parted/parted.c: do_mkpart — [part-type|name] [fs-type] START END
    private static void mkpart(ShellCommand c, Word at, List<Word> a, String unit) {
        if (a.size() < 2) {
            throw c.error(at, "parted mkpart without START and END: expected mkpart [TYPE|NAME] [FS-TYPE] START END");
        }
        if (a.size() > 4) {
            throw c.expected(a.get(0), "mkpart", "at most a partition type or name, a file system type, START "
                    + "and END");
        }
        for (Word w : a.subList(a.size() - 2, a.size())) {
            Libparted.location(c, w, unit);
        }
        List<Word> extras = a.subList(0, a.size() - 2);
        if (!extras.isEmpty() && Set.of("logical", "extended").contains(extras.get(0).text())) {
            throw c.error(extras.get(0), "parted " + extras.get(0).text() + " partitions are not modelled: expected "
                    + "primary (msdos) or a name (gpt)");
        }
        if (extras.size() == 2 && !FS_TYPES.contains(extras.get(1).text().toLowerCase(Locale.ROOT))) {
            throw c.expected(extras.get(1), "file system type", "a parted file system type (ext4, xfs, btrfs, "
                    + "linux-swap, fat32, ...)");
        }
    }

    private static List<String> run(PlanState state, String dev, Libparted.Align align, List<Cmd> cmds) {
        Disk disk = state.disk(dev, "parted");
        DiskView d = PartitionWrite.view(state, disk);
        Libparted p = new Libparted(d, align);
        List<String> out = new ArrayList<>();
        Optional<PartitionTableType> label = d.label().isPresent() || d.partitions().isEmpty() ? d.label()
                : Optional.of(PartitionTableType.MSDOS);
        boolean relabel = false;
        boolean wrote = false;
        String unit = "compact";
        for (Cmd cmd : cmds) {
            switch (cmd.name()) {
                case "mklabel", "mktable" -> {
                    label = Optional.of(cmd.args().get(0).text().equals("gpt") ? PartitionTableType.GPT
                            : PartitionTableType.MSDOS);
                    p.newLabel(label.get());
                    relabel = true;
                    wrote = true;
                    out.add("new " + cmd.args().get(0).text() + " label; usable sectors " + p.first + "-" + p.last);
                }
                case "unit" -> unit = cmd.args().get(0).text();
                case "mkpart" -> {
                    if (label.isEmpty()) {
                        throw new PlanOpFailure("Error: " + dev + ": unrecognised disk label");
                    }
                    if (!relabel) {
                        p.label(label.get());
                    }
                    out.add(p.mkpart(cmd.args(), unit, label.get()));
                    wrote = true;
                }
                case "rm" -> {
                    int n = Integer.parseInt(cmd.args().get(0).text());
                    if (!p.parts.removeIf(x -> x.number() == n)) {
                        throw new PlanOpFailure("Error: Partition doesn't exist.");
                    }
                    out.add("partition " + n + " removed");
                    wrote = true;
                }
                case "set", "toggle", "name", "type" -> {
                    int n = Integer.parseInt(cmd.args().get(0).text());
                    if (p.parts.stream().noneMatch(x -> x.number() == n)) {
                        throw new PlanOpFailure("Error: Partition doesn't exist.");
                    }
                    if (cmd.name().equals("name") && label.orElse(null) == PartitionTableType.MSDOS) {
                        throw new PlanOpFailure("Error: msdos disk labels do not support partition names.");
                    }
                    out.add("partition " + n + ": " + cmd.name() + " " + String.join(" ", cmd.args().subList(1,
                            cmd.args().size()).stream().map(Word::text).toList()) + " (no change to the layout)");
                }
                default -> {
                    // print, align-check, quit, help, version change nothing
                }
            }
        }
        if (wrote) {
            PartitionWrite.write(state, "parted", d, label.orElseThrow(), relabel, p.parts);
        }
        return out;
    }
}
