package dev.dmmodel.benchmarks;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;

/**
 * The block stacks the benchmarks drive, all on scsi_debug-like disks ({@code scsiDebug(512, 512, 0)}:
 * 512-byte sectors, 2048 segments of unlimited size, no hardware sector limit) under the default kernel
 * profile ({@link KernelProfile#defaultProfile()}).
 */
public final class Stacks {

    /** The linear LV's path in {@link #linear(Bytes, PartitionTableType, Bytes)} layouts. */
    public static final String LINEAR_LV = "/dev/vg/lv";
    /** The striped LV's path in {@link #striped()}. */
    public static final String STRIPED_LV = "/dev/vg/striped";
    /** The LV of {@link #raid5()}. */
    public static final String RAID5_LV = "/dev/vg/r5";
    /** The thin device of {@link #thin()}. */
    public static final String THIN = "/dev/mapper/thin";

    private Stacks() {
    }

    /**
     * Partition → dm-linear → disk: a 64 GiB disk {@code sda}, an msdos partition {@code sda1} from sector
     * 2048 to the end, {@code pvcreate}, {@code vgcreate vg}, and a 32 GiB linear LV {@code vg/lv}. An I/O
     * to the LV is remapped twice (dm-0 → sda1 → sda).
     */
    public static Layout linear() {
        return linear(Bytes.gib(64), PartitionTableType.MSDOS, Bytes.gib(32));
    }

    /**
     * The same shape as {@link #linear()} on a 16 TiB disk with a 12 TiB LV, for jobs of up to 10 TiB. The
     * partition table is GPT: an msdos partition ends at 2 TiB (32-bit sector numbers).
     */
    public static Layout linearHuge() {
        return linear(Bytes.tib(16), PartitionTableType.GPT, Bytes.tib(12));
    }

    /** Partition at sector 2048 → PV → VG {@code vg} → linear LV {@code vg/lv} of {@code lvSize}. */
    public static Layout linear(Bytes diskSize, PartitionTableType table, Bytes lvSize) {
        return Layout.builder(KernelProfile.defaultProfile())
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(diskSize))
                .partitionTable("sda", table, PartitionSpec.atToEnd(Sectors.of(2048)))
                .pvcreate("sda1")
                .vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size(lvSize).build())
                .build();
    }

    /**
     * dm-striped over two disks: two 64 GiB disks {@code sda} and {@code sdb}, each a whole-disk PV in
     * {@code vg}, and a 64 GiB LV {@code vg/striped} of 2 stripes × 64 KiB. A 1 MiB I/O is cut at every
     * 64 KiB chunk boundary into 16 pieces, 8 for each disk.
     */
    public static Layout striped() {
        return Layout.builder(KernelProfile.defaultProfile())
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .pvcreate("sda")
                .pvcreate("sdb")
                .vgcreate("vg", "sda", "sdb")
                .lvcreate("vg", LvCreateRequest.builder("striped").size(Bytes.gib(64)).stripes(2)
                        .stripeSize(Bytes.kib(64)).build())
                .build();
    }

    /**
     * LVM on md raid5: four 64 GiB scsi_debug disks {@code sda}..{@code sdd} in an array {@code md0} made by
     * {@code mdadm --create --level=5 --raid-devices=4 --chunk=64} (left-symmetric, 192 KiB data stripe), a PV on
     * it and a 64 GiB LV {@code vg/r5}. A 4 KiB write is a reconstruct-write through the stripe cache (two page
     * reads, two page writes); a 1 MiB write is five full stripes and two partial ones.
     */
    public static Layout raid5() {
        return Layout.builder(KernelProfile.defaultProfile())
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .disk("sdc", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .disk("sdd", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .mdadmCreate(dev.dmmodel.device.MdadmCreateRequest.of("md0", dev.dmmodel.device.MdLevel.RAID5, "sda",
                        "sdb", "sdc", "sdd").withChunk(Bytes.kib(64)).withAssumeClean())
                .pvcreate("md0")
                .vgcreate("vg", "md0")
                .lvcreate("vg", LvCreateRequest.builder("r5").size(Bytes.gib(64)).build())
                .build();
    }

    /**
     * dm-thin on a disk: a 64 GiB disk {@code sda} holds a thin pool's data ({@code dmsetup create pool}, 64 KiB
     * blocks, zeroing of new blocks on, low water mark 0), a 1 GiB disk {@code sdb} its metadata, and a 32 GiB thin
     * device {@code thin} (id 0) lives in it. A write to the thin device is cut at every 64 KiB block
     * ({@code max_io_len}); a block's first write provisions it through the pool's worker (a partial one zeroes
     * it first by kcopyd); the rest are remapped at once to the pool, which remaps them to {@code sda}.
     */
    public static Layout thin() {
        return Layout.builder(KernelProfile.defaultProfile())
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(64)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.gib(1)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.ofBytes(Bytes.gib(64).count()), "sdb", "sda", 128, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.ofBytes(Bytes.gib(32).count()), "pool", 0))
                .build();
    }
}
