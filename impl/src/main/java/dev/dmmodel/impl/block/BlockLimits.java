package dev.dmmodel.impl.block;

import static dev.dmmodel.impl.block.KernelMath.gcd;
import static dev.dmmodel.impl.block.KernelMath.lcmNotZero;
import static dev.dmmodel.impl.block.KernelMath.minNotZero;
import static dev.dmmodel.impl.block.KernelMath.roundDown;

import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.KernelProfile.AlignmentMath;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.QueueLimits;

/**
 * The block layer's queue-limit rules ({@code block/blk-settings.c} and the drivers that feed it), one
 * method per kernel function, each following the profile's version of it.
 */
public final class BlockLimits {
    /** {@code UINT_MAX}. */
    public static final long UINT_MAX = 0xFFFF_FFFFL;
    /** {@code USHRT_MAX}. */
    public static final long USHRT_MAX = 0xFFFFL;
    /** {@code BLK_SEG_BOUNDARY_MASK}. */
    public static final long SEG_BOUNDARY_MASK = 0xFFFF_FFFFL;
    /** {@code VM_READAHEAD_PAGES} in KiB. */
    public static final long DEFAULT_READ_AHEAD_KB = 128;

    private BlockLimits() {
    }

    // block/blk-settings.c: blk_set_stacking_limits (3.x–6.8: on top of blk_set_default_limits; 6.9+: from zero)
    public static Limits stackingDefaults(KernelProfile p) {
        Limits l = new Limits();
        l.logicalBlockSize = 512;
        l.physicalBlockSize = 512;
        l.ioMin = 512;
        l.segBoundaryMask = SEG_BOUNDARY_MASK;
        l.dmaAlignment = 511;
        l.maxSegments = USHRT_MAX;
        l.maxDiscardSegments = USHRT_MAX;
        l.maxHwSectors = UINT_MAX;
        l.maxSectors = UINT_MAX;
        l.maxSegmentSize = UINT_MAX;
        l.maxDevSectors = p.validateLimitsOnCommit() || p.isAtLeast(4, 4) ? UINT_MAX : 0;
        l.maxWriteZeroesSectors = p.writeZeroesSupported() ? UINT_MAX : 0;
        if (p.validateLimitsOnCommit()) {
            l.discardGranularity = 512;
            l.maxUserDiscardSectors = UINT_MAX;
        } else {
            l.maxDiscardSegments = p.isAtLeast(4, 0) ? USHRT_MAX : 1;
        }
        l.readAheadKb = DEFAULT_READ_AHEAD_KB;
        return l;
    }

    // block/blk-settings.c: queue_limit_alignment_offset — bytes from `sector` to the bottom's next aligned boundary
    public static long alignmentOffsetAt(Limits b, long sector) {
        long granularity = b.alignmentGranularity();
        long alignment = (sector % (granularity / 512)) * 512;
        return (granularity + b.alignmentOffset - alignment) % granularity;
    }

    // block/blk-settings.c: queue_limit_discard_alignment
    public static long discardAlignmentAt(Limits b, long sector) {
        if (b.maxDiscardSectors == 0 || b.discardGranularity == 0) {
            return 0;
        }
        long alignment = b.discardAlignment / 512;
        long granularity = b.discardGranularity / 512;
        if (granularity == 0) {
            return 0;
        }
        long offset = sector % granularity;
        offset = (granularity + alignment - offset) % granularity;
        return offset * 512;
    }

