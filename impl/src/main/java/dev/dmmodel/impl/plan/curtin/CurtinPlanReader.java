package dev.dmmodel.impl.plan.curtin;

import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanReader;
import dev.dmmodel.impl.plan.yaml.PlanYaml;
import dev.dmmodel.impl.plan.yaml.Synthesized;
import dev.dmmodel.impl.plan.yaml.YamlFields;
import dev.dmmodel.impl.plan.yaml.YamlNode;
import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a curtin storage config — Ubuntu autoinstall's {@code autoinstall: storage: config:}, curtin's
 * {@code storage: version: 1|2 config:}, or a bare {@code config:} list — into the commands curtin's block_meta
 * runs for each entry: partitions placed as {@code partition_handler} (version 1: sgdisk/parted per partition)
 * or {@code disk_handler_v2} (version 2: one sfdisk table) places them, {@code vgcreate}, {@code lvcreate},
 * {@code mkfs.*}, {@code mount} and {@code mdadm --create} as curtin builds them, read by the shell reader.
 * An autoinstall config's {@code size: -1} and {@code N%} are resolved as subiquity resolves them before curtin
 * runs. Entries refer to earlier entries by id.
 */
public final class CurtinPlanReader implements PlanReader {

    // curtin/block/schemas.py: the entry types curtin knows
    private static final Set<String> KNOWN_TYPES = Set.of("disk", "partition", "lvm_volgroup", "lvm_partition",
            "format", "mount", "raid", "dm_crypt", "bcache", "zpool", "zfs", "nvme_controller", "device", "dasd",
            "image");
    private static final Set<String> COMMON = Set.of("id", "type", "preserve", "name");
    private static final Set<String> DISK_KEYS = union(COMMON, "path", "serial", "wwn", "ptable", "wipe",
            "grub_device", "model", "multipath", "match", "nvme_controller", "device_id", "uuid");
    private static final Set<String> PART_KEYS = union(COMMON, "device", "number", "size", "offset", "flag", "wipe",
            "grub_device", "partition_type", "partition_name", "uuid", "path", "multipath", "resize", "attrs");
    private static final Set<String> VG_KEYS = union(COMMON, "devices");
    private static final Set<String> LV_KEYS = union(COMMON, "volgroup", "size", "wipe", "path");
    private static final Set<String> FORMAT_KEYS = union(COMMON, "volume", "fstype", "label", "uuid",
            "extra_options");
    private static final Set<String> MOUNT_KEYS = union(Set.of("id", "type"), "device", "path", "options", "spec",
            "fstype", "freq", "passno");
    private static final Set<String> RAID_KEYS = union(COMMON, "raidlevel", "devices", "spare_devices", "metadata",
            "ptable", "wipe", "container", "path", "mdname");
    // curtin/commands/block_meta.py: SGDISK_FLAGS and MSDOS_FLAGS
    private static final Set<String> FLAGS = Set.of("boot", "bios_grub", "prep", "lvm", "raid", "swap", "linux",
            "home", "msftres", "logical", "extended");
    // curtin/block/__init__.py: wipe_volume modes
    private static final Set<String> WIPE = Set.of("superblock", "superblock-recursive", "zero", "random",
            "pvremove");
    // curtin/block/mkfs.py: mkfs_commands
    private static final Map<String, String> MKFS = Map.ofEntries(Map.entry("btrfs", "mkfs.btrfs"),
            Map.entry("ext2", "mkfs.ext2"), Map.entry("ext3", "mkfs.ext3"), Map.entry("ext4", "mkfs.ext4"),
            Map.entry("f2fs", "mkfs.f2fs"), Map.entry("fat", "mkfs.vfat"), Map.entry("fat12", "mkfs.vfat"),
            Map.entry("fat16", "mkfs.vfat"), Map.entry("fat32", "mkfs.vfat"), Map.entry("vfat", "mkfs.vfat"),
            Map.entry("jfs", "jfs_mkfs"), Map.entry("ntfs", "mkntfs"), Map.entry("reiserfs", "mkfs.reiserfs"),
            Map.entry("swap", "mkswap"), Map.entry("xfs", "mkfs.xfs"));
    /** The filesystems the model runs (the others are made without an effect on the block stack). */
    private static final Set<String> MODELLED_FS = Set.of("ext4", "xfs");
    // curtin/commands/block_meta.py: raid_handler's levels
    private static final Map<String, String> RAID_LEVELS = Map.ofEntries(Map.entry("linear", "linear"),
            Map.entry("raid0", "raid0"), Map.entry("0", "0"), Map.entry("stripe", "stripe"),
            Map.entry("raid1", "raid1"), Map.entry("1", "1"), Map.entry("mirror", "mirror"),
            Map.entry("raid4", "raid4"), Map.entry("4", "4"), Map.entry("raid5", "raid5"), Map.entry("5", "5"),
            Map.entry("raid6", "raid6"), Map.entry("6", "6"), Map.entry("raid10", "raid10"),
            Map.entry("10", "10"));
    /** The host name mdadm's --homehost gets from {@code hostname -s} (unknown to a dry run). */
    static final String HOMEHOST = "localhost";

