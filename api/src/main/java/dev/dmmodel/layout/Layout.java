package dev.dmmodel.layout;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.spi.ModelProviders;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable block-device stack as one kernel sees it: disks, partitions, md arrays, device-mapper devices with
 * their tables and the queue limits the kernel computed for each, and the LVM volume groups, physical
 * and logical volumes behind the dm devices. Built by {@link #builder(KernelProfile)}, or imported.
 *
 * <pre>{@code
 * Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
 *         .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(64)))
 *         .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
 *         .pvcreate("sda1")
 *         .vgcreate("vg0", "sda1")
 *         .lvcreate("vg0", LvCreateRequest.builder("lv").size("10G").build())
 *         .build();
 * QueueLimits lv = layout.limits("/dev/vg0/lv");
 * }</pre>
 */
public final class Layout {

    private final KernelProfile profile;
    private final Map<String, BlockDevice> devices;
    private final List<PhysicalVolume> physicalVolumes;
    private final List<VolumeGroup> volumeGroups;
    private final Map<String, String> aliases;
    private final LayoutSpec spec; // the steps it was built from, or null
    /** The findings, once computed: validation only reads this layout, so they never change. */
    private volatile List<Finding> findings;

    private Layout(KernelProfile profile, List<BlockDevice> devices, List<PhysicalVolume> pvs,
                   List<VolumeGroup> vgs) {
        this.profile = Objects.requireNonNull(profile, "profile");
        Map<String, BlockDevice> map = new LinkedHashMap<>();
        Map<String, String> alias = new HashMap<>();
        Map<DevNumber, String> numbers = new HashMap<>();
        for (BlockDevice d : devices) {
            if (map.put(d.name(), d) != null) {
                throw new LayoutException(d.name(), "name", d.name(), "device name " + d.name() + " is used twice");
            }
            String other = numbers.put(d.devNumber(), d.name());
            if (other != null) {
                throw new LayoutException(d.name(), "dev", d.devNumber().toString(), "device number "
                        + d.devNumber() + " of " + d.name() + " is already used by " + other);
            }
            alias.put(d.name(), d.name());
            alias.put(d.path(), d.name());
            alias.put("/dev/" + d.name(), d.name());
            alias.put(d.devNumber().toString(), d.name());
            if (d instanceof DmDevice dm) {
                String prev = alias.put(dm.dmName(), d.name());
                if (prev != null && !prev.equals(d.name())) {
                    throw new LayoutException(d.name(), "dm name", dm.dmName(), "device-mapper name " + dm.dmName()
                            + " is already used by " + prev);
                }
            }
        }
        for (VolumeGroup vg : vgs) {
            for (LogicalVolume lv : vg.logicalVolumes()) {
                if (lv.dmDevice().isEmpty() || !map.containsKey(lv.dmDevice())) {
                    continue; // not active: a pool metadata spare, a thin snapshot with activation skip
                }
                alias.put(lv.path(), lv.dmDevice());
                alias.put(vg.name() + "/" + lv.name(), lv.dmDevice());
            }
        }
        // an imported host has dm names but maybe no LVM objects: vg-lv (hyphens doubled) is /dev/vg/lv
        for (BlockDevice d : devices) {
            if (d instanceof DmDevice dm) {
                LogicalVolume.splitDmName(dm.dmName()).ifPresent(vgLv -> {
                    alias.putIfAbsent("/dev/" + vgLv.get(0) + "/" + vgLv.get(1), d.name());
                    alias.putIfAbsent(vgLv.get(0) + "/" + vgLv.get(1), d.name());
                });
            }
        }
        this.devices = java.util.Collections.unmodifiableMap(map);
        this.physicalVolumes = List.copyOf(pvs);
        this.volumeGroups = List.copyOf(vgs);
        this.aliases = Map.copyOf(alias);
        this.spec = null;
        for (PhysicalVolume pv : pvs) {
            if (!map.containsKey(pv.device())) {
                throw new LayoutException(pv.device(), "pv", pv.device(), "PV on unknown device " + pv.device());
            }
        }
    }

