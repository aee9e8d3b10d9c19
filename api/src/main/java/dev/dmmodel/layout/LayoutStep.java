package dev.dmmodel.layout;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One step of building a layout, in the order an administrator would run it. {@link LayoutBuilder}
 * records these; an implementation replays them. Device references may be kernel names, {@code /dev/...}
 * paths, {@code /dev/mapper/...} names or {@code /dev/vg/lv} paths.
 */
public sealed interface LayoutStep {

    /**
     * Attach a whole disk.
     *
     * @param name kernel name
     * @param spec driver and hardware limits
     * @param devNumber the device number, or empty to number it as its driver would
     */
    record AddDisk(String name, DiskSpec spec, Optional<DevNumber> devNumber) implements LayoutStep {
        /** Rejects nulls. */
        public AddDisk {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(devNumber, "devNumber");
        }
    }

    /**
     * Write a partition table ({@code sfdisk}/{@code parted}).
     *
     * @param disk the disk
     * @param type the label type
     * @param partitions partitions 1..n in order
     */
    record CreatePartitionTable(String disk, PartitionTableType type, List<PartitionSpec> partitions)
            implements LayoutStep {
        /** Rejects nulls. */
        public CreatePartitionTable {
            Objects.requireNonNull(disk, "disk");
            Objects.requireNonNull(type, "type");
            partitions = List.copyOf(partitions);
        }
    }

    /**
     * {@code echo KB > /sys/block/DEV/queue/max_sectors_kb}.
     *
     * @param device the device
     * @param kb the value written
     */
    record SetMaxSectorsKb(String device, long kb) implements LayoutStep {
        /** Rejects nulls. */
        public SetMaxSectorsKb {
            Objects.requireNonNull(device, "device");
        }
    }

    /**
     * {@code pvcreate}.
     *
     * @param device the device
     * @param options options and lvm.conf settings
     */
    record PvCreate(String device, PvCreateOptions options) implements LayoutStep {
        /** Rejects nulls. */
        public PvCreate {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(options, "options");
        }
    }

    /**
     * {@code vgcreate}.
     *
     * @param name the VG name
     * @param options extent size and policy
     * @param pvs the PVs' devices, in order
     */
    record VgCreate(String name, VgCreateOptions options, List<String> pvs) implements LayoutStep {
        /** Rejects nulls. */
        public VgCreate {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(options, "options");
            pvs = List.copyOf(pvs);
        }
    }

    /**
     * {@code vgextend VG PV...}: adds orphan PVs (each made by a {@link PvCreate} first) to an existing VG; their
     * extents are counted with the VG's extent size.
     *
     * @param vg the VG name
     * @param pvs the PVs' devices, in order
     */
    record VgExtend(String vg, List<String> pvs) implements LayoutStep {
        /** Rejects nulls. */
        public VgExtend {
            Objects.requireNonNull(vg, "vg");
            pvs = List.copyOf(pvs);
        }
    }

    /**
     * An existing volume group as its LVM metadata describes it ({@code vgcfgbackup}; an imported host). Its
     * PVs must be devices of the layout, named by kernel name; an LV is active when a dm device named as LVM
     * names it ({@code vg-lv}) exists by then, otherwise inactive.
     *
     * @param volumeGroup the volume group
     */
    record ImportVolumeGroup(dev.dmmodel.lvm.VolumeGroup volumeGroup) implements LayoutStep {
        /** Rejects nulls. */
        public ImportVolumeGroup {
            Objects.requireNonNull(volumeGroup, "volumeGroup");
        }
    }

