package dev.dmmodel.impl.sfdisk;

import dev.dmmodel.device.Disk;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.Word;
import dev.dmmodel.impl.sfdisk.PartitionWrite.DiskView;
import dev.dmmodel.impl.sfdisk.PartitionWrite.Part;
import dev.dmmodel.impl.sfdisk.SfdiskScript.Line;
import dev.dmmodel.impl.sfdisk.SfdiskScript.Num;
import dev.dmmodel.impl.sfdisk.SfdiskScript.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a {@code sfdisk} command line of a provisioning script: {@code sfdisk [options] DEVICE} with its script on
 * standard input (a new label, or with {@code --append}/{@code -N} partitions added to the current one), and
 * {@code sfdisk --delete DEVICE [NR...]}. The listing commands ({@code -l}, {@code -d}, ...) change nothing.
 */
public final class SfdiskCommand {

    private static final Set<String> LISTING = Set.of("-l", "--list", "-d", "--dump", "-J", "--json", "-s",
            "--show-size", "-V", "--verify", "-g", "--show-geometry", "-F", "--list-free", "--list-types", "-T",
            "-h", "--help", "--version", "-v");
    private static final Set<String> WITH_ARG = Set.of("-N", "--partno", "-w", "--wipe", "-W", "--wipe-partitions",
            "-X", "--label", "-u", "--unit", "-O", "--backup-file", "--color", "--lock", "--sector-size");

    private SfdiskCommand() {
    }

    /** The options of one sfdisk call. */
    record Options(boolean append, boolean force, boolean noAct, boolean noReread, OptionalInt partno,
                   Optional<String> wipe, Optional<PartitionTableType> label) {
    }

