package dev.dmmodel.impl.sgdisk;

import dev.dmmodel.device.Disk;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.Word;
import dev.dmmodel.impl.sfdisk.PartitionWrite;
import dev.dmmodel.impl.sfdisk.PartitionWrite.DiskView;
import dev.dmmodel.impl.sfdisk.PartitionWrite.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a {@code sgdisk} command line of a provisioning script: its options are applied in order ({@code -Z},
 * {@code -o}, {@code -a}, {@code -n}, {@code -N}, {@code -t}, {@code -c}, {@code -d}, ...) to the disk's GPT,
 * which is written at the end unless an option failed.
 */
public final class SgdiskCommand {

    /** Options taking a value, short to long. */
    private static final Map<Character, String> WITH_ARG = Map.ofEntries(Map.entry('n', "new"),
            Map.entry('N', "largest-new"), Map.entry('t', "typecode"), Map.entry('c', "change-name"),
            Map.entry('a', "set-alignment"), Map.entry('d', "delete"), Map.entry('i', "info"),
            Map.entry('A', "attributes"), Map.entry('u', "partition-guid"), Map.entry('U', "disk-guid"),
            Map.entry('b', "backup"), Map.entry('B', "byte-swap-name"));
    /** Options without a value, short to long. */
    private static final Map<Character, String> FLAGS = Map.ofEntries(Map.entry('o', "clear"),
            Map.entry('Z', "zap-all"), Map.entry('z', "zap"), Map.entry('I', "align-end"), Map.entry('g', "mbrtogpt"),
            Map.entry('p', "print"), Map.entry('P', "pretend"), Map.entry('v', "verify"), Map.entry('D',
                    "display-alignment"), Map.entry('E', "end-of-largest"), Map.entry('f', "first-in-largest"),
            Map.entry('F', "first-aligned-in-largest"), Map.entry('L', "list-types"), Map.entry('O', "print-mbr"),
            Map.entry('V', "version"), Map.entry('e', "move-second-header"), Map.entry('G', "randomize-guids"),
            Map.entry('C', "recompute-chs"));

    private SgdiskCommand() {
    }

    /** One option as given, in order. */
    record Opt(char name, String value, Word at) {
    }

