package dev.dmmodel.impl.format.snapshot;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.DmTableLine;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTargets;
import dev.dmmodel.io.HostSnapshot.FilledAttribute;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.KernelRelease;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A host snapshot as described in {@code docs/snapshot-format.md}: the block devices a host's sysfs
 * showed ({@code block/<kname>/...}), its device-mapper tables ({@code dmsetup-table.txt}) and, optionally,
 * its kernel release, {@code dmsetup status} and LVM metadata backups.
 *
 * <p>{@link #read(Path)} reads and validates everything before returning, so a {@code Snapshot} is always
 * complete and consistent: every required file is present and parses, every dm table line names a known
 * device and target type, every dm device has a table whose size matches its {@code size} file, and the dm
 * devices can be created in some order. Instances are immutable.
 *
 * <p>{@link #toLayoutSpec(KernelProfile)} turns the snapshot into the layout steps that recreate the host:
 * the bottom devices (whole disks) with their recorded limits as inputs, their partitions, and the dm
 * devices in dependency order. The recorded queue limits of dm devices and the alignment offsets of dm
 * devices and partitions are what the kernel derived: they are kept as the expected answer
 * ({@link #recordedQueue(String)}, {@link #recordedAlignmentOffset(String)}) and never used as inputs.
 */
public final class Snapshot {

    /**
     * The queue attributes a bottom device must have: the inputs of its {@link DiskSpec}. A snapshot of a kernel
     * that predates one of them (Linux 3.10 has no {@code virt_boundary_mask}, ...) or of an unknown release may
     * lack it: the import then uses what such a kernel worked with and says so ({@link #filledIn()}).
     */
    public static final List<String> REQUIRED_QUEUE_ATTRIBUTES = List.of(
            "logical_block_size",
            "physical_block_size",
            "minimum_io_size",
            "optimal_io_size",
            "max_hw_sectors_kb",
            "max_sectors_kb",
            "max_segments",
            "max_segment_size",
            "virt_boundary_mask",
            "chunk_sectors",
            "discard_granularity",
            "discard_max_bytes",
            "discard_max_hw_bytes",
            "write_zeroes_max_bytes",
            "dma_alignment",
            "rotational",
            "read_ahead_kb");

    /** The dm target types this reader understands, as {@code dmsetup table} names them. */
    public static final List<String> TARGET_TYPES = DmTargets.TYPES;

    private static final Logger LOG = LoggerFactory.getLogger(Snapshot.class);
    private static final String TABLE_FILE = "dmsetup-table.txt";
    private static final String STATUS_FILE = "dmsetup-status.txt";
    private static final String LVM_REPORT_FILE = "report.json";
    private static final String RELEASE_FILE = "kernel-release";
    private static final Pattern DM_KNAME = Pattern.compile("dm-\\d+");
    /** Below this many block/ entries the queue files are read one device after the other. */
    private static final int PREFETCH_MIN_DEVICES = 16;
    private static final Pattern PV_BLOCK = Pattern.compile("(?m)^\\s*(pv\\d+)\\s*\\{([^{}]*)\\}");
    private static final Pattern PV_DEVICE = Pattern.compile("(?m)^\\s*device\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern PV_PE_START = Pattern.compile("(?m)^\\s*pe_start\\s*=\\s*([^\\s#]*)");

    /**
     * One {@code block/<kname>} entry: a whole disk or a dm device.
     *
     * @param kname the kernel name ({@code sda}, {@code dm-3})
     * @param dev the device number from {@code dev}
     * @param size the size from {@code size}, in 512-byte sectors
     * @param alignmentOffset the {@code alignment_offset} file in bytes ({@code -1} = misaligned); always
     *     present for a whole disk, possibly absent for a dm device
     * @param readOnly the {@code ro} file, if recorded
     * @param queue every {@code queue/<attr>} file, by name, as text with surrounding whitespace removed
     * @param dmName the {@code dm/name} file, for a dm device
     * @param dmUuid the {@code dm/uuid} file, for a dm device that recorded one
     * @param partitions the partitions of this device ({@code block/<kname>/<part>/}), by number
     * @param md the array's configuration ({@code block/<kname>/md/}, members by kernel name), for an md array of a
     *     level the model has
     */
    public record Device(String kname, DevNumber dev, Sectors size, OptionalLong alignmentOffset,
                         Optional<Boolean> readOnly, Map<String, String> queue, Optional<String> dmName,
                         Optional<String> dmUuid, List<PartitionEntry> partitions,
                         Optional<dev.dmmodel.device.MdArraySpec> md) {
        /** Rejects nulls and makes the collections immutable. */
        public Device {
            Objects.requireNonNull(kname, "kname");
            Objects.requireNonNull(dev, "dev");
            Objects.requireNonNull(size, "size");
            Objects.requireNonNull(alignmentOffset, "alignmentOffset");
            Objects.requireNonNull(readOnly, "readOnly");
            Objects.requireNonNull(dmName, "dmName");
            Objects.requireNonNull(dmUuid, "dmUuid");
            Objects.requireNonNull(md, "md");
            queue = Collections.unmodifiableMap(new TreeMap<>(queue));
            partitions = List.copyOf(partitions);
        }

        /** Whether this is a device-mapper device (it has a {@code dm/name}). */
        public boolean isDm() {
            return dmName.isPresent();
        }

        /** Whether this is an md array of a level the model has (it has {@code md/} with such a level). */
        public boolean isMd() {
            return md.isPresent();
        }
    }

    /**
     * One partition, {@code block/<disk>/<kname>/}.
     *
     * @param kname the partition's kernel name ({@code sda1}, {@code nvme0n1p2})
     * @param disk the kernel name of its whole disk
     * @param dev the device number from {@code dev}
     * @param number the {@code partition} file
     * @param start the {@code start} file, sectors relative to the disk
     * @param size the {@code size} file, sectors
     * @param alignmentOffset the partition's own {@code alignment_offset}, if recorded
     * @param readOnly the {@code ro} file, if recorded
     */
    public record PartitionEntry(String kname, String disk, DevNumber dev, int number, Sectors start, Sectors size,
                                 OptionalLong alignmentOffset, Optional<Boolean> readOnly) {
        /** Rejects nulls. */
        public PartitionEntry {
            Objects.requireNonNull(kname, "kname");
            Objects.requireNonNull(disk, "disk");
            Objects.requireNonNull(dev, "dev");
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(size, "size");
            Objects.requireNonNull(alignmentOffset, "alignmentOffset");
            Objects.requireNonNull(readOnly, "readOnly");
        }
    }

    /**
     * One line of {@code dmsetup-table.txt}, as recorded.
     *
     * @param lineNumber the 1-based line number in the file
     * @param dmName the dm name before the colon
     * @param start the target's first sector
     * @param length the target's length in sectors
     * @param target the target type
     * @param args the arguments, devices still as {@code major:minor}
     * @param text the whole line, stripped
     */
    public record TableLine(int lineNumber, String dmName, long start, long length, String target, List<String> args,
                            String text) {
        /** Rejects nulls. */
        public TableLine {
            Objects.requireNonNull(dmName, "dmName");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(text, "text");
            args = List.copyOf(args);
        }
    }

    private final Path directory;
    private final Optional<String> kernelRelease;
    private final Optional<KernelProfile> profile;
    private final Map<String, Device> devices;
    private final Map<String, PartitionEntry> partitions;
    private final Map<String, DiskSpec> diskSpecs;
    private final List<TableLine> tableLines;
    private final Map<String, DmTable> dmTables;
    private final List<String> dmsetupStatus;
    private final Map<String, Long> peStarts;
    private final List<dev.dmmodel.lvm.VolumeGroup> volumeGroups;
    private final List<String> lvmProblems;
    private final List<FilledAttribute> filledIn;

    private Snapshot(Reader r) {
        this.directory = r.dir;
        this.kernelRelease = r.kernelRelease;
        this.profile = r.profile;
        this.devices = Collections.unmodifiableMap(new LinkedHashMap<>(r.devices));
        this.partitions = Collections.unmodifiableMap(new LinkedHashMap<>(r.partitions));
        this.diskSpecs = Collections.unmodifiableMap(new LinkedHashMap<>(r.diskSpecs));
        this.tableLines = List.copyOf(r.tableLines);
        this.dmTables = Collections.unmodifiableMap(new LinkedHashMap<>(r.dmTables));
        this.dmsetupStatus = List.copyOf(r.status);
        this.peStarts = Collections.unmodifiableMap(new LinkedHashMap<>(r.peStarts));
        this.volumeGroups = List.copyOf(r.volumeGroups);
        this.lvmProblems = List.copyOf(r.lvmProblems);
        this.filledIn = List.copyOf(r.filledIn);
    }

    /**
     * The queue attributes of bottom devices this snapshot lacks because the host's kernel had no such sysfs file
     * (or its release is unknown), each with the value {@link #diskSpec(String)} used and why; bottom devices in
     * device-number order, attributes in a fixed order. The rules are {@code SysfsHistory}'s. {@link Device#queue()}
     * keeps only what was recorded.
     */
    public List<FilledAttribute> filledIn() {
        return filledIn;
    }

    /**
     * The volume groups of {@code lvm/*.vg} that import ({@code impl.lvm.text}), then those of the optional
     * {@code lvm/report.json} ({@code lvm fullreport --reportformat json --units s}, read by
     * {@code impl.lvm.report}) that no {@code .vg} file describes (a {@code .vg} file, whose name is the VG's,
     * wins), each on PVs this snapshot has; VGs from the report list their PVs and LVs in report order;
     * {@link #toLayoutSpec(KernelProfile)} adds them to the layout.
     */
    public List<dev.dmmodel.lvm.VolumeGroup> volumeGroups() {
        return volumeGroups;
    }

    /**
     * Why a {@code lvm/*.vg} file's (or {@code lvm/report.json}'s) volume group is not in {@link #volumeGroups()}:
     * a malformed report, a report column missing or rounded (the message says which option adds it), a segment
     * type or feature the model does not have, or a PV on a device the snapshot lacks; one message per file
     * (per VG for a report's PVs), naming it.
     */
    public List<String> lvmProblems() {
        return lvmProblems;
    }

    /**
     * Reads and validates a snapshot directory.
     *
     * @param dir the snapshot directory (the one holding {@code block/})
     * @return the snapshot, complete and immutable
     * @throws SnapshotException naming the file, what was found and what was expected, if a required file is
     *     missing or any file is malformed
     * @throws UncheckedIOException if a file exists but cannot be read
     */
    public static Snapshot read(Path dir) {
        Objects.requireNonNull(dir, "dir");
        return read(dir, FileAccess.DISK);
    }

    /** {@link #read(Path)} through {@code files}: the tests' way to read a tree of files held in memory. */
    static Snapshot read(Path dir, FileAccess files) {
        Objects.requireNonNull(dir, "dir");
        Reader r = new Reader(dir, files);
        r.read();
        return new Snapshot(r);
    }

    /** The few file operations the reader uses; {@link #DISK} is {@link Files}. */
    interface FileAccess {
        /** The file system itself. */
        FileAccess DISK = new FileAccess() {
            @Override
            public boolean exists(Path p) {
                return Files.exists(p);
            }

            @Override
            public boolean isDirectory(Path p) {
                return Files.isDirectory(p);
            }

            @Override
            public boolean isRegularFile(Path p) {
                return Files.isRegularFile(p);
            }

            @Override
            public String readString(Path p) throws IOException {
                return Files.readString(p, StandardCharsets.UTF_8);
            }

            @Override
            public List<Path> list(Path d) throws IOException {
                try (Stream<Path> s = Files.list(d)) {
                    return s.sorted().toList();
                }
            }

            @Override
            public Kind kind(Path p) {
                // one stat where exists and isDirectory make two: a large host has half a million files
                try {
                    return Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).isDirectory()
                            ? Kind.DIRECTORY : Kind.OTHER;
                } catch (IOException e) {
                    return Kind.NONE;
                }
            }
        };

        /** What is at a path, following links: {@link #kind(Path)}. */
        enum Kind { NONE, DIRECTORY, OTHER }

        boolean exists(Path p);

        boolean isDirectory(Path p);

        boolean isRegularFile(Path p);

        /** The file as UTF-8 text; {@link java.nio.charset.CharacterCodingException} if it is not. */
        String readString(Path p) throws IOException;

        /** The entries of a directory, sorted. */
        List<Path> list(Path d) throws IOException;

        /** Nothing ({@code !exists}), a directory, or something else that exists. */
        default Kind kind(Path p) {
            return !exists(p) ? Kind.NONE : isDirectory(p) ? Kind.DIRECTORY : Kind.OTHER;
        }
    }

    /** The directory this snapshot was read from. */
    public Path directory() {
        return directory;
    }

    /** The host's {@code uname -r}, if {@code kernel-release} was recorded. */
    public Optional<String> kernelRelease() {
        return kernelRelease;
    }

    /** The profile of the recorded kernel release ({@link KernelProfile#forRelease(String)}), if recorded. */
    public Optional<KernelProfile> profile() {
        return profile;
    }

    /** Every {@code block/<kname>} entry: whole disks by device number, then dm devices by device number. */
    public List<Device> devices() {
        return List.copyOf(devices.values());
    }

    /** The whole disk or dm device of that kernel name, if recorded (partitions: {@link #partition}). */
    public Optional<Device> device(String kname) {
        return Optional.ofNullable(devices.get(kname));
    }

    /**
     * The bottom devices (every {@code block/} entry that is neither a dm device nor a modelled md array), by device
     * number.
     */
    public List<Device> disks() {
        return devices.values().stream().filter(d -> !d.isDm() && !d.isMd()).toList();
    }

    /** The md arrays of levels the model has, by device number. */
    public List<Device> mdArrays() {
        return devices.values().stream().filter(Device::isMd).toList();
    }

    /** The dm devices in dependency order: each after every dm device its table uses. */
    public List<Device> dmDevices() {
        return dmTables.keySet().stream().map(devices::get).toList();
    }

    /** Every partition, disk by disk, by number. */
    public List<PartitionEntry> partitions() {
        return List.copyOf(partitions.values());
    }

    /** The partition of that kernel name, if recorded. */
    public Optional<PartitionEntry> partition(String kname) {
        return Optional.ofNullable(partitions.get(kname));
    }

    /**
     * The hardware description of a bottom device built from its recorded limits (see
     * {@link #toLayoutSpec(KernelProfile)}).
     *
     * @throws IllegalArgumentException if {@code kname} is not a bottom device of this snapshot
     */
    public DiskSpec diskSpec(String kname) {
        DiskSpec spec = diskSpecs.get(kname);
        if (spec == null) {
            throw new IllegalArgumentException("no bottom device '" + kname + "' in snapshot " + directory
                    + " (bottom devices: " + String.join(", ", diskSpecs.keySet()) + ")");
        }
        return spec;
    }

    /** Every line of {@code dmsetup-table.txt}, in file order (empty without dm devices). */
    public List<TableLine> tableLines() {
        return tableLines;
    }

    /**
     * The table of a dm device, devices translated to kernel names.
     *
     * @throws IllegalArgumentException if {@code kname} is not a dm device of this snapshot
     */
    public DmTable dmTable(String kname) {
        DmTable t = dmTables.get(kname);
        if (t == null) {
            throw new IllegalArgumentException("no dm device '" + kname + "' in snapshot " + directory
                    + " (dm devices: " + String.join(", ", dmTables.keySet()) + ")");
        }
        return t;
    }

    /** The lines of {@code dmsetup-status.txt} as recorded; empty if the file is absent. */
    public List<String> dmsetupStatus() {
        return dmsetupStatus;
    }

    /**
     * The {@code pe_start} of every physical volume in {@code lvm/*.vg}, by the PV's device hint as written
     * there ({@code /dev/sda1}), files in name order, PVs in file order. Empty without LVM metadata.
     */
    public Map<String, Long> recordedPeStarts() {
        return peStarts;
    }

    /**
     * The recorded {@code queue/} files of a device: for a disk or dm device its own, for a partition
     * (looked up by its own kernel name) its disk's, since a partition shares its disk's queue. For a dm
     * device these are the kernel's answer, never an input.
     *
     * @throws IllegalArgumentException if no device or partition has that kernel name
     */
    public Map<String, String> recordedQueue(String kname) {
        Device d = devices.get(kname);
        if (d != null) {
            return d.queue();
        }
        PartitionEntry p = partitions.get(kname);
        if (p != null) {
            return devices.get(p.disk()).queue();
        }
        throw unknown(kname);
    }

    /**
     * The recorded {@code alignment_offset} of a device or partition (a partition's own file), in bytes;
     * {@code -1} means misaligned. Empty if the snapshot has no such file.
     *
     * @throws IllegalArgumentException if no device or partition has that kernel name
     */
    public OptionalLong recordedAlignmentOffset(String kname) {
        Device d = devices.get(kname);
        if (d != null) {
            return d.alignmentOffset();
        }
        PartitionEntry p = partitions.get(kname);
        if (p != null) {
            return p.alignmentOffset();
        }
        throw unknown(kname);
    }

    private IllegalArgumentException unknown(String kname) {
        List<String> known = new ArrayList<>(devices.keySet());
        known.addAll(partitions.keySet());
        return new IllegalArgumentException("no device or partition '" + kname + "' in snapshot " + directory
                + " (known: " + String.join(", ", known) + ")");
    }

    /** {@link #toLayoutSpec(KernelProfile)} under the recorded kernel's profile, or the default profile. */
    public LayoutSpec toLayoutSpec() {
        return toLayoutSpec(profile.orElse(KernelProfile.defaultProfile()));
    }

    /**
     * The steps that recreate this host under a kernel profile: one {@link LayoutStep.AddDisk} per bottom
     * device with its recorded limits and device number, followed by one {@link LayoutStep.AddPartition}
     * per partition of it (kernel name and device number as recorded), then one {@link LayoutStep.DmCreate}
     * per dm device in dependency order with its dm name, uuid, kernel name, device number and table, then one
     * {@link LayoutStep.ImportVolumeGroup} per volume group of {@link #volumeGroups()}.
     */
    public LayoutSpec toLayoutSpec(KernelProfile kernel) {
        Objects.requireNonNull(kernel, "kernel");
        List<LayoutStep> steps = new ArrayList<>();
        for (Device d : disks()) {
            steps.add(new LayoutStep.AddDisk(d.kname(), diskSpecs.get(d.kname()), Optional.of(d.dev())));
            for (PartitionEntry p : d.partitions()) {
                steps.add(new LayoutStep.AddPartition(d.kname(), p.number(), p.start(), p.size(),
                        Optional.of(p.kname()), Optional.of(p.dev())));
            }
        }
        // md arrays and dm devices in one order: each once what it stands on exists, dm devices in their order
        Set<String> made = new java.util.HashSet<>();
        for (Device d : disks()) {
            made.add(d.kname());
        }
        List<Device> mds = new ArrayList<>(mdArrays());
        List<String> dms = new ArrayList<>(dmTables.keySet());
        int nextDm = 0; // dms before it are made (not removed one by one from the front: quadratic)
        while (!mds.isEmpty() || nextDm < dms.size()) {
            boolean progress = false;
            for (java.util.Iterator<Device> it = mds.iterator(); it.hasNext(); ) {
                Device d = it.next();
                dev.dmmodel.device.MdArraySpec spec = d.md().orElseThrow();
                if (spec.members().stream().allMatch(m -> made.contains(wholeOf(m.device())))) {
                    steps.add(new LayoutStep.AddMdArray(d.kname(), spec, Optional.of(d.dev())));
                    for (PartitionEntry p : d.partitions()) {
                        steps.add(new LayoutStep.AddPartition(d.kname(), p.number(), p.start(), p.size(),
                                Optional.of(p.kname()), Optional.of(p.dev())));
                    }
                    made.add(d.kname());
                    it.remove();
                    progress = true;
                }
            }
            while (nextDm < dms.size() && dmTables.get(dms.get(nextDm)).devices().stream()
                    .allMatch(u -> made.contains(wholeOf(u)))) {
                Device d = devices.get(dms.get(nextDm++));
                steps.add(new LayoutStep.DmCreate(d.dmName().orElseThrow(), d.dmUuid().orElse(""),
                        dmTables.get(d.kname()), Optional.of(d.kname()), Optional.of(d.dev())));
                made.add(d.kname());
                progress = true;
            }
            if (!progress) {
                throw new IllegalStateException(directory + ": md arrays " + mds.stream().map(Device::kname).toList()
                        + " and dm devices " + dms.subList(nextDm, dms.size()) + " stand on each other in a cycle");
            }
        }
        for (dev.dmmodel.lvm.VolumeGroup vg : volumeGroups) {
            steps.add(new LayoutStep.ImportVolumeGroup(vg));
        }
        return new LayoutSpec(kernel, steps);
    }

    /** The whole device a kernel name is on: a partition's disk or array, else the name itself. */
    private String wholeOf(String kname) {
        PartitionEntry p = partitions.get(kname);
        return p == null ? kname : p.disk();
    }

    /**
     * This snapshot as the API's value: the steps of {@link #toLayoutSpec(KernelProfile)}, every device's and
     * partition's recorded queue files and alignment offsets, the status lines, the LVM problems and the filled-in
     * attributes.
     */
    public dev.dmmodel.io.HostSnapshot toHostSnapshot() {
        Map<String, Map<String, String>> queues = new java.util.LinkedHashMap<>();
        Map<String, Long> offsets = new java.util.LinkedHashMap<>();
        for (Device d : devices()) {
            queues.put(d.kname(), d.queue());
            d.alignmentOffset().ifPresent(v -> offsets.put(d.kname(), v));
        }
        for (PartitionEntry p : partitions()) {
            queues.put(p.kname(), recordedQueue(p.kname()));
            p.alignmentOffset().ifPresent(v -> offsets.put(p.kname(), v));
        }
        return new dev.dmmodel.io.HostSnapshot(directory, kernelRelease, toLayoutSpec().steps(), queues, offsets,
                dmsetupStatus, lvmProblems, filledIn);
    }

    /**
     * The driver a kernel name suggests: {@code sd*} SCSI disk, {@code nvme*} NVMe, {@code vd*} virtio-blk,
     * {@code loop*} loop, {@code nb*}/{@code nullb*} null_blk (but not {@code nbdN}, the network block
     * device), anything else {@link DiskDriver#OTHER}.
     */
    public static DiskDriver driverOf(String kname) {
        if (kname.startsWith("sd")) {
            return DiskDriver.SD;
        }
        if (kname.startsWith("nvme")) {
            return DiskDriver.NVME;
        }
        if (kname.startsWith("vd")) {
            return DiskDriver.VIRTIO_BLK;
        }
        if (kname.startsWith("loop")) {
            return DiskDriver.LOOP;
        }
        if (kname.matches("nbd\\d+")) {
            return DiskDriver.OTHER;
        }
        if (kname.startsWith("nb") || kname.startsWith("nullb")) {
            return DiskDriver.NULL_BLK;
        }
        return DiskDriver.OTHER;
    }

    @Override
    public String toString() {
        return "Snapshot[" + directory + ", " + kernelRelease.orElse("no kernel-release") + ", "
                + devices.keySet() + "]";
    }

    /** Reads one snapshot directory; every check happens before the snapshot is built. */
    private static final class Reader {
        private final Path dir;
        private Optional<String> kernelRelease = Optional.empty();
        private Optional<KernelProfile> profile = Optional.empty();
        private Optional<KernelRelease> release = Optional.empty();
        private final Map<String, Device> devices = new LinkedHashMap<>();
        private final Map<String, PartitionEntry> partitions = new LinkedHashMap<>();
        private final Map<String, DiskSpec> diskSpecs = new LinkedHashMap<>();
        private final List<TableLine> tableLines = new ArrayList<>();
        private final Map<String, DmTable> dmTables = new LinkedHashMap<>();
        private final List<String> status = new ArrayList<>();
        private final Map<String, Long> peStarts = new LinkedHashMap<>();
        private final List<dev.dmmodel.lvm.VolumeGroup> volumeGroups = new ArrayList<>();
        private final List<String> lvmProblems = new ArrayList<>();
        private final List<FilledAttribute> filledIn = new ArrayList<>();
        /** Device number → kernel name, over disks, partitions and dm devices. */
        private final Map<DevNumber, String> byNumber = new HashMap<>();
        /** Where each device number was read, for the duplicate message. */
        private final Map<DevNumber, Path> numberFile = new HashMap<>();
        /** {@link #prefetchQueues}: a queue directory's files, or what reading them threw. */
        private final Map<Path, Object> prefetched = new java.util.concurrent.ConcurrentHashMap<>();
        /** The lines of dmsetup-table.txt as impl.dm.table split them, by line number. */
        private final Map<Integer, DmTableLine> parsedLines = new HashMap<>();

        private final FileAccess files;

        Reader(Path dir, FileAccess files) {
            this.dir = dir;
            this.files = files;
        }

        void read() {
            if (!files.isDirectory(dir)) {
                throw new SnapshotException(dir, files.exists(dir) ? "a file" : "nothing",
                        "a snapshot directory holding block/");
            }
            readRelease();
            readBlock();
            readTables();
            readStatus();
            readLvm();
        }

        // ---------------------------------------------------------------- kernel-release

        private void readRelease() {
            Path f = dir.resolve(RELEASE_FILE);
            Optional<String> text = optionalText(f, "the output of uname -r such as 6.1.0-57-amd64");
            if (text.isEmpty()) {
                return;
            }
            String release = text.get();
            if (release.isEmpty() || release.contains("\n")) {
                throw new SnapshotException(f, release.isEmpty() ? "an empty file" : quote(release),
                        "one line, the output of uname -r such as 6.1.0-57-amd64");
            }
            try {
                this.release = Optional.of(KernelRelease.parse(release));
                profile = Optional.of(KernelProfile.forRelease(release));
            } catch (IllegalArgumentException e) {
                throw new SnapshotException(f, quote(release), "the output of uname -r such as 6.1.0-57-amd64", e);
            }
            kernelRelease = Optional.of(release);
        }

        // ---------------------------------------------------------------- block/

        private void readBlock() {
            Path block = dir.resolve("block");
            if (!files.isDirectory(block)) {
                throw new SnapshotException(block, files.exists(block) ? "a file" : "no directory",
                        "a directory with one block/<kname>/ per block device");
            }
            List<Device> disks = new ArrayList<>();
            List<Device> dms = new ArrayList<>();
            List<Path> deviceDirs = subdirectories(block);
            prefetchQueues(deviceDirs);
            for (Path d : deviceDirs) {
                Device dev = readDevice(d);
                (dev.isDm() ? dms : disks).add(dev);
            }
            Comparator<Device> order = Comparator.comparing(Device::dev).thenComparing(Device::kname);
            disks.sort(order);
            dms.sort(order);
            Map<String, String> dmNames = new HashMap<>();
            for (Device d : disks) {
                devices.put(d.kname(), d);
                for (PartitionEntry p : d.partitions()) {
                    partitions.put(p.kname(), p);
                }
            }
            // the notes in device-number order, as the disks (stable: each disk's attributes keep their order)
            List<String> diskOrder = disks.stream().map(Device::kname).toList();
            filledIn.sort(Comparator.comparingInt(n -> diskOrder.indexOf(n.device())));
            for (Device d : dms) {
                devices.put(d.kname(), d);
                String other = dmNames.put(d.dmName().orElseThrow(), d.kname());
                if (other != null) {
                    throw new SnapshotException(block.resolve(d.kname()).resolve("dm").resolve("name"),
                            quote(d.dmName().orElseThrow()) + ", the dm name of " + other + " as well",
                            "a device-mapper name used by one device only");
                }
            }
            for (Device d : disks) {
                for (dev.dmmodel.device.MdMember m : d.md().map(dev.dmmodel.device.MdArraySpec::members)
                        .orElse(List.of())) {
                    if (!devices.containsKey(m.device()) && !partitions.containsKey(m.device())) {
                        throw new SnapshotException(block.resolve(d.kname()).resolve("md").resolve("dev-"
                                + m.device()), "a member " + m.device() + " that block/ does not have",
                                "members recorded under block/ (as disks, partitions or dm devices)");
                    }
                }
            }
            for (PartitionEntry p : partitions.values()) {
                if (devices.containsKey(p.kname())) {
                    throw new SnapshotException(block.resolve(p.disk()).resolve(p.kname()),
                            "a partition named like the device block/" + p.kname(),
                            "kernel names used by one device only");
                }
            }
        }

        private Device readDevice(Path d) {
            String kname = d.getFileName().toString();
            DevNumber dev = devNumber(d.resolve("dev"), kname);
            Sectors size = sectors(d.resolve("size"), "the size in 512-byte sectors, a non-negative decimal number");
            Path dmDir = d.resolve("dm");
            boolean dm = files.isDirectory(dmDir) || DM_KNAME.matcher(kname).matches();
            Optional<String> dmName = Optional.empty();
            Optional<String> dmUuid = Optional.empty();
            if (dm) {
                Path nameFile = dmDir.resolve("name");
                String name = requiredText(nameFile, "the device-mapper name of " + kname);
                if (name.isEmpty() || name.contains("\n") || name.contains(" ")) {
                    throw new SnapshotException(nameFile, name.isEmpty() ? "an empty file" : quote(name),
                            "the device-mapper name of " + kname + ", one word");
                }
                dmName = Optional.of(name);
                Path uuidFile = dmDir.resolve("uuid");
                dmUuid = optionalText(uuidFile, "the device-mapper uuid of " + kname);
                if (dmUuid.isPresent() && dmUuid.get().contains("\n")) {
                    throw new SnapshotException(uuidFile, quote(dmUuid.get()),
                            "the device-mapper uuid of " + kname + ", one line");
                }
            }
            Path alignFile = d.resolve("alignment_offset");
            OptionalLong alignment;
            if (dm) {
                alignment = files.exists(alignFile) ? OptionalLong.of(alignmentOffset(alignFile)) : OptionalLong.empty();
            } else {
                alignment = OptionalLong.of(alignmentOffset(alignFile));
            }
            Optional<Boolean> ro = readOnly(d.resolve("ro"));
            Map<String, String> queue = readQueue(d.resolve("queue"));
            List<PartitionEntry> parts = new ArrayList<>();
            for (Path sub : subdirectories(d)) {
                String n = sub.getFileName().toString();
                if (n.equals("queue") || n.equals("dm") || n.equals("md")) {
                    continue;
                }
                if (files.exists(sub.resolve("partition")) || files.exists(sub.resolve("dev"))) {
                    parts.add(readPartition(sub, kname));
                }
            }
            if (dm && !parts.isEmpty()) {
                throw new SnapshotException(d.resolve(parts.get(0).kname()), "a partition of dm device " + kname,
                        "partitions of whole disks only (the kernel does not scan dm devices for partitions)");
            }
            parts.sort(Comparator.comparingInt(PartitionEntry::number));
            for (int i = 1; i < parts.size(); i++) {
                if (parts.get(i).number() == parts.get(i - 1).number()) {
                    throw new SnapshotException(d.resolve(parts.get(i).kname()).resolve("partition"),
                            "partition number " + parts.get(i).number() + ", also the number of "
                                    + parts.get(i - 1).kname(), "a partition number used once per disk");
                }
            }
            Optional<dev.dmmodel.device.MdArraySpec> md = dm ? Optional.empty() : readMd(d.resolve("md"), kname);
            if (!dm && md.isEmpty()) {
                diskSpecs.put(kname, diskSpec(d, kname, size, alignment.getAsLong(), queue));
            }
            return new Device(kname, dev, size, alignment, ro, queue, dmName, dmUuid, parts, md);
        }

        /**
         * An md array's {@code md/} directory: level, raid disks, chunk, layout, metadata version and the active
         * members ({@code dev-<kname>/} with a numeric slot, in sync or not; spares and faulty members are left
         * out). Empty without {@code md/level} or for a level the model does not have (linear, multipath,
         * containers): such an array is read as a bottom device with its recorded limits.
         */
        // drivers/md/md.c: md_sysfs attributes level, raid_disks, chunk_size, layout, metadata_version; rdev
        // attributes slot, offset, size (KiB), state
        private Optional<dev.dmmodel.device.MdArraySpec> readMd(Path md, String kname) {
            Optional<String> levelText = files.isDirectory(md) ? optionalText(md.resolve("level"), "the md level")
                    : Optional.empty();
            if (levelText.isEmpty()) {
                return Optional.empty();
            }
            Optional<dev.dmmodel.device.MdLevel> level = dev.dmmodel.device.MdLevel.parse(levelText.get());
            if (level.isEmpty()) {
                LOG.debug("{}: md level {} is not modelled: the array is read with its recorded limits", kname,
                        levelText.get());
                return Optional.empty();
            }
            String disksExpected = "the number of member slots of " + kname + ", a positive decimal number";
            long raidDisks = number(md.resolve("raid_disks"), disksExpected);
            if (raidDisks < 1 || raidDisks > 1 << 16) {
                throw new SnapshotException(md.resolve("raid_disks"), quote(Long.toString(raidDisks)), disksExpected);
            }
            String chunkExpected = "the chunk size of " + kname + " in bytes, a multiple of 512";
            long chunkBytes = files.exists(md.resolve("chunk_size")) ? number(md.resolve("chunk_size"), chunkExpected)
                    : 0;
            if (chunkBytes < 0 || chunkBytes % 512 != 0 || (level.get().hasChunk() && chunkBytes == 0)) {
                throw new SnapshotException(md.resolve("chunk_size"), quote(Long.toString(chunkBytes)),
                        chunkExpected + (level.get().hasChunk() ? ", not 0 for " + level.get().sysfsName() : ""));
            }
            if (!level.get().hasChunk()) {
                chunkBytes = 0;
            }
            String layoutExpected = "the layout number of " + kname + " (raid5: 2 = left-symmetric, raid10: 258)";
            long layout = files.exists(md.resolve("layout")) ? number(md.resolve("layout"), layoutExpected) : 0;
            if (layout < Integer.MIN_VALUE || layout > Integer.MAX_VALUE) {
                throw new SnapshotException(md.resolve("layout"), quote(Long.toString(layout)), layoutExpected);
            }
            String metadata = optionalText(md.resolve("metadata_version"), "the metadata version").orElse("none");
            List<dev.dmmodel.device.MdMember> members = new ArrayList<>();
            for (Path dev : subdirectories(md)) {
                String n = dev.getFileName().toString();
                if (!n.startsWith("dev-")) {
                    continue;
                }
                String member = n.substring(4);
                String slotText = requiredText(dev.resolve("slot"), "the member's slot, a number or none");
                String state = optionalText(dev.resolve("state"), "the member's state").orElse("in_sync");
                if (slotText.equals("none") || state.contains("faulty") || state.contains("spare")) {
                    LOG.debug("{}: member {} ({}, slot {}) is not active: left out", kname, member, state, slotText);
                    continue;
                }
                long slot = parseLong(dev.resolve("slot"), slotText, "the member's slot, a number or none");
                if (slot < 0 || slot >= raidDisks) {
                    throw new SnapshotException(dev.resolve("slot"), quote(slotText), "a slot from 0 to "
                            + (raidDisks - 1) + " (md/raid_disks " + raidDisks + ")");
                }
                Sectors offset = sectors(dev.resolve("offset"),
                        "the data offset on " + member + " in 512-byte sectors, a non-negative decimal number");
                long kib = number(dev.resolve("size"), "the data size on " + member + " in KiB");
                if (kib < 0 || kib > Long.MAX_VALUE / 2) {
                    throw new SnapshotException(dev.resolve("size"), quote(Long.toString(kib)),
                            "the data size on " + member + " in KiB, a non-negative decimal number");
                }
                members.add(new dev.dmmodel.device.MdMember(member, (int) slot, offset, Sectors.of(kib * 2)));
            }
            if (members.isEmpty()) {
                throw new SnapshotException(md, "no active member (md/dev-*/slot)",
                        "an md array with at least one active member");
            }
            try {
                return Optional.of(new dev.dmmodel.device.MdArraySpec(level.get(), (int) raidDisks,
                        Sectors.of(chunkBytes / 512), (int) layout, metadata, members));
            } catch (IllegalArgumentException e) {
                throw new SnapshotException(md, e.getMessage(), "a consistent md array", e);
            }
        }

        private PartitionEntry readPartition(Path p, String disk) {
            String kname = p.getFileName().toString();
            DevNumber dev = devNumber(p.resolve("dev"), kname);
            long number = number(p.resolve("partition"), "the partition number, a decimal number from 1 to "
                    + Integer.MAX_VALUE);
            if (number < 1 || number > Integer.MAX_VALUE) {
                throw new SnapshotException(p.resolve("partition"), quote(Long.toString(number)),
                        "the partition number, a decimal number from 1 to " + Integer.MAX_VALUE);
            }
            Sectors start = sectors(p.resolve("start"),
                    "the start in 512-byte sectors relative to the disk, a non-negative decimal number");
            Sectors size = sectors(p.resolve("size"), "the size in 512-byte sectors, a non-negative decimal number");
            Path alignFile = p.resolve("alignment_offset");
            OptionalLong alignment = files.exists(alignFile) ? OptionalLong.of(alignmentOffset(alignFile))
                    : OptionalLong.empty();
            return new PartitionEntry(kname, disk, dev, (int) number, start, size, alignment, readOnly(p.resolve("ro")));
        }

        /**
         * Reads the {@code queue/} directories of many devices at once, on the common pool: a large host's snapshot
         * is mostly these files, and reading them is mostly waiting for the file system. What each gives, its files
         * or the exception reading them threw, is what {@link #readQueue} then returns or throws, when the
         * sequential reading gets there: a snapshot's first error stays the one reported.
         */
        private void prefetchQueues(List<Path> deviceDirs) {
            if (deviceDirs.size() < PREFETCH_MIN_DEVICES) {
                return;
            }
            deviceDirs.parallelStream().forEach(d -> {
                Path q = d.resolve("queue");
                Object v;
                try {
                    v = readQueueFiles(q);
                } catch (RuntimeException e) {
                    v = e;
                }
                prefetched.put(q, v);
            });
        }

        private Map<String, String> readQueue(Path queueDir) {
            Object v = prefetched.remove(queueDir);
            if (v instanceof RuntimeException e) {
                throw e;
            }
            if (v != null) {
                @SuppressWarnings("unchecked")
                Map<String, String> queue = (Map<String, String>) v;
                return queue;
            }
            return readQueueFiles(queueDir);
        }

        private Map<String, String> readQueueFiles(Path queueDir) {
            Map<String, String> queue = new TreeMap<>();
            if (!files.isDirectory(queueDir)) {
                return queue;
            }
            try {
                for (Path f : files.list(queueDir)) {
                    if (files.isRegularFile(f)) {
                        // a regular file: read at once (requiredText would ask twice more what it is)
                        queue.put(f.getFileName().toString(), readText(f, "a sysfs queue attribute").strip());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(queueDir + ": cannot list the directory: " + e.getMessage(), e);
            }
            return queue;
        }

        /**
         * The disk's hardware description from its recorded limits, verbatim; an attribute the host's kernel did not
         * show is filled as {@link SysfsHistory} says, and noted.
         */
        private DiskSpec diskSpec(Path d, String kname, Sectors size, long alignmentOffset,
                                  Map<String, String> recorded) {
            Path q = d.resolve("queue");
            if (!files.isDirectory(q)) {
                throw new SnapshotException(q, "no directory", "the queue/ files of bottom device " + kname + " ("
                        + String.join(", ", REQUIRED_QUEUE_ATTRIBUTES) + ")");
            }
            Map<String, String> queue = withHistoricDefaults(q, kname, recorded);
            long maxSectorsKb = queueValue(q, queue, "max_sectors_kb");
            long maxHwSectorsKb = queueValue(q, queue, "max_hw_sectors_kb");
            long readAheadKb = queueValue(q, queue, "read_ahead_kb");
            long maxSectors = doubled(q.resolve("max_sectors_kb"), maxSectorsKb);
            QueueLimits.Builder b = QueueLimits.builder()
                    .logicalBlockSize(queueValue(q, queue, "logical_block_size"))
                    .physicalBlockSize(queueValue(q, queue, "physical_block_size"))
                    .ioMin(queueValue(q, queue, "minimum_io_size"))
                    .ioOpt(queueValue(q, queue, "optimal_io_size"))
                    .alignmentOffset(Math.max(alignmentOffset, 0))
                    .misaligned(alignmentOffset < 0)
                    .maxHwSectors(doubled(q.resolve("max_hw_sectors_kb"), maxHwSectorsKb))
                    .maxSectors(maxSectors)
                    .maxSegments(queueValue(q, queue, "max_segments"))
                    .maxSegmentSize(queueValue(q, queue, "max_segment_size"))
                    .virtBoundaryMask(queueValue(q, queue, "virt_boundary_mask"))
                    .chunkSectors(queueValue(q, queue, "chunk_sectors"))
                    .discardGranularity(queueValue(q, queue, "discard_granularity"))
                    .maxDiscardSectors(bytesToSectors(q, queue, "discard_max_bytes"))
                    .maxHwDiscardSectors(bytesToSectors(q, queue, "discard_max_hw_bytes"))
                    .maxWriteZeroesSectors(bytesToSectors(q, queue, "write_zeroes_max_bytes"))
                    .dmaAlignment(queueValue(q, queue, "dma_alignment"))
                    .rotational(bit(q.resolve("rotational"), queue.get("rotational"),
                            "rotational as sysfs prints it: 0 or 1"))
                    .readAheadKb(readAheadKb);
            b.maxDiscardSegments(queueValue(q, queue, "max_discard_segments"));
            QueueLimits limits;
            try {
                limits = b.build();
            } catch (IllegalArgumentException e) {
                throw new SnapshotException(q, "limits that are not valid (" + e.getMessage() + ")",
                        "the queue limits of a real block device", e);
            }
            return new DiskSpec(driverOf(kname), size, limits, maxSectors, readAheadKb,
                    kname + " as recorded in " + dir.getFileName());
        }

        /**
         * The recorded queue files plus, for each attribute of {@link SysfsHistory} that is missing, the value the
         * host's kernel worked with, when that kernel predates the file or its release is unknown (a kernel that has
         * the file leaves it missing, for {@link #queueValue} to report); each value filled is noted.
         */
        private Map<String, String> withHistoricDefaults(Path q, String kname, Map<String, String> recorded) {
            Map<String, String> queue = new TreeMap<>(recorded);
            for (SysfsHistory.Entry e : SysfsHistory.ENTRIES) {
                if (recorded.containsKey(e.attribute())
                        || e.required() && release.isPresent() && e.hasFile(release.get())) {
                    continue;
                }
                Optional<SysfsHistory.DriverDefault> own = e.driverDefault(driverOf(kname), release);
                long value = own.isPresent() ? own.get().value()
                        : e.sameAs().isPresent() ? queueValue(q, recorded, e.sameAs().get()) : e.value();
                String rule = own.isPresent() ? e.rule(release, own.get()) : e.rule(release);
                queue.put(e.attribute(), Long.toString(value));
                filledIn.add(new FilledAttribute(kname, e.attribute(), value, rule));
                LOG.debug("{}: {} filled with {} ({})", q, e.attribute(), value, rule);
            }
            return queue;
        }

        private long queueValue(Path q, Map<String, String> queue, String attr) {
            Path f = q.resolve(attr);
            String text = queue.get(attr);
            if (text == null) {
                String why = release.flatMap(r -> SysfsHistory.of(attr).map(e -> " (" + e.expectedOn(r) + ")"))
                        .orElse("");
                throw new SnapshotException(f, "no file", attr + " of a bottom device, as sysfs prints it" + why);
            }
            long v = parseLong(f, text, attr + " as sysfs prints it, a non-negative decimal number");
            if (v < 0) {
                throw new SnapshotException(f, quote(text), attr + " as sysfs prints it, a non-negative decimal number");
            }
            return v;
        }

        private long bytesToSectors(Path q, Map<String, String> queue, String attr) {
            long bytes = queueValue(q, queue, attr);
            if (bytes % 512 != 0) {
                throw new SnapshotException(q.resolve(attr), quote(queue.get(attr)),
                        attr + " as sysfs prints it, a multiple of 512 bytes");
            }
            return bytes / 512;
        }

        private static long doubled(Path f, long kb) {
            try {
                return Math.multiplyExact(kb, 2L);
            } catch (ArithmeticException e) {
                throw new SnapshotException(f, quote(Long.toString(kb)), "a size in KiB that fits in 512-byte sectors", e);
            }
        }

        // ---------------------------------------------------------------- dmsetup-table.txt

        private void readTables() {
            Path f = dir.resolve(TABLE_FILE);
            List<Device> dms = devices.values().stream().filter(Device::isDm).toList();
            Optional<String> text = optionalRawText(f, "the output of dmsetup table");
            if (text.isEmpty()) {
                if (!dms.isEmpty()) {
                    throw new SnapshotException(f, "no file", "the output of dmsetup table, with the table of "
                            + dms.stream().map(d -> d.kname() + " (" + d.dmName().orElseThrow() + ")")
                                    .collect(Collectors.joining(", ")));
                }
                return;
            }
            List<String> lines = text.get().lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                if (DmTableLine.isSkipped(lines.get(i))) {
                    continue;
                }
                tableLines.add(parseLine(f, i + 1, lines.get(i)));
            }
            Map<String, Device> byDmName = new HashMap<>();
            for (Device d : dms) {
                byDmName.put(d.dmName().orElseThrow(), d);
            }
            Map<String, List<TableLine>> linesByDevice = new LinkedHashMap<>();
            for (TableLine l : tableLines) {
                Device d = byDmName.get(l.dmName());
                if (d == null) {
                    throw new SnapshotException(f, l.lineNumber(), "dm name '" + l.dmName()
                            + "', which no block/*/dm/name file names, in '" + l.text() + "'",
                            "a dm device recorded under block/ (known dm names: "
                                    + String.join(", ", new TreeMap<>(byDmName).keySet()) + ")", null);
                }
                linesByDevice.computeIfAbsent(d.kname(), k -> new ArrayList<>()).add(l);
            }
            Map<String, DmTable> tables = new HashMap<>();
            Map<String, Set<String>> uses = new HashMap<>();
            for (Device d : dms) {
                String name = d.dmName().orElseThrow();
                List<TableLine> own = linesByDevice.get(d.kname());
                if (own == null) {
                    throw new SnapshotException(f, "no line for dm device " + d.kname() + " (" + name + ")",
                            "at least one line '" + name + ": <start> <length> <target> <args...>'");
                }
                List<DmTarget> targets = new ArrayList<>();
                for (TableLine l : own) {
                    DmTarget t = target(f, l);
                    if (t instanceof dev.dmmodel.dm.OpaqueTarget o) {
                        // a target the model does not implement: the limits the kernel reported are the device's
                        t = new dev.dmmodel.dm.OpaqueTarget(o.start(), o.length(), o.type(), o.args(), o.deviceArgs(),
                                recordedLimits(d));
                    }
                    targets.add(t);
                }
                DmTable table;
                try {
                    table = DmTableParser.table(f.toString(), name,
                            own.stream().map(l -> parsedLines.get(l.lineNumber())).toList(), targets);
                } catch (DmTableException e) {
                    throw snapshotException(f, e);
                }
                if (table.size().count() != d.size().count()) {
                    throw new SnapshotException(dir.resolve("block").resolve(d.kname()).resolve("size"),
                            d.size().count() + " sectors", "the size of the table of " + name + " in " + TABLE_FILE
                                    + ", " + table.size().count() + " sectors");
                }
                tables.put(d.kname(), table);
                Set<String> deps = new LinkedHashSet<>();
                for (String used : table.devices()) {
                    Device u = devices.get(used);
                    if (u != null && u.isDm()) {
                        deps.add(used);
                    }
                }
                uses.put(d.kname(), deps);
            }
            for (String kname : dependencyOrder(f, dms, uses)) {
                dmTables.put(kname, tables.get(kname));
            }
        }

        /** Kahn's algorithm; among the devices ready to be created, the lowest device number first. */
        private List<String> dependencyOrder(Path f, List<Device> dms, Map<String, Set<String>> uses) {
            List<String> order = dev.dmmodel.impl.dm.table.CreationOrder.of(uses,
                    Comparator.comparing((String k) -> devices.get(k).dev()).thenComparing(k -> k));
            if (order.size() != dms.size()) {
                List<String> cycle = dms.stream().map(Device::kname).filter(k -> !order.contains(k))
                        .map(k -> k + " (" + devices.get(k).dmName().orElseThrow() + ")").toList();
                throw new SnapshotException(f, "dm devices that use each other in a cycle: " + String.join(", ", cycle),
                        "tables in which every dm device uses only devices that can be created before it");
            }
            return order;
        }

        private TableLine parseLine(Path f, int n, String line) {
            DmTableLine l;
            try {
                l = DmTableLine.parse(f.toString(), n, line, true);
            } catch (DmTableException e) {
                throw snapshotException(f, e);
            }
            parsedLines.put(n, l);
            return new TableLine(n, l.dmName().orElseThrow(), l.start(), l.length(), l.type(), l.args(), l.text());
        }

        /**
         * A dm device's queue limits as sysfs recorded them, read as a bottom device's are; empty (and the devices
         * below are stacked instead) when its queue files do not make whole limits.
         */
        private Optional<QueueLimits> recordedLimits(Device d) {
            Path dmDir = dir.resolve("block").resolve(d.kname());
            try {
                return Optional.of(diskSpec(dmDir, d.kname(), d.size(), d.alignmentOffset().orElse(0), d.queue()).limits());
            } catch (SnapshotException e) {
                LOG.debug("{}: queue limits not read ({}); the devices below are stacked", d.kname(), e.getMessage());
                return Optional.empty();
            }
        }

        private static SnapshotException snapshotException(Path f, DmTableException e) {
            return new SnapshotException(f, e.line(), e.found(), e.expected(), e);
        }

        // the arguments are read where dmsetup table text is read, impl.dm.table; devices are block/ devices
        private DmTarget target(Path f, TableLine l) {
            DmTargets.DeviceResolver blockDevices = new DmTargets.DeviceResolver() {
                @Override
                public Optional<String> resolve(String reference) {
                    return Optional.ofNullable(byNumber.get(DevNumber.parse(reference)));
                }

                @Override
                public String unknownFound() {
                    return "which no block/ dev file records";
                }

                @Override
                public String unknownExpected() {
                    return "the major:minor of a device or partition recorded under block/";
                }
            };
            try {
                return DmTargets.target(f.toString(), parsedLines.get(l.lineNumber()), Optional.of(l.dmName()),
                        DmTargets.DeviceSyntax.MAJOR_MINOR, blockDevices);
            } catch (DmTableException e) {
                throw snapshotException(f, e);
            }
        }

        // ---------------------------------------------------------------- dmsetup-status.txt, lvm/

        private void readStatus() {
            optionalRawText(dir.resolve(STATUS_FILE), "the output of dmsetup status")
                    .ifPresent(t -> status.addAll(t.lines().toList()));
        }

        private void readLvm() {
            Path lvm = dir.resolve("lvm");
            if (!files.isDirectory(lvm)) {
                return;
            }
            List<Path> vgFiles;
            try {
                vgFiles = files.list(lvm).stream()
                        .filter(p -> p.getFileName().toString().endsWith(".vg") && files.isRegularFile(p)).toList();
            } catch (IOException e) {
                throw new UncheckedIOException(lvm + ": cannot list the directory: " + e.getMessage(), e);
            }
            for (Path vg : vgFiles) {
                String text = requiredText(vg, "LVM text metadata written by vgcfgbackup");
                Matcher m = PV_BLOCK.matcher(text);
                boolean any = false;
                while (m.find()) {
                    any = true;
                    String pv = m.group(1);
                    String body = m.group(2);
                    Matcher dev = PV_DEVICE.matcher(body);
                    if (!dev.find()) {
                        throw new SnapshotException(vg, pv + " without a device hint",
                                "device = \"/dev/...\" in every pvN block");
                    }
                    Matcher pe = PV_PE_START.matcher(body);
                    if (!pe.find()) {
                        throw new SnapshotException(vg, pv + " without pe_start", "pe_start = <sectors> in every pvN block");
                    }
                    long peStart = parseLong(vg, pe.group(1), "pe_start of " + pv + ", a non-negative decimal number");
                    if (peStart < 0) {
                        throw new SnapshotException(vg, quote(pe.group(1)),
                                "pe_start of " + pv + ", a non-negative decimal number");
                    }
                    String hint = dev.group(1);
                    if (peStarts.put(hint, peStart) != null) {
                        throw new SnapshotException(vg, "device hint " + quote(hint) + " for a second PV",
                                "each PV on its own device");
                    }
                }
                if (!any) {
                    throw new SnapshotException(vg, "no pvN { ... } block",
                            "LVM text metadata with at least one physical volume");
                }
                importVolumeGroup(vg, text);
            }
            readLvmReport(lvm.resolve(LVM_REPORT_FILE), vgFiles);
        }

        // lvm/report.json (lvm fullreport --reportformat json --units s): the VGs no lvm/*.vg file describes
        private void readLvmReport(Path file, List<Path> vgFiles) {
            Optional<String> text = optionalRawText(file, "the output of lvm fullreport --reportformat json --units s");
            if (text.isEmpty()) {
                return;
            }
            java.util.Set<String> described = new java.util.HashSet<>();
            for (Path vg : vgFiles) {
                String name = vg.getFileName().toString();
                described.add(name.substring(0, name.length() - ".vg".length()));
            }
            volumeGroups.forEach(vg -> described.add(vg.name()));
            List<dev.dmmodel.lvm.VolumeGroup> reported;
            try {
                reported = dev.dmmodel.impl.lvm.report.LvmReportReader.readFullReport(text.get(),
                        file.getFileName().toString());
            } catch (IllegalArgumentException e) {
                lvmProblems.add(file + ": not imported: " + e.getMessage());
                return;
            }
            for (dev.dmmodel.lvm.VolumeGroup vg : reported) {
                if (!described.contains(vg.name())) {
                    addVolumeGroup(file, vg);
                }
            }
        }

        // the whole VG for the layout; what the model cannot take is kept as a problem, not dropped silently
        private void importVolumeGroup(Path file, String text) {
            dev.dmmodel.lvm.VolumeGroup vg;
            try {
                vg = dev.dmmodel.impl.lvm.text.VgMetadataReader.read(text, file.getFileName().toString());
            } catch (IllegalArgumentException e) {
                lvmProblems.add(file + ": not imported: " + e.getMessage());
                return;
            }
            addVolumeGroup(file, vg);
        }

        // a VG is taken only when every PV is a device of this snapshot
        private void addVolumeGroup(Path file, dev.dmmodel.lvm.VolumeGroup vg) {
            for (dev.dmmodel.lvm.PhysicalVolume pv : vg.physicalVolumes()) {
                if (!devices.containsKey(pv.device()) && !partitions.containsKey(pv.device())) {
                    lvmProblems.add(file + ": not imported: PV " + pv.device() + " of volume group " + vg.name()
                            + " is not a device of this snapshot");
                    return;
                }
            }
            volumeGroups.add(vg);
        }

        // ---------------------------------------------------------------- files and values

        private DevNumber devNumber(Path f, String kname) {
            String expected = "the device number of " + kname + " as major:minor";
            String text = requiredText(f, expected);
            DevNumber n;
            try {
                n = DevNumber.parse(text);
            } catch (IllegalArgumentException e) {
                throw new SnapshotException(f, text.isEmpty() ? "an empty file" : quote(text), expected, e);
            }
            String other = byNumber.putIfAbsent(n, kname);
            if (other != null) {
                throw new SnapshotException(f, n + ", already the device number of " + other + " ("
                        + numberFile.get(n) + ")", "a device number used by one device only");
            }
            numberFile.put(n, f);
            return n;
        }

        private Sectors sectors(Path f, String expected) {
            long v = number(f, expected);
            if (v < 0) {
                throw new SnapshotException(f, quote(Long.toString(v)), expected);
            }
            return Sectors.of(v);
        }

        private long alignmentOffset(Path f) {
            String expected = "the alignment offset in bytes, a decimal number (-1 = misaligned)";
            long v = number(f, expected);
            if (v < -1) {
                throw new SnapshotException(f, quote(Long.toString(v)), expected);
            }
            return v;
        }

        private long number(Path f, String expected) {
            return parseLong(f, requiredText(f, expected), expected);
        }

        private Optional<Boolean> readOnly(Path f) {
            return optionalText(f, "0 or 1").map(t -> bit(f, t, "0 or 1"));
        }

        private static boolean bit(Path f, String text, String expected) {
            if (text == null) {
                throw new SnapshotException(f, "no file", expected);
            }
            switch (text) {
                case "0":
                    return false;
                case "1":
                    return true;
                default:
                    throw new SnapshotException(f, text.isEmpty() ? "an empty file" : quote(text), expected);
            }
        }

        private static long parseLong(Path f, String text, String expected) {
            if (text.isEmpty()) {
                throw new SnapshotException(f, "an empty file", expected);
            }
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new SnapshotException(f, quote(text), expected, e);
            }
        }

        /** A file's text, stripped; a missing file is an error. */
        private String requiredText(Path f, String expected) {
            return optionalText(f, expected).orElseThrow(() -> new SnapshotException(f, "no file", expected));
        }

        /** A file's text, stripped, or empty if there is no such file. */
        private Optional<String> optionalText(Path f, String expected) {
            return optionalRawText(f, expected).map(String::strip);
        }

        private Optional<String> optionalRawText(Path f, String expected) {
            FileAccess.Kind kind = files.kind(f);
            if (kind == FileAccess.Kind.NONE) {
                return Optional.empty();
            }
            if (kind == FileAccess.Kind.DIRECTORY) {
                throw new SnapshotException(f, "a directory", expected);
            }
            return Optional.of(readText(f, expected));
        }

        /** A file known to be there and not a directory, as text. */
        private String readText(Path f, String expected) {
            try {
                return files.readString(f);
            } catch (CharacterCodingException e) {
                throw new SnapshotException(f, "bytes that are not UTF-8 text", expected, e);
            } catch (IOException e) {
                throw new UncheckedIOException(f + ": cannot read the file: " + e.getMessage(), e);
            }
        }

        private List<Path> subdirectories(Path d) {
            try {
                return files.list(d).stream().filter(files::isDirectory).toList();
            } catch (IOException e) {
                throw new UncheckedIOException(d + ": cannot list the directory: " + e.getMessage(), e);
            }
        }
    }

    /** Text for a message: quoted, newlines shown as \n, at most 80 characters. */
    static String quote(String text) {
        String t = text.replace("\n", "\\n");
        if (t.length() > 80) {
            t = t.substring(0, 77) + "...";
        }
        return "'" + t + "'";
    }
}
