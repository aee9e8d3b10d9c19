package dev.dmmodel.impl.plan.ansible;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanReader;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.yaml.PlanYaml;
import dev.dmmodel.impl.plan.yaml.Synthesized;
import dev.dmmodel.impl.plan.yaml.YamlFields;
import dev.dmmodel.impl.plan.yaml.YamlNode;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads an Ansible play (a list of plays with {@code tasks:}) or task file (a list of tasks) into the commands
 * community.general's {@code parted}, {@code lvg}, {@code lvol} and {@code filesystem} modules (and
 * {@code ansible.posix.mount}) run, each read by the shell reader with the task's origin. Which commands a module
 * runs depends on the host (an existing label, VG or LV), so they are chosen when the task runs; their words are
 * checked when the plan is read. Other modules are skipped; templated values, loops and conditions are refused.
 */
public final class AnsiblePlanReader implements PlanReader {

    // the task keywords that are not a module (playbook_keywords: Task); the refused ones first
    private static final Set<String> REFUSED = Set.of("when", "loop", "loop_control", "until", "retries", "delay",
            "args", "delegate_to", "local_action", "with_items", "with_list", "with_dict", "with_fileglob",
            "with_sequence", "with_together", "with_nested", "with_subelements", "with_first_found",
            "with_indexed_items", "with_random_choice", "rescue", "always");
    private static final Set<String> IGNORED = Set.of("name", "become", "become_user", "become_method", "tags",
            "register", "notify", "ignore_errors", "changed_when", "failed_when", "no_log", "check_mode", "diff",
            "environment", "vars", "any_errors_fatal", "throttle", "timeout", "debugger", "collections",
            "module_defaults", "run_once", "connection", "remote_user", "listen", "become_flags", "ignore_unreachable");
    private static final Set<String> PLAY_KEYS = Set.of("hosts", "tasks", "pre_tasks", "post_tasks", "handlers",
            "roles", "import_playbook");
    private static final Set<String> BOOLS_TRUE = Set.of("yes", "on", "true", "1", "y", "t");
    private static final Set<String> BOOLS_FALSE = Set.of("no", "off", "false", "0", "n", "f");
    private static final Set<String> PARTED_UNITS = Set.of("B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB",
            "s", "%", "cyl", "chs", "compact");

    @Override
    public List<PlanOp> read(String text, String source) {
        YamlNode root = PlanYaml.parse(text, source);
        if (root == null) {
            throw new PlanException(source, 1, 1, "an empty plan: expected a list of plays or tasks");
        }
        if (!(root instanceof YamlNode.Sequence seq)) {
            throw new PlanException(source, root.line(), root.column(), "a plan that is " + root.describe()
                    + ": expected a list of plays (- hosts: ... tasks: ...) or of tasks");
        }
        List<PlanOp> ops = new ArrayList<>();
        for (YamlNode item : seq.items()) {
            YamlNode.Mapping m = mapping(source, item, "a play or task");
            if (m.entries().stream().anyMatch(e -> PLAY_KEYS.contains(e.name()))) {
                play(source, m, ops);
            } else {
                task(source, m, ops);
            }
        }
        return List.copyOf(ops);
    }

    private static YamlNode.Mapping mapping(String source, YamlNode n, String what) {
        if (!(n instanceof YamlNode.Mapping m)) {
            throw new PlanException(source, n.line(), n.column(), what + " that is " + n.describe()
                    + ": expected a mapping");
        }
        return m;
    }

    private static void play(String source, YamlNode.Mapping play, List<PlanOp> ops) {
        YamlFields f = new YamlFields(source, play, "play");
        for (String refused : List.of("roles", "import_playbook")) {
            f.node(refused).ifPresent(n -> {
                throw f.error(n, refused + ": is not read by a dry run: expected the tasks in the play");
            });
        }
        // Ansible runs pre_tasks, tasks, then post_tasks; handlers only when notified (not modelled: skipped)
        for (String key : List.of("pre_tasks", "tasks", "post_tasks")) {
            Optional<YamlNode> n = f.node(key);
            if (n.isEmpty() || (n.get() instanceof YamlNode.Scalar s && s.value() == null)) {
                continue;
            }
            if (!(n.get() instanceof YamlNode.Sequence tasks)) {
                throw f.expected(key, n.get(), "a list of tasks");
            }
            for (YamlNode t : tasks.items()) {
                task(source, mapping(source, t, "a task"), ops);
            }
        }
    }