    /** One entry as read: its id, type, keys and place. */
    record Entry(int index, String id, String type, YamlFields fields, Origin origin) {
    }

    /** A partition entry's values. */
    record PartEntry(String id, String disk, int number, Optional<Integer> explicitNumber, Optional<Integer> previous,
                     CurtinSize size, Optional<Long> offset, String flag, boolean preserve, PartitionTableType ptable,
                     List<CurtinSize> siblings) {
    }

    @Override
    public List<PlanOp> read(String text, String source) {
        YamlNode root = PlanYaml.parse(text, source);
        return new Reading(source).read(root);
    }

    private static Set<String> union(Set<String> base, String... more) {
        java.util.HashSet<String> s = new java.util.HashSet<>(base);
        s.addAll(List.of(more));
        return Set.copyOf(s);
    }

    /** One reading of a config. */
    private static final class Reading {
        private final String source;
        private final Map<String, Entry> byId = new LinkedHashMap<>();
        private final List<Entry> entries = new ArrayList<>();
        private final Map<String, PartEntry> parts = new HashMap<>();
        private final Map<String, Integer> partCount = new HashMap<>();
        private boolean autoinstall;
        private int version = 1;

        Reading(String source) {
            this.source = source;
        }

        List<PlanOp> read(YamlNode root) {
            YamlNode.Sequence config = locate(root);
            for (YamlNode item : config.items()) {
                if (!(item instanceof YamlNode.Mapping m)) {
                    throw new PlanException(source, item.line(), item.column(), "storage config entry "
                            + item.describe() + ": expected a mapping with type: and id:");
                }
                YamlFields pre = new YamlFields(source, m, "storage config entry");
                String type = pre.required("type", "the entry's type (disk, partition, lvm_volgroup, ...)");
                YamlNode typeNode = pre.node("type").orElseThrow();
                if (!KNOWN_TYPES.contains(type)) {
                    throw pre.error(typeNode, "type " + typeNode.describe() + ": a type curtin does not know: "
                            + "expected disk, partition, lvm_volgroup, lvm_partition, format, mount, raid or dm_crypt");
                }
                String id = pre.required("id", "a name later entries refer to");
                YamlNode idNode = pre.node("id").orElseThrow();
                Entry dup = byId.get(id);
                if (dup != null) {
                    throw pre.error(idNode, "id " + idNode.describe() + " is already the id of the " + dup.type()
                            + " at line " + dup.origin().line() + ": expected a unique id");
                }
                Origin origin = new Origin(source, m.line(), m.column(), type + " " + id);
                Entry e = new Entry(entries.size(), id, type, new YamlFields(source, m, type + " \"" + id + "\""),
                        origin);
                byId.put(id, e);
                entries.add(e);
            }
            List<PlanOp> ops = new ArrayList<>();
            for (Entry e : entries) {
                ops.add(op(e));
            }
            return List.copyOf(ops);
        }

