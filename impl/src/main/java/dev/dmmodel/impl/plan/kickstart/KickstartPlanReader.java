package dev.dmmodel.impl.plan.kickstart;

import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanReader;
import dev.dmmodel.impl.plan.kickstart.KsOptions.Kind;
import dev.dmmodel.impl.plan.kickstart.KsRequests.ClearMode;
import dev.dmmodel.impl.plan.kickstart.KsRequests.ClearPart;
import dev.dmmodel.impl.plan.kickstart.KsRequests.IgnoreDisk;
import dev.dmmodel.impl.plan.kickstart.KsRequests.LogVol;
import dev.dmmodel.impl.plan.kickstart.KsRequests.Part;
import dev.dmmodel.impl.plan.kickstart.KsRequests.Role;
import dev.dmmodel.impl.plan.kickstart.KsRequests.VolGroup;
import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a kickstart file's storage commands ({@code ignoredisk}, {@code clearpart}, {@code zerombr},
 * {@code reqpart}, {@code part}/{@code partition}, {@code volgroup}, {@code logvol}) with pykickstart's syntax;
 * every other command and every {@code %packages}/{@code %pre}/{@code %post}/... section up to its {@code %end} is
 * skipped. The commands run as anaconda runs them, whatever their order in the file (pyanaconda/modules/storage/
 * partitioning/custom/custom_partitioning.py: CustomPartitioningTask._configure_partitioning): disks chosen and
 * cleared, then every partition placed at once by blivet, then volume groups, then logical volumes — so the
 * result's entries come in that order. {@code autopart}, {@code raid} and the other storage commands are refused
 * as not modelled.
 */
public final class KickstartPlanReader implements PlanReader {

    /** Commands that change storage but are not modelled: refused rather than silently skipped. */
    private static final Map<String, String> NOT_MODELLED = Map.ofEntries(
            Map.entry("autopart", "blivet's automatic partitioning is not modelled; expected part, volgroup and "
                    + "logvol lines"),
            Map.entry("raid", "raid is not modelled yet: expected part, volgroup and logvol lines (md arrays go in a "
                    + "shell plan's mdadm --create)"),
            Map.entry("btrfs", "btrfs volumes are not modelled"),
            Map.entry("stratispool", "Stratis is not modelled"),
            Map.entry("stratisfs", "Stratis is not modelled"),
            Map.entry("mount", "the mount command (existing devices) is not modelled: expected part --onpart"),
            Map.entry("snapshot", "LVM snapshots of the installed system are not modelled"),
            Map.entry("iscsi", "iSCSI disks are not modelled: describe the disk in the host"),
            Map.entry("iscsiname", "iSCSI disks are not modelled: describe the disk in the host"),
            Map.entry("fcoe", "FCoE disks are not modelled: describe the disk in the host"),
            Map.entry("zfcp", "zFCP disks are not modelled: describe the disk in the host"),
            Map.entry("nvdimm", "NVDIMM namespaces are not modelled"),
            Map.entry("dmraid", "dmraid is not modelled"),
            Map.entry("multipath", "multipath is not modelled"),
            Map.entry("device", "the device command is not modelled"));

    /** pykickstart sections: skipped up to their %end. */
    private static final Set<String> SECTIONS = Set.of("%packages", "%pre", "%pre-install", "%post", "%onerror",
            "%traceback", "%addon", "%anaconda", "%certificate");

    @Override
    public List<PlanOp> read(String text, String source) {
        Reader r = new Reader(source);
        String[] lines = text.split("\n", -1);
        String section = null;
        int sectionLine = 0;
        for (int i = 0; i < lines.length; i++) {
            int number = i + 1;
            String raw = lines[i];
            if (i == 0 && raw.startsWith("\uFEFF")) {
                raw = raw.substring(1);
            }
            String stripped = raw.strip();
            if (section != null) {
                if (stripped.equals("%end") || stripped.startsWith("%end ") || stripped.startsWith("%end\t")) {
                    section = null;
                }
                continue;
            }
            if (stripped.startsWith("%")) {
                String name = stripped.split("[ \t]", 2)[0];
                int col = raw.indexOf('%') + 1;
                if (SECTIONS.contains(name) || name.startsWith("%addon") || name.startsWith("%anaconda")) {
                    section = name;
                    sectionLine = number;
                    continue;
                }
                if (name.equals("%include") || name.equals("%ksappend")) {
                    throw new PlanException(source, number, col, name + ": the dry run cannot follow an included "
                            + "file; expected its storage commands written in the kickstart itself");
                }
                if (name.equals("%end")) {
                    throw new PlanException(source, number, col, "%end without a section: expected %packages, "
                            + "%pre, %post ... before it");
                }
                throw new PlanException(source, number, col, "section \"" + name + "\": expected one of %packages, "
                        + "%pre, %pre-install, %post, %onerror, %traceback, %addon, %anaconda, %certificate, %end");
            }
            List<KsLine.Word> words = KsLine.split(raw, source, number);
            if (words.isEmpty()) {
                continue;
            }
            KsLine line = new KsLine(new Origin(source, number, words.get(0).column(), stripped), words);
            r.command(line);
        }
        if (section != null) {
            throw new PlanException(source, sectionLine, 1, "section " + section + " does not end with %end: "
                    + "expected %end");
        }
        return r.finish();
    }