    /**
     * {@code blk_stack_limits(t, b, start)}: stacks bottom limits {@code b} seen from sector
     * {@code start} of the bottom's whole disk into {@code t}. Returns false where the kernel returns -1
     * (alignment inconsistency).
     */
    // block/blk-settings.c: blk_stack_limits
    public static boolean stack(Limits t, Limits b, long start, KernelProfile p) {
        boolean ok = true;
        t.maxSectors = minNotZero(t.maxSectors, b.maxSectors);
        t.maxUserSectors = minNotZero(t.maxUserSectors, b.maxUserSectors);
        t.maxHwSectors = minNotZero(t.maxHwSectors, b.maxHwSectors);
        t.maxDevSectors = minNotZero(t.maxDevSectors, b.maxDevSectors);
        t.maxWriteZeroesSectors = Math.min(t.maxWriteZeroesSectors, b.maxWriteZeroesSectors);
        t.segBoundaryMask = minNotZero(t.segBoundaryMask, b.segBoundaryMask);
        t.virtBoundaryMask = minNotZero(t.virtBoundaryMask, b.virtBoundaryMask);
        t.maxSegments = minNotZero(t.maxSegments, b.maxSegments);
        t.maxDiscardSegments = minNotZero(t.maxDiscardSegments, b.maxDiscardSegments);
        t.maxSegmentSize = minNotZero(t.maxSegmentSize, b.maxSegmentSize);
        t.misaligned |= b.misaligned;
        t.rotational |= b.rotational;

        AlignmentMath math = p.alignmentMath();
        long alignment = math == AlignmentMath.NONE ? 0 : alignmentOffsetAt(b, start);
        if (math != AlignmentMath.NONE && t.alignmentOffset != alignment) {
            long top = t.alignmentGranularity() + t.alignmentOffset;
            long bottom = b.alignmentGranularity() + alignment;
            long hi = Math.max(top, bottom);
            long lo = Math.min(top, bottom);
            long rem = math == AlignmentMath.MODULO ? hi % lo : hi & (lo - 1);
            if (rem != 0) {
                t.misaligned = true;
                ok = false;
            }
        }

        t.logicalBlockSize = Math.max(t.logicalBlockSize, b.logicalBlockSize);
        t.physicalBlockSize = Math.max(t.physicalBlockSize, b.physicalBlockSize);
        t.ioMin = Math.max(t.ioMin, b.ioMin);
        t.ioOpt = lcmNotZero(t.ioOpt, b.ioOpt);
        if (p.stacksDmaAlignment()) {
            t.dmaAlignment = Math.max(t.dmaAlignment, b.dmaAlignment);
        }
        switch (p.chunkSectorsStacking()) {
            case GCD:
                if (b.chunkSectors != 0) {
                    t.chunkSectors = gcd(t.chunkSectors, b.chunkSectors);
                }
                break;
            case LCM:
                t.chunkSectors = lcmNotZero(t.chunkSectors, b.chunkSectors);
                break;
            default:
                break;
        }

        if (t.physicalBlockSize % t.logicalBlockSize != 0) {
            t.physicalBlockSize = t.logicalBlockSize;
            t.misaligned = true;
            ok = false;
        }
        if (t.ioMin % t.physicalBlockSize != 0) {
            t.ioMin = t.physicalBlockSize;
            t.misaligned = true;
            ok = false;
        }
        if (t.ioOpt % t.physicalBlockSize != 0) {
            t.ioOpt = 0;
            t.misaligned = true;
            ok = false;
        }
        if ((t.chunkSectors * 512) % t.physicalBlockSize != 0) {
            t.chunkSectors = 0;
            t.misaligned = true;
            ok = false;
        }

        if (math != AlignmentMath.NONE) {
            long granularity = t.alignmentGranularity();
            long lcm = lcmNotZero(t.alignmentOffset, alignment);
            t.alignmentOffset = math == AlignmentMath.MODULO ? lcm % granularity : lcm & (granularity - 1);
            if (t.alignmentOffset % t.logicalBlockSize != 0) {
                t.misaligned = true;
                ok = false;
            }
        }

        if (p.isAtLeast(4, 4)) {
            t.maxSectors = roundDownSectors(t.maxSectors, t.logicalBlockSize, p);
            t.maxHwSectors = roundDownSectors(t.maxHwSectors, t.logicalBlockSize, p);
            t.maxDevSectors = roundDownSectors(t.maxDevSectors, t.logicalBlockSize, p);
        }

        if (b.discardGranularity != 0) {
            long dAlign = discardAlignmentAt(b, start);
            t.maxDiscardSectors = minNotZero(t.maxDiscardSectors, b.maxDiscardSectors);
            t.maxHwDiscardSectors = minNotZero(t.maxHwDiscardSectors, b.maxHwDiscardSectors);
            t.maxUserDiscardSectors = minNotZero(t.maxUserDiscardSectors, b.maxUserDiscardSectors);
            t.discardGranularity = Math.max(t.discardGranularity, b.discardGranularity);
            t.discardAlignment = lcmNotZero(t.discardAlignment, dAlign) % t.discardGranularity;
        }
        return ok;
    }