    private static void task(String source, YamlNode.Mapping m, List<PlanOp> ops) {
        YamlFields pre = new YamlFields(source, m, "task");
        String label = pre.scalar("name").map(YamlNode.Scalar::value).orElse(null);
        String what = label != null ? "task \"" + label + "\"" : "task at line " + m.line();
        YamlFields f = new YamlFields(source, m, what);
        for (YamlNode.Entry e : m.entries()) {
            if (REFUSED.contains(e.name()) || e.name().startsWith("with_")) {
                throw f.error(e.key(), e.name() + ": a dry run does not evaluate loops, conditions or delegation: "
                        + "expected a task with literal arguments");
            }
        }
        if (f.has("block")) {
            YamlNode b = f.node("block").orElseThrow();
            if (!(b instanceof YamlNode.Sequence tasks)) {
                throw f.expected("block", b, "a list of tasks");
            }
            for (YamlNode t : tasks.items()) {
                task(source, mapping(source, t, "a task"), ops);
            }
            return;
        }
        List<YamlNode.Entry> modules = new ArrayList<>();
        for (YamlNode.Entry e : m.entries()) {
            if (!IGNORED.contains(e.name())) {
                modules.add(e);
            }
        }
        if (modules.isEmpty()) {
            throw f.error("no module: expected a module such as community.general.lvg: with its arguments");
        }
        if (modules.size() > 1) {
            throw f.error(modules.get(1).key(), "a second module \"" + modules.get(1).name() + "\" after \""
                    + modules.get(0).name() + "\": expected one module per task");
        }
        YamlNode.Entry module = modules.get(0);
        String name = module.name();
        Origin origin = new Origin(source, m.line(), m.column(), label != null ? label : name);
        String shortName = shortName(name);
        if (shortName == null) {
            ops.add(PlanOp.of(origin, name, state -> List.of("module " + name + ": skipped (no effect on the block "
                    + "stack as modelled)")));
            return;
        }
        YamlFields args = new YamlFields(source, arguments(f, module), what + " (" + name + ")");
        noTemplates(args, args.map());
        ops.add(switch (shortName) {
            case "parted" -> parted(origin, args);
            case "lvg" -> lvg(origin, args);
            case "lvol" -> lvol(origin, args);
            case "filesystem" -> filesystem(origin, args);
            default -> mount(origin, args);
        });
    }

    /** The module's short name, or null for a module that is skipped. */
    private static String shortName(String module) {
        return switch (module) {
            case "community.general.parted", "parted", "community.general.system.parted" -> "parted";
            case "community.general.lvg", "lvg", "community.general.system.lvg" -> "lvg";
            case "community.general.lvol", "lvol", "community.general.system.lvol" -> "lvol";
            case "community.general.filesystem", "filesystem", "community.general.system.filesystem" -> "filesystem";
            case "ansible.posix.mount", "ansible.builtin.mount", "mount" -> "mount";
            default -> null;
        };
    }

    /** The module's arguments: a mapping, or the free form {@code key=value key=value}. */
    private static YamlNode.Mapping arguments(YamlFields task, YamlNode.Entry module) {
        YamlNode v = module.value();
        if (v instanceof YamlNode.Mapping m) {
            return m;
        }
        if (v instanceof YamlNode.Scalar s) {
            List<YamlNode.Entry> entries = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            if (s.value() != null) {
                for (String part : s.value().strip().split("\\s+")) {
                    if (part.isEmpty()) {
                        continue;
                    }
                    int eq = part.indexOf('=');
                    if (eq <= 0 || part.contains("\"") || part.contains("'")) {
                        throw task.error(s, module.name() + " argument \"" + part + "\": expected key=value "
                                + "arguments without quotes (or a mapping)");
                    }
                    String key = part.substring(0, eq);
                    if (!seen.add(key)) {
                        throw task.error(s, module.name() + " argument \"" + key + "\" given twice: expected each "
                                + "argument once");
                    }
                    entries.add(new YamlNode.Entry(new YamlNode.Scalar(s.line(), s.column(), key, true),
                            new YamlNode.Scalar(s.line(), s.column(), part.substring(eq + 1), true)));
                }
            }
            return new YamlNode.Mapping(v.line(), v.column(), entries);
        }
        throw task.expected(module.name(), v, "the module's arguments as a mapping");
    }