    /** Reads the commands into requests, then checks what refers to what. */
    private static final class Reader {
        private final String source;
        private final List<IgnoreDisk> ignore = new ArrayList<>();
        private final List<ClearPart> clear = new ArrayList<>();
        private final List<KsLine> zerombr = new ArrayList<>();
        private final List<Part> parts = new ArrayList<>();
        private final List<VolGroup> vgs = new ArrayList<>();
        private final List<LogVol> lvs = new ArrayList<>();
        private KsLine reqpart;

        Reader(String source) {
            this.source = source;
        }

        void command(KsLine l) {
            String c = l.command();
            if (NOT_MODELLED.containsKey(c)) {
                throw l.error(c + ": " + NOT_MODELLED.get(c));
            }
            switch (c) {
                case "ignoredisk" -> ignoredisk(l);
                case "clearpart" -> clearpart(l);
                case "zerombr" -> {
                    if (l.words().size() > 1) {
                        throw l.error(l.words().get(1), "zerombr takes no arguments: found \""
                                + l.words().get(1).text() + "\"");
                    }
                    zerombr.add(l);
                }
                case "reqpart" -> reqpart(l);
                case "part", "partition" -> part(l);
                case "volgroup" -> volgroup(l);
                case "logvol" -> logvol(l);
                default -> {
                    // not a storage command: lang, network, bootloader, rootpw, ... change no block device
                }
            }
        }

        // pykickstart/commands/ignoredisk.py: --drives (ignored) and --only-use are mutually exclusive
        private void ignoredisk(KsLine l) {
            KsOptions o = KsOptions.read(l, Map.of("--drives", Kind.TEXT, "--only-use", Kind.TEXT,
                    "--interactive", Kind.FLAG), Map.of(), Map.of("--onlyuse", "--only-use"));
            noPositional(l, o);
            if (o.has("--drives") == o.has("--only-use")) {
                throw l.error("ignoredisk: expected exactly one of --drives= (the disks to ignore) or --only-use= "
                        + "(the only disks to use)");
            }
            ignore.add(new IgnoreDisk(l, o.list("--only-use"), o.list("--drives")));
        }

        // pykickstart/commands/clearpart.py: --all/--linux/--none/--list, --drives, --initlabel, --disklabel
        private void clearpart(KsLine l) {
            Map<String, Kind> k = new HashMap<>();
            for (String f : List.of("--all", "--linux", "--none", "--initlabel", "--cdl")) {
                k.put(f, Kind.FLAG);
            }
            k.put("--drives", Kind.TEXT);
            k.put("--disklabel", Kind.TEXT);
            KsOptions o = KsOptions.read(l, k, Map.of("--cdl", "DASD compatible disk layout (s390x)", "--list",
                    "clearing single partitions is not modelled: expected --all, --linux or --none with --drives"),
                    Map.of());
            noPositional(l, o);
            int modes = (o.has("--all") ? 1 : 0) + (o.has("--linux") ? 1 : 0) + (o.has("--none") ? 1 : 0);
            if (modes > 1) {
                throw l.error("clearpart: --all, --linux and --none exclude each other: expected one");
            }
            ClearMode mode = o.has("--all") ? ClearMode.ALL : o.has("--linux") ? ClearMode.LINUX : ClearMode.NONE;
            Optional<PartitionTableType> label = Optional.empty();
            if (o.has("--disklabel")) {
                KsLine.Word v = o.value("--disklabel");
                label = Optional.of(switch (v.text()) {
                    case "gpt" -> PartitionTableType.GPT;
                    case "msdos", "mbr" -> PartitionTableType.MSDOS;
                    default -> throw l.error(v, "clearpart --disklabel \"" + v.text() + "\": expected gpt or "
                            + "msdos");
                });
            }
            clear.add(new ClearPart(l, mode, o.list("--drives"), List.of(), o.has("--initlabel"), label));
        }