    // block/blk-settings.c: blk_round_down_sectors — to whole logical blocks, at least one page
    static long roundDownSectors(long sectors, long lbs, KernelProfile p) {
        long r = roundDown(sectors, lbs / 512);
        long page = p.pageSize() / 512;
        return r < page ? page : r;
    }

    /**
     * {@code blk_validate_limits} as run on every commit (6.9+): max_sectors recomputed, an
     * alignment_offset reduced modulo the physical block size (clearing the misaligned flag), discard
     * limits derived. Profiles without it leave the limits as stacked.
     */
    // block/blk-settings.c: blk_validate_limits
    public static void validateOnCommit(Limits l, KernelProfile p) {
        validateOnCommit(l, p, LimitsObserver.NONE);
    }

    /** {@link #validateOnCommit(Limits, KernelProfile)}, saying how max_sectors was chosen to {@code obs}. */
    public static void validateOnCommit(Limits l, KernelProfile p, LimitsObserver obs) {
        if (!p.validateLimitsOnCommit()) {
            return;
        }
        if (l.physicalBlockSize < l.logicalBlockSize) {
            l.physicalBlockSize = l.logicalBlockSize;
        }
        if (l.ioMin < l.physicalBlockSize) {
            l.ioMin = l.physicalBlockSize;
        }
        long lbsSectors = l.logicalBlockSize / 512;
        l.maxHwSectors = roundDown(l.maxHwSectors, lbsSectors);
        l.maxSectors = defaultMaxSectors(l, p, obs);
        l.maxDiscardSectors = Math.min(l.maxHwDiscardSectors, l.maxUserDiscardSectors == 0 ? UINT_MAX
                : l.maxUserDiscardSectors);
        // recorded on 6.12: a queue without discard reports granularity 0; with discard at least the physical block
        if (l.maxDiscardSectors == 0) {
            l.discardGranularity = 0;
            l.discardAlignment = 0;
        } else if (l.discardGranularity < l.physicalBlockSize) {
            l.discardGranularity = l.physicalBlockSize;
        }
        if (l.alignmentOffset != 0) {
            l.alignmentOffset &= l.physicalBlockSize - 1;
            l.misaligned = false;
        }
    }

    // block/blk-settings.c: blk_validate_limits (6.9+) — max_sectors from max_hw/max_dev/max_user sectors and io_opt
    static long defaultMaxSectors(Limits l, KernelProfile p, LimitsObserver obs) {
        long hw = minNotZero(l.maxHwSectors, l.maxDevSectors);
        long cap = p.maxSectorsCap();
        long max;
        String why;
        if (l.maxUserSectors != 0) {
            max = Math.min(hw, l.maxUserSectors);
            why = "min(max_hw_sectors " + hw + ", the user's max_sectors " + l.maxUserSectors + ")";
        } else if (p.ioOptRaisesMaxSectors() && l.ioOpt > cap * 512) {
            max = Math.min(hw, l.ioOpt / 512);
            why = "min(max_hw_sectors " + hw + ", io_opt " + l.ioOpt / 512 + " sectors): io_opt above the "
                    + cap + "-sector default";
        } else if (p.ioOptRaisesMaxSectors() && l.ioMin > cap * 512) {
            max = Math.min(hw, l.ioMin / 512);
            why = "min(max_hw_sectors " + hw + ", io_min " + l.ioMin / 512 + " sectors): io_min above the "
                    + cap + "-sector default";
        } else {
            max = Math.min(hw, cap);
            why = "min(max_hw_sectors " + hw + ", " + capName(p) + " " + cap + ")";
        }
        long r = roundDown(max, l.logicalBlockSize / 512);
        if (obs != LimitsObserver.NONE) {
            obs.note(LimitField.MAX_SECTORS_KB, r / 2, l.maxUserSectors != 0 ? Derivation.Source.SYSFS_WRITE
                    : Derivation.Source.COMMIT, "block/blk-settings.c: blk_validate_limits", why
                    + (r != max ? ", rounded down to whole logical blocks" : "") + " = " + r + " sectors under "
                    + p.name());
        }
        return r;
    }

