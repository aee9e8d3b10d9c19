package dev.dmmodel.impl.lvm.cmd;

import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.impl.lvm.LvmNames;
import dev.dmmodel.impl.lvm.LvmSizeArg;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a shell script of LVM commands into layout steps: exactly what {@link LvmCommandWriter} writes,
 * and hand-written variants of it. One command a line ({@code \} continues a line); blank lines,
 * {@code #} comments, a {@code #!} line and {@code set -e} are skipped; a command may be prefixed by
 * {@code sudo} or {@code lvm}. Options in long or short form, {@code --opt=value}, {@code -lVALUE}; sizes
 * with LVM's units ({@code b s k m g t p e}, 1024-based, any case; a bare number in the option's default
 * unit: KiB for {@code --dataalignment}, {@code --dataalignmentoffset}, {@code -I}, {@code -c}, MiB for
 * the others); PVs as {@code DEV}, {@code DEV:PE-PE}, {@code DEV:PE}, {@code DEV:PE+COUNT}, several ranges
 * separated by {@code :}.
 *
 * <ul>
 *   <li>{@code pvcreate [--dataalignment S] [--dataalignmentoffset S] [--metadatasize S]
 *       [--pvmetadatacopies N] DEV...}: one {@link LayoutStep.PvCreate} per device;</li>
 *   <li>{@code vgcreate [-s S] [--alloc P] VG PV...};</li>
 *   <li>{@code lvcreate -l N|-L S -n NAME [-i N] [-I S] [--alloc P] VG [PV...]} (linear or striped);</li>
 *   <li>{@code lvcreate --type thin-pool|-T -l N|-L S [-n POOL] [-c S] [--poolmetadatasize S] [--zero y|n]
 *       [--discards D] [--errorwhenfull y|n] [--poolmetadataspare y|n] VG[/POOL] [PV...]};</li>
 *   <li>{@code lvcreate -V S -T VG/POOL|--thinpool POOL VG [-n NAME]} (thin volume);</li>
 *   <li>{@code lvcreate -s VG/ORIGIN [-n NAME]} without a size (thin snapshot);</li>
 *   <li>{@code lvcreate -s -L SIZE [-c CHUNK] [-n NAME] VG/ORIGIN [PV...]} (classic copy-on-write snapshot);</li>
 *   <li>{@code lvcreate --type raid1 [-m N] | --type raid4|raid5*|raid6* [-i N] [-I S], [-R S] [--nosync]
 *       -l N|-L S -n NAME VG [PV...]} (RAID LV; {@code -R} in MiB by default);</li>
 *   <li>{@code lvextend -l +N|-L +S [-i N] [-I S] [--alloc P] VG/LV [PV...]} (-L needs the VG's
 *       {@code vgcreate} earlier in the script, for its extent size);</li>
 *   <li>{@code lvconvert --type thin-pool --poolmetadata [VG/]META [-c S] [--zero y|n] [--discards D]
 *       [--errorwhenfull y|n] [--poolmetadataspare y|n] VG/DATA [PV...]}, or {@code --thinpool VG/DATA}.</li>
 * </ul>
 * {@code --yes}, {@code -f}, {@code -v}, {@code -q}, {@code -W y|n}, {@code -A y|n} and, for a plain LV,
 * {@code -Z y|n} and {@code -a y} are accepted and have no effect on the model. Anything else is an
 * {@link LvmCommandException}; the model's own checks (sizes, free space, names) come when the steps are
 * built.
 */
public final class LvmCommandParser {