    private Layout(Layout built, LayoutSpec spec) {
        this.profile = built.profile;
        this.devices = built.devices;
        this.physicalVolumes = built.physicalVolumes;
        this.volumeGroups = built.volumeGroups;
        this.aliases = built.aliases;
        this.spec = spec;
    }

    /**
     * A layout from its parts (used by the implementation and importers).
     *
     * @throws LayoutException if names or device numbers collide or a PV names an unknown device
     */
    public static Layout of(KernelProfile profile, List<BlockDevice> devices, List<PhysicalVolume> physicalVolumes,
                            List<VolumeGroup> volumeGroups) {
        return new Layout(profile, devices, physicalVolumes, volumeGroups);
    }

    /**
     * Builds a recorded list of steps (an imported host snapshot, a saved layout) under its profile, exactly as
     * a builder holding those steps would.
     *
     * @throws LayoutException with LVM's or the kernel's message when a step would be refused
     */
    public static Layout of(LayoutSpec spec) {
        java.util.Objects.requireNonNull(spec, "spec");
        return dev.dmmodel.spi.ModelProviders.get().build(spec).withSpec(spec);
    }

    /** This layout remembering the steps it was built from (what {@link #spec()} returns). */
    Layout withSpec(LayoutSpec steps) {
        return new Layout(this, Objects.requireNonNull(steps, "steps"));
    }

    /**
     * The kernel profile and steps this layout was built from: present for a layout from {@link #of(LayoutSpec)},
     * a {@link LayoutBuilder} or a reader of {@code dev.dmmodel.io}, empty for one assembled from its devices with
     * {@link #of(KernelProfile, List, List, List)}. A plan applies to it ({@code dev.dmmodel.plan.Plan#applyTo}).
     */
    public Optional<LayoutSpec> spec() {
        return Optional.ofNullable(spec);
    }

    /** A builder for a layout under the given kernel's rules. */
    public static LayoutBuilder builder(KernelProfile profile) {
        return new LayoutBuilder(profile);
    }

    /** A builder under the default profile ({@link KernelProfile#defaultProfile()}). */
    public static LayoutBuilder builder() {
        return new LayoutBuilder(KernelProfile.defaultProfile());
    }

    /** The kernel whose rules produced this layout. */
    public KernelProfile profile() {
        return profile;
    }

    /** Every device, in creation order. */
    public List<BlockDevice> devices() {
        return List.copyOf(devices.values());
    }

    /** Whole disks. */
    public List<Disk> disks() {
        return select(Disk.class);
    }

    /** Partitions. */
    public List<Partition> partitions() {
        return select(Partition.class);
    }

    /** Device-mapper devices. */
    public List<DmDevice> dmDevices() {
        return select(DmDevice.class);
    }

    /** md arrays. */
    public List<dev.dmmodel.device.MdDevice> mdDevices() {
        return select(dev.dmmodel.device.MdDevice.class);
    }

    private <T> List<T> select(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (BlockDevice d : devices.values()) {
            if (type.isInstance(d)) {
                out.add(type.cast(d));
            }
        }
        return List.copyOf(out);
    }

    /**
     * Resolves a device reference: kernel name ({@code dm-2}), {@code /dev/sda1},
     * {@code /dev/mapper/vg0-lv}, a dm name, {@code /dev/vg0/lv}, {@code vg0/lv} or {@code major:minor}.
     */
    public Optional<BlockDevice> find(String reference) {
        Objects.requireNonNull(reference, "reference");
        String name = aliases.get(reference.strip());
        return name == null ? Optional.empty() : Optional.of(devices.get(name));
    }

    /**
     * Resolves a device reference (see {@link #find(String)}).
     *
     * @throws LayoutException naming the reference if no device matches
     */
    public BlockDevice device(String reference) {
        return find(reference).orElseThrow(() -> new LayoutException(reference, "device", reference,
                "no device '" + reference + "' in this layout (known: " + String.join(", ", devices.keySet()) + ")"));
    }

