package dev.dmmodel.impl.plan.ansible;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The command lines community.general's storage modules run, built from a task's arguments and what the module
 * finds on the host (a label, a partition, an LV): the words only, for the shell reader to check and run.
 */
final class AnsibleModules {

    /**
     * Whether {@code parted} has {@code --fix} (3.4.64 and later: Ubuntu 24.04's 3.6, RHEL 9's 3.5), so that the
     * module passes {@code -s -f}.
     */
    static final boolean PARTED_HAS_FIX = true;

    private AnsibleModules() {
    }

    /** A parted task's values. */
    record Parted(String device, Optional<Integer> number, String state, String label, String partType,
                  String partStart, String partEnd, Optional<String> fsType, Optional<String> name, List<String> flags,
                  String align, String unit) {
    }

    /**
     * The parted runs of a {@code state: present} task: the label and partition (if needed), then the name and
     * flags.
     *
     * @param currentLabel the label parted prints for the disk ({@code gpt}, {@code msdos}, {@code unknown})
     * @param partExists whether partition {@code number} exists
     */
    // community.general plugins/modules/parted.py: main (state present) and parted()
    static List<List<String>> partedPresent(Parted t, String currentLabel, boolean partExists) {
        List<List<String>> runs = new ArrayList<>();
        List<String> script = new ArrayList<>();
        boolean mklabel = !currentLabel.equals(t.label());
        if (mklabel) {
            script.addAll(List.of("mklabel", t.label()));
        }
        if (mklabel || !partExists) {
            script.add("mkpart");
            script.add(t.partType());
            t.fsType().ifPresent(script::add);
            script.add(t.partStart());
            script.add(t.partEnd());
        }
        if (!script.isEmpty()) {
            runs.add(parted(t, withUnit(t, script)));
        }
        List<String> second = new ArrayList<>();
        int n = t.number().orElseThrow();
        t.name().ifPresent(nm -> second.addAll(List.of("name", Integer.toString(n), "\"" + nm + "\"")));
        // parted infers boot with esp; the flags already on are not known to a dry run: every flag is set on
        LinkedHashSet<String> flags = new LinkedHashSet<>(t.flags());
        if (flags.contains("esp")) {
            flags.add("boot");
        }
        for (String f : flags) {
            second.addAll(List.of("set", Integer.toString(n), f, "on"));
        }
        if (!second.isEmpty()) {
            runs.add(parted(t, withUnit(t, second)));
        }
        return runs;
    }

    /** The parted run of a {@code state: absent} task whose partition exists. */
    static List<String> partedAbsent(Parted t) {
        return parted(t, List.of("rm", Integer.toString(t.number().orElseThrow())));
    }

    private static List<String> withUnit(Parted t, List<String> script) {
        List<String> s = new ArrayList<>(List.of("unit", t.unit()));
        s.addAll(script);
        return s;
    }

    // community.general plugins/modules/parted.py: parted — parted -s [-f] -m [-a ALIGN] DEVICE -- SCRIPT
    private static List<String> parted(Parted t, List<String> script) {
        List<String> w = new ArrayList<>(List.of("parted", "-s"));
        if (PARTED_HAS_FIX) {
            w.add("-f");
        }
        w.add("-m");
        if (!t.align().equals("undefined")) {
            w.addAll(List.of("-a", t.align()));
        }
        w.add(t.device());
        w.add("--");
        w.addAll(script);
        return w;
    }

    /** An lvg task's values. */
    record Lvg(String vg, List<String> pvs, String pesize, List<String> pvOptions, List<String> vgOptions) {
    }

    /** {@code pvcreate PV_OPTIONS -f DEV} for one new PV. */
    // community.general plugins/modules/lvg.py: main — pvcreate("pv_options force device") for each device
    static List<String> pvcreate(Lvg t, String dev) {
        List<String> w = new ArrayList<>(List.of("pvcreate"));
        w.addAll(t.pvOptions());
        w.add("-f");
        w.add(dev);
        return w;
    }

    /** {@code vgcreate VG_OPTIONS -s PESIZE VG PVS}. */
    // community.general plugins/modules/lvg.py: main — vgcreate("vg_options pesize setautoactivation vg pvs")
    static List<String> vgcreate(Lvg t) {
        List<String> w = new ArrayList<>(List.of("vgcreate"));
        w.addAll(t.vgOptions());
        w.addAll(List.of("-s", t.pesize(), t.vg()));
        w.addAll(t.pvs());
        return w;
    }