        private YamlNode.Sequence locate(YamlNode root) {
            if (root == null) {
                throw new PlanException(source, 1, 1, "an empty plan: expected a curtin storage config "
                        + "(storage: config: [...] or autoinstall: storage: config: [...])");
            }
            if (root instanceof YamlNode.Sequence s) {
                return s;
            }
            if (!(root instanceof YamlNode.Mapping m)) {
                throw new PlanException(source, root.line(), root.column(), "a plan that is " + root.describe()
                        + ": expected a curtin storage config (storage: config: [...])");
            }
            YamlFields top = new YamlFields(source, m, "curtin config");
            YamlFields storage = top;
            if (m.get("autoinstall").isPresent()) {
                autoinstall = true;
                storage = mapping(mapping(top, "autoinstall"), "storage");
                if (storage.has("layout")) {
                    throw storage.error(storage.node("layout").orElseThrow(), "layout: (subiquity's guided layouts "
                            + "lvm, direct, zfs) is not modelled yet: expected storage: config: with the entries");
                }
            } else if (m.get("storage").isPresent()) {
                storage = mapping(top, "storage");
            }
            Optional<YamlNode.Scalar> v = storage.scalar("version");
            if (v.isPresent() && !autoinstall) {
                if (!v.get().value().equals("1") && !v.get().value().equals("2")) {
                    throw storage.expected("version", v.get(), "1 or 2 (curtin's storage config versions)");
                }
                version = Integer.parseInt(v.get().value());
            }
            YamlFields st = storage;
            YamlNode config = st.node("config").orElseThrow(() -> st.error("no config: expected config: with the "
                    + "storage entries (- type: disk ...)"));
            if (!(config instanceof YamlNode.Sequence s)) {
                throw storage.expected("config", config, "a list of entries (- type: disk ...)");
            }
            return s;
        }

        private YamlFields mapping(YamlFields parent, String key) {
            YamlNode n = parent.node(key).orElseThrow(() -> parent.error("no " + key + ": expected " + key + ":"));
            if (!(n instanceof YamlNode.Mapping m)) {
                throw parent.expected(key, n, "a mapping");
            }
            return new YamlFields(source, m, key);
        }

        /** The id a key names: an earlier entry of one of the types. */
        private Entry ref(Entry e, String key, YamlNode.Scalar s, Set<String> types) {
            String id = s.value();
            Entry target = byId.get(id);
            YamlFields f = e.fields();
            String expected = "the id of an earlier " + String.join(" or ", new java.util.TreeSet<>(types))
                    + " entry";
            if (target == null) {
                throw f.error(s, key + " " + s.describe() + ": no entry has this id: expected " + expected);
            }
            if (target == e) {
                throw f.error(s, key + " " + s.describe() + ": the entry refers to itself (a cycle): expected "
                        + expected);
            }
            if (target.index() > e.index()) {
                throw f.error(s, key + " " + s.describe() + ": the " + target.type() + " at line "
                        + target.origin().line() + " comes later (curtin runs entries in order): expected " + expected);
            }
            if (!types.contains(target.type())) {
                throw f.error(s, key + " " + s.describe() + ": the " + target.type() + " at line "
                        + target.origin().line() + ": expected " + expected);
            }
            return target;
        }

        private Entry ref(Entry e, String key, Set<String> types) {
            YamlNode.Scalar s = e.fields().scalar(key).orElseThrow(() -> e.fields().error(
                    e.fields().node(key).orElse(e.fields().map()), "no " + key + ": expected " + key
                            + ": the id of the " + String.join(" or ", new java.util.TreeSet<>(types))));
            return ref(e, key, s, types);
        }

        // curtin/config.py: value_as_boolean — False, None, 0, '0', 'False', 'false', 'None', 'none', '' are false
        private static boolean bool(YamlFields f, String key) {
            Optional<YamlNode.Scalar> s = f.scalar(key);
            if (s.isEmpty()) {
                return false;
            }
            return !Set.of("0", "False", "false", "None", "none", "").contains(s.get().value());
        }