    // include/linux/blkdev.h: BLK_DEF_MAX_SECTORS (1024 until 4.x), BLK_DEF_MAX_SECTORS_CAP (2560, 6.7+)
    static String capName(KernelProfile p) {
        return p.validateLimitsOnCommit() ? "BLK_DEF_MAX_SECTORS_CAP" : "BLK_DEF_MAX_SECTORS";
    }

    /**
     * How {@code blk_stack_limits} combines one field of the bottom into the top, in its own words: {@code
     * min_not_zero}, {@code max}, {@code lcm_not_zero}, {@code gcd}, {@code or}; for explanations.
     */
    // block/blk-settings.c: blk_stack_limits (the operator per field of struct queue_limits)
    public static String stackingOperator(LimitField field, KernelProfile p) {
        switch (field) {
            case LOGICAL_BLOCK_SIZE:
            case PHYSICAL_BLOCK_SIZE:
            case MINIMUM_IO_SIZE:
            case DISCARD_GRANULARITY:
                return "max";
            case DMA_ALIGNMENT:
                return p.stacksDmaAlignment() ? "max" : "stacking default";
            case OPTIMAL_IO_SIZE:
                return "lcm_not_zero";
            case ALIGNMENT_OFFSET:
                return "each device's alignment at its start, lcm_not_zero modulo the granularity";
            case CHUNK_SECTORS:
                switch (p.chunkSectorsStacking()) {
                    case GCD:
                        return "gcd";
                    case LCM:
                        return "lcm_not_zero";
                    default:
                        return "not stacked";
                }
            case WRITE_ZEROES_MAX_BYTES:
                return "min";
            case ROTATIONAL:
                return "or";
            case READ_AHEAD_KB:
                return "not stacked";
            default:
                return "min_not_zero";
        }
    }

    // block/blk-sysfs.c: disk_update_readahead — readahead of twice the optimal I/O size, at least 128 KiB
    // (7.2 as recorded: a rotational queue without io_opt reads ahead twice its max_sectors)
    public static void updateReadAhead(Limits l, KernelProfile p) {
        updateReadAhead(l, p, LimitsObserver.NONE);
    }

    /** {@link #updateReadAhead(Limits, KernelProfile)}, saying which form applied to {@code obs}. */
    public static void updateReadAhead(Limits l, KernelProfile p, LimitsObserver obs) {
        String why;
        if (p.readAheadFromMaxSectorsWhenRotational() && l.ioOpt == 0 && l.rotational) {
            l.readAheadKb = Math.max(l.maxSectors * 2 * 512 / 1024, DEFAULT_READ_AHEAD_KB);
            why = "a rotational queue without io_opt: max(2 × max_sectors_kb " + l.maxSectors / 2 + ", 128)";
        } else if (p.readAheadFromIoOpt()) {
            l.readAheadKb = Math.max(l.ioOpt * 2 / 1024, DEFAULT_READ_AHEAD_KB);
            why = "max(2 × optimal_io_size " + l.ioOpt + " bytes in KiB, VM_READAHEAD_PAGES 128 KiB)";
        } else {
            l.readAheadKb = DEFAULT_READ_AHEAD_KB;
            why = "VM_READAHEAD_PAGES: 128 KiB under " + p.name();
        }
        if (obs != LimitsObserver.NONE) {
            obs.note(LimitField.READ_AHEAD_KB, l.readAheadKb, Derivation.Source.PROFILE_DEFAULT,
                    "block/blk-sysfs.c: disk_update_readahead", why);
        }
    }