    /** {@code vgextend VG PVS} for the PVs not yet in an existing VG. */
    // community.general plugins/modules/lvg.py: main — vgextend("vg pvs") with devs_to_add
    static List<String> vgextend(String vg, List<String> add) {
        List<String> w = new ArrayList<>(List.of("vgextend", vg));
        w.addAll(add);
        return w;
    }

    /** An lvol task's values, its size split as the module splits it. */
    record Lvol(String vg, Optional<String> lv, Optional<String> size, boolean percent, List<String> opts,
                List<String> pvs, Optional<String> thinpool, Optional<String> snapshot) {
    }

    /**
     * The size as the module writes it: {@code N%WHOLE} for {@code -l}, else the number and its unit (the last
     * character if it is one of bskmgtpe, else {@code m}) for {@code -L}/{@code -V}.
     */
    // community.general plugins/modules/lvol.py: main — size_opt, size_unit (default "m"), size_operator dropped
    static String sizeValue(String size) {
        String s = size.startsWith("+") || size.startsWith("-") ? size.substring(1) : size;
        if (s.contains("%")) {
            return s;
        }
        char last = s.charAt(s.length() - 1);
        if ("bskmgtpe".indexOf(Character.toLowerCase(last)) >= 0) {
            return s;
        }
        return s + "m";
    }

    /** The lvcreate of a new LV, thin pool, thin LV or snapshot. */
    // community.general plugins/modules/lvol.py: main (this_lv is None) and module_utils/_lvm.py: lvcreate_runner
    static List<String> lvcreate(Lvol t) {
        List<String> w = new ArrayList<>(List.of("lvcreate", "--yes"));
        String opt = t.percent() ? "-l" : "-L";
        Optional<String> size = t.size().map(AnsibleModules::sizeValue);
        if (t.snapshot().isPresent()) {
            size.ifPresent(s -> w.addAll(List.of(opt, s)));
            w.add("-s");
            w.addAll(List.of("-n", t.snapshot().get()));
            w.addAll(t.opts());
            w.add(t.vg() + "/" + t.lv().orElseThrow());
        } else if (t.thinpool().isPresent() && t.lv().isPresent()) {
            w.addAll(List.of("-n", t.lv().get(), "-V", size.orElseThrow()));
            w.addAll(t.opts());
            w.add("-T");
            w.add(t.vg() + "/" + t.thinpool().get());
        } else if (t.thinpool().isPresent()) {
            w.addAll(List.of(opt, size.orElseThrow()));
            w.addAll(t.opts());
            w.add("-T");
            w.add(t.vg() + "/" + t.thinpool().get());
            w.addAll(t.pvs());
        } else {
            w.addAll(List.of("-n", t.lv().orElseThrow(), opt, size.orElseThrow()));
            w.addAll(t.opts());
            w.add(t.vg());
            w.addAll(t.pvs());
        }
        return w;
    }

    /** {@code MKFS FORCE_FLAGS OPTS DEV} of the filesystem module, or empty for a type it does not know. */
    // community.general plugins/modules/filesystem.py: Filesystem.create — [mkfs] + MKFS_FORCE_FLAGS + opts + [dev]
    static Optional<List<String>> mkfs(String fstype, List<String> opts, String dev) {
        List<String> head = switch (fstype) {
            case "ext2", "ext3", "ext4", "ext4dev" -> List.of("mkfs." + (fstype.equals("ext4dev") ? "ext4" : fstype),
                    "-F");
            case "xfs" -> List.of("mkfs.xfs", "-f");
            case "btrfs" -> List.of("mkfs.btrfs", "-f");
            case "reiserfs" -> List.of("mkfs.reiserfs", "-q");
            case "bcachefs" -> List.of("mkfs.bcachefs", "--force");
            case "ocfs2" -> List.of("mkfs.ocfs2", "-Fx");
            case "f2fs" -> List.of("mkfs.f2fs", "-f");
            case "vfat" -> List.of("mkfs.vfat");
            case "lvm" -> List.of("pvcreate", "-f");
            case "swap" -> List.of("mkswap", "-f");
            default -> null;
        };
        if (head == null) {
            return Optional.empty();
        }
        List<String> w = new ArrayList<>(head);
        w.addAll(opts);
        w.add(dev);
        return Optional.of(w);
    }
}
