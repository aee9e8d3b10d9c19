package dev.dmmodel.finding;

/**
 * The kinds of finding, each with a stable id that tools may match on (ids never change meaning; new
 * kinds get new ids).
 *
 * <p>Severity {@link Severity#ERROR} is kept for layouts that lose data or stop working by themselves, not
 * for slow ones: overlapping partitions ({@link #PARTITION_OVERLAP}), sectors mapped twice
 * ({@link #DM_TABLE_OVERLAP}) and thin metadata too small for its data ({@link #THIN_METADATA_TOO_SMALL}).
 * What the kernel itself refuses to build (a table area beyond its device, a target boundary off the logical
 * block size, a partition beyond its disk) is never a finding: building such a layout throws
 * {@link dev.dmmodel.layout.LayoutException}. Overprovisioned thin pools are normal ({@link Severity#INFO}).
 */
public enum FindingType {
    /** A partition starts off the disk's physical block boundary (sector 63 on a 4 KiB-sector disk). */
    PARTITION_MISALIGNED_PHYSICAL_BLOCK("align.partition.physical-block", Severity.WARNING),
    /** A partition starts off the disk's minimum I/O size (a RAID chunk). */
    PARTITION_MISALIGNED_IO_MIN("align.partition.io-min", Severity.WARNING),
    /** A partition starts off the disk's optimal I/O size (a RAID full stripe). */
    PARTITION_MISALIGNED_IO_OPT("align.partition.io-opt", Severity.INFO),
    /** A PV's data area (pe_start plus the partition start) is not aligned to the RAID full stripe. */
    PV_DATA_MISALIGNED_FULL_STRIPE("align.pv.full-stripe", Severity.WARNING),
    /** A PV's data area is not aligned to the device's minimum I/O size or physical block. */
    PV_DATA_MISALIGNED_IO_MIN("align.pv.io-min", Severity.WARNING),
    /** A dm device (or LV) reports a non-zero alignment_offset: its sector 0 is not naturally aligned. */
    DEVICE_ALIGNMENT_OFFSET("align.device.offset", Severity.WARNING),
    /** A dm device's stack cannot be aligned at all (alignment_offset -1). */
    DEVICE_MISALIGNED("align.device.misaligned", Severity.WARNING),
    /** A volume group mixes PVs with different logical block sizes. */
    VG_MIXED_LOGICAL_BLOCK_SIZES("lvm.vg.mixed-logical-block-size", Severity.WARNING),
    /** A dm table mixes devices with different logical block sizes. */
    TABLE_MIXED_LOGICAL_BLOCK_SIZES("dm.table.mixed-logical-block-size", Severity.WARNING),
    /** First writes to a thin device did not cover whole pool blocks, so new blocks were zeroed or copied first. */
    THIN_PARTIAL_FIRST_WRITES("thin.block.partial-first-write", Severity.WARNING),
    /** A thin pool's block size is not a multiple of its data device's full stripe. */
    THIN_BLOCK_NOT_FULL_STRIPE("thin.pool.block-full-stripe", Severity.WARNING),
    /** The thin devices of a pool are larger together than its data device. */
    THIN_OVERPROVISIONED("thin.pool.overprovisioned", Severity.INFO),
    /**
     * A thin pool's metadata device is smaller than thin_metadata_size estimates for mapping its data at its
     * block size (full btree leaves, a lower bound): the metadata runs out before the data does, and a pool
     * out of metadata space turns read-only and needs repair. An {@link Severity#ERROR}.
     */
    THIN_METADATA_TOO_SMALL("thin.pool.metadata-too-small", Severity.ERROR),
    /** No single bio can reach a thin device with a whole pool block, so every first write zeroes the block. */
    THIN_BLOCK_LARGER_THAN_BIO("thin.pool.block-larger-than-bio", Severity.WARNING),
    /**
     * A VG with thin pools has no pool metadata spare, or one smaller than its largest pool metadata LV, so
     * {@code lvconvert --repair} has nowhere to write repaired metadata.
     */
    THIN_NO_METADATA_SPARE("thin.pool.no-pmspare", Severity.WARNING),
    /** The VG's extent size is not a multiple of its PVs' full stripe, so extents straddle stripes. */
    EXTENT_SIZE_NOT_FULL_STRIPE_MULTIPLE("lvm.vg.extent-size-full-stripe", Severity.INFO),
    /**
     * Two partitions of a disk share sectors (a label the kernel read as it is; only a snapshot can hold one):
     * what is written to one overwrites the other. An {@link Severity#ERROR}.
     */
    PARTITION_OVERLAP("partition.overlap", Severity.ERROR),
    /**
     * Two dm tables (or two lines of one table) map the same sectors of a device, or a table maps sectors of a
     * disk that a partition in use (mapped, or an LVM PV) also covers: writes through one overwrite the data of
     * the other. An {@link Severity#ERROR}; thin devices sharing their pool are not such a case.
     */
    DM_TABLE_OVERLAP("dm.table.overlap", Severity.ERROR),
    /**
     * A dm device's table has a target type the model does not implement ({@link dev.dmmodel.dm.OpaqueTarget}):
     * its limits are the kernel's as recorded (or the stacked devices' when none were), the devices above it are
     * modelled as usual, and I/O through it cannot be traced. {@link Severity#INFO}: a limit of the model, not of
     * the layout.
     */
    DM_TARGET_NOT_MODELLED("dm.target.not-modelled", Severity.INFO),
    /**
     * A whole block device is made by a stacking driver the model does not implement (md RAID, bcache, DRBD,
     * zram, a network block device): it is modelled as a disk with the limits the kernel recorded, and what it
     * sends to the devices below it is not. {@link Severity#INFO}: a limit of the model, not of the layout.
     */
    DEVICE_NOT_MODELLED("device.not-modelled", Severity.INFO),
    /**
     * A dm-crypt device encrypts 512-byte sectors over a device whose physical blocks are larger (4 KiB): it
     * offers 512-byte logical blocks, so writes smaller than or off the physical block are read-modify-writes in
     * the drive, and the cipher runs once per 512 bytes (8 times per 4 KiB page).
     */
    CRYPT_SECTOR_BELOW_PHYSICAL_BLOCK("crypt.sector-size-below-physical-block", Severity.WARNING),
    /**
     * A dm-crypt device without {@code allow_discards} over a device that takes discards: the crypt device reports
     * no discard support, so {@code fstrim}, {@code blkdiscard} and {@code mount -o discard} do nothing below it.
     * {@link Severity#INFO}: often chosen on purpose (discards reveal which blocks are free).
     */
    CRYPT_DISCARDS_DROPPED("crypt.discards-dropped", Severity.INFO),
    /**
     * A classic snapshot copied chunks for writes to its origin: each first write to an origin chunk reads the
     * chunk from the origin, writes it to the COW device and commits the exception store before the write goes
     * down. Reported with the chunks copied per MiB written to the origin.
     */
    SNAPSHOT_WRITE_AMPLIFICATION("snapshot.write-amplification", Severity.INFO),
    /**
     * The writes to a snapshot's origin were much larger than its chunk (at least 4 chunks): dm-snapshot cuts every
     * origin write at the chunk boundaries, so each piece waits for its own copy and commit.
     */
    SNAPSHOT_CHUNK_SMALLER_THAN_WRITE("snapshot.chunk-smaller-than-write", Severity.WARNING),
    /**
     * A snapshot's COW device filled: the snapshot was invalidated (status {@code Invalid}; its I/O fails with EIO
     * and its data is lost) or, with a {@code PO} store, overflowed (status {@code Overflow}; writes to it fail).
     * An {@link Severity#ERROR}.
     */
    SNAPSHOT_COW_FULL("snapshot.cow-full", Severity.ERROR),
    /**
     * The paths of a dm-multipath device have different queue limits (a path behind another HBA, another
     * transport or another driver): the multipath device stacks them ({@code blk_stack_limits}) and takes the most
     * restrictive value, so every path is used as if it were the weakest, and I/O sized for one path's limits is
     * split or refused on the multipath device.
     */
    MULTIPATH_PATH_LIMITS_DIFFER("multipath.path-limits-differ", Severity.WARNING),
    /**
     * A dm-cache device's block size is smaller than the I/O its queue lets through: dm core cuts every bio at
     * block boundaries ({@code max_io_len}), so a large request reaches the cache as block-sized pieces, each looked
     * up, counted, remapped and promoted on its own (a 1 MiB write with 64 KiB blocks becomes 16 bios).
     * {@link Severity#INFO}.
     */
    CACHE_BLOCK_SPLITS_IO("cache.block-splits-io", Severity.INFO),
    /**
     * A dm-cache device stacks the limits of its cache device ({@code cache_iterate_devices}), and they are
     * tighter than the origin's: a smaller {@code max_sectors}, fewer {@code max_segments} or a virt boundary the
     * origin lacks (an NVMe cache over a virtio or SCSI origin). Every I/O to the cached volume, also what goes on to
     * the origin (misses, writethrough writes), is cut to the cache device's limits. {@link Severity#WARNING}.
     */
    CACHE_DEVICE_LIMITS_CUT_ORIGIN_IO("cache.device-limits-cut-origin-io", Severity.WARNING),
    /**
     * A workload's writes to an md raid4/5/6 array (or an LVM raid LV) covered stripes only in part: the stripe cache
     * read old data or parity first (read-modify-write) or the rest of the stripe (reconstruct-write) before writing
     * parity. Reported with the member pages read per MiB written, from the run.
     */
    MD_PARTIAL_STRIPE_WRITES("md.partial-stripe-writes", Severity.WARNING),
    /**
     * What a workload's writes to an md array cost at its members: raid1 and raid10 write every copy, raid4/5/6 the
     * parity pages. {@link Severity#INFO}: the price of the redundancy, reported with the factor.
     */
    MD_WRITE_AMPLIFICATION("md.write-amplification", Severity.INFO),
    /**
     * Every write a workload sent to an md raid4/5/6 array was smaller than its full data stripe (chunk × data
     * disks): none can be a full-stripe write, so each costs reads; a smaller chunk would let writes of that size
     * fill stripes.
     */
    MD_CHUNK_LARGER_THAN_WRITES("md.chunk-larger-than-writes", Severity.INFO);

    private final String id;
    private final Severity defaultSeverity;

    FindingType(String id, Severity defaultSeverity) {
        this.id = id;
        this.defaultSeverity = defaultSeverity;
    }

    /** The stable id, e.g. {@code align.partition.physical-block}. */
    public String id() {
        return id;
    }

    /** The severity findings of this kind normally have. */
    public Severity defaultSeverity() {
        return defaultSeverity;
    }
}