        private PlanOp op(Entry e) {
            return switch (e.type()) {
                case "disk" -> disk(e);
                case "partition" -> partition(e);
                case "lvm_volgroup" -> volgroup(e);
                case "lvm_partition" -> lv(e);
                case "format" -> format(e);
                case "mount" -> mount(e);
                case "raid" -> raid(e);
                default -> throw e.fields().error(e.fields().node("type").orElseThrow(), "type \"" + e.type()
                        + "\" is not modelled yet: expected disk, partition, lvm_volgroup, lvm_partition, format, "
                        + "mount or raid");
            };
        }

        private PlanOp disk(Entry e) {
            YamlFields f = e.fields();
            f.allowOnly(DISK_KEYS);
            if (!f.has("path")) {
                YamlNode at = f.node("serial").or(() -> f.node("wwn")).or(() -> f.node("match")).orElse(f.map());
                throw f.error(at, "no path: expected path: /dev/... naming a disk of the host (a dry run finds "
                        + "disks by path, not by serial, wwn or match)");
            }
            String path = f.required("path", "/dev/... naming a disk of the host");
            Optional<PartitionTableType> ptable = ptable(f);
            Optional<String> wipe = f.oneOf("wipe", WIPE);
            boolean preserve = bool(f, "preserve");
            String id = e.id();
            int v = version;
            List<PartEntry> v2 = diskOpParts(e);
            return PlanOp.of(e.origin(), "disk", state -> CurtinOps.disk(state, id, path, ptable, wipe,
                    preserve, v, v2));
        }

        private Optional<PartitionTableType> ptable(YamlFields f) {
            Optional<String> p = f.oneOf("ptable", Set.of("gpt", "msdos", "dos", "vtoc", "unsupported"));
            if (p.isPresent() && (p.get().equals("vtoc") || p.get().equals("unsupported"))) {
                throw f.error(f.node("ptable").orElseThrow(), "ptable \"" + p.get() + "\" is not modelled yet: "
                        + "expected gpt or msdos");
            }
            return p.map(x -> x.equals("gpt") ? PartitionTableType.GPT : PartitionTableType.MSDOS);
        }