    private static void noTemplates(YamlFields f, YamlNode n) {
        if (n instanceof YamlNode.Scalar s && s.value() != null
                && (s.value().contains("{{") || s.value().contains("{%"))) {
            throw f.error(s, "a templated value " + s.describe() + ": a dry run does not evaluate templates: expected "
                    + "a literal value");
        }
        if (n instanceof YamlNode.Mapping m) {
            for (YamlNode.Entry e : m.entries()) {
                noTemplates(f, e.key());
                noTemplates(f, e.value());
            }
        }
        if (n instanceof YamlNode.Sequence q) {
            q.items().forEach(i -> noTemplates(f, i));
        }
    }

    private static Optional<Boolean> bool(YamlFields f, String key) {
        Optional<YamlNode.Scalar> s = f.scalar(key);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        String v = s.get().value().toLowerCase(Locale.ROOT);
        if (BOOLS_TRUE.contains(v)) {
            return Optional.of(true);
        }
        if (BOOLS_FALSE.contains(v)) {
            return Optional.of(false);
        }
        throw f.expected(key, s.get(), "a boolean (true/false, yes/no)");
    }

    private static void refuseTrue(YamlFields f, String... keys) {
        for (String k : keys) {
            if (bool(f, k).orElse(false)) {
                throw f.error(f.node(k).orElseThrow(), k + ": true is not modelled yet: expected false or nothing");
            }
        }
    }

