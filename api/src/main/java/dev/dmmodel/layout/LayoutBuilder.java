package dev.dmmodel.layout;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.spi.ModelProviders;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Builds a {@link Layout} step by step, in the order an administrator would run the commands: attach
 * disks, partition them, {@code pvcreate}, {@code vgcreate}, {@code lvcreate} (linear, striped, thin pools,
 * thin volumes and thin snapshots), {@code dmsetup create}.
 * Order matters as it does on a host (LVM allocates in that order; dm devices are numbered in order).
 * {@link #build()} replays the steps under the kernel profile's rules; the builder can be reused.
 */
public final class LayoutBuilder {

    private final KernelProfile profile;
    private final List<LayoutStep> steps = new ArrayList<>();

    LayoutBuilder(KernelProfile profile) {
        this.profile = Objects.requireNonNull(profile, "profile");
    }

    /**
     * Attaches a whole disk numbered as its driver would number it: {@code disk("sda",
     * DiskPresets.sasDisk().withSize(Bytes.gib(10)))}.
     */
    public LayoutBuilder disk(String name, DiskSpec spec) {
        Objects.requireNonNull(spec, "spec");
        steps.add(new LayoutStep.AddDisk(name, spec, Optional.empty()));
        return this;
    }

    /** Attaches a whole disk with a given device number. */
    public LayoutBuilder disk(String name, DevNumber devNumber, DiskSpec spec) {
        steps.add(new LayoutStep.AddDisk(name, spec, Optional.of(devNumber)));
        return this;
    }

    /**
     * Assembles an md array as the kernel lists it ({@code /sys/block/mdN/md/}): {@code mdArray("md0", spec)}.
     * Its members must exist by then and be unused.
     */
    public LayoutBuilder mdArray(String name, dev.dmmodel.device.MdArraySpec spec) {
        steps.add(new LayoutStep.AddMdArray(name, spec, Optional.empty()));
        return this;
    }

    /**
     * {@code mdadm --create} with mdadm's defaults for what the request leaves out: {@code mdadmCreate(
     * MdadmCreateRequest.of("md0", MdLevel.RAID5, "sdb", "sdc", "sdd"))}.
     */
    public LayoutBuilder mdadmCreate(dev.dmmodel.device.MdadmCreateRequest request) {
        steps.add(new LayoutStep.MdadmCreate(request));
        return this;
    }

    /** Writes a partition table with partitions 1..n. */
    public LayoutBuilder partitionTable(String disk, PartitionTableType type, PartitionSpec... partitions) {
        steps.add(new LayoutStep.CreatePartitionTable(disk, type, List.of(partitions)));
        return this;
    }

    /** {@code echo KB > /sys/block/DEV/queue/max_sectors_kb} (before devices stacked on it are created). */
    public LayoutBuilder maxSectorsKb(String device, long kb) {
        steps.add(new LayoutStep.SetMaxSectorsKb(device, kb));
        return this;
    }

    /** {@code pvcreate DEV} with LVM 2.03 defaults. */
    public LayoutBuilder pvcreate(String device) {
        return pvcreate(device, PvCreateOptions.DEFAULTS);
    }

    /** {@code pvcreate} with options. */
    public LayoutBuilder pvcreate(String device, PvCreateOptions options) {
        steps.add(new LayoutStep.PvCreate(device, options));
        return this;
    }

    /** {@code vgcreate VG PV...} with the default 4 MiB extents. */
    public LayoutBuilder vgcreate(String name, String... pvs) {
        return vgcreate(name, VgCreateOptions.DEFAULTS, pvs);
    }

    /** {@code vgcreate} with options. */
    public LayoutBuilder vgcreate(String name, VgCreateOptions options, String... pvs) {
        steps.add(new LayoutStep.VgCreate(name, options, List.of(pvs)));
        return this;
    }

    /** {@code vgextend VG PV...}: adds orphan PVs to an existing VG. */
    public LayoutBuilder vgextend(String vg, String... pvs) {
        return step(new LayoutStep.VgExtend(vg, List.of(pvs)));
    }

    /** {@code lvcreate} of a linear or striped LV, activated as a dm device. */
    public LayoutBuilder lvcreate(String vg, LvCreateRequest request) {
        steps.add(new LayoutStep.LvCreate(vg, request));
        return this;
    }

    /** {@code lvextend -l +N VG/LV [PV:PE-PE...]} of a linear or striped LV; its dm table is reloaded. */
    public LayoutBuilder lvextend(String vg, LvExtendRequest request) {
        steps.add(new LayoutStep.LvExtend(vg, request));
        return this;
    }

    /**
     * {@code lvconvert --type thin-pool --poolmetadata VG/META VG/DATA}: two existing LVs become a thin pool
     * (named as the data LV) and its metadata, activated as LVM activates a new pool.
     */
    public LayoutBuilder lvconvertThinPool(String vg, ThinPoolConvertRequest request) {
        steps.add(new LayoutStep.ThinPoolConvert(vg, request));
        return this;
    }

    /** {@code lvcreate --type thin-pool}: the pool and its hidden LVs, activated as LVM activates a new pool. */
    public LayoutBuilder lvcreateThinPool(String vg, ThinPoolRequest request) {
        steps.add(new LayoutStep.ThinPoolCreate(vg, request));
        return this;
    }

    /** {@code lvcreate -V SIZE --thinpool POOL -n NAME}: a thin volume, activated. */
    public LayoutBuilder lvcreateThin(String vg, ThinLvRequest request) {
        steps.add(new LayoutStep.ThinLvCreate(vg, request));
        return this;
    }

    /** {@code lvcreate -s VG/THIN [-n NAME]}: a thin snapshot, left inactive ({@code ACTIVATION_SKIP}). */
    public LayoutBuilder lvcreateSnapshot(String vg, ThinSnapshotRequest request) {
        steps.add(new LayoutStep.ThinSnapshotCreate(vg, request));
        return this;
    }

    /**
     * {@code lvcreate -s -L SIZE [-c CHUNK] -n NAME VG/LV}: a classic (copy-on-write) snapshot of a linear or
     * striped LV, activated: the origin becomes a {@code snapshot-origin}, the snapshot a {@code snapshot} target.
     */
    public LayoutBuilder lvcreateCowSnapshot(String vg, dev.dmmodel.lvm.CowSnapshotRequest request) {
        steps.add(new LayoutStep.CowSnapshotCreate(vg, request));
        return this;
    }

    /** {@code lvcreate --type raid1|raid4|raid5|raid6 ...}: a RAID LV and its sub-LVs, activated. */
    public LayoutBuilder lvcreateRaid(String vg, dev.dmmodel.lvm.RaidLvRequest request) {
        steps.add(new LayoutStep.RaidLvCreate(vg, request));
        return this;
    }

    /**
     * An existing volume group as read from its LVM metadata (an imported host): its PVs must be devices added
     * before, and its LVs are matched to dm devices created before by their LVM names.
     */
    public LayoutBuilder importVolumeGroup(dev.dmmodel.lvm.VolumeGroup volumeGroup) {
        steps.add(new LayoutStep.ImportVolumeGroup(volumeGroup));
        return this;
    }

    /** {@code dmsetup create NAME} with a table given as a built table. */
    public LayoutBuilder dmsetupCreate(String name, DmTable table) {
        steps.add(new LayoutStep.DmCreate(name, "", table));
        return this;
    }

    /** {@code dmsetup create NAME}, the table built by appending targets. */
    public LayoutBuilder dmsetupCreate(String name, Consumer<DmTable.Builder> table) {
        DmTable.Builder b = DmTable.builder();
        table.accept(b);
        return dmsetupCreate(name, b.build());
    }

    /** Adds a recorded step (used by importers). */
    public LayoutBuilder step(LayoutStep step) {
        steps.add(Objects.requireNonNull(step, "step"));
        return this;
    }

    /** The steps so far. */
    public List<LayoutStep> steps() {
        return List.copyOf(steps);
    }

    /**
     * Replays the steps and returns the layout.
     *
     * @throws LayoutException for a structural error, naming the device, field, value and rule
     */
    public Layout build() {
        LayoutSpec spec = new LayoutSpec(profile, steps);
        return ModelProviders.get().build(spec).withSpec(spec);
    }
}