        private PlanOp partition(Entry e) {
            YamlFields f = e.fields();
            f.allowOnly(PART_KEYS);
            Entry disk = ref(e, "device", Set.of("disk", "raid"));
            if (disk.type().equals("raid")) {
                throw f.error(f.node("device").orElseThrow(), "partitions of a raid entry are not modelled yet: "
                        + "expected a disk's id");
            }
            Optional<PartitionTableType> ptable = ptable(disk.fields());
            if (ptable.isEmpty()) {
                throw f.error(f.node("device").orElseThrow(), "device \"" + disk.id() + "\" has no ptable: "
                        + "(curtin: parent partition has invalid partition table): expected a disk with ptable: gpt "
                        + "or msdos");
            }
            // subiquity writes flag: '' for a plain partition
            String flag = f.string("flag").orElse("").isEmpty() ? "" : f.oneOf("flag", FLAGS).orElse("");
            if (flag.equals("extended") || flag.equals("logical")) {
                throw f.error(f.node("flag").orElseThrow(), "flag \"" + flag + "\": msdos extended and logical "
                        + "partitions are not modelled yet: expected a primary partition");
            }
            if (flag.equals("prep") && ptable.get() == PartitionTableType.MSDOS) {
                throw f.error(f.node("flag").orElseThrow(), "flag \"prep\" on an msdos disk (curtin: PReP partitions "
                        + "require a GPT partition table): expected a disk with ptable: gpt");
            }
            Optional<Integer> number = f.integer("number", 1, 128).map(Long::intValue);
            YamlNode.Scalar sizeNode = f.scalar("size").orElseThrow(() -> f.error(f.node("size").orElse(f.map()),
                    "no size (curtin: size must be specified for partition to be created): expected size: such as "
                            + "10G"));
            CurtinSize size = CurtinSize.read(f, "size", sizeNode, autoinstall);
            if (version == 2 && size.kind() != CurtinSize.Kind.BYTES) {
                throw f.expected("size", sizeNode, "bytes with storage version 2 (-1 and N% are autoinstall's)");
            }
            Optional<Long> offset = f.scalar("offset").map(s -> CurtinSize.human2bytes(f, "offset", s, false));
            boolean preserve = bool(f, "preserve");
            f.oneOf("wipe", WIPE);
            // curtin/commands/block_meta.py: determine_partition_number, find_previous_partition
            int counted = partCount.merge(disk.id(), 1, Integer::sum);
            int n = number.orElse(counted);
            Optional<Integer> previous = Optional.empty();
            List<CurtinSize> siblings = new ArrayList<>();
            for (PartEntry p : parts.values().stream().filter(p -> p.disk().equals(disk.id()))
                    .sorted((a, b) -> Integer.compare(byId.get(a.id()).index(), byId.get(b.id()).index())).toList()) {
                previous = Optional.of(p.number());
                siblings.add(p.size());
            }
            for (Entry later : entries.subList(e.index() + 1, entries.size())) {
                if (later.type().equals("partition") && later.fields().string("device").orElse("").equals(disk.id())) {
                    if (size.kind() == CurtinSize.Kind.REST) {
                        throw f.error(sizeNode, "size -1 on a partition that is not the last of its disk (subiquity: "
                                + "NotFinalPartitionError): expected -1 only on the disk's last partition");
                    }
                    later.fields().scalar("size").ifPresent(s -> siblings.add(CurtinSize.read(later.fields(), "size",
                            s, autoinstall)));
                }
            }
            PartEntry p = new PartEntry(e.id(), disk.id(), n, number, previous, size, offset, flag, preserve,
                    ptable.get(), List.copyOf(siblings));
            parts.put(e.id(), p);
            if (version == 2) {
                if (preserve) {
                    throw f.error(f.node("preserve").orElseThrow(), "preserve with storage version 2 is not "
                            + "modelled yet: expected a new partition");
                }
                // the disk's op writes the whole table; this entry binds its id (curtin: partition_handler_v2)
                diskOpParts(disk).add(p);
                return PlanOp.of(e.origin(), "partition", state -> List.of(CurtinOps.device(state, e.id())
                        + ": in the table the disk's entry wrote"));
            }
            return PlanOp.of(e.origin(), "partition", state -> {
                String diskPath = CurtinOps.device(state, p.disk());
                long diskBytes = state.device(diskPath, "curtin").size().count() * 512;
                long bytes = p.size().partitionBytes(diskBytes, p.ptable() == PartitionTableType.GPT, p.siblings());
                return CurtinOps.partitionV1(state, p, bytes);
            });
        }

        private final Map<String, List<PartEntry>> v2Parts = new HashMap<>();

        private List<PartEntry> diskOpParts(Entry disk) {
            return v2Parts.computeIfAbsent(disk.id(), k -> new ArrayList<>());
        }

        private PlanOp volgroup(Entry e) {
            YamlFields f = e.fields();
            f.allowOnly(VG_KEYS);
            String name = f.required("name", "the volume group's name");
            List<YamlNode.Scalar> devices = f.list("devices", false).orElseThrow(() -> f.error(f.node("devices")
                    .orElse(f.map()), "no devices (curtin: devices for volgroup must be specified): expected "
                    + "devices: [ids of partitions, disks or raids]"));
            if (devices.isEmpty()) {
                throw f.error(f.node("devices").orElseThrow(), "devices []: expected at least one device id");
            }
            if (bool(f, "preserve")) {
                throw f.error(f.node("preserve").orElseThrow(), "preserve on a volume group is not modelled yet: "
                        + "expected a new volume group");
            }
            // curtin/commands/block_meta.py: lvm_volgroup_handler
            List<String> words = new ArrayList<>(List.of("vgcreate", "--force", "--zero=y", "--yes", name));
            Map<Integer, String> ids = new LinkedHashMap<>();
            for (YamlNode.Scalar d : devices) {
                Entry target = ref(e, "devices", d, Set.of("partition", "disk", "raid"));
                ids.put(words.size(), target.id());
                words.add(placeholder(target));
            }
            return synthesized(e, "lvm_volgroup", words, ids);
        }