        private void reqpart(KsLine l) {
            KsOptions o = KsOptions.read(l, Map.of("--add-boot", Kind.FLAG), Map.of(), Map.of());
            noPositional(l, o);
            if (reqpart != null) {
                throw l.error("reqpart given twice (line " + reqpart.origin().line() + "): expected it once");
            }
            reqpart = l;
            // pyanaconda/modules/storage/platform.py: X86._bootloader_partition — biosboot, 1 MiB (a BIOS host)
            parts.add(new Part(l, Role.BIOSBOOT, "biosboot", "biosboot", 1, false, 0, List.of(), false,
                    Optional.empty(), true));
            if (o.has("--add-boot")) {
                // platform.py: Platform.partitions — /boot of the default boot size, 1 GiB
                parts.add(new Part(l, Role.FILESYSTEM, "/boot", "ext4", 1024, false, 0, List.of(), false,
                        Optional.empty(), true));
            }
        }

        // pykickstart/commands/partition.py: the part options
        private void part(KsLine l) {
            Map<String, Kind> k = new HashMap<>();
            for (String f : List.of("--grow", "--asprimary", "--noformat")) {
                k.put(f, Kind.FLAG);
            }
            for (String n : List.of("--size", "--maxsize", "--start", "--end")) {
                k.put(n, Kind.INT);
            }
            for (String t : List.of("--ondisk", "--fstype", "--onpart", "--label", "--fsoptions")) {
                k.put(t, Kind.TEXT);
            }
            Map<String, String> not = new HashMap<>();
            for (String e : List.of("--encrypted", "--passphrase", "--cipher", "--luks-version", "--pbkdf",
                    "--pbkdf-memory", "--pbkdf-time", "--pbkdf-iterations", "--escrowcert", "--backuppassphrase",
                    "--hw-passphrase")) {
                not.put(e, "encryption (LUKS) is not modelled");
            }
            not.put("--resize", "resizing existing partitions is not modelled");
            not.put("--recommended", "anaconda's recommended swap size depends on the host's memory, which the "
                    + "model does not know: expected --size");
            not.put("--hibernation", "anaconda's hibernation swap size depends on the host's memory: expected "
                    + "--size");
            not.put("--onbiosdisk", "BIOS disk numbers are not modelled: expected --ondisk");
            not.put("--fsprofile", "filesystem profiles are not modelled");
            not.put("--mkfsoptions", "mkfs options are not modelled");
            KsOptions o = KsOptions.read(l, k, not, Map.of("--ondrive", "--ondisk", "--usepart", "--onpart"));
            for (String d : List.of("--start", "--end")) {
                if (o.has(d)) {
                    throw l.error(o.word(d), "part " + d + " is deprecated and anaconda no longer places "
                            + "partitions by cylinder: expected --size (and --ondisk)");
                }
            }
            List<KsLine.Word> pos = o.positional();
            if (pos.size() != 1) {
                throw l.error(pos.isEmpty() ? l.words().get(0) : pos.get(1), "part: expected one mount point "
                        + "(/boot, swap, pv.NN, raid.NN, biosboot, None) " + (pos.isEmpty() ? "after part"
                        : "; found also \"" + pos.get(1).text() + "\""));
            }
            KsLine.Word mw = pos.get(0);
            String m = mw.text();
            Role role;
            String fstype = o.text("--fstype", "");
            if (m.equals("swap")) {
                role = Role.SWAP;
                fstype = "swap";
            } else if (m.startsWith("pv.")) {
                role = Role.PV;
                fstype = "lvmpv";
            } else if (m.startsWith("raid.")) {
                throw l.error(mw, "part " + m + ": raid members are not modelled yet (raid is not read): expected "
                        + "a mount point, swap or pv.NN");
            } else if (m.equals("biosboot")) {
                role = Role.BIOSBOOT;
                fstype = "biosboot";
            } else if (m.equals("/boot/efi")) {
                role = Role.EFI;
                fstype = "efi";
            } else if (m.equals("None")) {
                role = Role.NONE;
                fstype = fstype.isEmpty() ? "ext4" : fstype;
            } else if (m.startsWith("/")) {
                role = Role.FILESYSTEM;
                // blivet's default filesystem (anaconda.conf file_system_type empty): ext4; /boot the same
                fstype = fstype.isEmpty() ? "ext4" : fstype;
            } else {
                throw l.error(mw, "part mount point \"" + m + "\": expected /PATH, swap, pv.NN, biosboot or None");
            }
            if (!List.of("ext4", "ext3", "ext2", "xfs", "swap", "lvmpv", "biosboot", "efi", "vfat")
                    .contains(fstype)) {
                throw l.error(o.value("--fstype"), "part --fstype \"" + fstype + "\": expected ext4, ext3, ext2, "
                        + "xfs, vfat or swap (the filesystems the model makes)");
            }
            long size = o.number("--size", 500);
            if (o.has("--size") && size < 1) {
                throw l.error(o.value("--size"), "part --size \"0\": expected a size of 1 MiB or more");
            }
            long max = o.number("--maxsize", 0);
            Optional<String> onPart = o.has("--onpart") ? Optional.of(strip(o.text("--onpart", ""))) : Optional.empty();
            if (o.has("--noformat") && onPart.isEmpty()) {
                // custom_partitioning.py: _execute_partition_data
                throw l.error(o.word("--noformat"), "part --noformat must also use the --onpart option.");
            }
            for (Part p : parts) {
                if ((role == Role.PV) && p.mount().equals(m)) {
                    throw l.error(mw, "PV partition \"" + m + "\" is defined multiple times.");
                }
            }
            List<String> disks = o.list("--ondisk");
            if (disks.size() > 1) {
                throw l.error(o.value("--ondisk"), "part --ondisk \"" + o.text("--ondisk", "") + "\": expected one "
                        + "disk");
            }
            parts.add(new Part(l, role, m, fstype, size, o.has("--grow"), max, disks, o.has("--asprimary"), onPart,
                    !o.has("--noformat")));
        }

