package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.CowSnapshotRequest;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.LvmVersion;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.units.SizeUnit;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a layout file (docs/layout-format.md): a YAML or JSON document with {@code version: 1}, an optional
 * {@code kernel:} and the {@code steps:} an administrator would run, each a mapping whose command key
 * ({@code disk}, {@code partition_table}, {@code pvcreate}, {@code vgcreate}, {@code lvcreate}, {@code lvextend},
 * {@code thin_pool}, {@code thin_pool_convert}, {@code thin}, {@code snapshot}, {@code raid}, {@code dmsetup_create},
 * {@code queue}, {@code partition}, {@code import_vg})
 * says what it is. Every problem is a {@link LayoutFileException} naming the file, line and column; unknown keys
 * are errors naming the keys allowed there. Nothing is returned for a file with a problem.
 */
public final class LayoutFileReader {

    /** The format version this reader reads. */
    public static final int VERSION = 1;

    static final List<String> TOP_KEYS = List.of("version", "kernel", "steps");
    /** What {@code kernel:} takes ({@link KernelProfile#of(String)}). */
    private static final String KERNEL = "a kernel profile (7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0) or a release"
            + " such as 6.8 or 4.18.0-553.el8_10.x86_64";
    static final List<String> COMMANDS = List.of("disk", "partition_table", "partition", "md_array", "queue",
            "pvcreate",
            "vgcreate", "vgextend", "import_vg", "lvcreate", "lvextend", "thin_pool", "thin_pool_convert", "thin", "snapshot",
            "raid", "dmsetup_create");
    private static final List<String> ALLOC_WORDS = List.of("contiguous", "cling", "normal", "anywhere", "inherit");
    private static final Pattern RANGE = Pattern.compile("(.+):([0-9]{1,18})-([0-9]{1,18})");

    private final LayoutDoc doc;

    private LayoutFileReader(LayoutDoc doc) {
        this.doc = doc;
    }

    /**
     * Reads a layout file (UTF-8). The file's name as given is the source in messages.
     *
     * @throws LayoutFileException for a file that cannot be read or is not a valid layout file
     */
    public static LayoutFile read(Path file) {
        return read(text(file), file.toString());
    }