        private PlanOp lv(Entry e) {
            YamlFields f = e.fields();
            f.allowOnly(LV_KEYS);
            Entry vg = ref(e, "volgroup", Set.of("lvm_volgroup"));
            String vgName = vg.fields().required("name", "the volume group's name");
            String name = f.required("name", "the logical volume's name");
            if (bool(f, "preserve")) {
                throw f.error(f.node("preserve").orElseThrow(), "preserve on a logical volume is not modelled yet: "
                        + "expected a new logical volume");
            }
            f.oneOf("wipe", WIPE);
            Optional<CurtinSize> size = f.scalar("size").map(s -> CurtinSize.read(f, "size", s, autoinstall));
            List<CurtinSize> others = new ArrayList<>();
            for (Entry o : entries) {
                if (o != e && o.type().equals("lvm_partition")
                        && o.fields().string("volgroup").orElse("").equals(vg.id())) {
                    if (o.index() > e.index() && size.isPresent() && size.get().kind() == CurtinSize.Kind.REST) {
                        throw f.error(f.node("size").orElseThrow(), "size -1 on a logical volume that is not the "
                                + "last of its volume group (subiquity: NotFinalPartitionError): expected -1 only on "
                                + "the last");
                    }
                    o.fields().scalar("size").ifPresent(s -> others.add(CurtinSize.read(o.fields(), "size", s,
                            autoinstall)));
                }
            }
            // curtin/commands/block_meta.py: lvm_partition_handler
            List<String> base = List.of("lvcreate", vgName, "--name", name, "--zero=y", "--wipesignatures=y",
                    "--yes");
            List<String> sized = new ArrayList<>(base);
            sized.addAll(List.of("--size", "1048576B"));
            List<String> free = new ArrayList<>(base);
            free.addAll(List.of("--extents", "100%FREE"));
            Synthesized.read(e.origin(), sized);
            Synthesized.read(e.origin(), free);
            List<String> devIds = new ArrayList<>();
            vg.fields().list("devices", false).orElse(List.of()).forEach(s -> devIds.add(s.value()));
            String id = e.id();
            return PlanOp.of(e.origin(), "lvm_partition", state -> {
                long bytes = 0;
                if (size.isPresent()) {
                    List<Long> pvs = new ArrayList<>();
                    for (String d : devIds) {
                        pvs.add(state.device(CurtinOps.device(state, d), "lvcreate").size().count() * 512);
                    }
                    bytes = size.get().lvBytes(pvs, others);
                }
                List<String> words = new ArrayList<>(base);
                if (bytes > 0) {
                    words.addAll(List.of("--size", bytes + "B"));
                } else {
                    words.addAll(List.of("--extents", "100%FREE"));
                }
                List<String> out = Synthesized.run(e.origin(), words, state);
                CurtinOps.name(state, id, "/dev/" + vgName + "/" + name);
                return out;
            });
        }

