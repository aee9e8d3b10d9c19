package dev.dmmodel.impl.plan;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.device.Partition;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.PhysicalVolume;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The host a plan runs on, as its commands change it: the steps that build it (the host's own, then each
 * command's) and the layout they build. Every change is built before it is kept, so a command the model refuses
 * leaves the host as it was. Also what the block stack does not hold but later commands read: the filesystems
 * made and mounted (the workload runs them before it starts) and each format's names for what it made
 * (kickstart's {@code pv.01}, curtin's ids).
 */
public final class PlanState {

    private final KernelProfile profile;
    private final dev.dmmodel.impl.IncrementalHost host;
    private final List<String> setup = new ArrayList<>();
    private final Map<String, String> filesystems = new LinkedHashMap<>();
    private final Map<String, String> mounts = new LinkedHashMap<>();
    private final Map<String, String> names = new HashMap<>();
    private final Map<String, Object> notes = new HashMap<>();

    /**
     * @param host the host's steps
     * @throws dev.dmmodel.layout.LayoutException if the host cannot be built
     */
    public PlanState(LayoutSpec host) {
        Objects.requireNonNull(host, "host");
        this.profile = host.profile();
        this.host = new dev.dmmodel.impl.IncrementalHost(host);
    }

    /** The kernel rules the host runs. */
    public KernelProfile profile() {
        return profile;
    }

    /** The host as the commands so far left it. */
    public Layout layout() {
        return host.layout();
    }

    /** The host as the commands so far left it, built from its steps: its {@link Layout#spec()} is present. */
    public Layout result() {
        return Layout.of(host.spec());
    }

    /** The steps that build {@link #layout()}. */
    public List<LayoutStep> steps() {
        return host.spec().steps();
    }

    /**
     * Adds steps: builds the host with them and keeps them only if it builds.
     *
     * @return the new layout
     * @throws dev.dmmodel.layout.LayoutException with the model's (LVM's, the kernel's) message if it does not
     */
    public Layout add(List<LayoutStep> more) {
        return host.add(List.copyOf(more));
    }

    /** {@link #add(List)} of one step. */
    public Layout add(LayoutStep step) {
        return add(List.of(step));
    }

    /**
     * Replaces every step (a command that removes something: a new partition table, {@code clearpart}).
     *
     * @throws dev.dmmodel.layout.LayoutException if the new steps do not build; nothing changes then
     */
    public Layout replace(List<LayoutStep> all) {
        return host.replace(List.copyOf(all));
    }

    /**
     * The device a command names, or the tool's failure: {@code cannot open /dev/sdx: No such file or directory}.
     *
     * @param reference {@code /dev/sda}, {@code sda}, {@code /dev/vg/lv}, {@code /dev/mapper/x}, ...
     * @param tool the tool, for the message's wording ({@code sfdisk: cannot open /dev/sdx: ...})
     */
    public BlockDevice device(String reference, String tool) {
        return layout().find(reference).orElseThrow(() -> new PlanOpFailure("cannot open " + reference
                + ": No such file or directory"));
    }

    /** The whole disk a command names, or the failure a tool gives for something else. */
    public Disk disk(String reference, String tool) {
        BlockDevice d = device(reference, tool);
        if (d instanceof Disk disk) {
            return disk;
        }
        throw new PlanOpFailure(reference + " is not a whole disk (it is " + kind(d) + "): " + tool
                + " partitions whole disks");
    }

    /** The partitions of a disk, by number. */
    public List<Partition> partitions(String disk) {
        List<Partition> out = new ArrayList<>();
        for (Partition p : layout().partitions()) {
            if (p.disk().equals(disk)) {
                out.add(p);
            }
        }
        out.sort((a, b) -> Integer.compare(a.number(), b.number()));
        return out;
    }

    /**
     * The label on a disk as the plan and host steps wrote it: the type of its last partition-table step, empty
     * when the steps give none (a blank disk, or partitions imported from a snapshot, whose label type sysfs
     * does not show).
     */
    public Optional<PartitionTableType> label(String disk) {
        Optional<PartitionTableType> type = Optional.empty();
        for (LayoutStep s : steps()) {
            if (s instanceof LayoutStep.CreatePartitionTable t && sameDevice(t.disk(), disk)) {
                type = Optional.of(t.type());
            }
        }
        return type;
    }

    /**
     * What holds a device open, or empty if nothing does: a PV, a dm table, an md array, a mounted filesystem,
     * or — for a disk — any of these on one of its partitions.
     */
    public Optional<String> holder(String deviceName) {
        BlockDevice d = layout().find(deviceName).orElse(null);
        if (d == null) {
            return Optional.empty();
        }
        for (PhysicalVolume pv : layout().physicalVolumes()) {
            if (pv.device().equals(d.name())) {
                return Optional.of("an LVM physical volume" + (pv.isOrphan() ? "" : " of volume group "
                        + pv.vgName()));
            }
        }
        String number = d.devNumber().toString();
        for (DmDevice dm : layout().dmDevices()) {
            for (String below : dm.table().devices()) {
                if (below.equals(number) || below.equals(d.name()) || below.equals(d.path())) {
                    return Optional.of("device-mapper device " + dm.dmName());
                }
            }
        }
        for (MdDevice md : layout().mdDevices()) {
            for (MdMember m : md.spec().members()) {
                if (m.device().equals(d.name())) {
                    return Optional.of("md array " + md.name());
                }
            }
        }
        for (Map.Entry<String, String> m : mounts.entrySet()) {
            if (m.getKey().equals(d.name())) {
                return Optional.of("the filesystem mounted on " + m.getValue());
            }
        }
        if (d instanceof Disk) {
            for (Partition p : partitions(d.name())) {
                Optional<String> h = holder(p.name());
                if (h.isPresent()) {
                    return Optional.of(p.path() + ", held by " + h.get());
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Removes a disk's partitions (a new label, {@code wipefs -a}, {@code clearpart}): the steps that made them
     * go; the disk must not be in use.
     *
     * @throws PlanOpFailure "DEV: Device or resource busy" naming what holds it
     */
    public Layout removePartitions(String disk, String tool) {
        Optional<String> held = holder(disk);
        if (held.isPresent()) {
            throw new PlanOpFailure("/dev/" + disk + ": Device or resource busy (in use: " + held.get() + ")");
        }
        List<LayoutStep> kept = new ArrayList<>();
        for (LayoutStep s : steps()) {
            if (s instanceof LayoutStep.CreatePartitionTable t && sameDevice(t.disk(), disk)) {
                continue;
            }
            if (s instanceof LayoutStep.AddPartition p && sameDevice(p.disk(), disk)) {
                continue;
            }
            kept.add(s);
        }
        filesystems.remove(disk);
        return replace(kept);
    }

    private boolean sameDevice(String reference, String name) {
        return layout().find(reference).map(d -> d.name().equals(name)).orElse(reference.equals(name));
    }

    /**
     * Records a filesystem made on a device ({@code mkfs}) and the workload line that makes it.
     *
     * @param device the device's kernel name
     * @param type {@code xfs}, {@code ext4}, ...
     * @param line the command for the workload ({@code mkfs.xfs -f -s size=512 /dev/vg/lv})
     */
    public void mkfs(String device, String type, String line) {
        filesystems.put(device, type);
        setup.add(line);
    }

    /** Records a mount and the workload line that makes it. */
    public void mount(String device, String mountPoint, String line) {
        mounts.put(device, mountPoint);
        setup.add(line);
    }

    /** The filesystem made on a device by the plan, if any. */
    public Optional<String> filesystem(String device) {
        return Optional.ofNullable(filesystems.get(device));
    }

    /** The mount point of a device mounted by the plan, if any. */
    public Optional<String> mountPoint(String device) {
        return Optional.ofNullable(mounts.get(device));
    }

    /** The workload lines of the filesystems made and mounted, in plan order. */
    public List<String> setupLines() {
        return List.copyOf(setup);
    }

    /**
     * A format's name for what it made (kickstart's {@code pv.01}, a curtin id) and the device it names.
     *
     * @return the previous device under that name, if any
     */
    public Optional<String> name(String symbol, String device) {
        return Optional.ofNullable(names.put(Objects.requireNonNull(symbol, "symbol"),
                Objects.requireNonNull(device, "device")));
    }

    /** The device a format's name stands for, if it was made. */
    public Optional<String> named(String symbol) {
        return Optional.ofNullable(names.get(symbol));
    }

    /**
     * Records what a tool wrote that the block stack does not hold but a later command reads (a LUKS header:
     * {@code cryptsetup open} needs the data offset {@code luksFormat} chose).
     *
     * @param key the tool's key, e.g. {@code luks:sdb1}
     */
    public void note(String key, Object value) {
        notes.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /** What a tool recorded under {@code key}, if it is of that type. */
    public <T> Optional<T> noted(String key, Class<T> type) {
        Object v = notes.get(key);
        return type.isInstance(v) ? Optional.of(type.cast(v)) : Optional.empty();
    }

    private static String kind(BlockDevice d) {
        if (d instanceof Partition) {
            return "a partition";
        }
        if (d instanceof DmDevice) {
            return "a device-mapper device";
        }
        if (d instanceof MdDevice) {
            return "an md array";
        }
        return "a block device";
    }
}
