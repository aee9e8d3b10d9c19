package dev.dmmodel.testkit.property;

import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A block-device stack as a value: disks, partition tables, LVM physical volumes, one volume group, linear
 * and striped LVs, thin pools and thin volumes — what {@link DmGens#stacks()} generates. It builds into a
 * {@link Layout} ({@link #build()}) and prints as the {@link LayoutBuilder} calls that make it, so a
 * counterexample can be pasted into a test:
 *
 * <pre>
 * Layout.builder(KernelProfile.LINUX_6_12)
 *     .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(1)))
 *     .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(2048)))
 *     .pvcreate("sda1")
 *     .vgcreate("vg0", "sda1")
 *     .lvcreate("vg0", LvCreateRequest.builder("lv0").extents(1).onPvs("sda1").build())
 *     .build()
 * </pre>
 *
 * @param profile the kernel the plan was generated for (its sizes fit that kernel's LVM placement)
 * @param disks the disks, in attach order
 * @param partitionTables partition tables of some of the disks
 * @param physicalVolumes devices given to {@code pvcreate} (kernel names), in order
 * @param volumeGroup the volume group, if the stack uses LVM
 * @param logicalVolumes linear and striped LVs, in creation order
 * @param thinPools thin pools, created after the LVs
 * @param thinVolumes thin volumes, created after the pools
 * @param dmLayers dm devices made with {@code dmsetup create} on top of the rest ({@link DmGens#targetStacks}:
 *     dm-crypt), in creation order
 * @param mdArrays md arrays over the disks ({@link DmGens#mdStacks}), assembled after the partition tables and
 *     before the PVs
 */
public record StackPlan(KernelProfile profile, List<Disk> disks, List<PartitionTable> partitionTables,
                        List<String> physicalVolumes, Optional<VolumeGroup> volumeGroup, List<Lv> logicalVolumes,
                        List<ThinPool> thinPools, List<ThinVolume> thinVolumes, List<DmLayer> dmLayers,
                        List<MdArray> mdArrays) {

    /** A plan without md arrays. */
    public StackPlan(KernelProfile profile, List<Disk> disks, List<PartitionTable> partitionTables,
                     List<String> physicalVolumes, Optional<VolumeGroup> volumeGroup, List<Lv> logicalVolumes,
                     List<ThinPool> thinPools, List<ThinVolume> thinVolumes, List<DmLayer> dmLayers) {
        this(profile, disks, partitionTables, physicalVolumes, volumeGroup, logicalVolumes, thinPools, thinVolumes,
                dmLayers, List.of());
    }

    /** A plan without dm layers. */
    public StackPlan(KernelProfile profile, List<Disk> disks, List<PartitionTable> partitionTables,
                     List<String> physicalVolumes, Optional<VolumeGroup> volumeGroup, List<Lv> logicalVolumes,
                     List<ThinPool> thinPools, List<ThinVolume> thinVolumes) {
        this(profile, disks, partitionTables, physicalVolumes, volumeGroup, logicalVolumes, thinPools, thinVolumes,
                List.of());
    }

    /** Copies the lists; a stack with LVs, pools or PVs needs its volume group. */
    public StackPlan {
        dmLayers = List.copyOf(dmLayers);
        mdArrays = List.copyOf(mdArrays);
        Objects.requireNonNull(profile, "profile");
        disks = List.copyOf(disks);
        partitionTables = List.copyOf(partitionTables);
        physicalVolumes = List.copyOf(physicalVolumes);
        Objects.requireNonNull(volumeGroup, "volumeGroup");
        logicalVolumes = List.copyOf(logicalVolumes);
        thinPools = List.copyOf(thinPools);
        thinVolumes = List.copyOf(thinVolumes);
        if (volumeGroup.isEmpty() && !(logicalVolumes.isEmpty() && thinPools.isEmpty() && thinVolumes.isEmpty())) {
            throw new IllegalArgumentException("a stack plan with logical volumes needs a volume group");
        }
    }

    /** The builder calls of this plan under its own profile. */
    public LayoutBuilder builder() {
        return builder(profile);
    }

    /** The builder calls of this plan under another kernel's rules. */
    public LayoutBuilder builder(KernelProfile kernel) {
        LayoutBuilder b = Layout.builder(kernel);
        for (Disk d : disks) {
            b.disk(d.name(), d.spec());
        }
        for (PartitionTable t : partitionTables) {
            b.partitionTable(t.disk(), t.type(), t.partitions().toArray(new PartitionSpec[0]));
        }
        for (MdArray md : mdArrays) {
            b.mdArray(md.name(), md.spec());
        }
        for (String pv : physicalVolumes) {
            b.pvcreate(pv);
        }
        volumeGroup.ifPresent(vg -> {
            b.vgcreate(vg.name(), vg.options(), vg.physicalVolumes().toArray(new String[0]));
            for (Lv lv : logicalVolumes) {
                b.lvcreate(vg.name(), lv.request());
            }
            for (ThinPool p : thinPools) {
                b.lvcreateThinPool(vg.name(), p.request());
            }
            for (ThinVolume t : thinVolumes) {
                b.lvcreateThin(vg.name(), t.request());
            }
        });
        for (DmLayer l : dmLayers) {
            b.dmsetupCreate(l.name(), l.table());
        }
        return b;
    }

    /**
     * The layout under the plan's profile.
     *
     * @throws dev.dmmodel.layout.LayoutException if the model refuses a step (a generated plan never should)
     */
    public Layout build() {
        return builder().build();
    }

    /**
     * The layout under another kernel's rules. LVM's placement can differ between kernels (topology), so a
     * plan whose LVs fill their PVs may not fit under another profile.
     */
    public Layout build(KernelProfile kernel) {
        return builder(kernel).build();
    }

    /** Every partition's kernel name ({@code sda1}, {@code nvme0n1p2}), in order. */
    public List<String> partitionNames() {
        List<String> out = new ArrayList<>();
        for (PartitionTable t : partitionTables) {
            out.addAll(t.partitionNames());
        }
        return List.copyOf(out);
    }

    /** Paths of the dm layers ({@code /dev/mapper/c0}), in creation order. */
    public List<String> dmLayerPaths() {
        return dmLayers.stream().map(l -> "/dev/mapper/" + l.name()).toList();
    }

    /** Paths of the linear, striped and thin LVs ({@code /dev/vg0/lv0}), in creation order. */
    public List<String> lvPaths() {
        List<String> out = new ArrayList<>();
        volumeGroup.ifPresent(vg -> {
            logicalVolumes.forEach(lv -> out.add("/dev/" + vg.name() + "/" + lv.name()));
            thinVolumes.forEach(t -> out.add("/dev/" + vg.name() + "/" + t.name()));
        });
        return List.copyOf(out);
    }

    /** The plan as Java builder calls, one per line, without the {@code Layout.builder} and {@code build} lines. */
    public List<String> javaLines() {
        List<String> out = new ArrayList<>();
        disks.forEach(d -> out.add(d.toString()));
        partitionTables.forEach(t -> out.add(t.toString()));
        mdArrays.forEach(md -> out.add(md.toString()));
        physicalVolumes.forEach(pv -> out.add(".pvcreate(\"" + pv + "\")"));
        volumeGroup.ifPresent(vg -> {
            out.add(vg.toString());
            logicalVolumes.forEach(lv -> out.add(".lvcreate(\"" + vg.name() + "\", " + lv + ")"));
            thinPools.forEach(p -> out.add(".lvcreateThinPool(\"" + vg.name() + "\", " + p + ")"));
            thinVolumes.forEach(t -> out.add(".lvcreateThin(\"" + vg.name() + "\", " + t + ")"));
        });
        dmLayers.forEach(l -> out.add(l.toString()));
        return List.copyOf(out);
    }

    /** The plan as the Java that builds it. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Layout.builder(").append(profileJava(profile)).append(')');
        for (String line : javaLines()) {
            sb.append("\n    ").append(line);
        }
        return sb.append("\n    .build()").toString();
    }

    /**
     * A compact description of any layout, one line per device, for counterexamples that are layouts rather
     * than plans (a layout does not remember the calls that built it): disks with their size and the limits
     * that matter for alignment, partitions with start and size, PVs with {@code pe_start}, and the dm tables.
     * {@link Property} prints a {@link Layout} counterexample this way.
     */
    public static String describe(Layout layout) {
        StringBuilder sb = new StringBuilder("Layout (").append(layout.profile().name()).append(')');
        for (dev.dmmodel.device.BlockDevice d : layout.devices()) {
            dev.dmmodel.limits.QueueLimits l = d.limits();
            if (d instanceof dev.dmmodel.device.Disk disk) {
                sb.append("\n    disk ").append(disk.name()).append(' ').append(disk.driver()).append(' ')
                        .append(sizeJava(disk.size().count())).append(" lbs=").append(l.logicalBlockSize())
                        .append(" pbs=").append(l.physicalBlockSize()).append(" io_min=").append(l.ioMin())
                        .append(" io_opt=").append(l.ioOpt()).append(" alignment_offset=")
                        .append(l.alignmentOffset()).append(" max_sectors=").append(l.maxSectors())
                        .append(" max_segments=").append(l.maxSegments());
            } else if (d instanceof dev.dmmodel.device.Partition p) {
                sb.append("\n    partition ").append(p.name()).append(" start=").append(p.start().count())
                        .append(" size=").append(p.size().count()).append(" alignment_offset=")
                        .append(l.alignmentOffset());
            }
        }
        for (dev.dmmodel.lvm.PhysicalVolume pv : layout.physicalVolumes()) {
            sb.append("\n    pv ").append(pv.device()).append(" pe_start=").append(pv.peStart().count());
        }
        for (dev.dmmodel.lvm.VolumeGroup vg : layout.volumeGroups()) {
            sb.append("\n    vg ").append(vg.name()).append(" extent=").append(vg.extentSize().count()).append(" pvs=")
                    .append(vg.physicalVolumes().stream().map(dev.dmmodel.lvm.PhysicalVolume::device).toList());
        }
        for (String line : layout.dmDevices().isEmpty() ? new String[0] : layout.dmsetupTable().split("\n")) {
            if (!line.isEmpty()) {
                sb.append("\n    dm ").append(line);
            }
        }
        return sb.toString();
    }

    /** Kernel names of the md arrays ({@code md0}), in order. */
    public List<String> mdNames() {
        return mdArrays.stream().map(MdArray::name).toList();
    }

    // ---- parts

    /**
     * An md array over some of the plan's disks.
     *
     * @param name the kernel name ({@code md0})
     * @param spec the array as the kernel lists it
     */
    public record MdArray(String name, dev.dmmodel.device.MdArraySpec spec) {
        /** Rejects nulls. */
        public MdArray {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(spec, "spec");
        }

        /** The builder call. */
        @Override
        public String toString() {
            StringBuilder members = new StringBuilder();
            for (dev.dmmodel.device.MdMember m : spec.members()) {
                members.append(members.length() == 0 ? "" : ", ").append("new MdMember(\"").append(m.device())
                        .append("\", ").append(m.slot()).append(", Sectors.of(").append(m.dataOffset().count())
                        .append("), Sectors.of(").append(m.dataSize().count()).append("))");
            }
            return ".mdArray(\"" + name + "\", new MdArraySpec(MdLevel." + spec.level() + ", " + spec.raidDisks()
                    + ", Sectors.of(" + spec.chunk().count() + "), " + spec.layout() + ", \"" + spec.metadataVersion()
                    + "\", List.of(" + members + ")))";
        }
    }

    /**
     * A dm device made with {@code dmsetup create} on top of the plan's other devices.
     *
     * @param name the dm name ({@code /dev/mapper/NAME})
     * @param table its table (devices by kernel name)
     * @param java the Java of the table's targets, for printing ({@code new CryptTarget(...)})
     */
    public record DmLayer(String name, dev.dmmodel.dm.DmTable table, String java) {
        /** Rejects nulls. */
        public DmLayer {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(java, "java");
        }

        /** The builder call. */
        @Override
        public String toString() {
            return ".dmsetupCreate(\"" + name + "\", DmTable.builder()" + java + ".build())";
        }
    }

    /**
     * A disk: a preset, limits overridden or not, and a size.
     *
     * @param name the kernel name ({@code sda}, {@code nvme0n1})
     * @param preset the Java that names the preset ({@code DiskPresets.sasDisk()}), for printing
     * @param overrides the Java of each limit override ({@code .maxSegments(64)}), in order; empty for the
     *     preset's own limits (the shrink target)
     * @param spec the disk as built
     */
    public record Disk(String name, String preset, List<String> overrides, DiskSpec spec) {
        /** Copies the list. */
        public Disk {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(preset, "preset");
            overrides = List.copyOf(overrides);
            Objects.requireNonNull(spec, "spec");
        }

        /** The same disk under another name. */
        public Disk named(String newName) {
            return new Disk(newName, preset, overrides, spec);
        }

        /** The size in bytes. */
        public long sizeBytes() {
            return spec.size().count() * Sectors.SECTOR_SIZE;
        }

        /** The logical block size in bytes. */
        public long logicalBlockSize() {
            return spec.limits().logicalBlockSize();
        }

        /** Whether the preset's limits were overridden. */
        public boolean hasLimitOverrides() {
            return !overrides.isEmpty();
        }

        @Override
        public String toString() {
            String size = sizeJava(spec.size().count());
            return overrides.isEmpty() ? ".disk(\"" + name + "\", " + preset + ".withSize(" + size + "))"
                    : ".disk(\"" + name + "\", " + preset + ".toBuilder()" + String.join("", overrides) + ".size("
                    + size + ").build())";
        }
    }

    /**
     * A partition table with its partitions.
     *
     * @param disk the disk's kernel name
     * @param type msdos or GPT
     * @param partitions the partitions 1..n
     */
    public record PartitionTable(String disk, PartitionTableType type, List<PartitionSpec> partitions) {
        /** Copies the list. */
        public PartitionTable {
            Objects.requireNonNull(disk, "disk");
            Objects.requireNonNull(type, "type");
            partitions = List.copyOf(partitions);
        }

        /** The partitions' kernel names: {@code sda1}, or {@code nvme0n1p1} when the disk's name ends in a digit. */
        public List<String> partitionNames() {
            List<String> out = new ArrayList<>();
            String sep = Character.isDigit(disk.charAt(disk.length() - 1)) ? "p" : "";
            for (int i = 1; i <= partitions.size(); i++) {
                out.add(disk + sep + i);
            }
            return List.copyOf(out);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(".partitionTable(\"").append(disk).append("\", PartitionTableType.")
                    .append(type.name());
            for (PartitionSpec p : partitions) {
                sb.append(", ").append(partitionJava(p));
            }
            return sb.append(')').toString();
        }
    }

    /**
     * {@code vgcreate}.
     *
     * @param name the VG name
     * @param extentSectors the extent size in sectors (8192 = 4 MiB, LVM's default)
     * @param physicalVolumes its PVs
     */
    public record VolumeGroup(String name, long extentSectors, List<String> physicalVolumes) {
        /** Copies the list. */
        public VolumeGroup {
            Objects.requireNonNull(name, "name");
            physicalVolumes = List.copyOf(physicalVolumes);
        }

        /** The options for {@code LayoutBuilder.vgcreate}. */
        public VgCreateOptions options() {
            return VgCreateOptions.DEFAULTS.withExtentSize(Sectors.of(extentSectors));
        }

        /** The extent size in bytes. */
        public long extentBytes() {
            return extentSectors * Sectors.SECTOR_SIZE;
        }

        @Override
        public String toString() {
            String pvs = "\"" + String.join("\", \"", physicalVolumes) + "\"";
            if (extentSectors == VgCreateOptions.DEFAULTS.extentSize().count()) {
                return ".vgcreate(\"" + name + "\", " + pvs + ")";
            }
            return ".vgcreate(\"" + name + "\", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.of(" + extentSectors
                    + ")), " + pvs + ")";
        }
    }

    /**
     * A linear ({@code stripes == 1}) or striped LV, allocated from given PVs.
     *
     * @param name the LV name
     * @param extents {@code -l}
     * @param stripes {@code -i}
     * @param stripeSizeBytes {@code -I} in bytes (ignored for linear LVs)
     * @param physicalVolumes the PVs to allocate from (one per stripe for striped LVs)
     */
    public record Lv(String name, long extents, int stripes, long stripeSizeBytes, List<String> physicalVolumes) {
        /** Copies the list. */
        public Lv {
            Objects.requireNonNull(name, "name");
            physicalVolumes = List.copyOf(physicalVolumes);
        }

        /** Whether the LV is striped. */
        public boolean striped() {
            return stripes > 1;
        }

        /** The {@code lvcreate} request. */
        public LvCreateRequest request() {
            LvCreateRequest.Builder b = LvCreateRequest.builder(name).extents(extents);
            if (stripes > 1) {
                b.stripes(stripes).stripeSize(Bytes.of(stripeSizeBytes));
            }
            return b.onPvs(physicalVolumes.toArray(new String[0])).build();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("LvCreateRequest.builder(\"").append(name).append("\").extents(")
                    .append(extents).append(')');
            if (stripes > 1) {
                sb.append(".stripes(").append(stripes).append(").stripeSize(").append(bytesJava(stripeSizeBytes))
                        .append(')');
            }
            return sb.append(".onPvs(\"").append(String.join("\", \"", physicalVolumes)).append("\").build()")
                    .toString();
        }
    }

    /**
     * A thin pool ({@code lvcreate --type thin-pool}), placed by LVM.
     *
     * @param name the pool LV name
     * @param extents its data size in extents
     * @param chunkBytes the pool's block size: a multiple of 64 KiB from 64 KiB to 1 GiB
     * @param zero whether new blocks are zeroed ({@code --zero}; LVM's default is yes)
     */
    public record ThinPool(String name, long extents, long chunkBytes, boolean zero) {
        /** Rejects a chunk size dm-thin would refuse. */
        public ThinPool {
            Objects.requireNonNull(name, "name");
            if (chunkBytes < 65536 || chunkBytes > (1L << 30) || chunkBytes % 65536 != 0) {
                throw new IllegalArgumentException("thin pool chunk size " + chunkBytes
                        + " is not a multiple of 64 KiB between 64 KiB and 1 GiB");
            }
        }

        /** The {@code lvcreate} request. */
        public ThinPoolRequest request() {
            ThinPoolRequest.Builder b = ThinPoolRequest.builder(name).extents(extents).chunkSize(Bytes.of(chunkBytes));
            if (!zero) {
                b.zero(false);
            }
            return b.build();
        }

        @Override
        public String toString() {
            return "ThinPoolRequest.builder(\"" + name + "\").extents(" + extents + ").chunkSize("
                    + bytesJava(chunkBytes) + ")" + (zero ? "" : ".zero(false)") + ".build()";
        }
    }

    /**
     * A thin volume.
     *
     * @param name the LV name
     * @param virtualBytes its virtual size ({@code -V}; LVM rounds it up to extents)
     * @param pool the pool's LV name
     */
    public record ThinVolume(String name, long virtualBytes, String pool) {
        /** Rejects nulls. */
        public ThinVolume {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(pool, "pool");
        }

        /** The {@code lvcreate} request. */
        public ThinLvRequest request() {
            return new ThinLvRequest(name, Bytes.of(virtualBytes), pool);
        }

        @Override
        public String toString() {
            return "new ThinLvRequest(\"" + name + "\", " + bytesJava(virtualBytes) + ", \"" + pool + "\")";
        }
    }

    // ---- printing

    /** {@code KernelProfile.LINUX_6_12} for a preset, else {@code KernelProfile.named("...")}. */
    static String profileJava(KernelProfile p) {
        if (KernelProfile.presets().contains(p)) {
            // linux-2.6.32 -> LINUX_2_6_32: the presets' constant names follow their names
            return "KernelProfile." + p.name().toUpperCase(java.util.Locale.ROOT).replace('-', '_').replace('.', '_');
        }
        return "KernelProfile.named(\"" + p.name() + "\")";
    }

    /** A size in sectors as the roundest Java: {@code Bytes.gib(4)}, {@code Bytes.mib(300)}, {@code Sectors.of(n)}. */
    static String sizeJava(long sectors) {
        if (sectors % 2048 == 0) {
            return bytesJava(sectors * 512);
        }
        return "Sectors.of(" + sectors + ")";
    }

    /** Bytes as the roundest Java. */
    static String bytesJava(long bytes) {
        if (bytes != 0 && bytes % (1L << 40) == 0) {
            return "Bytes.tib(" + (bytes >> 40) + ")";
        }
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return "Bytes.gib(" + (bytes >> 30) + ")";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return "Bytes.mib(" + (bytes >> 20) + ")";
        }
        if (bytes != 0 && bytes % 1024 == 0) {
            return "Bytes.kib(" + (bytes >> 10) + ")";
        }
        return "Bytes.of(" + bytes + ")";
    }

    static String partitionJava(PartitionSpec p) {
        String size = p.size().map(x -> "Optional.of(" + sectorsJava(x.count()) + ")").orElse("Optional.empty()");
        switch (p.placement()) {
            case EXPLICIT: {
                String start = "Sectors.of(" + p.start().orElseThrow().count() + ")";
                return p.size().isPresent() ? "PartitionSpec.at(" + start + ", " + sectorsJava(p.size().get().count())
                        + ")" : "PartitionSpec.atToEnd(" + start + ")";
            }
            case OPTIMAL:
                return "PartitionSpec.optimal(" + size + ")";
            default:
                return "PartitionSpec.minimal(" + size + ")";
        }
    }

    /** Sectors as Java that makes {@link Sectors}: {@code Bytes.mib(512).toSectors()} or {@code Sectors.of(n)}. */
    static String sectorsJava(long sectors) {
        if (sectors % 2048 == 0 && sectors > 0) {
            return bytesJava(sectors * 512) + ".toSectors()";
        }
        return "Sectors.of(" + sectors + ")";
    }
}