    /**
     * A whole disk's limits as its driver and the block layer set them under the profile.
     *
     * @throws LayoutException naming the disk and the field when the spec is impossible
     */
    // block/blk-settings.c: blk_queue_max_hw_sectors / blk_validate_limits; drivers/scsi/sd.c: sd_revalidate_disk
    public static Limits disk(String name, DiskSpec spec, KernelProfile p) {
        return disk(name, spec, p, LimitsObserver.NONE);
    }

    /** {@link #disk(String, DiskSpec, KernelProfile)}, each rule that changes a reported value noted to {@code obs}. */
    public static Limits disk(String name, DiskSpec spec, KernelProfile p, LimitsObserver obs) {
        QueueLimits q = spec.limits();
        Limits l = Limits.of(q);
        final String validate = "block/blk-settings.c: blk_validate_limits";
        if (l.physicalBlockSize < l.logicalBlockSize) {
            l.physicalBlockSize = l.logicalBlockSize;
            obs.note(LimitField.PHYSICAL_BLOCK_SIZE, l.physicalBlockSize, Derivation.Source.PROFILE_DEFAULT, validate,
                    "raised to the logical block size " + l.logicalBlockSize);
        }
        if (l.ioMin < l.physicalBlockSize) {
            l.ioMin = l.physicalBlockSize;
            obs.note(LimitField.MINIMUM_IO_SIZE, l.ioMin, Derivation.Source.PROFILE_DEFAULT,
                    "block/blk-settings.c: blk_queue_io_min", "at least the physical block size " + l.physicalBlockSize);
        }
        if (l.ioOpt % l.physicalBlockSize != 0) {
            throw new LayoutException(name, "optimal_io_size", Long.toString(l.ioOpt), name + ": optimal_io_size ("
                    + l.ioOpt + ") is not a multiple of the physical block size (" + l.physicalBlockSize + ")");
        }
        if (l.logicalBlockSize > p.pageSize() && !p.validateLimitsOnCommit()) {
            throw new LayoutException(name, "logical_block_size", Long.toString(l.logicalBlockSize), name
                    + ": logical block size " + l.logicalBlockSize + " exceeds the page size " + p.pageSize());
        }
        if (spec.size().count() % (l.logicalBlockSize / 512) != 0) {
            throw new LayoutException(name, "size", Long.toString(spec.size().count()), name + ": size "
                    + spec.size().count() + " sectors is not a multiple of the logical block size ("
                    + l.logicalBlockSize + " bytes)");
        }
        long lbsSectors = l.logicalBlockSize / 512;
        if (l.maxHwSectors < p.pageSize() / 512) {
            throw new LayoutException(name, "max_hw_sectors", Long.toString(l.maxHwSectors), name
                    + ": max_hw_sectors (" + l.maxHwSectors + ") must allow at least one page ("
                    + p.pageSize() / 512 + " sectors)");
        }
        if (p.isAtLeast(4, 4) && l.maxHwSectors % lbsSectors != 0) {
            l.maxHwSectors = roundDown(l.maxHwSectors, lbsSectors);
            obs.note(LimitField.MAX_HW_SECTORS_KB, l.maxHwSectors / 2, Derivation.Source.PROFILE_DEFAULT,
                    "block/blk-settings.c: blk_queue_max_hw_sectors", "rounded down to whole logical blocks");
        }
        if (l.dmaAlignment == 0) {
            l.dmaAlignment = 511;
            obs.note(LimitField.DMA_ALIGNMENT, 511, Derivation.Source.PROFILE_DEFAULT,
                    "block/blk-settings.c: blk_set_default_limits", "the default 511 (512-byte aligned buffers)");
        }
        if (l.maxSegments == 0) {
            l.maxSegments = 128;
            obs.note(LimitField.MAX_SEGMENTS, 128, Derivation.Source.PROFILE_DEFAULT,
                    "block/blk-settings.c: blk_set_default_limits", "BLK_MAX_SEGMENTS 128 (the driver set none)");
        }
        if (l.maxSegmentSize == 0) {
            l.maxSegmentSize = l.virtBoundaryMask != 0 ? UINT_MAX : 65536;
            obs.note(LimitField.MAX_SEGMENT_SIZE, l.maxSegmentSize, Derivation.Source.PROFILE_DEFAULT,
                    "block/blk-settings.c: blk_validate_limits", l.virtBoundaryMask != 0
                            ? "UINT_MAX: a queue with a virt boundary has no segment size limit"
                            : "BLK_MAX_SEGMENT_SIZE 65536 (the driver set none)");
        }
        if (l.segBoundaryMask == 0) {
            l.segBoundaryMask = SEG_BOUNDARY_MASK;
        }
        if (p.alignmentMath() == AlignmentMath.NONE) {
            l.ioMin = l.physicalBlockSize;
            l.ioOpt = 0;
            l.alignmentOffset = 0;
            String none = p.name() + " has no I/O topology limits (io_min, io_opt, alignment_offset)";
            obs.note(LimitField.MINIMUM_IO_SIZE, l.ioMin, Derivation.Source.PROFILE_DEFAULT, "block/blk-settings.c", none);
            obs.note(LimitField.OPTIMAL_IO_SIZE, 0, Derivation.Source.PROFILE_DEFAULT, "block/blk-settings.c", none);
            obs.note(LimitField.ALIGNMENT_OFFSET, 0, Derivation.Source.PROFILE_DEFAULT, "block/blk-settings.c", none);
        } else if ((l.alignmentOffset & (l.physicalBlockSize - 1)) != l.alignmentOffset) {
            l.alignmentOffset &= l.physicalBlockSize - 1;
            obs.note(LimitField.ALIGNMENT_OFFSET, l.alignmentOffset, Derivation.Source.PROFILE_DEFAULT,
                    "block/blk-settings.c: blk_queue_alignment_offset", "modulo the physical block size "
                            + l.physicalBlockSize);
        }
        if (!p.writeZeroesSupported()) {
            l.maxWriteZeroesSectors = 0;
            obs.note(LimitField.WRITE_ZEROES_MAX_BYTES, 0, Derivation.Source.PROFILE_DEFAULT, "block/blk-settings.c",
                    p.name() + " has no REQ_OP_WRITE_ZEROES (4.10+)");
        }
        long derived = driverMaxSectors(spec.driver(), l, p, obs);
        if (spec.maxSectors() != 0) {
            long hw = minNotZero(l.maxHwSectors, l.maxDevSectors);
            if (spec.maxSectors() > hw) {
                throw new LayoutException(name, "max_sectors", Long.toString(spec.maxSectors()), name
                        + ": max_sectors (" + spec.maxSectors() + ") exceeds max_hw_sectors (" + hw + ")");
            }
            l.maxSectors = spec.maxSectors();
            obs.note(LimitField.MAX_SECTORS_KB, spec.maxSectors() / 2, Derivation.Source.RECORDED, "block/blk-sysfs.c: queue_max_sectors_show",
                    "given as " + spec.maxSectors() / 2 + " KiB (the snapshot's or the spec's max_sectors_kb); the "
                            + spec.driver().name().toLowerCase(java.util.Locale.ROOT) + " driver's own choice under "
                            + p.name() + " would be " + derived / 2 + " KiB");
            if (p.validateLimitsOnCommit() && l.maxUserSectors == 0 && l.maxSectors != derived) {
                // a value the driver would not have chosen was written to max_sectors_kb
                l.maxUserSectors = l.maxSectors;
            }
        } else {
            l.maxSectors = derived;
        }
        l.maxDiscardSectors = Math.min(l.maxDiscardSectors, l.maxHwDiscardSectors == 0 ? l.maxDiscardSectors
                : l.maxHwDiscardSectors);
        l.maxUserDiscardSectors = l.maxDiscardSectors;
        if (spec.readAheadKb() != 0) {
            l.readAheadKb = spec.readAheadKb();
            obs.note(LimitField.READ_AHEAD_KB, spec.readAheadKb(), Derivation.Source.RECORDED, "block/blk-sysfs.c: queue_ra_show",
                    "given as " + spec.readAheadKb() + " KiB (the snapshot's or the spec's read_ahead_kb)");
        } else {
            updateReadAhead(l, p, obs);
        }
        return l;
    }