        private PlanOp format(Entry e) {
            YamlFields f = e.fields();
            f.allowOnly(FORMAT_KEYS);
            Entry vol = ref(e, "volume", Set.of("partition", "disk", "lvm_partition", "raid"));
            String fstype = f.required("fstype", "a filesystem type (ext4, xfs, fat32, swap, ...)");
            if (!MKFS.containsKey(fstype)) {
                throw f.expected("fstype", f.node("fstype").orElseThrow(), "one of " + String.join(", ",
                        new java.util.TreeSet<>(MKFS.keySet())) + " (curtin: unsupported fs type)");
            }
            if (bool(f, "preserve")) {
                return PlanOp.of(e.origin(), "format", state -> List.of(CurtinOps.device(state, vol.id())
                        + ": preserved, not formatted"));
            }
            Optional<String> label = f.string("label");
            Optional<String> uuid = f.string("uuid");
            List<String> extra = new ArrayList<>();
            f.list("extra_options", false).orElse(List.of()).forEach(s -> extra.add(s.value()));
            String family = fstype.startsWith("ext") ? "ext" : fstype;
            // curtin/block/mkfs.py: mkfs — the sector size (above 512), force, the label cut to the family's limit,
            // the uuid (curtin makes a random one when none is given: left out here), extra options, the device
            java.util.function.LongFunction<List<String>> words = lbs -> {
                List<String> w = new ArrayList<>();
                w.add(MKFS.get(fstype));
                if (lbs > 512) {
                    w.addAll(family.equals("xfs") ? List.of("-s", "size=" + lbs) : List.of("-b", Long.toString(lbs)));
                }
                w.add(family.equals("xfs") ? "-f" : "-F");
                label.ifPresent(l -> {
                    w.add("-L");
                    w.add(l.length() > (family.equals("xfs") ? 12 : 16) ? l.substring(0, family.equals("xfs") ? 12 : 16)
                            : l);
                });
                uuid.ifPresent(u -> w.addAll(family.equals("xfs") ? List.of("-m", "uuid=" + u) : List.of("-U", u)));
                w.addAll(extra);
                w.add(placeholder(vol));
                return w;
            };
            String id = e.id();
            if (!MODELLED_FS.contains(fstype)) {
                return PlanOp.of(e.origin(), "format", state -> {
                    String dev = CurtinOps.device(state, vol.id());
                    CurtinOps.name(state, id, dev);
                    List<String> w = new ArrayList<>(words.apply(512));
                    w.set(w.size() - 1, dev);
                    return List.of(String.join(" ", w) + ": " + fstype + " is not run by the model (no effect on the "
                            + "block stack)");
                });
            }
            Synthesized.read(e.origin(), words.apply(512));
            Synthesized.read(e.origin(), words.apply(4096));
            return PlanOp.of(e.origin(), "format", state -> {
                List<String> w = words.apply(CurtinOps.logicalBlockSize(state, vol.id()));
                List<String> out = CurtinOps.run(state, e.origin(), w, Map.of(w.size() - 1, vol.id()));
                CurtinOps.name(state, id, CurtinOps.device(state, vol.id()));
                return out;
            });
        }

        private PlanOp mount(Entry e) {
            YamlFields f = e.fields();
            f.allowOnly(MOUNT_KEYS);
            if (!f.has("device") && f.has("spec")) {
                throw f.error(f.node("spec").orElseThrow(), "spec: mounts are not modelled yet: expected device: "
                        + "the id of a format entry");
            }
            Entry fmt = ref(e, "device", Set.of("format"));
            String fstype = fmt.fields().string("fstype").orElse("");
            Entry vol = byId.get(fmt.fields().string("volume").orElse(""));
            if (fstype.equals("swap")) {
                return PlanOp.of(e.origin(), "mount", state -> List.of(CurtinOps.device(state, vol.id())
                        + ": swap is not mounted (an fstab line only)"));
            }
            String path = f.required("path", "the mount point, such as /");
            if (!path.startsWith("/")) {
                throw f.expected("path", f.node("path").orElseThrow(), "an absolute mount point such as /srv");
            }
            String options = f.string("options").orElse("defaults");
            // curtin/commands/block_meta.py: mount_fstab_data — mount -t FSTYPE -o OPTIONS DEVICE TARGET/PATH
            List<String> words = new ArrayList<>(List.of("mount", "-t", fstype, "-o", options, placeholder(vol),
                    path));
            if (!MODELLED_FS.contains(fstype)) {
                return PlanOp.of(e.origin(), "mount", state -> {
                    List<String> w = new ArrayList<>(words);
                    w.set(5, CurtinOps.device(state, vol.id()));
                    return List.of(String.join(" ", w) + ": a " + fstype + " filesystem the model does not run (no "
                            + "effect on the block stack)");
                });
            }
            return synthesized(e, "mount", words, Map.of(5, vol.id()));
        }

