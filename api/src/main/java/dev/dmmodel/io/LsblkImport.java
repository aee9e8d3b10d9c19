package dev.dmmodel.io;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Lsblk#read} makes of {@code lsblk --json --bytes --output-all}.
 *
 * @param steps {@link LayoutStep.AddDisk} for each disk, each followed by {@link LayoutStep.AddPartition} for its
 *     partitions, in lsblk order
 * @param dmDevices the device-mapper devices lsblk lists: lsblk shows no table, so they cannot be built from it;
 *     a caller combines them with {@code dmsetup table} text (by dm name) or a snapshot
 * @param problems devices left out and why, each {@code source:line:column: message}: a partition without
 *     {@code start} (util-linux before 2.38), a type the model does not have (md RAID, rom...), a value that
 *     does not parse
 */
public record LsblkImport(List<LayoutStep> steps, List<PendingDm> dmDevices, List<String> problems) {

    /** Copies the lists. */
    public LsblkImport {
        steps = List.copyOf(steps);
        dmDevices = List.copyOf(dmDevices);
        problems = List.copyOf(problems);
    }

    /**
     * The disks and partitions as a layout spec under a kernel profile; add the dm devices with
     * {@link DmTables#addTo(LayoutSpec, String, String)} and {@code dmsetup table} output.
     */
    public LayoutSpec toLayoutSpec(KernelProfile kernel) {
        return new LayoutSpec(Objects.requireNonNull(kernel, "kernel"), steps);
    }

    /**
     * A device-mapper device that needs its table from elsewhere ({@code dmsetup table}).
     *
     * @param name the dm name ({@code vg-lv}), lsblk's {@code name}
     * @param kname the kernel name ({@code dm-0})
     * @param devNumber lsblk's {@code maj:min}
     * @param size the size
     * @param type lsblk's {@code type}: {@code lvm}, {@code dm}, {@code crypt}, {@code mpath}...
     */
    public record PendingDm(String name, String kname, DevNumber devNumber, Sectors size, String type) {
        /** Rejects nulls. */
        public PendingDm {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kname, "kname");
            Objects.requireNonNull(devNumber, "devNumber");
            Objects.requireNonNull(size, "size");
            Objects.requireNonNull(type, "type");
        }
    }
}