        // pykickstart/commands/volgroup.py; custom_partitioning.py: _execute_volgroup_data
        private void volgroup(KsLine l) {
            Map<String, Kind> k = Map.of("--pesize", Kind.INT, "--reserved-space", Kind.INT, "--reserved-percent",
                    Kind.INT);
            KsOptions o = KsOptions.read(l, k, Map.of("--noformat", "existing volume groups are not modelled",
                    "--useexisting", "existing volume groups are not modelled"), Map.of());
            List<KsLine.Word> pos = o.positional();
            if (pos.isEmpty()) {
                throw l.error("volgroup: expected a volume group name and its physical volumes (volgroup vg pv.01)");
            }
            KsLine.Word nw = pos.get(0);
            if (!nw.text().matches("[A-Za-z0-9+_.][A-Za-z0-9+_.-]*") || nw.text().length() > 127) {
                throw l.error(nw, "volgroup name \"" + nw.text() + "\": expected letters, digits and + _ . -");
            }
            if (pos.size() == 1) {
                throw l.error(nw, "Volume group \"" + nw.text() + "\" defined without any physical volumes. Either "
                        + "specify physical volumes or use --useexisting.");
            }
            List<String> pvs = new ArrayList<>();
            for (KsLine.Word w : pos.subList(1, pos.size())) {
                boolean defined = parts.stream().anyMatch(p -> p.role() == Role.PV && p.mount().equals(w.text()));
                if (!defined) {
                    throw l.error(w, "Tried to use undefined partition \"" + w.text() + "\" in Volume Group "
                            + "specification");
                }
                if (pvs.contains(w.text()) || vgs.stream().anyMatch(v -> v.pvs().contains(w.text()))) {
                    throw l.error(w, "physical volume \"" + w.text() + "\" is in a volume group already: expected "
                            + "each pv.NN in one volume group");
                }
                pvs.add(w.text());
            }
            if (vgs.stream().anyMatch(v -> v.name().equals(nw.text()))) {
                throw l.error(nw, "The volume group name \"" + nw.text() + "\" is already in use.");
            }
            long pe = o.number("--pesize", 4096);
            // libblockdev lvm: bd_lvm_get_supported_pe_sizes — powers of two from 1 KiB to 16 GiB
            if (pe < 1 || Long.bitCount(pe) != 1 || pe > 16L * 1024 * 1024) {
                throw l.error(o.value("--pesize"), "Volume group given physical extent size of \"" + pe
                        + " KiB\", but must be one of: a power of two from 1 KiB to 16 GiB.");
            }
            long pct = o.number("--reserved-percent", 0);
            if (o.has("--reserved-percent") && (pct < 1 || pct > 99)) {
                throw l.error(o.value("--reserved-percent"), "volgroup --reserved-percent \"" + pct + "\": expected "
                        + "a percentage from 1 to 99");
            }
            if (o.has("--reserved-percent") && o.has("--reserved-space")) {
                throw l.error(o.word("--reserved-percent"), "volgroup --reserved-space and --reserved-percent "
                        + "exclude each other: expected one");
            }
            vgs.add(new VolGroup(l, nw.text(), pvs, pe, o.number("--reserved-space", 0), pct));
        }