    /**
     * A layout file's text (UTF-8), for {@link #read(String, String)} with the file's name as given as the source.
     *
     * @throws LayoutFileException at 1:1 for a file that does not exist, cannot be read, is larger than a layout
     *     file may be, or is not UTF-8
     */
    public static String text(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        byte[] bytes;
        try {
            if (Files.isRegularFile(file) && Files.size(file) > 4L * LayoutDoc.MAX_CHARS) {
                throw new LayoutFileException(source, 1, 1, "a file of " + Files.size(file) + " bytes",
                        "a layout file of at most " + LayoutDoc.MAX_CHARS + " characters", null);
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new LayoutFileException(source, 1, 1, "no such file", "a layout file", e);
        } catch (IOException e) {
            throw new LayoutFileException(source, 1, 1, "a file that cannot be read (" + e + ")",
                    "a readable layout file", e);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new LayoutFileException(source, 1, 1, "bytes that are not UTF-8", "a UTF-8 text file", e);
        }
        return text;
    }

    /**
     * Reads a layout file's text.
     *
     * @param text the YAML or JSON text
     * @param source the file name for messages, or {@code <input>}
     * @throws LayoutFileException for text that is not a valid layout file
     */
    public static LayoutFile read(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        LayoutDoc.Parsed parsed = LayoutDoc.parse(t, source);
        return new LayoutFileReader(parsed.doc()).document(parsed.root());
    }

    private LayoutFile document(DocNode root) {
        if (root == null) {
            throw new LayoutFileException(doc.source, 1, 1, "an empty file",
                    "a mapping with version: 1, an optional kernel and steps", null);
        }
        LayoutDoc.Fields top = doc.mapping(root, "a layout file").allow(TOP_KEYS);
        DocNode version = top.require("version", "the format version, " + VERSION);
        long v = doc.integer(version, "the format version", 0, Integer.MAX_VALUE, false);
        if (v != VERSION) {
            throw doc.error(version, "version " + v, "version " + VERSION + " (the only version this dmmodel reads)");
        }
        Optional<KernelProfile> kernel = top.get("kernel").map(n -> {
            String name = doc.text(n, KERNEL).strip();
            try {
                return KernelProfile.of(name);
            } catch (IllegalArgumentException e) {
                throw doc.error(n, LayoutDoc.describe(n), KERNEL, e);
            }
        });
        DocNode stepsNode = top.require("steps", "the list of steps");
        List<LayoutStep> steps = new ArrayList<>();
        List<LayoutFile.Location> locations = new ArrayList<>();
        for (DocNode n : doc.list(stepsNode, "the steps")) {
            steps.add(step(n));
            locations.add(new LayoutFile.Location(n.line(), n.column()));
        }
        return new LayoutFile(doc.source, kernel, steps, locations);
    }

    private LayoutStep step(DocNode n) {
        LayoutDoc.Fields f = doc.mapping(n, "a step");
        List<String> commands = f.keys().stream().filter(COMMANDS::contains).toList();
        if (commands.size() != 1) {
            throw doc.error(n, commands.isEmpty() ? "a step with keys " + f.keys() + " and no command key"
                    : "a step with several command keys " + commands,
                    "exactly one command key: " + String.join(", ", COMMANDS));
        }
        String command = commands.get(0);
        // "an lvcreate step", "an import_vg step", "a disk step"
        f = doc.mapping(n, ("aeioul".indexOf(command.charAt(0)) >= 0 ? "an " : "a ") + command + " step");
        try {
            switch (command) {
                case "disk":
                    return disk(f);
                case "partition_table":
                    return partitionTable(f);
                case "partition":
                    return partition(f);
                case "md_array":
                    return mdArray(f);
                case "queue":
                    return queue(f);
                case "pvcreate":
                    return pvcreate(f);
                case "vgcreate":
                    return vgcreate(f);
                case "vgextend":
                    return vgextend(f);
                case "import_vg":
                    return importVg(f);
                case "lvcreate":
                    return lvcreate(f);
                case "lvextend":
                    return lvextend(f);
                case "thin_pool":
                    return thinPool(f);
                case "thin_pool_convert":
                    return thinPoolConvert(f);
                case "thin":
                    return thin(f);
                case "snapshot":
                    return snapshot(f);
                case "raid":
                    return raid(f);
                default:
                    return dmsetupCreate(f);
            }
        } catch (LayoutFileException e) {
            throw e;
        } catch (IllegalArgumentException | IllegalStateException e) {
            // a record's own check (a request with neither size nor extents, ...): at the step
            throw doc.error(n, "a " + command + " step that is not valid (" + e.getMessage() + ")",
                    "a " + command + " step as docs/layout-format.md describes it", e);
        }
    }

    private static List<String> keys(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    // ------------------------------------------------------------------ disks and partitions

    private LayoutStep disk(LayoutDoc.Fields f) {
        String name = doc.name(f.get("disk").orElseThrow(), "the disk's kernel name (disk: sda)");
        if (f.has("preset") == f.has("driver")) {
            throw doc.error(f.node, f.has("preset") ? "a disk with both 'preset' and 'driver'"
                    : "a disk without 'preset' or 'driver'", "exactly one of preset (" + String.join(", ",
                    DiskFormat.PRESET_WORDS) + ") and driver (" + String.join(", ", DiskFormat.DRIVER_WORDS) + ")");
        }
        List<String> params = List.of();
        DiskSpec.Builder b;
        if (f.has("preset")) {
            DocNode p = f.get("preset").orElseThrow();
            String word = DiskFormat.PRESET_WORDS.get(doc.word(p, "preset", DiskFormat.PRESET_WORDS));
            switch (word) {
                case "hardware-raid":
                    params = List.of("raid_level", "raid_disks", "raid_chunk");
                    break;
                case "3ware":
                    params = List.of("raid_disks");
                    break;
                case "scsi-debug":
                    params = List.of("sector_size", "physblk_exp", "opt_blks");
                    break;
                default:
                    break;
            }
            f.allow(keys(keys(List.of("disk", "preset", "size", "dev"), params), limitKeys()));
            b = preset(f, p, word).toBuilder();
        } else {
            f.allow(keys(List.of("disk", "driver", "size", "dev"), limitKeys()));
            int d = doc.word(f.get("driver").orElseThrow(), "driver", DiskFormat.DRIVER_WORDS);
            b = DiskSpec.builder(DiskDriver.values()[d]);
        }
        DocNode sizeNode = f.require("size", "the disk's size, such as 100GiB");
        Sectors size = doc.sectors(sizeNode, "the disk's size", null);
        if (size.count() == 0) {
            throw doc.error(sizeNode, LayoutDoc.describe(sizeNode), "a disk size of at least one sector");
        }
        b.size(size);
        for (String key : DiskFormat.BLOCK_KEYS) {
            Optional<DocNode> v = f.get(key);
            if (v.isEmpty()) {
                continue;
            }
            long bytes = doc.bytes(v.get(), key, SizeUnit.BYTES).count();
            if (!key.equals("minimum_io_size") && (bytes < 512 || bytes > (1 << 20) || Long.bitCount(bytes) != 1)) {
                throw doc.error(v.get(), LayoutDoc.describe(v.get()), key + ": a power of two from 512 to 1048576");
            }
            if (bytes > QueueLimits.UINT_MAX) {
                throw doc.error(v.get(), LayoutDoc.describe(v.get()) + " (out of range)",
                        key + ": at most " + QueueLimits.UINT_MAX + " bytes");
            }
            switch (key) {
                case "logical_block_size":
                    b.logicalBlockSize(bytes);
                    break;
                case "physical_block_size":
                    b.physicalBlockSize(bytes);
                    break;
                default:
                    b.ioMin(bytes);
                    break;
            }
        }
        DiskSpec base = b.build();
        QueueLimits.Builder q = base.limits().toBuilder();
        for (DiskFormat.LimitKey k : DiskFormat.LIMIT_KEYS) {
            Optional<DocNode> v = f.get(k.key());
            if (v.isPresent()) {
                k.set().accept(q, limitValue(v.get(), k));
            }
        }
        long maxSectors = f.get("max_sectors").map(v -> doc.integer(v, "max_sectors (0 = derived by the kernel)",
                0, QueueLimits.UINT_MAX, false)).orElse(base.maxSectors());
        long readAhead = f.get("read_ahead_kb").map(v -> doc.integer(v, "read_ahead_kb (0 = derived by the kernel)",
                0, QueueLimits.UINT_MAX, false)).orElse(base.readAheadKb());
        String description = f.get("description").map(v -> doc.text(v, "a description")).orElse(base.description());
        QueueLimits limits;
        try {
            limits = q.build();
        } catch (IllegalArgumentException e) {
            throw doc.error(f.node, "limits that are not valid (" + e.getMessage() + ")", "valid queue limits", e);
        }
        Optional<DevNumber> dev = f.get("dev").map(this::devNumber);
        return new LayoutStep.AddDisk(name, new DiskSpec(base.driver(), size, limits, maxSectors, readAhead,
                description), dev);
    }

    private static List<String> limitKeys() {
        List<String> out = new ArrayList<>(DiskFormat.BLOCK_KEYS);
        DiskFormat.LIMIT_KEYS.forEach(k -> out.add(k.key()));
        out.addAll(DiskFormat.SPEC_KEYS);
        return out;
    }

    private Object limitValue(DocNode v, DiskFormat.LimitKey k) {
        boolean segments = k.key().equals("max_segments") || k.key().equals("max_discard_segments");
        long max = segments ? QueueLimits.USHRT_MAX : k.kind() == DiskFormat.Kind.MASK
                && k.key().endsWith("boundary_mask") ? Long.MAX_VALUE : QueueLimits.UINT_MAX;
        switch (k.kind()) {
            case BOOL:
                return doc.bool(v, k.key());
            case BYTES: {
                long bytes = doc.bytes(v, k.key(), SizeUnit.BYTES).count();
                if (bytes > max) {
                    throw doc.error(v, LayoutDoc.describe(v) + " (out of range)", k.key() + ": at most " + max + " bytes");
                }
                return bytes;
            }
            case MASK:
                return doc.integer(v, k.key(), 0, max, true);
            default:
                return doc.integer(v, k.key(), 0, max, false);
        }
    }

    private DiskSpec preset(LayoutDoc.Fields f, DocNode p, String word) {
        try {
            switch (word) {
                case "hardware-raid": {
                    List<String> levels = List.of("raid0", "raid1", "raid5", "raid6", "raid10");
                    int level = doc.word(f.require("raid_level", "raid0, raid1, raid5, raid6 or raid10"),
                            "raid_level", levels);
                    long disks = doc.integer(f.require("raid_disks", "the number of member disks"), "raid_disks",
                            1, 1024, false);
                    Bytes chunk = doc.bytes(f.require("raid_chunk", "the per-disk chunk, such as 64KiB"),
                            "raid_chunk", null);
                    return DiskPresets.hardwareRaid(RaidLevel.values()[level], (int) disks, chunk);
                }
                case "3ware":
                    return DiskPresets.threeWare((int) doc.integer(f.require("raid_disks", "the number of member disks"),
                            "raid_disks", 1, 1024, false));
                case "scsi-debug": {
                    long sectorSize = f.get("sector_size").map(v -> (long) List.of(512L, 1024L, 2048L, 4096L).get(
                            doc.word(v, "sector_size", List.of("512", "1024", "2048", "4096")))).orElse(512L);
                    long exp = f.get("physblk_exp").map(v -> doc.integer(v, "physblk_exp", 0, 7, false)).orElse(0L);
                    long opt = f.get("opt_blks").map(v -> doc.integer(v, "opt_blks", 0, 65536, false)).orElse(1024L);
                    return DiskPresets.scsiDebug(sectorSize, sectorSize << exp, opt);
                }
                default:
                    for (DiskFormat.Preset pr : DiskFormat.PLAIN_PRESETS) {
                        if (pr.word().equals(word)) {
                            return pr.make().get();
                        }
                    }
                    throw new IllegalStateException("preset " + word);
            }
        } catch (LayoutFileException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw doc.error(p, "preset " + word + " with parameters that are not valid (" + e.getMessage() + ")",
                    "parameters the preset accepts", e);
        }
    }

    private DevNumber devNumber(DocNode n) {
        String t = doc.text(n, "a device number major:minor such as \"8:16\"");
        try {
            return DevNumber.parse(t);
        } catch (IllegalArgumentException e) {
            throw doc.error(n, LayoutDoc.describe(n) + " (" + e.getMessage() + ")",
                    "a device number major:minor such as \"8:16\" (quoted in YAML)", e);
        }
    }

    private LayoutStep partitionTable(LayoutDoc.Fields f) {
        f.allow(List.of("partition_table", "type", "partitions"));
        String disk = doc.name(f.get("partition_table").orElseThrow(), "the disk to label");
        int type = doc.word(f.require("type", "msdos or gpt"), "the label type", List.of("msdos", "gpt"));
        List<PartitionSpec> parts = new ArrayList<>();
        for (DocNode n : doc.list(f.require("partitions", "the list of partitions 1..n"), "the partitions")) {
            LayoutDoc.Fields p = doc.mapping(n, "a partition").allow(List.of("start", "size", "align"));
            Optional<Sectors> size = p.get("size").map(v -> positive(v, doc.sectors(v, "the partition's size",
                    SizeUnit.SECTORS)));
            if (p.has("start")) {
                if (p.has("align")) {
                    throw doc.error(p.keyNode("align"), "'align' next to 'start'",
                            "either an explicit start or an alignment, not both");
                }
                parts.add(new PartitionSpec(PartitionSpec.Placement.EXPLICIT, Optional.of(doc.sectors(
                        p.get("start").orElseThrow(), "the partition's start", SizeUnit.SECTORS)), size));
            } else {
                int align = p.get("align").map(v -> doc.word(v, "align", List.of("optimal", "minimal"))).orElse(0);
                parts.add(new PartitionSpec(align == 0 ? PartitionSpec.Placement.OPTIMAL
                        : PartitionSpec.Placement.MINIMAL, Optional.empty(), size));
            }
        }
        return new LayoutStep.CreatePartitionTable(disk, PartitionTableType.values()[type], parts);
    }

    private Sectors positive(DocNode n, Sectors s) {
        if (s.count() == 0) {
            throw doc.error(n, LayoutDoc.describe(n), "a size of at least one sector");
        }
        return s;
    }

    private LayoutStep partition(LayoutDoc.Fields f) {
        f.allow(List.of("partition", "number", "start", "size", "kernel_name", "dev"));
        String disk = doc.name(f.get("partition").orElseThrow(), "the disk of the partition");
        long number = doc.integer(f.require("number", "the partition number"), "the partition number", 1, 256, false);
        Sectors start = doc.sectors(f.require("start", "the first sector"), "the partition's start", SizeUnit.SECTORS);
        DocNode sizeNode = f.require("size", "the size");
        Sectors size = positive(sizeNode, doc.sectors(sizeNode, "the partition's size", SizeUnit.SECTORS));
        Optional<String> kname = f.get("kernel_name").map(v -> doc.name(v, "the partition's kernel name"));
        return new LayoutStep.AddPartition(disk, (int) number, start, size, kname, f.get("dev").map(this::devNumber));
    }

    // an md array as the kernel lists it (/sys/block/mdN/md/): level, slots, chunk, layout, metadata, members
    private LayoutStep mdArray(LayoutDoc.Fields f) {
        f.allow(List.of("md_array", "level", "raid_disks", "chunk", "layout", "metadata", "members", "dev"));
        String name = doc.name(f.get("md_array").orElseThrow(), "the array's kernel name");
        List<String> levelWords = java.util.Arrays.stream(dev.dmmodel.device.MdLevel.values())
                .map(dev.dmmodel.device.MdLevel::sysfsName).toList();
        dev.dmmodel.device.MdLevel level = dev.dmmodel.device.MdLevel.values()[doc.word(
                f.require("level", "the md level"), "the md level", levelWords)];
        List<DocNode> memberNodes = doc.list(f.require("members", "the members with their slots and data areas"),
                "the members");
        List<dev.dmmodel.device.MdMember> members = new ArrayList<>();
        for (DocNode n : memberNodes) {
            LayoutDoc.Fields m = doc.mapping(n, "a member").allow(List.of("device", "slot", "data_offset",
                    "data_size"));
            members.add(new dev.dmmodel.device.MdMember(
                    doc.name(m.require("device", "the member device"), "the member device"),
                    (int) doc.integer(m.require("slot", "the member's slot"), "the member's slot", 0, 65535, false),
                    doc.sectors(m.require("data_offset", "where the data starts on the member"),
                            "the member's data offset", SizeUnit.SECTORS),
                    doc.sectors(m.require("data_size", "the data size on the member"), "the member's data size",
                            SizeUnit.SECTORS)));
        }
        long raidDisks = f.get("raid_disks").map(v -> doc.integer(v, "raid_disks", 1, 65536, false))
                .orElse((long) members.size());
        Sectors chunk = f.get("chunk").map(v -> doc.sectors(v, "the chunk size", SizeUnit.BYTES)).orElse(Sectors.of(0));
        long layout = f.get("layout").map(v -> doc.integer(v, "the md layout number", -1, Integer.MAX_VALUE, false))
                .orElse(0L);
        String metadata = f.get("metadata").map(v -> doc.text(v, "the metadata version")).orElse("1.2");
        return new LayoutStep.AddMdArray(name, new dev.dmmodel.device.MdArraySpec(level, (int) raidDisks, chunk,
                (int) layout, metadata, members), f.get("dev").map(this::devNumber));
    }

    private LayoutStep queue(LayoutDoc.Fields f) {
        f.allow(List.of("queue", "max_sectors_kb"));
        String device = doc.name(f.get("queue").orElseThrow(), "the device whose queue/ is written");
        long kb = doc.integer(f.require("max_sectors_kb", "the value written to queue/max_sectors_kb"),
                "max_sectors_kb", 0, QueueLimits.UINT_MAX / 2, false);
        return new LayoutStep.SetMaxSectorsKb(device, kb);
    }

    // ------------------------------------------------------------------ LVM

    private LayoutStep pvcreate(LayoutDoc.Fields f) {
        f.allow(List.of("pvcreate", "data_alignment", "data_alignment_offset", "metadata_size", "metadata_copies",
                "default_data_alignment", "data_alignment_detection", "data_alignment_offset_detection",
                "lvm_version"));
        String device = doc.name(f.get("pvcreate").orElseThrow(), "the device to initialise");
        PvCreateOptions o = PvCreateOptions.DEFAULTS;
        if (f.has("lvm_version")) {
            int v = doc.word(f.get("lvm_version").orElseThrow(), "lvm_version", List.of("2.03", "2.00"));
            o = o.withVersion(v == 0 ? LvmVersion.LVM2_2_03 : LvmVersion.LVM2_2_00);
        }
        if (f.has("data_alignment")) {
            o = o.withDataAlignment(doc.sectors(f.get("data_alignment").orElseThrow(), "data_alignment", null));
        }
        if (f.has("data_alignment_offset")) {
            o = o.withDataAlignmentOffset(doc.sectors(f.get("data_alignment_offset").orElseThrow(),
                    "data_alignment_offset", null));
        }
        if (f.has("metadata_size")) {
            o = o.withMetadataSize(doc.sectors(f.get("metadata_size").orElseThrow(), "metadata_size", null));
        }
        if (f.has("metadata_copies")) {
            o = o.withMetadataCopies((int) doc.integer(f.get("metadata_copies").orElseThrow(), "metadata_copies",
                    0, 2, false));
        }
        if (f.has("default_data_alignment")) {
            o = o.withDefaultDataAlignmentMib(doc.integer(f.get("default_data_alignment").orElseThrow(),
                    "default_data_alignment (MiB)", 0, 1 << 20, false));
        }
        boolean detect = f.get("data_alignment_detection").map(v -> doc.bool(v, "data_alignment_detection"))
                .orElse(o.dataAlignmentDetection());
        boolean detectOffset = f.get("data_alignment_offset_detection")
                .map(v -> doc.bool(v, "data_alignment_offset_detection")).orElse(o.dataAlignmentOffsetDetection());
        return new LayoutStep.PvCreate(device, o.withDetection(detect, detectOffset));
    }

    private LayoutStep vgcreate(LayoutDoc.Fields f) {
        f.allow(List.of("vgcreate", "pvs", "extent_size", "alloc"));
        String name = doc.name(f.get("vgcreate").orElseThrow(), "the VG name");
        VgCreateOptions o = VgCreateOptions.DEFAULTS;
        if (f.has("extent_size")) {
            o = o.withExtentSize(doc.sectors(f.get("extent_size").orElseThrow(), "extent_size", null));
        }
        if (f.has("alloc")) {
            o = o.withAllocationPolicy(alloc(f.get("alloc").orElseThrow(), false));
        }
        DocNode pvsNode = f.require("pvs", "the list of PVs");
        List<String> pvs = names(pvsNode, "a PV's device");
        if (pvs.isEmpty()) {
            throw doc.error(pvsNode, "an empty list", "at least one PV");
        }
        return new LayoutStep.VgCreate(name, o, pvs);
    }

    private LayoutStep vgextend(LayoutDoc.Fields f) {
        f.allow(List.of("vgextend", "pvs"));
        String name = doc.name(f.get("vgextend").orElseThrow(), "the VG name");
        DocNode pvsNode = f.require("pvs", "the list of PVs");
        List<String> pvs = names(pvsNode, "a PV's device");
        if (pvs.isEmpty()) {
            throw doc.error(pvsNode, "an empty list", "at least one PV");
        }
        return new LayoutStep.VgExtend(name, pvs);
    }

    private AllocationPolicy alloc(DocNode n, boolean inherit) {
        List<String> words = inherit ? ALLOC_WORDS : ALLOC_WORDS.subList(0, 4);
        return AllocationPolicy.values()[doc.word(n, "alloc", words)];
    }

    private List<String> names(DocNode n, String what) {
        List<String> out = new ArrayList<>();
        for (DocNode e : doc.list(n, "a list of names")) {
            out.add(doc.name(e, what));
        }
        return out;
    }

    private LayoutStep importVg(LayoutDoc.Fields f) {
        f.allow(List.of("import_vg", "metadata_areas", "metadata"));
        DocNode nameNode = f.get("import_vg").orElseThrow();
        String name = doc.name(nameNode, "the VG name");
        DocNode m = f.require("metadata", "the VG's LVM text metadata, as vgcfgbackup writes it");
        String text = doc.text(m, "the VG's LVM text metadata, as vgcfgbackup writes it");
        VolumeGroup vg;
        try {
            vg = VgMetadataReader.read(text, doc.source);
        } catch (LvmMetadataException e) {
            int[] at = doc.blockLine(m, Math.max(0, e.line() - 1));
            throw new LayoutFileException(doc.source, at[0], at[1] + Math.max(0, e.column() - 1),
                    "LVM metadata that cannot be read (" + e.problem() + ")",
                    "the VG's LVM text metadata, as vgcfgbackup writes it", e);
        } catch (IllegalArgumentException e) {
            throw doc.error(m, "LVM metadata that cannot be read (" + e.getMessage() + ")",
                    "the VG's LVM text metadata, as vgcfgbackup writes it", e);
        }
        if (!vg.name().equals(name)) {
            throw doc.error(nameNode, "VG '" + name + "' whose metadata describes VG '" + vg.name() + "'",
                    "the name of the VG in the metadata");
        }
        if (f.has("metadata_areas")) {
            vg = withMetadataAreas(vg, doc.mapping(f.get("metadata_areas").orElseThrow(),
                    "the PVs' metadata area sizes (PV: {mda_size: SIZE, mda1_size: SIZE})"));
        }
        return new LayoutStep.ImportVolumeGroup(vg);
    }

    /** The VG with its PVs' metadata area sizes ({@code pvs -o pv_mda_size}), which the text metadata lacks. */
    private VolumeGroup withMetadataAreas(VolumeGroup vg, LayoutDoc.Fields areas) {
        List<String> pvNames = vg.physicalVolumes().stream().map(PhysicalVolume::device).toList();
        areas.allow(pvNames);
        List<PhysicalVolume> pvs = new ArrayList<>();
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            Optional<DocNode> n = areas.get(pv.device());
            if (n.isEmpty()) {
                pvs.add(pv);
                continue;
            }
            LayoutDoc.Fields a = doc.mapping(n.get(), "the metadata areas of PV " + pv.device())
                    .allow(List.of("mda_size", "mda1_size"));
            Sectors mda = a.get("mda_size").map(v -> doc.sectors(v, "mda_size", null)).orElse(pv.mdaSize());
            Sectors mda1 = a.get("mda1_size").map(v -> doc.sectors(v, "mda1_size", null)).orElse(pv.mda1Size());
            pvs.add(new PhysicalVolume(pv.device(), pv.devSize(), pv.peStart(), mda, mda1, pv.vgName(), pv.peCount(),
                    pv.extentSize()));
        }
        return new VolumeGroup(vg.name(), vg.extentSize(), pvs, vg.logicalVolumes(), vg.allocationPolicy());
    }

    private LayoutStep lvcreate(LayoutDoc.Fields f) {
        f.allow(List.of("lvcreate", "vg", "size", "extents", "stripes", "stripe_size", "alloc", "pvs", "pv_ranges"));
        String name = doc.name(f.get("lvcreate").orElseThrow(), "the LV name");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        LvCreateRequest.Builder b = LvCreateRequest.builder(name);
        sizeOrExtents(f, b::size, b::extents);
        f.get("stripes").ifPresent(v -> b.stripes((int) doc.integer(v, "stripes", 1, 128, false)));
        f.get("stripe_size").ifPresent(v -> b.stripeSize(doc.bytes(v, "stripe_size", null)));
        f.get("alloc").ifPresent(v -> b.policy(alloc(v, true)));
        f.get("pvs").ifPresent(v -> b.onPvs(names(v, "a PV's device").toArray(String[]::new)));
        f.get("pv_ranges").ifPresent(v -> b.onRanges(ranges(v)));
        return new LayoutStep.LvCreate(vg, b.build());
    }

    private List<ExtentRange> ranges(DocNode v) {
        List<ExtentRange> ranges = new ArrayList<>();
        for (DocNode e : doc.list(v, "extent ranges PV:FIRST-LAST")) {
            String t = doc.text(e, "an extent range PV:FIRST-LAST such as sdb:0-99");
            Matcher m = RANGE.matcher(t.strip());
            long first = m.matches() ? Long.parseLong(m.group(2)) : -1;
            long last = m.matches() ? Long.parseLong(m.group(3)) : -1;
            if (!m.matches() || last < first || m.group(1).isBlank()) {
                throw doc.error(e, LayoutDoc.describe(e), "an extent range PV:FIRST-LAST such as sdb:0-99, "
                        + "FIRST not above LAST");
            }
            ranges.add(new ExtentRange(m.group(1), first, last - first + 1));
        }
        return ranges;
    }

    private LayoutStep lvextend(LayoutDoc.Fields f) {
        f.allow(List.of("lvextend", "vg", "extents", "stripes", "stripe_size", "alloc", "pvs", "pv_ranges"));
        String name = doc.name(f.get("lvextend").orElseThrow(), "the LV to extend");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        long extents = doc.integer(f.require("extents", "the extents to add (lvextend -l +N)"), "extents", 1,
                1L << 40, false);
        long stripes = f.get("stripes").map(v -> doc.integer(v, "stripes (0: the LV's last segment's)", 0,
                128, false)).orElse(0L);
        Bytes stripeSize = f.get("stripe_size").map(v -> doc.bytes(v, "stripe_size", null)).orElse(null);
        AllocationPolicy policy = f.get("alloc").map(v -> alloc(v, true)).orElse(AllocationPolicy.INHERIT);
        List<String> pvs = f.get("pvs").map(v -> names(v, "a PV's device")).orElse(List.of());
        List<ExtentRange> ranges = f.get("pv_ranges").map(this::ranges).orElse(List.of());
        return new LayoutStep.LvExtend(vg, new LvExtendRequest(name, extents, (int) stripes, stripeSize, policy, pvs,
                ranges));
    }

    private LayoutStep thinPoolConvert(LayoutDoc.Fields f) {
        f.allow(List.of("thin_pool_convert", "vg", "pool_metadata", "chunk_size", "zero", "discards",
                "error_when_full", "chunk_size_policy", "pool_metadata_spare", "pvs", "pv_ranges"));
        String data = doc.name(f.get("thin_pool_convert").orElseThrow(), "the LV that becomes the pool");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        String meta = doc.name(f.require("pool_metadata", "the LV that becomes the pool's metadata (--poolmetadata)"),
                "the metadata LV");
        Bytes chunk = f.get("chunk_size").map(v -> doc.bytes(v, "chunk_size", null)).orElse(null);
        Boolean zero = f.get("zero").map(v -> doc.bool(v, "zero")).orElse(null);
        ThinDiscards discards = f.get("discards").map(v -> ThinDiscards.values()[doc.word(v, "discards",
                List.of("ignore", "nopassdown", "passdown"))]).orElse(null);
        boolean errorWhenFull = f.get("error_when_full").map(v -> doc.bool(v, "error_when_full")).orElse(false);
        ThinPoolRequest.ChunkPolicy policy = f.get("chunk_size_policy").map(v -> ThinPoolRequest.ChunkPolicy
                .values()[doc.word(v, "chunk_size_policy", List.of("generic", "performance"))])
                .orElse(ThinPoolRequest.ChunkPolicy.GENERIC);
        boolean spare = f.get("pool_metadata_spare").map(v -> doc.bool(v, "pool_metadata_spare")).orElse(true);
        List<String> pvs = f.get("pvs").map(v -> names(v, "a PV's device")).orElse(List.of());
        List<ExtentRange> ranges = f.get("pv_ranges").map(this::ranges).orElse(List.of());
        return new LayoutStep.ThinPoolConvert(vg, new ThinPoolConvertRequest(data, meta, chunk, zero, discards,
                errorWhenFull, policy, spare, pvs, ranges));
    }

    private void sizeOrExtents(LayoutDoc.Fields f, java.util.function.Consumer<Bytes> size,
                               java.util.function.LongConsumer extents) {
        if (f.has("size") == f.has("extents")) {
            throw doc.error(f.node, f.has("size") ? "both 'size' and 'extents'" : "neither 'size' nor 'extents'",
                    "exactly one of size (lvcreate -L, such as 10GiB) and extents (lvcreate -l, a count)");
        }
        if (f.has("size")) {
            DocNode n = f.get("size").orElseThrow();
            Bytes b = doc.bytes(n, "size", null);
            if (b.count() == 0) {
                throw doc.error(n, LayoutDoc.describe(n), "a size above zero");
            }
            size.accept(b);
        } else {
            extents.accept(doc.integer(f.get("extents").orElseThrow(), "extents", 1, 1L << 40, false));
        }
    }

    private LayoutStep thinPool(LayoutDoc.Fields f) {
        f.allow(List.of("thin_pool", "vg", "size", "extents", "chunk_size", "pool_metadata_size", "zero", "discards",
                "error_when_full", "stripes", "stripe_size", "chunk_size_policy", "pool_metadata_spare", "alloc",
                "pvs"));
        String name = doc.name(f.get("thin_pool").orElseThrow(), "the pool's LV name");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        ThinPoolRequest.Builder b = ThinPoolRequest.builder(name);
        sizeOrExtents(f, b::size, b::extents);
        f.get("chunk_size").ifPresent(v -> b.chunkSize(doc.bytes(v, "chunk_size", null)));
        f.get("pool_metadata_size").ifPresent(v -> b.poolMetadataSize(doc.bytes(v, "pool_metadata_size", null)));
        f.get("zero").ifPresent(v -> b.zero(doc.bool(v, "zero")));
        f.get("discards").ifPresent(v -> b.discards(ThinDiscards.values()[doc.word(v, "discards",
                List.of("ignore", "nopassdown", "passdown"))]));
        f.get("error_when_full").ifPresent(v -> b.errorWhenFull(doc.bool(v, "error_when_full")));
        f.get("stripes").ifPresent(v -> b.stripes((int) doc.integer(v, "stripes", 1, 128, false)));
        f.get("stripe_size").ifPresent(v -> b.stripeSize(doc.bytes(v, "stripe_size", null)));
        f.get("chunk_size_policy").ifPresent(v -> b.chunkPolicy(ThinPoolRequest.ChunkPolicy.values()[doc.word(v,
                "chunk_size_policy", List.of("generic", "performance"))]));
        f.get("pool_metadata_spare").ifPresent(v -> b.poolMetadataSpare(doc.bool(v, "pool_metadata_spare")));
        f.get("alloc").ifPresent(v -> b.policy(alloc(v, true)));
        f.get("pvs").ifPresent(v -> b.onPvs(names(v, "a PV's device").toArray(String[]::new)));
        return new LayoutStep.ThinPoolCreate(vg, b.build());
    }

    private LayoutStep thin(LayoutDoc.Fields f) {
        f.allow(List.of("thin", "vg", "pool", "virtual_size"));
        String name = doc.nameOrEmpty(f.get("thin").orElseThrow(), "the thin LV's name (\"\" for lvolN)");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        String pool = doc.name(f.require("pool", "the thin pool"), "the thin pool");
        DocNode sizeNode = f.require("virtual_size", "the virtual size (lvcreate -V)");
        Bytes size = doc.bytes(sizeNode, "virtual_size", null);
        if (size.count() == 0) {
            throw doc.error(sizeNode, LayoutDoc.describe(sizeNode), "a virtual size above zero");
        }
        return new LayoutStep.ThinLvCreate(vg, new ThinLvRequest(name, size, pool));
    }

    private LayoutStep snapshot(LayoutDoc.Fields f) {
        if (f.has("size")) {
            return cowSnapshot(f);
        }
        f.allow(List.of("snapshot", "vg", "origin"));
        String name = doc.nameOrEmpty(f.get("snapshot").orElseThrow(), "the snapshot's name (\"\" for lvolN)");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        String origin = doc.name(f.require("origin", "the thin LV to snapshot"), "the origin");
        return new LayoutStep.ThinSnapshotCreate(vg, new ThinSnapshotRequest(origin, name));
    }

    // lvcreate --type raid1|raid4|raid5*|raid6* (RaidLvRequest)
    private LayoutStep raid(LayoutDoc.Fields f) {
        f.allow(List.of("raid", "vg", "type", "size", "extents", "mirrors", "stripes", "stripe_size", "region_size",
                "nosync", "alloc", "pvs"));
        String name = doc.name(f.get("raid").orElseThrow(), "the RAID LV's name");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        List<String> types = dev.dmmodel.lvm.SegmentType.Raid.TYPES.stream().filter(t -> !t.startsWith("raid10"))
                .toList();
        String type = types.get(doc.word(f.require("type", "the RAID type (raid1, raid5, ...)"), "type", types));
        Bytes[] size = new Bytes[1];
        long[] extents = new long[1];
        sizeOrExtents(f, v -> size[0] = v, v -> extents[0] = v);
        int mirrors = f.get("mirrors").map(v -> (int) doc.integer(v, "mirrors", 1, 63, false)).orElse(0);
        int stripes = f.get("stripes").map(v -> (int) doc.integer(v, "stripes", 1, 128, false)).orElse(0);
        Bytes stripeSize = f.get("stripe_size").map(v -> doc.bytes(v, "stripe_size", null)).orElse(null);
        Bytes regionSize = f.get("region_size").map(v -> doc.bytes(v, "region_size", null)).orElse(null);
        boolean nosync = f.get("nosync").map(v -> doc.bool(v, "nosync")).orElse(false);
        dev.dmmodel.lvm.AllocationPolicy policy = f.get("alloc").map(v -> alloc(v, true))
                .orElse(dev.dmmodel.lvm.AllocationPolicy.INHERIT);
        List<String> pvs = f.get("pvs").map(v -> names(v, "a PV's device")).orElse(List.of());
        return new LayoutStep.RaidLvCreate(vg, new dev.dmmodel.lvm.RaidLvRequest(name, type, size[0], extents[0],
                mirrors, stripes, stripeSize, regionSize, nosync, policy, pvs));
    }

    // lvcreate -s -L: a snapshot step with a size is a classic (copy-on-write) snapshot
    private LayoutStep cowSnapshot(LayoutDoc.Fields f) {
        f.allow(List.of("snapshot", "vg", "origin", "size", "chunk_size", "pvs", "pv_ranges"));
        String name = doc.nameOrEmpty(f.get("snapshot").orElseThrow(), "the snapshot's name (\"\" for lvolN)");
        String vg = doc.name(f.require("vg", "the VG"), "the VG");
        String origin = doc.name(f.require("origin", "the LV to snapshot"), "the origin");
        DocNode sizeNode = f.require("size", "the COW store's size (lvcreate -s -L)");
        Bytes size = doc.bytes(sizeNode, "size", null);
        Sectors chunk = CowSnapshotRequest.DEFAULT_CHUNK;
        if (f.has("chunk_size")) {
            DocNode c = f.get("chunk_size").orElseThrow();
            Bytes bytes = doc.bytes(c, "chunk_size", null);
            if (bytes.count() % 512 != 0) {
                throw doc.error(c, LayoutDoc.describe(c), "chunk_size: a power of two from 4KiB to 512KiB");
            }
            chunk = Sectors.of(bytes.count() / 512);
        }
        List<String> pvs = f.get("pvs").map(v -> names(v, "a PV's device")).orElse(List.of());
        List<ExtentRange> ranges = f.get("pv_ranges").map(this::ranges).orElse(List.of());
        return new LayoutStep.CowSnapshotCreate(vg, new CowSnapshotRequest(origin, name, size, chunk, pvs, ranges));
    }

    // ------------------------------------------------------------------ dm

    private LayoutStep dmsetupCreate(LayoutDoc.Fields f) {
        f.allow(List.of("dmsetup_create", "table", "uuid", "kernel_name", "dev"));
        String name = doc.name(f.get("dmsetup_create").orElseThrow(), "the dm name");
        DocNode t = f.require("table", "the table, one target per line: <start> <length> <type> <arguments>");
        String text = doc.text(t, "the table, one target per line");
        DmTable table;
        try {
            // the same rules as dmsetup table text: dm-table.c and each target's constructor (impl.dm.table)
            table = dev.dmmodel.impl.dm.table.DmTableParser.parseDevice(name, text, doc.source).devices().get(0)
                    .table();
        } catch (dev.dmmodel.impl.dm.table.DmTableException e) {
            int[] at = doc.blockLine(t, Math.max(e.line(), 1) - 1);
            throw new LayoutFileException(doc.source, at[0], at[1], e.found(), e.expected(), e);
        }
        String uuid = f.get("uuid").map(v -> doc.text(v, "the dm uuid")).orElse("");
        Optional<String> kname = f.get("kernel_name").map(v -> doc.name(v, "the kernel name (dm-N)"));
        return new LayoutStep.DmCreate(name, uuid, table, kname, f.get("dev").map(this::devNumber));
    }
}