    private static final Pattern NUMBER = Pattern.compile("\\d{1,40}");
    private static final Pattern PERCENT = Pattern.compile("(\\d{1,7})%(VG|FREE|PVS|ORIGIN)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RANGE = Pattern.compile("(\\d{1,40})(?:([-+])(\\d{1,40}))?");
    private static final Pattern SET_OPTION = Pattern.compile("[-+][euxo]{1,4}|errexit|nounset|pipefail");
    private static final Pattern ACTIVATE_YES = Pattern.compile("a?y");
    private static final long MAX_EXTENTS = 0xFFFF_FFFFL;

    /** An option: its names, whether it takes a value. */
    private record Opt(String key, boolean value, String... names) {
    }

    private static final List<Opt> COMMON = List.of(new Opt("yes", false, "-y", "--yes"),
            new Opt("force", false, "-f", "--force"), new Opt("verbose", false, "-v", "--verbose"),
            new Opt("quiet", false, "-q", "--quiet"), new Opt("autobackup", true, "-A", "--autobackup"));
    private static final List<Opt> PVCREATE = List.of(new Opt("dataalignment", true, "--dataalignment"),
            new Opt("dataalignmentoffset", true, "--dataalignmentoffset"),
            new Opt("metadatasize", true, "--metadatasize"),
            new Opt("metadatacopies", true, "--pvmetadatacopies", "--metadatacopies"),
            new Opt("zero", true, "-Z", "--zero"));
    private static final List<Opt> VGCREATE = List.of(new Opt("extentsize", true, "-s", "--physicalextentsize"),
            new Opt("alloc", true, "--alloc"));
    private static final List<Opt> POOL = List.of(new Opt("chunksize", true, "-c", "--chunksize"),
            new Opt("zero", true, "-Z", "--zero"), new Opt("discards", true, "--discards"),
            new Opt("errorwhenfull", true, "--errorwhenfull"),
            new Opt("poolmetadataspare", true, "--poolmetadataspare"),
            new Opt("type", true, "--type"), new Opt("thinpool", true, "--thinpool"));
    private static final List<Opt> LVCREATE = List.of(new Opt("name", true, "-n", "--name"),
            new Opt("extents", true, "-l", "--extents"), new Opt("size", true, "-L", "--size"),
            new Opt("stripes", true, "-i", "--stripes"), new Opt("stripesize", true, "-I", "--stripesize"),
            new Opt("alloc", true, "--alloc"), new Opt("wipesignatures", true, "-W", "--wipesignatures"),
            new Opt("activate", true, "-a", "--activate"), new Opt("virtualsize", true, "-V", "--virtualsize"),
            new Opt("thin", false, "-T", "--thin"), new Opt("snapshot", false, "-s", "--snapshot"),
            new Opt("poolmetadatasize", true, "--poolmetadatasize"), new Opt("mirrors", true, "-m", "--mirrors"),
            new Opt("regionsize", true, "-R", "--regionsize"), new Opt("nosync", false, "--nosync"));
    private static final List<Opt> LVEXTEND = List.of(new Opt("extents", true, "-l", "--extents"),
            new Opt("size", true, "-L", "--size"), new Opt("stripes", true, "-i", "--stripes"),
            new Opt("stripesize", true, "-I", "--stripesize"), new Opt("alloc", true, "--alloc"));
    private static final List<Opt> LVCONVERT = List.of(new Opt("poolmetadata", true, "--poolmetadata"));

    private final String source;
    private final Map<String, Long> extentSizes = new HashMap<>();
    /** The host a plan runs on, for percentages and sizes relative to what exists; null for a script alone. */
    private HostSizes sizes;
    /** The VG and PVs of the lvcreate being read, for N%VG/%FREE/%PVS. */
    private String percentVg;
    private List<String> percentPvs = List.of();
    private String percentOrigin;
    /** Whether the size of the lvcreate being read was a percentage (LVM then allocates approximately). */
    private boolean percentSize;
    /** A plan's command read on its own ({@link #parseCommand}): what exists is known only when it runs. */
    private boolean planCommand;
    private int lineNumber;
    private String lineText;

    private LvmCommandParser(String source) {
        this.source = source;
    }

    /**
     * Reads a script.
     *
     * @param script the script text
     * @param source its name for messages (a file name, or {@code <string>})
     * @return the steps, in script order
     * @throws LvmCommandException for a line that is not one of the documented commands
     */
    public static List<LayoutStep> parse(String script, String source) {
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(source, "source");
        return new LvmCommandParser(source).run(script);
    }

    /**
     * What a plan's LVM command reads from the host it runs on: sizes relative to what exists. Its methods throw
     * the host's failure ({@code dev.dmmodel.impl.plan.PlanOpFailure}) in LVM's words when the VG or LV is missing.
     */
    public interface HostSizes {
        /** The VG's extent size in sectors. */
        long extentSize(String vg);

        /**
         * {@code -l N%BASE}: the extents LVM computes ({@code lvm-percent.c: percent_of_extents}).
         *
         * @param base VG, FREE, PVS or ORIGIN
         * @param pvs the PVs named on the command line (for PVS)
         * @param origin the origin LV (for ORIGIN), or null
         */
        long percentExtents(String vg, long percent, String base, List<String> pvs, String origin);

        /** The current size of VG/LV in extents. */
        long lvExtents(String vg, String lv);

        /** The metadata extents lvcreate would give a new thin pool of {@code dataExtents} (chunk 0 = default). */
        long poolMetadataExtents(String vg, long dataExtents, long chunkSectors);
    }

    /**
     * Reads one LVM command of a plan, with sizes relative to the host it runs on. Each word's column in errors is
     * its index in {@code words} plus one (the caller maps it back to the word's place).
     *
     * @param words the command and its arguments, quotes removed
     * @param source the plan's name
     * @param line the command's line
     * @param sizes the host, or null to read the command without one (percentages then count as 1 extent: for
     *     checking a plan's syntax before it runs)
     * @throws LvmCommandException for a command that is not one of the documented forms
     */
    public static List<LayoutStep> parseCommand(List<String> words, String source, int line, HostSizes sizes) {
        Objects.requireNonNull(words, "words");
        Objects.requireNonNull(source, "source");
        LvmCommandParser p = new LvmCommandParser(source);
        p.sizes = sizes;
        p.planCommand = true;
        p.lineNumber = line;
        p.lineText = String.join(" ", words);
        List<Token> tokens = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            tokens.add(new Token(words.get(i), i + 1));
        }
        List<LayoutStep> steps = new ArrayList<>();
        if (tokens.isEmpty()) {
            return List.of();
        }
        try {
            p.command(tokens, steps);
        } catch (LvmCommandException | dev.dmmodel.layout.LayoutException e) {
            throw e; // a read error, or the host's refusal (LVM's message)
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw p.error(1, "command", p.lineText, "valid values: " + e.getMessage());
        }
        return List.copyOf(steps);
    }

    /** A token and its 1-based column. */
    private record Token(String text, int column) {
    }