    // drivers/scsi/sd.c: sd_revalidate_disk (rw_max from the optimal transfer length, ≈4.4 – 6.x) and blk_validate_limits
    static long driverMaxSectors(DiskDriver driver, Limits l, KernelProfile p, LimitsObserver obs) {
        long hw = minNotZero(l.maxHwSectors, l.maxDevSectors);
        long page = p.pageSize() / 512;
        if (driver == DiskDriver.SD && p.sdMaxSectorsFromOptimalTransfer() && l.ioOpt > 0
                && l.ioOpt / 512 >= page && l.ioOpt % p.pageSize() == 0) {
            long r = Math.min(hw, l.ioOpt / 512);
            obs.note(LimitField.MAX_SECTORS_KB, r / 2, Derivation.Source.DRIVER, "drivers/scsi/sd.c: sd_revalidate_disk",
                    "sd: min(max_hw_sectors " + hw + ", the optimal transfer length " + l.ioOpt / 512 + " sectors) = "
                            + r + " sectors under " + p.name());
            return r;
        }
        if (p.validateLimitsOnCommit()) {
            return defaultMaxSectors(l, p, obs);
        }
        long r = roundDown(Math.min(hw, p.maxSectorsCap()), l.logicalBlockSize / 512);
        obs.note(LimitField.MAX_SECTORS_KB, r / 2, Derivation.Source.PROFILE_DEFAULT,
                "block/blk-settings.c: blk_queue_max_hw_sectors", driver.name().toLowerCase(java.util.Locale.ROOT)
                        + ": min(max_hw_sectors " + hw + ", " + capName(p) + " " + p.maxSectorsCap() + ") = " + r
                        + " sectors under " + p.name());
        return r;
    }