        private PlanOp raid(Entry e) {
            YamlFields f = e.fields();
            f.allowOnly(RAID_KEYS);
            String name = f.required("name", "the array's name (md0 or a name for /dev/md/NAME)");
            YamlNode.Scalar levelNode = f.scalar("raidlevel").orElseThrow(() -> f.error(f.node("raidlevel")
                    .orElse(f.map()), "no raidlevel: expected raidlevel: raid1, raid5, ..."));
            String level = RAID_LEVELS.get(levelNode.value());
            if (level == null) {
                throw f.expected("raidlevel", levelNode, "one of " + String.join(", ",
                        new java.util.TreeSet<>(RAID_LEVELS.keySet())) + " (curtin: invalid raidlevel)");
            }
            if (f.has("container") || f.has("ptable") || bool(f, "preserve")) {
                YamlNode at = f.node("container").or(() -> f.node("ptable")).or(() -> f.node("preserve"))
                        .orElseThrow();
                throw f.error(at, "containers, partitioned arrays and preserved arrays are not modelled yet: "
                        + "expected a new array of devices");
            }
            // curtin/block/__init__.py: md_path
            String mdPath;
            if (name.startsWith("/dev/md/") || name.matches("/dev/md[0-9]+")) {
                mdPath = name;
            } else if (name.contains("/")) {
                throw f.expected("name", f.node("name").orElseThrow(), "md0 or a name without / (curtin: Invalid "
                        + "RAID device name)");
            } else {
                mdPath = name.matches("md[0-9]+") ? "/dev/" + name : "/dev/md/" + name;
            }
            List<YamlNode.Scalar> devices = f.list("devices", false).orElseThrow(() -> f.error(f.node("devices")
                    .orElse(f.map()), "no devices (curtin: devices or container for raid must be specified): "
                    + "expected devices: [ids]"));
            List<YamlNode.Scalar> spares = f.list("spare_devices", false).orElse(List.of());
            String metadata = f.string("metadata").orElse("default");
            // curtin/block/mdadm.py: mdadm_create
            List<String> words = new ArrayList<>(List.of("mdadm", "--create", mdPath, "--run", "--homehost="
                    + HOMEHOST, "--raid-devices=" + devices.size(), "--metadata=" + metadata, "--level=" + level));
            Map<Integer, String> ids = new LinkedHashMap<>();
            for (YamlNode.Scalar d : devices) {
                Entry t = ref(e, "devices", d, Set.of("partition", "disk"));
                ids.put(words.size(), t.id());
                words.add(placeholder(t));
            }
            if (!spares.isEmpty()) {
                words.add("--spare-devices=" + spares.size());
                for (YamlNode.Scalar d : spares) {
                    Entry t = ref(e, "spare_devices", d, Set.of("partition", "disk"));
                    ids.put(words.size(), t.id());
                    words.add(placeholder(t));
                }
            }
            Synthesized.read(e.origin(), words);
            String id = e.id();
            return PlanOp.of(e.origin(), "raid", state -> CurtinOps.mdadm(state, e.origin(), words, ids, id));
        }

        /** Reads the words now (with the config's own paths) and runs them with the host's. */
        private PlanOp synthesized(Entry e, String tool, List<String> words, Map<Integer, String> ids) {
            Synthesized.read(e.origin(), words);
            String id = e.id();
            return PlanOp.of(e.origin(), tool, state -> {
                List<String> out = CurtinOps.run(state, e.origin(), words, ids);
                if (tool.equals("mount")) {
                    CurtinOps.name(state, id, CurtinOps.device(state, ids.values().iterator().next()));
                }
                return out;
            });
        }

        /** The path an entry's device has as the config alone tells it (the host's is put in when it runs). */
        private String placeholder(Entry t) {
            return switch (t.type()) {
                case "disk" -> t.fields().string("path").orElse("/dev/" + t.id());
                case "partition" -> {
                    PartEntry p = parts.get(t.id());
                    Entry d = byId.get(p.disk());
                    String dp = d.fields().string("path").orElse("/dev/" + d.id());
                    yield "/dev/" + CurtinOps.partitionName(dp.substring(dp.lastIndexOf('/') + 1), p.number());
                }
                case "lvm_partition" -> "/dev/" + byId.get(t.fields().string("volgroup").orElse("")).fields()
                        .string("name").orElse("vg") + "/" + t.fields().string("name").orElse("lv");
                case "raid" -> "/dev/md/" + t.fields().string("name").orElse(t.id());
                default -> "/dev/" + t.id();
            };
        }
    }
}