    /**
     * Reads one {@code sfdisk} command.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp parse(ShellCommand command) {
        boolean append = false;
        boolean force = false;
        boolean noAct = false;
        boolean noReread = false;
        OptionalInt partno = OptionalInt.empty();
        Optional<String> wipe = Optional.empty();
        Optional<PartitionTableType> label = Optional.empty();
        String mode = "";
        List<Word> operands = new ArrayList<>();
        List<Word> args = command.args();
        boolean options = true;
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String t = w.text();
            if (!options || !t.startsWith("-") || t.equals("-")) {
                operands.add(w);
                continue;
            }
            if (t.equals("--")) {
                options = false;
                continue;
            }
            String name = t;
            Optional<String> inline = Optional.empty();
            if (t.startsWith("--") && t.contains("=")) {
                name = t.substring(0, t.indexOf('='));
                inline = Optional.of(t.substring(t.indexOf('=') + 1));
            } else if (!t.startsWith("--") && t.length() > 2) {
                // getopt: -N1, -Xgpt, or bundled flags such as -fq
                String first = t.substring(0, 2);
                if (WITH_ARG.contains(first)) {
                    name = first;
                    inline = Optional.of(t.substring(2));
                } else {
                    for (char c : t.substring(1).toCharArray()) {
                        switch (c) {
                            case 'f' -> force = true;
                            case 'q' -> { }
                            case 'a' -> append = true;
                            case 'n' -> noAct = true;
                            case 'L', 'b' -> { }
                            default -> throw command.expected(w, "option", "sfdisk flags such as -f, -q, -a, -n");
                        }
                    }
                    continue;
                }
            }
            String value = null;
            if (WITH_ARG.contains(name)) {
                if (inline.isPresent()) {
                    value = inline.get();
                } else if (i + 1 < args.size()) {
                    value = args.get(++i).text();
                } else {
                    throw command.error(w, "sfdisk option " + name + " without its value: expected " + name
                            + " VALUE");
                }
            } else if (inline.isPresent() && !name.equals("--color") && !name.equals("--lock")) {
                throw command.expected(w, "option", name + " without a value");
            }
            Word at = inline.isPresent() || value == null ? w : args.get(i);
            switch (name) {
                case "-a", "--append" -> append = true;
                case "-f", "--force" -> force = true;
                case "-q", "--quiet", "-L", "--Linux", "-b", "--backup", "--no-tell-kernel", "--move-data" -> { }
                case "-n", "--no-act" -> noAct = true;
                case "--no-reread" -> noReread = true;
                case "-N", "--partno" -> {
                    if (!value.matches("[1-9][0-9]{0,8}")) {
                        throw command.expected(at, "partition number", "a partition number (1, 2, ...)");
                    }
                    partno = OptionalInt.of(Integer.parseInt(value));
                }
                case "-w", "--wipe", "-W", "--wipe-partitions" -> {
                    if (!Set.of("always", "never", "auto").contains(value)) {
                        throw command.expected(at, "wipe mode", "always, never or auto");
                    }
                    if (name.equals("-w") || name.equals("--wipe")) {
                        wipe = Optional.of(value);
                    }
                }
                case "-X", "--label" -> label = Optional.of(labelType(command, at, value));
                case "-u", "--unit" -> {
                    if (!value.equals("S")) {
                        throw command.expected(at, "unit", "S (sectors, the only unit sfdisk has)");
                    }
                }
                case "-O", "--backup-file", "--color", "--lock", "--sector-size" -> { }
                case "--delete" -> mode = mode(command, w, mode, "delete");
                case "--part-type", "--part-label", "--part-uuid", "--part-attrs", "-A", "--activate" ->
                        mode = mode(command, w, mode, "attribute");
                default -> {
                    if (LISTING.contains(name)) {
                        mode = mode(command, w, mode, "list");
                    } else {
                        throw command.expected(w, "option", "an sfdisk option (-a, -f, -N, -X, --wipe, --delete, "
                                + "--no-reread, -q, -n, -l, -d, ...)");
                    }
                }
            }
        }
        Options opts = new Options(append, force, noAct, noReread, partno, wipe, label);
        switch (mode) {
            case "list":
                return PartitionWrite.op(command.origin(), "sfdisk", s -> List.of("listing only; nothing changes"));
            case "attribute":
                if (operands.isEmpty()) {
                    throw command.error("sfdisk without a device: expected sfdisk --part-type DEVICE NR [TYPE]");
                }
                String dev = operands.get(0).text();
                return PartitionWrite.op(command.origin(), "sfdisk", s -> {
                    s.disk(dev, "sfdisk");
                    return List.of(dev + ": partition attributes only; the block layout does not change");
                });
            case "delete":
                return delete(command, operands, opts);
            default:
                return partition(command, operands, opts);
        }
    }

    private static String mode(ShellCommand c, Word w, String mode, String next) {
        if (!mode.isEmpty() && !mode.equals(next)) {
            throw c.error(w, "sfdisk option " + w.text() + ": expected one command per sfdisk call");
        }
        return next;
    }

    private static PartitionTableType labelType(ShellCommand c, Word at, String value) {
        return switch (value) {
            case "dos", "mbr" -> PartitionTableType.MSDOS;
            case "gpt" -> PartitionTableType.GPT;
            default -> throw c.expected(at, "label", "dos or gpt");
        };
    }

    private static PlanOp delete(ShellCommand c, List<Word> operands, Options opts) {
        if (operands.isEmpty()) {
            throw c.error("sfdisk --delete without a device: expected sfdisk --delete DEVICE [NR...]");
        }
        String dev = operands.get(0).text();
        List<Integer> numbers = new ArrayList<>();
        for (Word w : operands.subList(1, operands.size())) {
            if (!w.text().matches("[1-9][0-9]{0,8}")) {
                throw c.expected(w, "partition number", "a partition number (1, 2, ...)");
            }
            numbers.add(Integer.parseInt(w.text()));
        }
        return PartitionWrite.op(c.origin(), "sfdisk", state -> {
            Disk disk = state.disk(dev, "sfdisk");
            DiskView d = PartitionWrite.view(state, disk);
            busy(state, d, opts);
            List<Part> kept = new ArrayList<>();
            List<String> out = new ArrayList<>();
            for (int n : numbers) {
                if (d.partition(n).isEmpty()) {
                    // disk-utils/sfdisk.c: command_delete — a partition that is not there
                    throw new PlanOpFailure("partition " + n + " has not been defined yet");
                }
            }
            for (Part p : d.partitions()) {
                if (numbers.isEmpty() || numbers.contains(p.number())) {
                    out.add("partition " + p.number() + " deleted");
                } else {
                    kept.add(p);
                }
            }
            if (opts.noAct()) {
                out.add("--no-act: nothing written");
                return out;
            }
            PartitionTableType type = d.label().orElse(PartitionTableType.MSDOS);
            PartitionWrite.write(state, "sfdisk", d, type, false, kept);
            return out;
        });
    }

    // disk-utils/sfdisk.c: command_fdisk — "This disk is currently in use" unless --no-reread (or -n), fatal
    // without --force
    private static void busy(PlanState state, DiskView d, Options opts) {
        if (opts.noAct() || opts.noReread()) {
            return;
        }
        Optional<String> held = state.holder(d.name());
        if (held.isPresent() && !opts.force()) {
            throw new PlanOpFailure("This disk is currently in use - repartitioning is probably a bad idea. Umount "
                    + "all file systems, and swapoff all swap partitions on this disk. Use the --no-reread flag to "
                    + "suppress this check. Use the --force flag to overrule all checks. (in use: " + held.get()
                    + ")");
        }
    }

    private static PlanOp partition(ShellCommand c, List<Word> operands, Options opts) {
        if (operands.isEmpty()) {
            throw c.error("sfdisk without a device: expected sfdisk [options] DEVICE with its script on standard "
                    + "input");
        }
        if (operands.size() > 2 || operands.size() == 2 && opts.partno().isPresent()) {
            throw c.expected(operands.get(operands.size() - 1), "argument", "one DEVICE (and a partition number "
                    + "without -N)");
        }
        OptionalInt partno = opts.partno();
        if (operands.size() == 2) {
            // sfdisk DEVICE NR is the old form of -N NR
            if (!operands.get(1).text().matches("[1-9][0-9]{0,8}")) {
                throw c.expected(operands.get(1), "partition number", "a partition number (1, 2, ...)");
            }
            partno = OptionalInt.of(Integer.parseInt(operands.get(1).text()));
        }
        if (c.stdin().isEmpty()) {
            throw c.error("sfdisk " + operands.get(0).text() + " without a script: expected its script on standard "
                    + "input (a here-document or echo ... |)");
        }
        Script script = SfdiskScript.read(c.origin(), c.stdin().get(), Math.max(1, c.stdinLine()));
        Optional<PartitionTableType> scriptLabel = script.header("label").map(l -> l.equals("gpt")
                ? PartitionTableType.GPT : PartitionTableType.MSDOS);
        for (Line l : script.lines()) {
            Optional<PartitionTableType> known = scriptLabel.or(opts::label);
            if (l.type().isPresent() && known.isPresent() && !fits(l.type().get(), known.get())) {
                throw c.origin().error(l.line(), 1, "sfdisk type \"" + l.type().get() + "\": expected a "
                        + (known.get() == PartitionTableType.GPT ? "gpt type (a GUID, L, S, H, U, R, V or an alias)"
                        : "dos type (a hex code such as 83 or 0xfd, L, S, U, R, V or an alias)"));
            }
        }
        String dev = operands.get(0).text();
        OptionalInt only = partno;
        return PartitionWrite.op(c.origin(), "sfdisk", state -> run(state, dev, opts, only, script, scriptLabel));
    }

    // libfdisk/src/parttype.c: fdisk_label_advparse_parttype — dos takes hex codes and its shortcuts, gpt GUIDs,
    // its shortcuts and names
    private static boolean fits(String type, PartitionTableType label) {
        String lower = type.toLowerCase(Locale.ROOT);
        String shortcut = SfdiskScript.ALIASES.getOrDefault(lower, type.toUpperCase(Locale.ROOT));
        if (label == PartitionTableType.GPT) {
            return type.length() == 36 || SfdiskScript.GPT_SHORTCUTS.containsKey(shortcut)
                    || SfdiskScript.GPT_NAMES.containsKey(lower);
        }
        return type.matches("(0[xX])?[0-9A-Fa-f]{1,2}") || SfdiskScript.DOS_SHORTCUTS.containsKey(shortcut);
    }

    private static List<String> run(PlanState state, String dev, Options opts, OptionalInt partno, Script script,
                                    Optional<PartitionTableType> scriptLabel) {
        Disk disk = state.disk(dev, "sfdisk");
        DiskView d = PartitionWrite.view(state, disk);
        busy(state, d, opts);
        List<String> out = new ArrayList<>();
        boolean keep = opts.append() || partno.isPresent();
        boolean hasTable = d.label().isPresent() || !d.partitions().isEmpty();
        boolean relabel = !keep || !hasTable;
        PartitionTableType type;
        if (relabel) {
            // disk-utils/sfdisk.c: command_fdisk — the script's label:, else --label, else the disk's, else dos
            type = scriptLabel.or(opts::label).or(d::label).orElse(PartitionTableType.MSDOS);
        } else {
            type = d.label().orElse(PartitionTableType.MSDOS);
            if (d.label().isEmpty()) {
                out.add("label type not known from the plan: dos assumed");
            }
        }
        long ss = d.sectorSize();
        long scriptSs = script.header("sector-size").map(Long::parseLong).orElse(0L);
        boolean ssDiffers = scriptSs != 0 && scriptSs != ss;
        int entries = tableLength(script);
        OptionalLong firstHeader = OptionalLong.empty();
        OptionalLong lastHeader = OptionalLong.empty();
        if (type == PartitionTableType.GPT && relabel && !ssDiffers) {
            long[] uefi = Libfdisk.uefiRange(ss, d.sectors(), entries);
            Optional<String> f = script.header("first-lba");
            Optional<String> l = script.header("last-lba");
            // libfdisk/src/gpt.c: count_first_last_lba — script values must lie inside the UEFI range
            if (f.isPresent()) {
                long v = Long.parseLong(f.get());
                if (v < uefi[0] || v > uefi[1]) {
                    throw new PlanOpFailure("First LBA specified by script is out of range.; Failed to apply script "
                            + "headers, disk label not created: Numerical result out of range");
                }
                firstHeader = OptionalLong.of(v);
            }
            if (l.isPresent()) {
                long v = Long.parseLong(l.get());
                if (v > uefi[1] || v < uefi[0]) {
                    throw new PlanOpFailure("Last LBA specified by script is out of range.; Failed to apply script "
                            + "headers, disk label not created: Numerical result out of range");
                }
                lastHeader = OptionalLong.of(v);
            }
        }
        long grainHeader = script.header("grain").map(g -> SfdiskScript.size(null, 0, "grain", g).value()).orElse(0L);
        Libfdisk f = new Libfdisk(d, type, relabel ? List.of() : d.partitions(), grainHeader, firstHeader, lastHeader,
                entries);
        out.add((relabel ? "new " : "") + label(type) + " label; grain " + PartitionWrite.bytes(f.grain)
                + ", first LBA " + f.firstLba + (type == PartitionTableType.GPT ? ", usable LBAs " + f.firstUsable
                + "-" + f.lastUsable : "") + grainSource(d, f, grainHeader));
        if (ssDiffers) {
            out.add("The script and device sector size differ; the sizes will be recalculated to match the device.");
        }
        List<Line> lines = script.lines();
        if (partno.isPresent() && lines.size() > 1) {
            lines = lines.subList(0, 1);
        }
        int next = 1;
        for (Line line : lines) {
            if (line.type().isPresent() && !fits(line.type().get(), type)) {
                out.add("line " + line.line() + ": type " + line.type().get() + " is no " + label(type)
                        + " type; sfdisk ignores the line (Unsupported command.)");
                continue;
            }
            OptionalLong start = sectors(line.start(), ss, scriptSs, "start");
            OptionalLong size = sectors(line.size(), ss, scriptSs, "size");
            boolean explicit = line.size().isPresent() && !line.size().get().bytes();
            OptionalInt number = partno.isPresent() ? partno : line.partno();
            if (partno.isPresent() && d.partition(partno.getAsInt()).isPresent() && !relabel) {
                out.add(modify(f, d, partno.getAsInt(), start, size));
                continue;
            }
            int shown = number.orElse(next);
            try {
                f.notes.clear();
                Part p = type == PartitionTableType.GPT ? f.addGpt(number, start, size, explicit, entries)
                        : f.addDos(number, start, size, explicit);
                for (String n : f.notes) {
                    out.add(n);
                }
                out.add("partition " + p.number() + ": start " + p.start() + ", size " + p.size() + ", end "
                        + p.end() + how(line, start, size, explicit) + PartitionWrite.alignment(d, p.start()));
                next = p.number() + 1;
            } catch (Libfdisk.AddFailure e) {
                String w = e.getMessage().isEmpty() ? "" : e.getMessage() + "; ";
                throw new PlanOpFailure(w + "Failed to add #" + shown + " partition: " + e.errno);
            }
        }
        opts.wipe().ifPresent(w -> out.add("--wipe " + w + (w.equals("never") ? ": old signatures kept"
                : ": old signatures on the disk erased")));
        if (opts.noAct()) {
            out.add("--no-act: nothing written");
            return out;
        }
        PartitionWrite.write(state, "sfdisk", d, type, relabel, f.parts);
        return out;
    }

    private static int tableLength(Script script) {
        return script.header("table-length").map(v -> (int) Math.min(Long.parseLong(v), 4096))
                .filter(v -> v > 0).orElse(Libfdisk.GPT_ENTRIES);
    }

    // libfdisk/src/partition.c: fdisk_set_partition — -N on a partition that exists: the given start and size
    private static String modify(Libfdisk f, DiskView d, int number, OptionalLong start, OptionalLong size) {
        Part old = d.partition(number).orElseThrow();
        long s = start.orElse(old.start());
        long z = size.orElse(old.size());
        if (s < 0 || z <= 0 || z > f.total || s > f.total - z) {
            throw new PlanOpFailure("Failed to set partition " + number + ": Numerical result out of range");
        }
        Part now = new Part(number, s, z);
        f.parts.remove(old);
        f.parts.add(now);
        return "partition " + number + " changed: start " + s + ", size " + z
                + (start.isEmpty() && size.isEmpty() ? " (as it was)" : "");
    }

    private static String how(Line line, OptionalLong start, OptionalLong size, boolean explicit) {
        String s = start.isPresent() ? "start as given" : "default start";
        String z = size.isEmpty() ? "to the end of the free area" : explicit ? "size as given in sectors"
                : "size from " + line.size().get().value() + " bytes, end aligned";
        return " (" + s + ", " + z + ")";
    }

    private static String grainSource(DiskView d, Libfdisk f, long header) {
        if (header != 0) {
            return " (grain: from the script)";
        }
        if (d.ioOpt() > 1024 * 1024) {
            return " (from optimal_io_size " + PartitionWrite.bytes(d.ioOpt()) + ")";
        }
        if (d.alignmentOffset() != 0) {
            return " (first LBA from alignment_offset " + PartitionWrite.bytes(d.alignmentOffset()) + ")";
        }
        return "";
    }

    // libfdisk/src/script.c: parse_start_value/parse_size_value — a suffixed value is bytes, divided by the
    // sector size; a bare value is in the script's sector size (recount_script2device_sectors)
    private static OptionalLong sectors(Optional<Num> n, long ss, long scriptSs, String field) {
        if (n.isEmpty()) {
            return OptionalLong.empty();
        }
        Num v = n.get();
        if (v.bytes()) {
            return OptionalLong.of(v.value() / ss);
        }
        if (scriptSs == 0 || scriptSs == ss) {
            return OptionalLong.of(v.value());
        }
        if (scriptSs > ss) {
            long r = scriptSs / ss;
            if (v.value() > Long.MAX_VALUE / r) {
                throw new PlanOpFailure("Can't recalculate partition " + field + " to the device sectors");
            }
            return OptionalLong.of(v.value() * r);
        }
        long r = ss / scriptSs;
        if (v.value() % r != 0) {
            throw new PlanOpFailure("Can't recalculate partition " + field + " to the device sectors");
        }
        return OptionalLong.of(v.value() / r);
    }

    private static String label(PartitionTableType t) {
        return t == PartitionTableType.GPT ? "gpt" : "dos";
    }
}