    private List<LayoutStep> run(String script) {
        List<LayoutStep> steps = new ArrayList<>();
        String[] lines = script.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            lineNumber = i + 1;
            StringBuilder joined = new StringBuilder(lines[i]);
            while (endsWithBackslash(joined) && i + 1 < lines.length) {
                joined.setLength(joined.length() - 1);
                joined.append(' ').append(lines[++i]);
            }
            lineText = joined.toString();
            if (endsWithBackslash(joined)) {
                throw error(joined.length(), "line", lineText, "a continued line before the end of the script");
            }
            List<Token> tokens = tokens(lineText);
            if (tokens.isEmpty()) {
                continue;
            }
            try {
                command(tokens, steps);
            } catch (LvmCommandException e) {
                throw e;
            } catch (IllegalArgumentException | IllegalStateException e) {
                // a request's own check (a value the records refuse), reported against the line
                throw error(tokens.get(0).column(), "command", lineText.strip(), "valid values: " + e.getMessage());
            }
        }
        return List.copyOf(steps);
    }

    private static boolean endsWithBackslash(StringBuilder s) {
        return s.length() > 0 && s.charAt(s.length() - 1) == '\\';
    }

    // words split on blanks; '#' at the start of a word begins a comment; one level of plain quotes
    private List<Token> tokens(String line) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r') {
                i++;
                continue;
            }
            if (c == '#') {
                break;
            }
            int start = i;
            StringBuilder word = new StringBuilder();
            while (i < n && line.charAt(i) != ' ' && line.charAt(i) != '\t' && line.charAt(i) != '\r') {
                char x = line.charAt(i);
                if (x == '\'' || x == '"') {
                    int close = line.indexOf(x, i + 1);
                    if (close < 0) {
                        throw error(i + 1, "quote", String.valueOf(x), "a closing " + x);
                    }
                    word.append(line, i + 1, close);
                    i = close + 1;
                } else if (x == ';' || x == '|' || x == '&' || x == '`' || x == '$' || x == '<' || x == '>'
                        || x == '(' || x == ')' || x == '\\') {
                    throw error(i + 1, "shell syntax", String.valueOf(x), "one plain command a line");
                } else {
                    word.append(x);
                    i++;
                }
            }
            out.add(new Token(word.toString(), start + 1));
        }
        return out;
    }

    private void command(List<Token> tokens, List<LayoutStep> steps) {
        int at = 0;
        while (at < tokens.size() && (tokens.get(at).text().equals("sudo") || tokens.get(at).text().equals("lvm"))) {
            at++;
        }
        if (at == tokens.size()) {
            throw error(tokens.get(0).column(), "command", tokens.get(0).text(), "an LVM command after it");
        }
        Token cmd = tokens.get(at);
        String name = cmd.text().substring(cmd.text().lastIndexOf('/') + 1);
        List<Token> args = tokens.subList(at + 1, tokens.size());
        switch (name) {
            case "set" -> setOption(cmd, args);
            case "pvcreate" -> pvcreate(args, steps);
            case "vgcreate" -> vgcreate(cmd, args, steps);
            case "vgextend" -> vgextend(cmd, args, steps);
            case "lvcreate" -> lvcreate(cmd, args, steps);
            case "lvextend" -> lvextend(cmd, args, steps);
            case "lvconvert" -> lvconvert(cmd, args, steps);
            default -> throw error(cmd.column(), "command", cmd.text(),
                    "pvcreate, vgcreate, vgextend, lvcreate, lvextend, lvconvert or set -e");
        }
    }

    private void setOption(Token cmd, List<Token> args) {
        for (Token t : args) {
            if (!SET_OPTION.matcher(t.text()).matches()) {
                throw error(t.column(), "set", t.text(), "a shell option such as -e");
            }
        }
        if (args.isEmpty()) {
            throw error(cmd.column(), "set", "set", "set -e");
        }
    }

    // ---- options

    /** Parsed options (by key, last one wins) and positional arguments. */
    private record Args(Map<String, Token> options, List<Token> positional) {
        boolean has(String key) {
            return options.containsKey(key);
        }

        Token get(String key) {
            return options.get(key);
        }
    }

    @SafeVarargs
    private Args options(List<Token> args, List<Opt>... tables) {
        Map<String, Token> options = new LinkedHashMap<>();
        List<Token> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Token t = args.get(i);
            String s = t.text();
            if (s.length() < 2 || s.charAt(0) != '-' || Character.isDigit(s.charAt(1))) {
                positional.add(t);
                continue;
            }
            String optName = s;
            String inline = null;
            Opt opt;
            if (s.startsWith("--")) {
                int eq = s.indexOf('=');
                if (eq > 0) {
                    optName = s.substring(0, eq);
                    inline = s.substring(eq + 1);
                }
                opt = find(optName, tables);
            } else {
                optName = s.substring(0, 2);
                opt = find(optName, tables);
                if (opt != null && s.length() > 2) {
                    if (opt.value()) {
                        inline = s.substring(2);
                    } else if (!s.substring(2).chars().allMatch(c -> c == s.charAt(1))) {
                        throw error(t.column(), "option", s, "an option of " + optionList(tables));
                    }
                }
            }
            if (opt == null) {
                throw error(t.column(), "option", optName, "an option of " + optionList(tables));
            }
            if (!opt.value()) {
                if (inline != null) {
                    throw error(t.column(), optName, s, optName + " without a value");
                }
                options.put(opt.key(), t);
                continue;
            }
            if (inline == null) {
                if (i + 1 >= args.size()) {
                    throw error(t.column(), optName, "", "a value after " + optName);
                }
                Token v = args.get(++i);
                options.put(opt.key(), new Token(v.text(), v.column()));
            } else {
                options.put(opt.key(), new Token(inline, t.column()));
            }
            options.put(opt.key() + "#name", new Token(optName, t.column()));
        }
        return new Args(options, positional);
    }

    @SafeVarargs
    private static Opt find(String name, List<Opt>... tables) {
        for (List<Opt> table : tables) {
            for (Opt o : table) {
                for (String n : o.names()) {
                    if (n.equals(name)) {
                        return o;
                    }
                }
            }
        }
        for (Opt o : COMMON) {
            for (String n : o.names()) {
                if (n.equals(name)) {
                    return o;
                }
            }
        }
        return null;
    }

    @SafeVarargs
    private static String optionList(List<Opt>... tables) {
        List<String> names = new ArrayList<>();
        for (List<Opt> table : tables) {
            for (Opt o : table) {
                names.add(o.names()[o.names().length - 1]);
            }
        }
        return String.join(", ", names);
    }

    private String optName(Args a, String key) {
        Token n = a.get(key + "#name");
        return n == null ? "--" + key : n.text();
    }

    // ---- commands

    private void pvcreate(List<Token> tokens, List<LayoutStep> steps) {
        Args a = options(tokens, PVCREATE);
        PvCreateOptions o = PvCreateOptions.DEFAULTS;
        if (a.has("dataalignment")) {
            o = o.withDataAlignment(sectors(a, "dataalignment", 'k'));
        }
        if (a.has("dataalignmentoffset")) {
            o = o.withDataAlignmentOffset(sectors(a, "dataalignmentoffset", 'k'));
        }
        if (a.has("metadatasize")) {
            o = o.withMetadataSize(sectors(a, "metadatasize", 'm'));
        }
        if (a.has("metadatacopies")) {
            long copies = number(a.get("metadatacopies"), optName(a, "metadatacopies"), 2, "0, 1 or 2");
            o = o.withMetadataCopies((int) copies);
        }
        if (a.has("zero")) {
            yesNo(a, "zero");
        }
        if (a.has("autobackup")) {
            yesNo(a, "autobackup");
        }
        if (a.positional().isEmpty()) {
            throw error(1, "pvcreate", lineText.strip(), "one or more devices");
        }
        for (Token t : a.positional()) {
            steps.add(new LayoutStep.PvCreate(device(t), o));
        }
    }

    private void vgcreate(Token cmd, List<Token> tokens, List<LayoutStep> steps) {
        Args a = options(tokens, VGCREATE);
        VgCreateOptions o = VgCreateOptions.DEFAULTS;
        if (a.has("extentsize")) {
            Sectors s = sectors(a, "extentsize", 'm');
            if (s.count() == 0) {
                throw error(a.get("extentsize").column(), optName(a, "extentsize"), a.get("extentsize").text(),
                        "a positive extent size");
            }
            o = o.withExtentSize(s);
        }
        if (a.has("alloc")) {
            AllocationPolicy p = policy(a);
            if (p == AllocationPolicy.INHERIT) {
                throw error(a.get("alloc").column(), "--alloc", a.get("alloc").text(),
                        "contiguous, cling, normal or anywhere (a VG cannot inherit)");
            }
            o = o.withAllocationPolicy(p);
        }
        autobackup(a);
        if (a.positional().size() < 2) {
            throw error(cmd.column(), "vgcreate", lineText.strip(), "a VG name and one or more PVs");
        }
        String vg = name(a.positional().get(0), "VG name");
        List<String> pvs = new ArrayList<>();
        for (Token t : a.positional().subList(1, a.positional().size())) {
            pvs.add(device(t));
        }
        extentSizes.put(vg, o.extentSize().count());
        steps.add(new LayoutStep.VgCreate(vg, o, pvs));
    }

    // tools/vgextend.c: vgextend VG PV... (a PV that is not one yet is made with pvcreate's defaults first)
    private void vgextend(Token cmd, List<Token> tokens, List<LayoutStep> steps) {
        Args a = options(tokens, List.of(new Opt("zero", true, "-Z", "--zero")));
        autobackup(a);
        if (a.has("zero")) {
            yesNo(a, "zero");
        }
        if (a.positional().size() < 2) {
            throw error(cmd.column(), "vgextend", lineText.strip(), "VG PV...");
        }
        String vg = name(a.positional().get(0), "VG");
        List<String> pvs = new ArrayList<>();
        for (Token t : a.positional().subList(1, a.positional().size())) {
            pvs.add(device(t));
        }
        steps.add(new LayoutStep.VgExtend(vg, pvs));
    }

    private void lvcreate(Token cmd, List<Token> tokens, List<LayoutStep> steps) {
        Args a = options(tokens, LVCREATE, POOL);
        percentVg = vgAndMaybeLv(a.positional().isEmpty() ? cmd : a.positional().get(0))[0];
        percentPvs = new ArrayList<>();
        for (Token t : a.positional().subList(Math.min(1, a.positional().size()), a.positional().size())) {
            percentPvs.add(t.text());
        }
        percentOrigin = a.positional().isEmpty() ? null : vgAndMaybeLv(a.positional().get(0))[1];
        for (String ignored : List.of("wipesignatures", "autobackup")) {
            if (a.has(ignored)) {
                yesNo(a, ignored);
            }
        }
        if (a.has("activate") && !ACTIVATE_YES.matcher(a.get("activate").text()).matches()) {
            throw error(a.get("activate").column(), optName(a, "activate"), a.get("activate").text(),
                    "y (the model activates every new LV)");
        }
        if (a.positional().isEmpty()) {
            throw error(cmd.column(), "lvcreate", lineText.strip(), "a VG (or VG/LV) argument");
        }
        String type = a.has("type") ? a.get("type").text() : null;
        if (a.has("snapshot") && (a.has("size") || a.has("extents")) && type == null) {
            cowSnapshot(a, steps);
        } else if (a.has("snapshot") || "thin-snapshot".equals(type)) {
            thinSnapshot(a, steps);
        } else if (a.has("virtualsize") || "thin".equals(type)) {
            thinVolume(a, steps);
        } else if ("thin-pool".equals(type) || a.has("thin") || a.has("thinpool")) {
            thinPool(a, steps);
        } else if (type != null && dev.dmmodel.lvm.SegmentType.Raid.TYPES.contains(type)) {
            raid(a, type, steps);
        } else if (type == null || type.equals("linear") || type.equals("striped")) {
            plain(a, type, steps);
        } else {
            throw error(a.get("type").column(), "--type", type, "linear, striped, thin-pool, thin or a raid type "
                    + "(raid1, raid4, raid5, raid6 and their layouts)");
        }
    }

    // lvcreate --type raid1 -m N | raid4|raid5*|raid6* -i N [-I S] [-R S] [--nosync] -L S|-l N -n NAME VG [PV...]
    private void raid(Args a, String type, List<LayoutStep> steps) {
        rejectAll(a, "lvcreate of a RAID LV", "chunksize", "discards", "errorwhenfull", "poolmetadataspare",
                "poolmetadatasize", "virtualsize", "thin", "thinpool", "snapshot");
        if (a.has("zero")) {
            yesNo(a, "zero");
        }
        String[] vgLv = vgAndMaybeLv(a.positional().get(0));
        String name = a.has("name") ? name(a.get("name"), "-n") : vgLv[1];
        if (name == null) {
            throw error(a.positional().get(0).column(), "lvcreate", lineText.strip(), "-n NAME (lvol names are not "
                    + "generated for RAID LVs)");
        }
        int mirrors = a.has("mirrors") ? (int) number(a.get("mirrors"), optName(a, "mirrors"), 63, "0 to 63") : 0;
        int stripes = a.has("stripes") ? (int) number(a.get("stripes"), optName(a, "stripes"), 128, "1 to 128") : 0;
        Bytes[] size = new Bytes[1];
        long[] extents = new long[1];
        sizeOrExtents(a, v -> size[0] = v, v -> extents[0] = v);
        Bytes stripeSize = a.has("stripesize") ? bytes(a, "stripesize", 'k') : null;
        Bytes regionSize = a.has("regionsize") ? bytes(a, "regionsize", 'm') : null;
        dev.dmmodel.lvm.AllocationPolicy policy = a.has("alloc") ? policy(a) : dev.dmmodel.lvm.AllocationPolicy.INHERIT;
        PvArgs pv = pvArgs(a.positional().subList(1, a.positional().size()));
        if (!pv.ranges().isEmpty()) {
            throw error(a.positional().get(1).column(), "lvcreate --type " + type, pv.ranges().get(0).toString(),
                    "whole PVs (PE ranges for RAID LVs are not modelled)");
        }
        steps.add(new LayoutStep.RaidLvCreate(vgLv[0], new dev.dmmodel.lvm.RaidLvRequest(name, type, size[0],
                extents[0], mirrors, stripes, stripeSize, regionSize, a.has("nosync"), policy, pv.pvs())));
    }

    private void plain(Args a, String type, List<LayoutStep> steps) {
        rejectAll(a, "lvcreate of a linear or striped LV", "chunksize", "discards", "errorwhenfull",
                "poolmetadataspare", "poolmetadatasize", "mirrors", "regionsize", "nosync");
        if (a.has("zero")) {
            yesNo(a, "zero");
        }
        String[] vgLv = vgAndMaybeLv(a.positional().get(0));
        String vg = vgLv[0];
        String name = a.has("name") ? name(a.get("name"), "-n") : vgLv[1];
        if (name == null) {
            throw error(a.positional().get(0).column(), "lvcreate", lineText.strip(),
                    "-n NAME (lvol names are not generated for plain LVs)");
        }
        int stripes = a.has("stripes") ? (int) number(a.get("stripes"), optName(a, "stripes"), 128, "1 to 128") : 1;
        if (stripes == 0) {
            throw error(a.get("stripes").column(), optName(a, "stripes"), "0", "1 to 128");
        }
        if ("linear".equals(type) && stripes != 1) {
            throw error(a.get("stripes").column(), "--type linear", Integer.toString(stripes), "one stripe");
        }
        LvCreateRequest.Builder b = LvCreateRequest.builder(name).stripes(stripes);
        int rows = stripes;
        sizeOrExtents(a, b::size, v -> b.extents(percentSize && v % rows != 0 && v > rows
                // tools/lvcreate.c: _update_extents_params (a percentage rounds down to whole stripes)
                ? v - v % rows : v));
        if (a.has("stripesize")) {
            b.stripeSize(bytes(a, "stripesize", 'k'));
        }
        if (a.has("alloc")) {
            b.policy(policy(a));
        }
        PvArgs pv = pvArgs(a.positional().subList(1, a.positional().size()));
        b.onPvs(pv.pvs().toArray(String[]::new)).onRanges(pv.ranges());
        steps.add(new LayoutStep.LvCreate(vg, b.build()));
    }

    private void thinPool(Args a, List<LayoutStep> steps) {
        rejectAll(a, "lvcreate of a thin pool", "virtualsize", "snapshot", "mirrors", "regionsize", "nosync");
        String[] vgLv = vgAndMaybeLv(a.positional().get(0));
        String vg = vgLv[0];
        String name = vgLv[1];
        if (a.has("thinpool")) {
            String[] p = vgAndMaybeLv(a.get("thinpool"));
            name = p[1] == null ? p[0] : p[1];
            if (p[1] != null && !p[0].equals(vg)) {
                throw error(a.get("thinpool").column(), "--thinpool", a.get("thinpool").text(), "a pool in VG " + vg);
            }
        }
        if (a.has("name")) {
            name = name(a.get("name"), "-n");
        }
        if (name == null) {
            throw error(a.positional().get(0).column(), "lvcreate", lineText.strip(), "a pool name (-n or VG/POOL)");
        }
        ThinPoolRequest.Builder b = ThinPoolRequest.builder(name);
        long[] poolExtents = new long[1];
        sizeOrExtents(a, b::size, v -> poolExtents[0] = v);
        if (poolExtents[0] != 0) {
            long data = poolExtents[0];
            if (percentSize && sizes != null && !a.has("poolmetadatasize")) {
                // tools/lvcreate.c: _update_extents_params (a pool sized by %FREE/%PVS leaves room for its
                // metadata and the spare)
                String base = PERCENT.matcher(a.get("extents").text()).replaceAll("$2").toUpperCase(java.util.Locale.ROOT);
                if (base.equals("FREE") || base.equals("PVS")) {
                    long chunk = a.has("chunksize") ? sectors(a, "chunksize", 'k').count() : 0;
                    long meta = sizes.poolMetadataExtents(vg, data, chunk);
                    boolean spare = !a.has("poolmetadataspare") || yesNo(a, "poolmetadataspare");
                    long reduced = data - (spare ? 2 * meta : meta);
                    if (reduced <= 0) {
                        throw new dev.dmmodel.layout.LayoutException(vg + "/" + name, "extents",
                                a.get("extents").text(), "Not enough space for thin pool creation.");
                    }
                    data = reduced;
                }
            }
            b.extents(data);
        }
        if (a.has("chunksize")) {
            b.chunkSize(bytes(a, "chunksize", 'k'));
        }
        if (a.has("poolmetadatasize")) {
            b.poolMetadataSize(bytes(a, "poolmetadatasize", 'm'));
        }
        if (a.has("zero")) {
            b.zero(yesNo(a, "zero"));
        }
        if (a.has("discards")) {
            b.discards(discards(a));
        }
        if (a.has("errorwhenfull")) {
            b.errorWhenFull(yesNo(a, "errorwhenfull"));
        }
        if (a.has("poolmetadataspare")) {
            b.poolMetadataSpare(yesNo(a, "poolmetadataspare"));
        }
        if (a.has("stripes")) {
            long s = number(a.get("stripes"), optName(a, "stripes"), 128, "1 to 128");
            if (s == 0) {
                throw error(a.get("stripes").column(), optName(a, "stripes"), "0", "1 to 128");
            }
            b.stripes((int) s);
        }
        if (a.has("stripesize")) {
            b.stripeSize(bytes(a, "stripesize", 'k'));
        }
        if (a.has("alloc")) {
            b.policy(policy(a));
        }
        PvArgs pv = pvArgs(a.positional().subList(1, a.positional().size()));
        if (!pv.ranges().isEmpty()) {
            throw error(a.positional().get(1).column(), "lvcreate --type thin-pool", pv.ranges().get(0).toString(),
                    "whole PVs (for exact ranges create the data and metadata LVs and lvconvert them)");
        }
        b.onPvs(pv.pvs().toArray(String[]::new));
        steps.add(new LayoutStep.ThinPoolCreate(vg, b.build()));
    }

    private void thinVolume(Args a, List<LayoutStep> steps) {
        rejectAll(a, "lvcreate of a thin volume", "extents", "size", "stripes", "stripesize", "chunksize",
                "poolmetadatasize", "snapshot", "discards", "errorwhenfull", "poolmetadataspare", "mirrors", "regionsize", "nosync");
        if (!a.has("virtualsize")) {
            throw error(1, "lvcreate --type thin", lineText.strip(), "-V SIZE");
        }
        if (a.positional().size() != 1) {
            throw error(a.positional().get(a.positional().size() - 1).column(), "lvcreate -V", lineText.strip(),
                    "one VG/POOL (or VG with --thinpool) argument and no PVs");
        }
        String[] vgLv = vgAndMaybeLv(a.positional().get(0));
        String vg = vgLv[0];
        String pool = vgLv[1];
        if (a.has("thinpool")) {
            String[] p = vgAndMaybeLv(a.get("thinpool"));
            if (p[1] != null && !p[0].equals(vg)) {
                throw error(a.get("thinpool").column(), "--thinpool", a.get("thinpool").text(), "a pool in VG " + vg);
            }
            pool = p[1] == null ? p[0] : p[1];
        } else if (!a.has("thin") && !"thin".equals(a.has("type") ? a.get("type").text() : null)) {
            throw error(a.positional().get(0).column(), "lvcreate -V", lineText.strip(),
                    "-T VG/POOL or --thinpool POOL");
        }
        if (pool == null) {
            throw error(a.positional().get(0).column(), "lvcreate -V", a.positional().get(0).text(), "VG/POOL");
        }
        String name = a.has("name") ? name(a.get("name"), "-n") : "";
        steps.add(new LayoutStep.ThinLvCreate(vg, new ThinLvRequest(name, bytes(a, "virtualsize", 'm'), pool)));
    }

    private void thinSnapshot(Args a, List<LayoutStep> steps) {
        rejectAll(a, "lvcreate -s of a thin snapshot (no size: an old-style snapshot is not modelled)", "extents",
                "size", "virtualsize", "stripes", "stripesize", "chunksize", "poolmetadatasize", "thinpool",
                "discards", "errorwhenfull", "poolmetadataspare", "zero", "mirrors", "regionsize", "nosync");
        if (a.positional().size() != 1) {
            throw error(a.positional().get(a.positional().size() - 1).column(), "lvcreate -s", lineText.strip(),
                    "one VG/ORIGIN argument");
        }
        String[] vgLv = vgAndMaybeLv(a.positional().get(0));
        if (vgLv[1] == null) {
            throw error(a.positional().get(0).column(), "lvcreate -s", a.positional().get(0).text(), "VG/ORIGIN");
        }
        String name = a.has("name") ? name(a.get("name"), "-n") : "";
        steps.add(new LayoutStep.ThinSnapshotCreate(vgLv[0], new ThinSnapshotRequest(vgLv[1], name)));
    }

    // tools/lvcreate.c: _lvcreate_params — -s with a size: a classic (copy-on-write) snapshot of VG/ORIGIN
    private void cowSnapshot(Args a, List<LayoutStep> steps) {
        rejectAll(a, "lvcreate -s -L of a classic snapshot", "extents", "virtualsize", "stripes", "stripesize",
                "poolmetadatasize", "thinpool", "discards", "errorwhenfull", "poolmetadataspare", "zero", "thin", "mirrors", "regionsize", "nosync");
        String[] vgLv = vgAndMaybeLv(a.positional().get(0));
        if (vgLv[1] == null) {
            throw error(a.positional().get(0).column(), "lvcreate -s -L", a.positional().get(0).text(), "VG/ORIGIN");
        }
        String name = a.has("name") ? name(a.get("name"), "-n") : "";
        dev.dmmodel.units.Sectors chunk = dev.dmmodel.lvm.CowSnapshotRequest.DEFAULT_CHUNK;
        if (a.has("chunksize")) {
            Bytes c = bytes(a, "chunksize", 'k');
            if (c.count() % 512 != 0) {
                throw error(a.get("chunksize").column(), optName(a, "chunksize"), a.get("chunksize").text(),
                        "a power of 2 from 4K to 512K");
            }
            chunk = dev.dmmodel.units.Sectors.of(c.count() / 512);
        }
        PvArgs pv = pvArgs(a.positional().subList(1, a.positional().size()));
        try {
            steps.add(new LayoutStep.CowSnapshotCreate(vgLv[0], new dev.dmmodel.lvm.CowSnapshotRequest(vgLv[1], name,
                    bytes(a, "size", 'm'), chunk, pv.pvs(), pv.ranges())));
        } catch (IllegalArgumentException e) {
            Token at = a.has("chunksize") ? a.get("chunksize") : a.get("size");
            throw error(at.column(), optName(a, a.has("chunksize") ? "chunksize" : "size"), at.text(), e.getMessage());
        }
    }

    private void lvextend(Token cmd, List<Token> tokens, List<LayoutStep> steps) {
        Args a = options(tokens, LVEXTEND);
        autobackup(a);
        if (a.positional().isEmpty()) {
            throw error(cmd.column(), "lvextend", lineText.strip(), "a VG/LV argument");
        }
        String[] vgLv = vgAndMaybeLv(a.positional().get(0));
        if (vgLv[1] == null) {
            throw error(a.positional().get(0).column(), "lvextend", a.positional().get(0).text(), "VG/LV");
        }
        if (a.has("extents") == a.has("size")) {
            throw error(cmd.column(), "lvextend", lineText.strip(), "exactly one of -l +N and -L +SIZE");
        }
        Token t = a.has("extents") ? a.get("extents") : a.get("size");
        String field = optName(a, a.has("extents") ? "extents" : "size");
        boolean plus = t.text().startsWith("+");
        boolean syntaxOnly = planCommand && sizes == null;
        if (!plus && sizes == null && !planCommand) {
            throw error(t.column(), field, t.text(), a.has("extents") ? "+N (extents to add)" : "+SIZE (size to add)");
        }
        Token value = new Token(plus ? t.text().substring(1) : t.text(), t.column());
        percentVg = vgLv[0];
        percentPvs = new ArrayList<>();
        for (Token p : a.positional().subList(1, a.positional().size())) {
            percentPvs.add(p.text());
        }
        percentOrigin = null;
        long given;
        if (a.has("extents")) {
            given = planCommand && PERCENT.matcher(value.text()).matches() ? percent(value, field)
                    : number(value, field, MAX_EXTENTS, (plus ? "+N" : "N") + " with N from 1 to " + MAX_EXTENTS
                            + ", or N%VG, N%FREE, N%PVS");
        } else {
            Long extent = extentSizes.get(vgLv[0]);
            if (extent == null && sizes != null) {
                extent = sizes.extentSize(vgLv[0]);
            }
            if (extent == null && syntaxOnly) {
                extent = 1L; // the VG's extent size comes when the plan runs
            }
            if (extent == null) {
                throw error(t.column(), field, t.text(),
                        "-l +N, or a vgcreate of " + vgLv[0] + " earlier in the script (for its extent size)");
            }
            long sectors = sectorsOf(value, field, 'm');
            // lib/metadata/metadata.c: extents_from_size (rounded up to whole extents)
            given = sectors / extent + (sectors % extent == 0 ? 0 : 1);
        }
        long extents = given;
        if (!plus && !syntaxOnly) {
            // tools/lvresize.c: _lvresize_adjust_extents (a size without + is the new size)
            long current = sizes.lvExtents(vgLv[0], vgLv[1]);
            if (given <= current) {
                throw new dev.dmmodel.layout.LayoutException(vgLv[0] + "/" + vgLv[1], field, t.text(),
                        "New size given (" + given + " extents) not larger than existing size (" + current
                                + " extents)");
            }
            extents = given - current;
        }
        if (extents == 0) {
            throw error(cmd.column(), "lvextend", lineText.strip(), "a positive number of extents to add");
        }
        int stripes = a.has("stripes") ? (int) number(a.get("stripes"), optName(a, "stripes"), 128, "1 to 128") : 0;
        if (a.has("stripes") && stripes == 0) {
            throw error(a.get("stripes").column(), optName(a, "stripes"), "0", "1 to 128");
        }
        Bytes stripeSize = a.has("stripesize") ? bytes(a, "stripesize", 'k') : null;
        AllocationPolicy policy = a.has("alloc") ? policy(a) : AllocationPolicy.INHERIT;
        PvArgs pv = pvArgs(a.positional().subList(1, a.positional().size()));
        steps.add(new LayoutStep.LvExtend(vgLv[0], new LvExtendRequest(vgLv[1], extents, stripes, stripeSize, policy,
                pv.pvs(), pv.ranges())));
    }

    private void lvconvert(Token cmd, List<Token> tokens, List<LayoutStep> steps) {
        Args a = options(tokens, LVCONVERT, POOL);
        autobackup(a);
        String type = a.has("type") ? a.get("type").text() : null;
        if (type != null && !type.equals("thin-pool")) {
            throw error(a.get("type").column(), "--type", type, "thin-pool (the only conversion modelled)");
        }
        if (type == null && !a.has("thinpool")) {
            throw error(cmd.column(), "lvconvert", lineText.strip(), "--type thin-pool or --thinpool VG/LV");
        }
        Token dataArg;
        List<Token> pvTokens;
        if (a.has("thinpool")) {
            dataArg = a.get("thinpool");
            pvTokens = a.positional();
        } else {
            if (a.positional().isEmpty()) {
                throw error(cmd.column(), "lvconvert", lineText.strip(), "a VG/LV argument");
            }
            dataArg = a.positional().get(0);
            pvTokens = a.positional().subList(1, a.positional().size());
        }
        String[] data = vgAndMaybeLv(dataArg);
        if (data[1] == null) {
            throw error(dataArg.column(), "lvconvert", dataArg.text(), "VG/LV");
        }
        if (!a.has("poolmetadata")) {
            throw error(cmd.column(), "lvconvert", lineText.strip(), "--poolmetadata [VG/]LV");
        }
        String[] meta = vgAndMaybeLv(a.get("poolmetadata"));
        String metaLv = meta[1] == null ? meta[0] : meta[1];
        if (meta[1] != null && !meta[0].equals(data[0])) {
            throw error(a.get("poolmetadata").column(), "--poolmetadata", a.get("poolmetadata").text(),
                    "an LV in VG " + data[0]);
        }
        Bytes chunk = a.has("chunksize") ? bytes(a, "chunksize", 'k') : null;
        Boolean zero = a.has("zero") ? yesNo(a, "zero") : null;
        ThinDiscards discards = a.has("discards") ? discards(a) : null;
        boolean ewf = a.has("errorwhenfull") && yesNo(a, "errorwhenfull");
        boolean spare = !a.has("poolmetadataspare") || yesNo(a, "poolmetadataspare");
        PvArgs pv = pvArgs(pvTokens);
        steps.add(new LayoutStep.ThinPoolConvert(data[0], new ThinPoolConvertRequest(data[1], metaLv, chunk, zero,
                discards, ewf, ThinPoolRequest.ChunkPolicy.GENERIC, spare, pv.pvs(), pv.ranges())));
    }

    // ---- values

    private void rejectAll(Args a, String what, String... keys) {
        for (String k : keys) {
            if (a.has(k)) {
                throw error(a.get(k).column(), optName(a, k), a.get(k).text(), "no " + optName(a, k) + " for " + what);
            }
        }
    }

    private void autobackup(Args a) {
        if (a.has("autobackup")) {
            yesNo(a, "autobackup");
        }
    }

    private interface BytesSink {
        void accept(Bytes b);
    }

    private interface LongSink {
        void accept(long v);
    }

    private void sizeOrExtents(Args a, BytesSink size, LongSink extents) {
        if (a.has("size") == a.has("extents")) {
            throw error(1, "lvcreate", lineText.strip(), "exactly one of -L SIZE and -l EXTENTS");
        }
        if (a.has("size")) {
            Bytes b = bytes(a, "size", 'm');
            if (b.count() == 0) {
                throw error(a.get("size").column(), optName(a, "size"), a.get("size").text(), "a positive size");
            }
            size.accept(b);
        } else if (planCommand && PERCENT.matcher(a.get("extents").text()).matches()) {
            extents.accept(percent(a.get("extents"), optName(a, "extents")));
        } else {
            long n = number(a.get("extents"), optName(a, "extents"), MAX_EXTENTS, "1 to " + MAX_EXTENTS
                    + " extents" + (planCommand ? " or N%VG, N%FREE, N%PVS, N%ORIGIN" : " (no % forms: a script read on its "
                    + "own has no host; a plan's dry run reads them)"));
            if (n == 0) {
                throw error(a.get("extents").column(), optName(a, "extents"), "0", "a positive extent count");
            }
            extents.accept(n);
        }
    }

    // tools/lvcreate.c: _update_extents_params, with lib/misc/lvm-percent.c: percent_of_extents
    private long percent(Token t, String field) {
        java.util.regex.Matcher m = PERCENT.matcher(t.text());
        if (!m.matches()) {
            throw error(t.column(), field, t.text(), "N%VG, N%FREE, N%PVS or N%ORIGIN");
        }
        long pct = number(new Token(m.group(1), t.column()), field, 1_000_000, "a percentage from 1");
        String base = m.group(2).toUpperCase(java.util.Locale.ROOT);
        if (pct == 0 || (pct > 100 && !base.equals("ORIGIN"))) {
            throw error(t.column(), field, t.text(), "a percentage from 1 to 100 of VG, FREE or PVS");
        }
        if (base.equals("ORIGIN") && percentOrigin == null) {
            throw error(t.column(), field, t.text(), "%ORIGIN only for a snapshot of VG/ORIGIN");
        }
        percentSize = true;
        if (sizes == null) {
            return 1; // read without a host: the syntax is right, the count comes when the plan runs
        }
        return sizes.percentExtents(percentVg, pct, base, percentPvs, percentOrigin);
    }

    private long number(Token t, String field, long max, String expected) {
        if (!NUMBER.matcher(t.text()).matches()) {
            throw error(t.column(), field, t.text(), expected);
        }
        BigInteger v = new BigInteger(t.text());
        if (v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw error(t.column(), field, t.text(), expected);
        }
        return v.longValue();
    }

    private Bytes bytes(Args a, String key, char defaultUnit) {
        return bytesOf(a.get(key), optName(a, key), defaultUnit);
    }

    // one rule for LVM's sizes: impl.lvm.LvmSizeArg (tools/lvmcmdline.c: _size_arg)
    private Bytes bytesOf(Token t, String field, char defaultUnit) {
        LvmSizeArg.Sized s = LvmSizeArg.read(t.text(), defaultUnit);
        return s.size().orElseThrow(() -> error(t.column(), field, t.text(), s.expected()));
    }

    private Sectors sectors(Args a, String key, char defaultUnit) {
        return Sectors.of(sectorsOf(a.get(key), optName(a, key), defaultUnit));
    }

    private long sectorsOf(Token t, String field, char defaultUnit) {
        Bytes b = bytesOf(t, field, defaultUnit);
        if (b.count() % Sectors.SECTOR_SIZE != 0) {
            throw error(t.column(), field, t.text(), "a whole number of 512-byte sectors");
        }
        return b.count() / Sectors.SECTOR_SIZE;
    }

    private boolean yesNo(Args a, String key) {
        Token t = a.get(key);
        return switch (t.text().toLowerCase(Locale.ROOT)) {
            case "y", "yes" -> true;
            case "n", "no" -> false;
            default -> throw error(t.column(), optName(a, key), t.text(), "y or n");
        };
    }

    private AllocationPolicy policy(Args a) {
        Token t = a.get("alloc");
        for (AllocationPolicy p : AllocationPolicy.values()) {
            if (p.name().toLowerCase(Locale.ROOT).equals(t.text())) {
                return p;
            }
        }
        throw error(t.column(), "--alloc", t.text(), "contiguous, cling, normal, anywhere or inherit");
    }

    private ThinDiscards discards(Args a) {
        Token t = a.get("discards");
        for (ThinDiscards d : ThinDiscards.values()) {
            if (d.word().equals(t.text())) {
                return d;
            }
        }
        throw error(t.column(), "--discards", t.text(), "ignore, nopassdown or passdown");
    }

    // lib/misc/lvm-string.c: validate_name, one rule for every reader (LvmNames)
    private String name(Token t, String field) {
        java.util.Optional<String> invalid = LvmNames.invalidReason(t.text());
        if (invalid.isPresent()) {
            throw error(t.column(), field, t.text(), "a name of 1 to 127 characters from a-z A-Z 0-9 + _ . -, not"
                    + " starting with - and not . or .. (" + invalid.get() + ")");
        }
        return t.text();
    }

    // VG, VG/LV or /dev/VG/LV
    private String[] vgAndMaybeLv(Token t) {
        String s = t.text();
        if (s.startsWith("/dev/")) {
            s = s.substring(5);
        }
        int slash = s.indexOf('/');
        if (slash < 0) {
            return new String[] {name(new Token(s, t.column()), "VG"), null};
        }
        return new String[] {name(new Token(s.substring(0, slash), t.column()), "VG"),
            name(new Token(s.substring(slash + 1), t.column()), "LV")};
    }

    private String device(Token t) {
        String s = t.text();
        if (s.isEmpty() || s.indexOf(':') >= 0 || s.indexOf('\0') >= 0) {
            throw error(t.column(), "device", s, "a device path such as /dev/sdb");
        }
        return s;
    }

    /** PV arguments: whole PVs and extent ranges. */
    private record PvArgs(List<String> pvs, List<ExtentRange> ranges) {
    }

    // lib/metadata/pv_list.c: _parse_pes — DEV[:PE[-PE|+COUNT]]...
    private PvArgs pvArgs(List<Token> tokens) {
        List<String> pvs = new ArrayList<>();
        List<ExtentRange> ranges = new ArrayList<>();
        for (Token t : tokens) {
            String[] parts = t.text().split(":", -1);
            String dev = device(new Token(parts[0], t.column()));
            if (parts.length == 1) {
                pvs.add(dev);
                continue;
            }
            for (int i = 1; i < parts.length; i++) {
                Matcher m = RANGE.matcher(parts[i]);
                String expected = "PE, PE-PE or PE+COUNT extent ranges after " + dev + ":";
                if (!m.matches()) {
                    throw error(t.column(), "PE range", t.text(), expected);
                }
                long start = number(new Token(m.group(1), t.column()), "PE range", MAX_EXTENTS, expected);
                long count = 1;
                if (m.group(2) != null) {
                    long x = number(new Token(m.group(3), t.column()), "PE range", MAX_EXTENTS, expected);
                    if (m.group(2).equals("-")) {
                        if (x < start) {
                            throw error(t.column(), "PE range", t.text(), "an end extent not below the start");
                        }
                        count = x - start + 1;
                    } else {
                        if (x == 0) {
                            throw error(t.column(), "PE range", t.text(), "a positive count after +");
                        }
                        count = x;
                    }
                }
                ranges.add(new ExtentRange(dev, start, count));
            }
        }
        return new PvArgs(pvs, ranges);
    }

    private LvmCommandException error(int column, String field, String found, String expected) {
        return new LvmCommandException(source, lineNumber, column, field, found, expected);
    }
}