    /**
     * Reads one {@code sgdisk} command.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp parse(ShellCommand command) {
        List<Opt> opts = new ArrayList<>();
        List<Word> operands = new ArrayList<>();
        List<Word> args = command.args();
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String t = w.text();
            if (t.startsWith("--") && t.length() > 2) {
                String name = t.substring(2);
                String value = null;
                if (name.contains("=")) {
                    value = name.substring(name.indexOf('=') + 1);
                    name = name.substring(0, name.indexOf('='));
                }
                char c = shortOf(command, w, name);
                if (WITH_ARG.containsKey(c)) {
                    if (value == null) {
                        if (i + 1 >= args.size()) {
                            throw command.error(w, "sgdisk option --" + name + " without its value: expected --"
                                    + name + "=VALUE");
                        }
                        value = args.get(++i).text();
                    }
                } else if (value != null) {
                    throw command.expected(w, "option", "--" + name + " without a value");
                }
                opts.add(option(command, c, value, w));
            } else if (t.startsWith("-") && t.length() > 1 && !t.equals("--")) {
                // popt: bundled flags (-Zo), a value attached (-n1:0:0) or in the next word
                for (int k = 1; k < t.length(); k++) {
                    char c = t.charAt(k);
                    if (WITH_ARG.containsKey(c)) {
                        String value = t.substring(k + 1);
                        if (value.startsWith("=")) {
                            value = value.substring(1);
                        }
                        if (value.isEmpty()) {
                            if (i + 1 >= args.size()) {
                                throw command.error(w, "sgdisk option -" + c + " without its value: expected -" + c
                                        + " VALUE");
                            }
                            value = args.get(++i).text();
                        }
                        opts.add(option(command, c, value, value.equals(t.substring(k + 1)) ? w : args.get(i)));
                        break;
                    }
                    if (!FLAGS.containsKey(c)) {
                        throw command.expected(w, "option", "an sgdisk option (-o, -Z, -n N:START:END, -t N:CODE, "
                                + "-c N:NAME, -a N, -d N, -N N, -I, -g, -p, ...)");
                    }
                    opts.add(new Opt(c, null, w));
                }
            } else if (!t.equals("--")) {
                operands.add(w);
            }
        }
        if (operands.size() != 1) {
            throw operands.isEmpty() ? command.error("sgdisk without a device: expected sgdisk [options] DEVICE")
                    : command.expected(operands.get(1), "argument", "one DEVICE after the options");
        }
        String dev = operands.get(0).text();
        List<Opt> all = List.copyOf(opts);
        return PartitionWrite.op(command.origin(), "sgdisk", state -> run(state, dev, all));
    }

    private static char shortOf(ShellCommand c, Word w, String name) {
        for (var e : WITH_ARG.entrySet()) {
            if (e.getValue().equals(name)) {
                return e.getKey();
            }
        }
        for (var e : FLAGS.entrySet()) {
            if (e.getValue().equals(name)) {
                return e.getKey();
            }
        }
        switch (name) {
            case "sort", "transpose", "hybrid", "gpttombr", "replicate", "load-backup", "move-main-table",
                 "move-backup-table", "resize-table", "transform-bsd" -> throw c.error(w, "sgdisk --" + name
                    + " is not modelled: expected -o, -Z, -n, -N, -t, -c, -a, -d, -I, -g or a listing option");
            default -> throw c.expected(w, "option", "an sgdisk option (--clear, --zap-all, --new, --typecode, "
                    + "--change-name, --set-alignment, --delete, ...)");
        }
    }

    private static Opt option(ShellCommand c, char name, String value, Word at) {
        switch (name) {
            case 'n' -> {
                String[] f = value.split(":", -1);
                if (f.length > 3) {
                    throw c.expected(at, "--new", "PARTNUM:START:END such as 1:0:+1G or 0:2048:0");
                }
                partNumber(c, at, f[0], "--new");
                for (int i = 1; i < f.length; i++) {
                    if (!f[i].isEmpty() && !f[i].matches("[+-]?[0-9]{1,18}[^:]*")) {
                        throw c.expected(at, "--new", "PARTNUM:START:END with sectors or sizes such as 2048, +1G, "
                                + "-100M, 0 (the default)");
                    }
                }
            }
            case 'N', 'd', 'i', 'B' -> {
                if (!value.matches("[0-9]{1,9}")) {
                    throw c.expected(at, "partition number", "a partition number");
                }
            }
            case 'a' -> {
                if (!value.matches("-?[0-9]{1,9}")) {
                    throw c.expected(at, "--set-alignment", "a number of sectors such as 2048");
                }
            }
            case 't' -> {
                int colon = value.indexOf(':');
                if (colon < 0) {
                    throw c.expected(at, "--typecode", "PARTNUM:CODE such as 1:8e00 or 2:EF00 or a type GUID");
                }
                partNumber(c, at, value.substring(0, colon), "--typecode");
                String code = value.substring(colon + 1);
                if (!code.matches("[0-9A-Fa-f]{1,4}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-"
                        + "[0-9A-Fa-f]{12}")) {
                    throw c.expected(at, "--typecode", "PARTNUM:CODE with a gdisk code (8300, 8e00, fd00, ef00) or "
                            + "a type GUID");
                }
            }
            case 'c' -> {
                int colon = value.indexOf(':');
                if (colon < 0) {
                    throw c.expected(at, "--change-name", "PARTNUM:NAME");
                }
                partNumber(c, at, value.substring(0, colon), "--change-name");
            }
            default -> {
            }
        }
        return new Opt(name, value, at);
    }

    private static void partNumber(ShellCommand c, Word at, String n, String field) {
        if (!n.matches("[0-9]{1,9}")) {
            throw c.expected(at, field, "a partition number (0 for the first free one) before the ':'");
        }
    }

    private static List<String> run(PlanState state, String dev, List<Opt> opts) {
        Disk disk = state.disk(dev, "sgdisk");
        DiskView d = PartitionWrite.view(state, disk);
        List<String> out = new ArrayList<>();
        boolean mbr = d.label().orElse(null) == PartitionTableType.MSDOS && !d.partitions().isEmpty();
        Gdisk g = new Gdisk(d, mbr ? List.of() : d.partitions());
        if (mbr) {
            out.add("Found invalid GPT and valid MBR; converting MBR to GPT format in memory.");
        } else if (d.partitions().isEmpty()) {
            out.add("Creating new GPT entries in memory: usable sectors " + g.firstUsable + "-" + g.lastUsable
                    + ", alignment " + g.alignment + " sectors");
        } else {
            out.add("GPT with " + d.partitions().size() + " partitions; alignment " + g.alignment
                    + " sectors (the largest power of 2 dividing every start, at most 1 MiB)");
        }
        boolean saveData = false;
        boolean saveNonGpt = !mbr;
        boolean relabel = mbr;
        boolean zapped = false;
        boolean pretend = false;
        boolean alignEnd = false;
        int newPart = -1;
        List<String> errors = new ArrayList<>();
        for (Opt o : opts) {
            switch (o.name()) {
                case 'a' -> {
                    int n = Integer.parseInt(o.value());
                    if (n > 0) {
                        // gpt.cc: GPTData::SetAlignment — warns when not a multiple of the physical block
                        g.alignment = n;
                        long per = d.physicalSize() / d.sectorSize();
                        if (per > 0 && n % per != 0) {
                            out.add("Warning: Setting alignment to a value that does not match the disk's physical "
                                    + "block size! Performance degradation may result!");
                        }
                        out.add("alignment " + n + " sectors");
                    }
                }
                case 'I' -> alignEnd = true;
                case 'P' -> pretend = true;
                case 'g' -> {
                    saveNonGpt = true;
                    saveData = true;
                }
                case 'o' -> {
                    g.clear();
                    relabel = true;
                    saveData = true;
                    out.add("-o: new GPT: usable sectors " + g.firstUsable + "-" + g.lastUsable + ", alignment "
                            + g.alignment + " sectors");
                }
                case 'Z', 'z' -> {
                    g.clear();
                    relabel = true;
                    zapped = true;
                    saveNonGpt = true;
                    saveData = false;
                    out.add(o.name() == 'Z' ? "GPT and MBR data structures destroyed" : "GPT data structures "
                            + "destroyed");
                }
                case 'n', 'N' -> {
                    String[] f = o.name() == 'n' ? o.value().split(":", -1) : new String[] {o.value(), "0", "0"};
                    int num = Integer.parseInt(f[0]) - 1;
                    if (num < 0) {
                        num = g.firstFreePart();
                    }
                    newPart = num;
                    // gptcl.cc: -n — the default start is the aligned first sector of the largest free block, the
                    // default end the last sector of the block it lies in
                    long low = g.firstInLargest();
                    long aligned = g.align(low);
                    low = aligned;
                    long high = g.lastInFree(low, alignEnd);
                    long start = o.name() == 'N' ? low : Gdisk.ieeeToInt(f.length > 1 ? f[1] : "", d.sectorSize(),
                            low, high, g.alignment, low);
                    long end = o.name() == 'N' ? high : Gdisk.ieeeToInt(f.length > 2 ? f[2] : "", d.sectorSize(),
                            start, high, g.alignment, high);
                    String r = g.create(num, start, end);
                    if (r == null) {
                        errors.add("Could not create partition " + (num + 1) + " from " + start + " to " + end);
                    } else {
                        Part p = g.parts.get(g.parts.size() - 1);
                        out.add(r + PartitionWrite.alignment(d, p.start()));
                        saveData = true;
                    }
                }
                case 't', 'c' -> {
                    int colon = o.value().indexOf(':');
                    int num = Integer.parseInt(o.value().substring(0, colon)) - 1;
                    if (num < 0) {
                        num = newPart;
                    }
                    String v = o.value().substring(colon + 1);
                    if (num >= 0 && num < Gdisk.ENTRIES) {
                        if (g.used(num + 1)) {
                            out.add("partition " + (num + 1) + (o.name() == 't' ? " type " + v : " name " + v));
                            saveData = true;
                        } else if (o.name() == 't') {
                            errors.add("Could not change partition " + (num + 1) + "'s type code to " + v + "!");
                        } else {
                            errors.add("Unable to set partition " + (num + 1) + "'s name to '" + v + "'!");
                        }
                    }
                }
                case 'd' -> {
                    int num = Integer.parseInt(o.value()) - 1;
                    if (num < 0 || num >= Gdisk.ENTRIES) {
                        errors.add("Partition number " + (num + 1) + " out of range!");
                    } else {
                        g.parts.removeIf(p -> p.number() == Integer.parseInt(o.value()));
                        relabel |= d.partition(num + 1).isPresent();
                        out.add("partition " + (num + 1) + " deleted");
                        saveData = true;
                    }
                }
                default -> {
                    // listing and GUID options change no block layout
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new PlanOpFailure(String.join("; ", errors) + "; Error encountered; not saving changes.");
        }
        if (pretend) {
            out.add("--pretend: nothing written");
            return out;
        }
        // gptcl.cc: DoOptions — a non-GPT disk is written only with -g (or after -Z/-z)
        if (saveData && !saveNonGpt) {
            throw new PlanOpFailure("Non-GPT disk; not saving changes. Use -g to override.");
        }
        if (saveData) {
            PartitionWrite.write(state, "sgdisk", d, PartitionTableType.GPT, relabel, g.parts);
        } else if (zapped && (!d.partitions().isEmpty() || d.label().isPresent())) {
            state.removePartitions(d.name(), "sgdisk");
        }
        return out;
    }
}