        // pykickstart/commands/logvol.py: F23_LogVol..RHEL9_LogVol _parse checks
        private void logvol(KsLine l) {
            Map<String, Kind> k = new HashMap<>();
            for (String f : List.of("--grow", "--thinpool", "--thin")) {
                k.put(f, Kind.FLAG);
            }
            for (String n : List.of("--size", "--maxsize", "--percent", "--chunksize", "--metadatasize")) {
                k.put(n, Kind.INT);
            }
            for (String t : List.of("--vgname", "--name", "--poolname", "--fstype", "--label", "--fsoptions")) {
                k.put(t, Kind.TEXT);
            }
            Map<String, String> not = new HashMap<>();
            for (String e : List.of("--encrypted", "--passphrase", "--cipher", "--luks-version", "--pbkdf",
                    "--pbkdf-memory", "--pbkdf-time", "--pbkdf-iterations", "--escrowcert", "--backuppassphrase")) {
                not.put(e, "encryption (LUKS) is not modelled");
            }
            for (String e : List.of("--noformat", "--useexisting", "--resize")) {
                not.put(e, "existing logical volumes are not modelled");
            }
            for (String e : List.of("--cachesize", "--cachepvs", "--cachemode")) {
                not.put(e, "LVM cache is not modelled");
            }
            not.put("--recommended", "anaconda's recommended swap size depends on the host's memory: expected "
                    + "--size");
            not.put("--hibernation", "anaconda's hibernation swap size depends on the host's memory: expected "
                    + "--size");
            not.put("--profile", "thin pool profiles are not modelled");
            not.put("--fsprofile", "filesystem profiles are not modelled");
            not.put("--mkfsoptions", "mkfs options are not modelled");
            KsOptions o = KsOptions.read(l, k, not, Map.of());
            List<KsLine.Word> pos = o.positional();
            if (pos.size() != 1) {
                throw l.error(pos.isEmpty() ? l.words().get(0) : pos.get(1), "logvol: expected one mount point "
                        + "(/, /home, swap, none for a thin pool)" + (pos.isEmpty() ? ""
                        : "; found also \"" + pos.get(1).text() + "\""));
            }
            String m = pos.get(0).text();
            boolean pool = o.has("--thinpool");
            boolean thin = o.has("--thin");
            if (!pool && !m.equals("swap") && !m.startsWith("/")) {
                throw l.error(pos.get(0), "The mount point \"" + m + "\" is not valid. It must start with a /.");
            }
            if (pool && thin) {
                throw l.error(o.word("--thin"), "--thin and --thinpool cannot both be specified for the same "
                        + "logvol");
            }
            if (thin && !o.has("--poolname")) {
                throw l.error(o.word("--thin"), "--thin requires --poolname to specify pool name");
            }
            if (!pool && (o.has("--chunksize") || o.has("--metadatasize"))) {
                throw l.error(o.word(o.has("--chunksize") ? "--chunksize" : "--metadatasize"), "--chunksize and "
                        + "--metadatasize are for thin pools only");
            }
            if (!o.has("--vgname") || !o.has("--name")) {
                throw l.error("logvol: expected --vgname=VG and --name=NAME");
            }
            if (!o.has("--size") && !o.has("--percent")) {
                throw l.error("No size given for logical volume. Use one of --useexisting, --noformat, --size, "
                        + "--percent, or --hibernation.");
            }
            if (o.has("--size") && o.has("--percent")) {
                throw l.error(o.word("--percent"), "--size and --percent cannot both be specified for the same "
                        + "logvol");
            }
            long pct = o.number("--percent", 0);
            if (o.has("--percent") && (pct < 1 || pct > 100)) {
                throw l.error(o.value("--percent"), "Percentage must be between 0 and 100.");
            }
            if (o.has("--size") && o.number("--size", 0) < 1) {
                throw l.error(o.value("--size"), "logvol --size \"0\": expected a size of 1 MiB or more");
            }
            if (thin && (o.has("--grow") || o.has("--percent"))) {
                throw l.error(o.word(o.has("--grow") ? "--grow" : "--percent"), "logvol --thin with --grow or "
                        + "--percent is not modelled yet (blivet's ThinPoolChunk): expected --size");
            }
            String name = o.text("--name", "");
            if (!name.matches("[A-Za-z0-9+_.][A-Za-z0-9+_.-]*") || name.length() > 127) {
                throw l.error(o.value("--name"), "logvol --name \"" + name + "\": expected letters, digits and "
                        + "+ _ . -");
            }
            String vg = o.text("--vgname", "");
            if (vgs.stream().noneMatch(v -> v.name().equals(vg))) {
                // custom_partitioning.py: _execute_logvol_data (volume groups come before their LVs)
                throw l.error(o.value("--vgname"), "No volume group exists with the name \"" + vg + "\". Specify "
                        + "volume groups before logical volumes.");
            }
            if (lvs.stream().anyMatch(x -> x.vg().equals(vg) && x.name().equals(name))) {
                throw l.error(o.value("--name"), "Logical volume name \"" + name + "\" is already in use in volume "
                        + "group \"" + vg + "\".");
            }
            String poolName = o.text("--poolname", "");
            if (thin && lvs.stream().noneMatch(x -> x.vg().equals(vg) && x.thinPool() && x.name().equals(poolName))) {
                throw l.error(o.value("--poolname"), "No thin pool exists with the name \"" + poolName + "\". "
                        + "Specify thin pools before thin volumes.");
            }
            String fstype = m.equals("swap") ? "swap" : pool ? "" : o.text("--fstype", "ext4");
            if (!pool && !List.of("ext4", "ext3", "ext2", "xfs", "swap").contains(fstype)) {
                throw l.error(o.value("--fstype"), "logvol --fstype \"" + fstype + "\": expected ext4, ext3, ext2, "
                        + "xfs or swap");
            }
            lvs.add(new LogVol(l, pool ? "" : m, name, vg, o.number("--size", 0), o.has("--grow"),
                    o.number("--maxsize", 0), pct, pool, thin, poolName, o.number("--chunksize", 0),
                    o.number("--metadatasize", 0), fstype));
        }