    /** The queue limits the kernel reports for a device (see {@link BlockDevice#limits()}). */
    public QueueLimits limits(String reference) {
        return device(reference).limits();
    }

    /**
     * How the kernel arrived at one queue limit of a device: the rule, its inputs and their own derivations down
     * to the hardware values, the profile's defaults and the sysfs writes. The tree's root value is the value
     * {@link #limits(String)} reports. Computed on each call from this layout and the steps it was built from
     * ({@link #spec()}); a layout without steps explains its disks' values as given.
     *
     * <pre>{@code
     * layout.explain("/dev/sda1", LimitField.MAX_SECTORS_KB).tree();
     * }</pre>
     *
     * @throws LayoutException naming the reference if no device matches
     */
    public dev.dmmodel.limits.Derivation explain(String reference, dev.dmmodel.limits.LimitField field) {
        Objects.requireNonNull(field, "field");
        return ModelProviders.get().explain(this, device(reference).name(), field);
    }

    /**
     * {@link #explain(String, dev.dmmodel.limits.LimitField)} of a limit a finding rests on
     * ({@link dev.dmmodel.finding.Finding#basis()}).
     *
     * @throws LayoutException naming the device if the layout has no such device
     */
    public dev.dmmodel.limits.Derivation explain(dev.dmmodel.limits.LimitRef ref) {
        Objects.requireNonNull(ref, "ref");
        return explain(ref.device(), ref.field());
    }

    /** {@link #explain(String, dev.dmmodel.limits.LimitField)} for every field, in {@code LimitField} order. */
    public List<dev.dmmodel.limits.Derivation> explain(String reference) {
        String name = device(reference).name();
        List<dev.dmmodel.limits.Derivation> out = new ArrayList<>();
        for (dev.dmmodel.limits.LimitField f : dev.dmmodel.limits.LimitField.values()) {
            out.add(ModelProviders.get().explain(this, name, f));
        }
        return List.copyOf(out);
    }

    /** Every PV, orphans included, in creation order. */
    public List<PhysicalVolume> physicalVolumes() {
        return physicalVolumes;
    }

    /** The PV on a device, if the device is one. */
    public Optional<PhysicalVolume> physicalVolume(String reference) {
        String name = device(reference).name();
        for (VolumeGroup vg : volumeGroups) {
            Optional<PhysicalVolume> p = vg.physicalVolume(name);
            if (p.isPresent()) {
                return p;
            }
        }
        return physicalVolumes.stream().filter(p -> p.device().equals(name)).findFirst();
    }

    /** The volume groups in creation order. */
    public List<VolumeGroup> volumeGroups() {
        return volumeGroups;
    }

    /** The volume group of that name. */
    public Optional<VolumeGroup> volumeGroup(String name) {
        return volumeGroups.stream().filter(v -> v.name().equals(name)).findFirst();
    }

    /** The logical volume {@code vg/lv}. */
    public Optional<LogicalVolume> logicalVolume(String vg, String lv) {
        return volumeGroup(vg).flatMap(v -> v.logicalVolume(lv));
    }

    /**
     * The layout's findings: alignment problems with their numbers and fixes, most severe first. Computed once,
     * on the first call (a layout never changes), and the same list after.
     */
    public List<Finding> findings() {
        List<Finding> f = findings;
        if (f == null) {
            synchronized (this) {
                f = findings;
                if (f == null) {
                    f = List.copyOf(ModelProviders.get().validate(this));
                    findings = f;
                }
            }
        }
        return f;
    }

    /**
     * What {@code dmsetup table} prints for the dm devices, byte for byte: devices sorted by name, references as
     * {@code major:minor}, {@code No devices found} without dm devices (see {@link dev.dmmodel.io.DmTables}).
     */
    public String dmsetupTable() {
        return ModelProviders.formats().writeDmTables(this);
    }

    @Override
    public String toString() {
        return "Layout[" + profile + ", " + devices.keySet() + "]";
    }
}