    /**
     * {@code lvcreate} (linear or striped); the LV is activated as a dm device.
     *
     * @param vg the VG
     * @param request what to create
     */
    record LvCreate(String vg, LvCreateRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public LvCreate {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code lvextend -l +N VG/LV}: more extents for a linear or striped LV, whose dm table is reloaded.
     *
     * @param vg the VG
     * @param request what to add
     */
    record LvExtend(String vg, LvExtendRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public LvExtend {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code lvconvert --type thin-pool --poolmetadata VG/META VG/DATA}: two existing LVs become a thin pool's
     * data and metadata, the spare is created or grown unless refused, and the pool is activated as a new pool.
     *
     * @param vg the VG
     * @param request what to convert
     */
    record ThinPoolConvert(String vg, ThinPoolConvertRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public ThinPoolConvert {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code lvcreate --type thin-pool}: the pool, its hidden {@code _tdata} and {@code _tmeta} LVs and,
     * unless refused, the VG's pool metadata spare; the pool is activated.
     *
     * @param vg the VG
     * @param request what to create
     */
    record ThinPoolCreate(String vg, ThinPoolRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public ThinPoolCreate {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code lvcreate -V SIZE --thinpool POOL}: a thin volume, activated.
     *
     * @param vg the VG
     * @param request what to create
     */
    record ThinLvCreate(String vg, ThinLvRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public ThinLvCreate {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code lvcreate -s -L SIZE VG/LV}: a classic (copy-on-write) snapshot, activated.
     *
     * @param vg the VG
     * @param request what to create
     */
    record CowSnapshotCreate(String vg, dev.dmmodel.lvm.CowSnapshotRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public CowSnapshotCreate {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code lvcreate --type raid1|raid4|raid5|raid6}: a RAID LV with its {@code _rmeta_N} and {@code _rimage_N}
     * sub-LVs, activated as LVM activates it (each metadata and image LV as a linear device, then the RAID LV as a
     * {@code raid} target).
     *
     * @param vg the VG
     * @param request what to create
     */
    record RaidLvCreate(String vg, dev.dmmodel.lvm.RaidLvRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public RaidLvCreate {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code lvcreate -s VG/THIN}: a thin snapshot, not activated ({@code ACTIVATION_SKIP}).
     *
     * @param vg the VG
     * @param request what to create
     */
    record ThinSnapshotCreate(String vg, ThinSnapshotRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public ThinSnapshotCreate {
            Objects.requireNonNull(vg, "vg");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code dmsetup create NAME} with a table.
     *
     * @param name the dm name
     * @param uuid the dm uuid, empty for none
     * @param table the table; its device references are resolved when the step is replayed
     * @param kernelName the kernel name to use ({@code dm-7}, as imported from a host), or empty for the
     *     next free {@code dm-N}
     * @param devNumber the device number to use, or empty for {@code 253:N}
     */
    record DmCreate(String name, String uuid, DmTable table, Optional<String> kernelName,
                    Optional<DevNumber> devNumber) implements LayoutStep {
        /** Rejects nulls. */
        public DmCreate {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(uuid, "uuid");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(kernelName, "kernelName");
            Objects.requireNonNull(devNumber, "devNumber");
        }

        /** A dm device named and numbered in creation order. */
        public DmCreate(String name, String uuid, DmTable table) {
            this(name, uuid, table, Optional.empty(), Optional.empty());
        }
    }

    /**
     * A partition exactly as the kernel lists it (imported from a host), without writing a label.
     *
     * @param disk the disk
     * @param number the partition number
     * @param start first sector relative to the disk
     * @param size size in sectors
     * @param kernelName the kernel name, or empty for the usual one ({@code sda1}, {@code nvme0n1p1})
     * @param devNumber the device number, or empty to number it as the driver would
     */
    record AddPartition(String disk, int number, dev.dmmodel.units.Sectors start, dev.dmmodel.units.Sectors size,
                        Optional<String> kernelName, Optional<DevNumber> devNumber) implements LayoutStep {
        /** Rejects nulls. */
        public AddPartition {
            Objects.requireNonNull(disk, "disk");
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(size, "size");
            Objects.requireNonNull(kernelName, "kernelName");
            Objects.requireNonNull(devNumber, "devNumber");
        }
    }

    /**
     * An md array exactly as the kernel lists it (imported from a host, or from a plan's {@code mdadm --create} once
     * mdadm's defaults are applied): its members must exist and be unused; the array is assembled and running.
     *
     * @param name the kernel name ({@code md0})
     * @param spec level, slots, chunk, layout, metadata and the members with their data offsets
     * @param devNumber the device number, or empty for {@code 9:N} of {@code mdN}
     */
    record AddMdArray(String name, dev.dmmodel.device.MdArraySpec spec, Optional<DevNumber> devNumber)
            implements LayoutStep {
        /** Rejects nulls. */
        public AddMdArray {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(devNumber, "devNumber");
        }
    }

    /**
     * {@code mdadm --create}: mdadm's defaults applied to the members as they are (chunk, layout, metadata 1.2's data
     * offset and the data size it leaves), then the array assembled as {@link AddMdArray} would.
     *
     * @param request the command line
     */
    record MdadmCreate(dev.dmmodel.device.MdadmCreateRequest request) implements LayoutStep {
        /** Rejects nulls. */
        public MdadmCreate {
            Objects.requireNonNull(request, "request");
        }
    }
}