        private void noPositional(KsLine l, KsOptions o) {
            if (!o.positional().isEmpty()) {
                KsLine.Word w = o.positional().get(0);
                throw l.error(w, l.command() + " argument \"" + w.text() + "\": expected only options");
            }
        }

        private static String strip(String dev) {
            return dev.startsWith("/dev/") ? dev.substring(5) : dev;
        }

        List<PlanOp> finish() {
            Set<String> mounts = new HashSet<>();
            for (Part p : parts) {
                if ((p.role() == Role.FILESYSTEM || p.role() == Role.EFI) && !mounts.add(p.mount())) {
                    throw p.line().error("mount point " + p.mount() + " is given twice: expected each mount point "
                            + "once");
                }
            }
            for (LogVol v : lvs) {
                if (!v.mount().isEmpty() && !v.swap() && !mounts.add(v.mount())) {
                    throw v.line().error("mount point " + v.mount() + " is given twice: expected each mount point "
                            + "once");
                }
            }
            for (VolGroup g : vgs) {
                long pct = 0;
                for (LogVol v : lvs) {
                    if (v.vg().equals(g.name()) && !v.thin()) {
                        pct += v.percent();
                    }
                }
                if (pct > 100) {
                    // blivet/partitioning.py: grow_lvm
                    throw g.line().error("sum of percentages within a vg cannot exceed 100 (volume group "
                            + g.name() + ": " + pct + ")");
                }
            }
            if (ignore.size() > 1) {
                throw ignore.get(1).line().error("ignoredisk given twice: expected it once");
            }
            if (clear.size() > 1) {
                throw clear.get(1).line().error("clearpart given twice: expected it once");
            }
            KsPlan plan = new KsPlan(source, ignore.isEmpty() ? null : ignore.get(0),
                    clear.isEmpty() ? null : clear.get(0), !zerombr.isEmpty(), parts, vgs, lvs);
            return plan.ops(zerombr);
        }
    }
}