    /** shlex.split of an options string, without quotes (a dry run reads literal words). */
    private static List<String> words(YamlFields f, String key) {
        Optional<YamlNode.Scalar> s = f.scalar(key);
        if (s.isEmpty()) {
            return List.of();
        }
        String v = s.get().value();
        if (v.contains("\"") || v.contains("'") || v.contains("\\")) {
            throw f.expected(key, s.get(), "options without quotes or backslashes");
        }
        List<String> out = new ArrayList<>();
        for (String w : v.strip().split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    private static List<String> strings(YamlFields f, String key) {
        List<String> out = new ArrayList<>();
        f.list(key, true).orElse(List.of()).forEach(s -> out.add(s.value()));
        return out;
    }

    // ---- parted

    static AnsibleModules.Parted partedTask(YamlFields f) {
        f.allowOnly(Set.of("device", "number", "state", "label", "part_type", "part_start", "part_end", "fs_type",
                "name", "flags", "align", "unit", "resize", "unit_preserve_case"));
        String device = f.required("device", "the disk, such as /dev/sdb");
        Optional<Integer> number = f.integer("number", 1, 256).map(Long::intValue);
        String state = f.oneOf("state", Set.of("present", "absent", "info")).orElse("info");
        if (!state.equals("info") && number.isEmpty()) {
            throw f.error("no number (state is " + state + ", so the module requires it): expected number: N");
        }
        refuseTrue(f, "resize");
        String label = f.oneOf("label", Set.of("aix", "amiga", "bsd", "dvh", "gpt", "loop", "mac", "msdos", "pc98",
                "sun")).orElse("msdos");
        String partType = f.oneOf("part_type", Set.of("extended", "logical", "primary")).orElse("primary");
        String start = f.string("part_start").orElse("0%");
        String end = f.string("part_end").orElse("100%");
        for (String k : List.of("part_start", "part_end")) {
            f.scalar(k).ifPresent(s -> checkPartedSize(f, k, s));
        }
        String align = f.oneOf("align", Set.of("cylinder", "minimal", "none", "optimal", "undefined"))
                .orElse("optimal");
        String unit = f.oneOf("unit", PARTED_UNITS).orElse("KiB");
        List<String> flags = strings(f, "flags");
        return new AnsibleModules.Parted(device, number, state, label, partType, start, end, f.string("fs_type"),
                f.string("name"), flags, align, unit);
    }

    // community.general plugins/modules/parted.py: check_size_format and parse_unit
    private static void checkPartedSize(YamlFields f, String key, YamlNode.Scalar s) {
        String v = s.value();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(-?[0-9.]+) *([\\w%]+)?$").matcher(v);
        boolean ok;
        if (m.matches()) {
            ok = m.group(2) != null && PARTED_UNITS.contains(m.group(2)) && m.group(1).matches("-?([0-9]+\\.?[0-9]*|"
                    + "\\.[0-9]+)");
        } else {
            ok = v.matches("[0-9]+,[0-9]+,[0-9]+");
        }
        if (!ok) {
            throw f.error(s, key + " " + s.describe() + " (parted module: the argument doesn't respect required "
                    + "format; the size unit is case sensitive): expected a number with a unit such as 1MiB, 10GB, "
                    + "2048s or 100%");
        }
    }

    private static PlanOp parted(Origin origin, YamlFields f) {
        AnsibleModules.Parted t = partedTask(f);
        if (t.state().equals("info")) {
            return PlanOp.of(origin, "parted", state -> List.of("state info: no change"));
        }
        if (t.state().equals("absent")) {
            Synthesized.read(origin, AnsibleModules.partedAbsent(t));
        } else {
            for (List<String> run : AnsibleModules.partedPresent(t, "unknown", false)) {
                Synthesized.read(origin, run);
            }
        }
        return PlanOp.of(origin, "parted", state -> {
            BlockDevice d = state.device(t.device(), "parted");
            boolean exists = state.partitions(d.name()).stream().anyMatch(p -> p.number() == t.number().get());
            if (t.state().equals("absent")) {
                return exists ? Synthesized.run(origin, AnsibleModules.partedAbsent(t), state)
                        : List.of("partition " + t.number().get() + " does not exist: no change");
            }
            List<String> out = new ArrayList<>();
            for (List<String> run : AnsibleModules.partedPresent(t, currentLabel(state, d.name(), t.label()), exists)) {
                out.addAll(Synthesized.run(origin, run, state));
            }
            return out;
        });
    }

    /**
     * The label parted would print: the plan's or host's label step, {@code unknown} for a blank disk; partitions
     * imported from a snapshot (whose label sysfs does not show) are taken to be on the task's label.
     */
    static String currentLabel(PlanState state, String disk, String taskLabel) {
        Optional<PartitionTableType> l = state.label(disk);
        if (l.isPresent()) {
            return l.get() == PartitionTableType.GPT ? "gpt" : "msdos";
        }
        return state.partitions(disk).isEmpty() ? "unknown" : taskLabel;
    }

    // ---- lvg

    static AnsibleModules.Lvg lvgTask(YamlFields f) {
        f.allowOnly(Set.of("vg", "pvs", "pesize", "pv_options", "vg_options", "state", "force", "pvresize",
                "reset_vg_uuid", "reset_pv_uuid", "remove_extra_pvs"));
        String vg = f.required("vg", "the volume group's name");
        String state = f.oneOf("state", Set.of("present", "absent", "active", "inactive")).orElse("present");
        if (!state.equals("present")) {
            throw f.error(f.node("state").orElseThrow(), "state \"" + state + "\" is not modelled yet: expected "
                    + "present");
        }
        refuseTrue(f, "pvresize", "reset_vg_uuid", "reset_pv_uuid");
        bool(f, "force");
        bool(f, "remove_extra_pvs");
        return new AnsibleModules.Lvg(vg, strings(f, "pvs"), f.string("pesize").orElse("4"), words(f, "pv_options"),
                words(f, "vg_options"));
    }

    private static PlanOp lvg(Origin origin, YamlFields f) {
        AnsibleModules.Lvg t = lvgTask(f);
        for (String pv : t.pvs()) {
            Synthesized.read(origin, AnsibleModules.pvcreate(t, pv));
        }
        if (!t.pvs().isEmpty()) {
            Synthesized.read(origin, AnsibleModules.vgcreate(t));
            Synthesized.read(origin, AnsibleModules.vgextend(t.vg(), t.pvs()));
        }
        // community.general plugins/modules/lvg.py: main
        return PlanOp.of(origin, "lvg", state -> {
            Optional<VolumeGroup> vg = state.layout().volumeGroup(t.vg());
            if (vg.isEmpty() && t.pvs().isEmpty()) {
                throw new PlanOpFailure("No physical volumes given.");
            }
            List<String> inVg = new ArrayList<>();
            for (String pv : t.pvs()) {
                BlockDevice d = state.layout().find(pv).orElseThrow(() -> new PlanOpFailure("Device " + pv
                        + " not found."));
                Optional<PhysicalVolume> p = state.layout().physicalVolumes().stream()
                        .filter(x -> x.device().equals(d.name())).findFirst();
                if (p.isPresent() && p.get().vgName() != null && !p.get().vgName().isEmpty()
                        && !p.get().vgName().equals(t.vg())) {
                    throw new PlanOpFailure("Device " + pv + " is already in " + p.get().vgName() + " volume group.");
                }
                if (p.isPresent() && t.vg().equals(p.get().vgName())) {
                    inVg.add(pv);
                }
            }
            List<String> out = new ArrayList<>();
            List<String> add = t.pvs().stream().filter(x -> !inVg.contains(x)).toList();
            if (vg.isPresent() && add.isEmpty()) {
                return List.of("VG " + t.vg() + " exists with these PVs: no change");
            }
            for (String pv : add) {
                out.addAll(Synthesized.run(origin, AnsibleModules.pvcreate(t, pv), state));
            }
            out.addAll(Synthesized.run(origin, vg.isPresent() ? AnsibleModules.vgextend(t.vg(), add)
                    : AnsibleModules.vgcreate(t), state));
            return out;
        });
    }

    // ---- lvol

    static AnsibleModules.Lvol lvolTask(YamlFields f) {
        f.allowOnly(Set.of("vg", "lv", "size", "opts", "state", "force", "shrink", "active", "snapshot", "pvs",
                "resizefs", "thinpool"));
        String vg = f.required("vg", "the volume group's name");
        Optional<String> lv = f.string("lv");
        Optional<String> thinpool = f.string("thinpool");
        if (lv.isEmpty() && thinpool.isEmpty()) {
            throw f.error("neither lv nor thinpool (the module requires one of them): expected lv: NAME");
        }
        String state = f.oneOf("state", Set.of("present", "absent")).orElse("present");
        if (state.equals("absent")) {
            throw f.error(f.node("state").orElseThrow(), "state \"absent\" (lvremove) is not modelled yet: "
                    + "expected present");
        }
        if (!bool(f, "active").orElse(true)) {
            throw f.error(f.node("active").orElseThrow(), "active: false (lvchange -an) is not modelled yet: "
                    + "expected true");
        }
        bool(f, "force");
        bool(f, "shrink");
        refuseTrue(f, "resizefs");
        Optional<String> snapshot = f.string("snapshot");
        if (snapshot.isPresent() && lv.isEmpty()) {
            throw f.error(f.node("snapshot").orElseThrow(), "snapshot without lv (lvol: the snapshot's origin LV): "
                    + "expected lv: the origin");
        }
        Optional<YamlNode.Scalar> sizeNode = f.scalar("size");
        boolean percent = false;
        if (sizeNode.isPresent()) {
            // community.general plugins/modules/lvol.py: main — the size checks
            YamlNode.Scalar s = sizeNode.get();
            String size = s.value();
            String op = size.startsWith("+") ? "+" : size.startsWith("-") ? "-" : "";
            String body = size.substring(op.length());
            if (body.contains("%")) {
                String[] parts = body.split("%", 2);
                if (!parts[0].matches("[0-9]{1,9}")) {
                    throw f.expected("size", s, "N%VG, N%FREE, N%PVS or N%ORIGIN with a whole N");
                }
                if (Integer.parseInt(parts[0]) > 100) {
                    throw f.error(s, "size " + s.describe() + " (lvol: Size percentage cannot be larger than 100%): "
                            + "expected at most 100%");
                }
                if (parts[1].equals("ORIGIN") && snapshot.isEmpty()) {
                    throw f.error(s, "size " + s.describe() + " (lvol: Percentage of ORIGIN supported only for "
                            + "snapshot volumes): expected VG, FREE or PVS");
                }
                if (!Set.of("VG", "PVS", "FREE", "ORIGIN").contains(parts[1])) {
                    throw f.error(s, "size " + s.describe() + " (lvol: Specify extents as a percentage of "
                            + "VG|PVS|FREE|ORIGIN): expected N%VG, N%FREE or N%PVS");
                }
                percent = true;
            } else {
                String num = !body.isEmpty() && "bskmgtpe".indexOf(Character.toLowerCase(body.charAt(body.length()
                        - 1))) >= 0 ? body.substring(0, body.length() - 1) : body;
                if (!num.matches("[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?")) {
                    throw f.error(s, "size " + s.describe() + " (lvol: Bad size specification): expected a number "
                            + "with an optional unit b, s, k, m, g, t, p or e (default m), or N%VG/%FREE/%PVS");
                }
            }
            if (op.equals("-")) {
                throw f.error(s, "size " + s.describe() + " (lvol: Bad size specification for creating LV): "
                        + "expected a size without - (shrinking an LV is not modelled)");
            }
            if (thinpool.isPresent() && lv.isPresent() && percent) {
                throw f.error(s, "size " + s.describe() + " (lvol: Thin volume sizing with percentage not "
                        + "supported): expected a size such as 10g");
            }
        }
        return new AnsibleModules.Lvol(vg, lv, sizeNode.map(YamlNode.Scalar::value), percent, words(f, "opts"),
                strings(f, "pvs"), thinpool, snapshot);
    }

    private static PlanOp lvol(Origin origin, YamlFields f) {
        AnsibleModules.Lvol t = lvolTask(f);
        if (t.size().isPresent()) {
            Synthesized.read(origin, AnsibleModules.lvcreate(t));
        }
        // community.general plugins/modules/lvol.py: main — the VG must exist; a new LV needs a size
        return PlanOp.of(origin, "lvol", state -> {
            if (state.layout().volumeGroup(t.vg()).isEmpty()) {
                throw new PlanOpFailure("Volume group " + t.vg() + " does not exist.");
            }
            String check = t.snapshot().orElse(t.lv().orElse(t.thinpool().orElse("")));
            boolean exists = state.layout().logicalVolume(t.vg(), check).isPresent();
            if (exists) {
                if (t.size().isEmpty()) {
                    return List.of("LV " + t.vg() + "/" + check + " exists: no change");
                }
                throw new PlanOpFailure("lvol: LV " + t.vg() + "/" + check + " exists; resizing it to " + t.size().get()
                        + " is not modelled yet");
            }
            if (t.size().isEmpty()) {
                throw new PlanOpFailure("No size given.");
            }
            return Synthesized.run(origin, AnsibleModules.lvcreate(t), state);
        });
    }

    // ---- filesystem

    private static PlanOp filesystem(Origin origin, YamlFields f) {
        f.allowOnly(Set.of("fstype", "type", "dev", "device", "opts", "force", "resizefs", "state", "uuid"));
        String state = f.oneOf("state", Set.of("present", "absent")).orElse("present");
        String dev = f.scalar("dev").or(() -> f.scalar("device")).map(YamlNode.Scalar::value).orElseThrow(() ->
                f.error("no dev: expected dev: the device, such as /dev/vg/lv"));
        boolean force = bool(f, "force").orElse(false);
        refuseTrue(f, "resizefs");
        if (f.has("uuid")) {
            throw f.error(f.node("uuid").orElseThrow(), "uuid: (tune2fs/xfs_admin after mkfs) is not modelled yet: "
                    + "expected no uuid");
        }
        if (state.equals("absent")) {
            // community.general plugins/modules/filesystem.py: Filesystem.wipefs — wipefs --all DEV
            List<String> w = List.of("wipefs", "--all", dev);
            Synthesized.read(origin, w);
            return PlanOp.of(origin, "filesystem", s -> Synthesized.run(origin, w, s));
        }
        String fstype = f.scalar("fstype").or(() -> f.scalar("type")).map(YamlNode.Scalar::value).orElseThrow(() ->
                f.error("no fstype (state present requires it): expected fstype: ext4, xfs, ..."));
        List<String> opts = words(f, "opts");
        List<String> w = AnsibleModules.mkfs(fstype, opts, dev).orElseThrow(() -> f.expected(
                f.has("fstype") ? "fstype" : "type", f.node(f.has("fstype") ? "fstype" : "type").orElseThrow(),
                "one of bcachefs, btrfs, ext2, ext3, ext4, ext4dev, f2fs, lvm, ocfs2, reiserfs, swap, vfat, xfs"));
        boolean modelled = Set.of("ext4", "ext4dev", "xfs", "lvm", "swap").contains(fstype);
        if (modelled) {
            Synthesized.read(origin, w);
        }
        String family = fstype.equals("ext4dev") ? "ext4" : fstype;
        // community.general plugins/modules/filesystem.py: main — the filesystem on the device decides
        return PlanOp.of(origin, "filesystem", s -> {
            BlockDevice d = s.layout().find(dev).orElseThrow(() -> new PlanOpFailure("Device " + dev
                    + " not found."));
            Optional<String> fs = s.filesystem(d.name());
            boolean isPv = s.layout().physicalVolumes().stream().anyMatch(p -> p.device().equals(d.name()));
            Optional<String> existing = isPv ? Optional.of("LVM2_member") : fs;
            if (existing.isPresent() && (existing.get().equals(family)
                    || (family.equals("lvm") && existing.get().equals("LVM2_member"))) && !force) {
                return List.of(dev + " already has " + existing.get() + ": no change");
            }
            if (existing.isPresent() && !force) {
                throw new PlanOpFailure("'" + dev + "' is already used as " + existing.get()
                        + ", use force=true to overwrite");
            }
            if (!modelled) {
                return List.of(String.join(" ", w) + ": " + fstype + " is not run by the model (no effect on the "
                        + "block stack)");
            }
            return Synthesized.run(origin, w, s);
        });
    }

    // ---- mount

    private static PlanOp mount(Origin origin, YamlFields f) {
        f.allowOnly(Set.of("path", "name", "src", "fstype", "opts", "state", "boot", "dump", "passno", "fstab",
                "backup", "opts_no_log"));
        String state = f.oneOf("state", Set.of("mounted", "present", "unmounted", "absent", "remounted",
                "absent_from_fstab", "ephemeral")).orElseThrow(() -> f.error("no state (the mount module requires "
                + "it): expected state: mounted"));
        String path = f.scalar("path").or(() -> f.scalar("name")).map(YamlNode.Scalar::value).orElseThrow(() ->
                f.error("no path: expected path: the mount point"));
        if (state.equals("present")) {
            return PlanOp.of(origin, "mount", s -> List.of(path + ": fstab entry only (state present): not mounted"));
        }
        if (!state.equals("mounted") && !state.equals("ephemeral")) {
            throw f.error(f.node("state").orElseThrow(), "state \"" + state + "\" is not modelled yet: expected "
                    + "mounted or present");
        }
        String src = f.required("src", "the device, such as /dev/vg/lv");
        String fstype = f.required("fstype", "the filesystem type");
        String opts = f.string("opts").orElse("defaults");
        // ansible.posix plugins/modules/mount.py: mounted — the device on the path (by fstab; the same mount)
        List<String> w = List.of("mount", "-t", fstype, "-o", opts, src, path);
        if (!Set.of("ext4", "xfs").contains(fstype)) {
            return PlanOp.of(origin, "mount", s -> List.of(String.join(" ", w) + ": a " + fstype + " filesystem the "
                    + "model does not run (no effect on the block stack)"));
        }
        Synthesized.read(origin, w);
        return PlanOp.of(origin, "mount", s -> Synthesized.run(origin, w, s));
    }

}