    /**
     * The limits a partition reports: the disk's, with the partition's own alignment offset
     * ({@code bdev_alignment_offset}) and discard alignment.
     */
    // block/blk-settings.c: bdev_alignment_offset / bdev_discard_alignment
    public static Limits partition(Limits disk, long start, KernelProfile p) {
        Limits l = disk.copy();
        if (p.alignmentMath() != AlignmentMath.NONE && !disk.misaligned) {
            l.alignmentOffset = alignmentOffsetAt(disk, start);
        }
        l.discardAlignment = discardAlignmentAt(disk, start);
        return l;
    }

    /**
     * {@code echo KB > max_sectors_kb}: accepted when at least a page and at most the hardware limit.
     *
     * @throws LayoutException with the kernel's answer (Invalid argument) and the allowed range
     */
    // block/blk-sysfs.c: queue_max_sectors_store
    public static void storeMaxSectorsKb(String device, Limits l, long kb, KernelProfile p) {
        long maxHwKb = minNotZero(l.maxHwSectors, l.maxDevSectors) / 2;
        long pageKb = p.pageSize() / 1024;
        if (kb < pageKb || kb > maxHwKb) {
            throw new LayoutException(device, "max_sectors_kb", Long.toString(kb), "echo " + kb
                    + " > /sys/block/" + device + "/queue/max_sectors_kb: Invalid argument (must be between "
                    + pageKb + " and max_hw_sectors_kb " + maxHwKb + ")");
        }
        l.maxSectors = kb * 2;
        if (p.validateLimitsOnCommit()) {
            l.maxUserSectors = kb * 2;
        }
    }
}
