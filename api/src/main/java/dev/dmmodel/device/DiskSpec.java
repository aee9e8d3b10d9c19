package dev.dmmodel.device;

import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * What a disk's driver and hardware declare, before the kernel derives the rest: the input for a
 * whole disk of a layout. An immutable value (two specs with the same values are equal), so a preset
 * can be kept in a constant and compared. Named presets are in {@link DiskPresets}; change the size
 * with {@link #withSize(Bytes)} and anything else through {@link #toBuilder()}:
 *
 * <pre>{@code
 * DiskSpec raid = DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4));
 * DiskSpec capped = DiskPresets.qemuAhci().toBuilder().maxHwSectors(256).size(Bytes.gib(1)).build();
 * }</pre>
 *
 * <p>{@link #maxSectors()} is 0 unless set explicitly: the kernel profile then derives it
 * ({@code min(max_hw, max_dev, cap)}, or the optimal transfer length for sd on kernels that use it).
 * An explicit value models a driver override or a value written to {@code max_sectors_kb}.
 *
 * @param driver the driver
 * @param size the size
 * @param limits the hardware limits; {@code maxSectors} and {@code readAheadKb} are ignored unless
 *     explicit
 * @param maxSectors an explicit max_sectors, or 0 to let the kernel derive it
 * @param readAheadKb an explicit read_ahead_kb, or 0 to let the kernel derive it
 * @param description what this disk is, for reports ("AHCI SATA disk")
 */
public record DiskSpec(DiskDriver driver, Sectors size, QueueLimits limits, long maxSectors, long readAheadKb,
                       String description) {

    /** Rejects nulls and impossible values. */
    public DiskSpec {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(description, "description");
        if (maxSectors < 0 || readAheadKb < 0) {
            throw new IllegalArgumentException("disk spec: maxSectors (" + maxSectors + ") and readAheadKb ("
                    + readAheadKb + ") must not be negative");
        }
    }

    /** This spec with another size (a whole number of sectors); everything else is kept. */
    public DiskSpec withSize(Bytes size) {
        return withSize(Objects.requireNonNull(size, "size").toSectors());
    }

    /** This spec with another size in sectors; everything else is kept. */
    public DiskSpec withSize(Sectors size) {
        return new DiskSpec(driver, size, limits, maxSectors, readAheadKb, description);
    }

    /** A builder starting from these values, to derive a variant. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A builder for a 16 GiB disk of the given driver with the block layer's default limits. */
    public static Builder builder(DiskDriver driver) {
        return new Builder(driver);
    }

    /** Builder; every setter returns this builder. */
    public static final class Builder {
        private DiskDriver driver;
        private Sectors size = Sectors.of(16L * 1024 * 1024 * 2); // 16 GiB
        private final QueueLimits.Builder limits;
        private long maxSectors;
        private long readAheadKb;
        private String description = "";

        Builder(DiskDriver driver) {
            this.driver = Objects.requireNonNull(driver, "driver");
            this.limits = QueueLimits.builder();
        }

        Builder(DiskSpec s) {
            this.driver = s.driver;
            this.size = s.size;
            this.limits = s.limits.toBuilder();
            this.maxSectors = s.maxSectors;
            this.readAheadKb = s.readAheadKb;
            this.description = s.description;
        }

        /** Sets the driver. */
        public Builder driver(DiskDriver v) {
            this.driver = Objects.requireNonNull(v, "driver");
            return this;
        }

        /** Sets the size (a whole number of sectors). */
        public Builder size(Bytes v) {
            this.size = Objects.requireNonNull(v, "size").toSectors();
            return this;
        }

        /** Sets the size in sectors. */
        public Builder size(Sectors v) {
            this.size = Objects.requireNonNull(v, "size");
            return this;
        }

        /** Sets the description. */
        public Builder description(String v) {
            this.description = Objects.requireNonNull(v, "description");
            return this;
        }

        /** Sets logical_block_size in bytes (and raises the physical block size and io_min to it if smaller). */
        public Builder logicalBlockSize(long v) {
            limits.logicalBlockSize(v);
            if (limits.physicalBlockSize() < v) {
                limits.physicalBlockSize(v);
            }
            if (limits.ioMin() < v) {
                limits.ioMin(v);
            }
            return this;
        }

        /** Sets physical_block_size in bytes (and raises io_min to it if smaller). */
        public Builder physicalBlockSize(long v) {
            limits.physicalBlockSize(v);
            if (limits.ioMin() < v) {
                limits.ioMin(v);
            }
            return this;
        }

        /** Sets minimum_io_size in bytes. */
        public Builder ioMin(long v) {
            limits.ioMin(v);
            return this;
        }

        /** Sets optimal_io_size in bytes. */
        public Builder ioOpt(long v) {
            limits.ioOpt(v);
            return this;
        }

        /** Sets the disk's alignment_offset in bytes (a lowest-aligned LBA other than 0). */
        public Builder alignmentOffset(long v) {
            limits.alignmentOffset(v);
            return this;
        }

        /** Sets max_hw_sectors. */
        public Builder maxHwSectors(long v) {
            limits.maxHwSectors(v);
            return this;
        }

        /** Sets max_dev_sectors (0 = none). */
        public Builder maxDevSectors(long v) {
            limits.maxDevSectors(v);
            return this;
        }

        /** Sets max_sectors explicitly (0 = let the kernel derive it). */
        public Builder maxSectors(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("maxSectors (" + v + ") must not be negative");
            }
            this.maxSectors = v;
            return this;
        }

        /** Sets max_sectors as a write of {@code kb} to {@code max_sectors_kb} would. */
        public Builder maxSectorsKb(long kb) {
            limits.maxUserSectors(kb * 2);
            return maxSectors(kb * 2);
        }

        /** Sets max_segments. */
        public Builder maxSegments(long v) {
            limits.maxSegments(v);
            return this;
        }

        /** Sets max_segment_size in bytes. */
        public Builder maxSegmentSize(long v) {
            limits.maxSegmentSize(v);
            return this;
        }

        /** Sets seg_boundary_mask. */
        public Builder segBoundaryMask(long v) {
            limits.segBoundaryMask(v);
            return this;
        }

        /** Sets virt_boundary_mask. */
        public Builder virtBoundaryMask(long v) {
            limits.virtBoundaryMask(v);
            return this;
        }

        /** Sets chunk_sectors. */
        public Builder chunkSectors(long v) {
            limits.chunkSectors(v);
            return this;
        }

        /** Sets discard support: granularity in bytes, maximum in sectors (hardware and soft). */
        public Builder discard(long granularityBytes, long maxSectors) {
            limits.discardGranularity(granularityBytes).maxDiscardSectors(maxSectors).maxHwDiscardSectors(maxSectors);
            return this;
        }

        /** Sets discard_alignment in bytes. */
        public Builder discardAlignment(long v) {
            limits.discardAlignment(v);
            return this;
        }

        /** Sets max_write_zeroes_sectors. */
        public Builder maxWriteZeroesSectors(long v) {
            limits.maxWriteZeroesSectors(v);
            return this;
        }

        /** Sets dma_alignment (a mask). */
        public Builder dmaAlignment(long v) {
            limits.dmaAlignment(v);
            return this;
        }

        /** Sets rotational. */
        public Builder rotational(boolean v) {
            limits.rotational(v);
            return this;
        }

        /** Sets read_ahead_kb explicitly (0 = derive). */
        public Builder readAheadKb(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("readAheadKb (" + v + ") must not be negative");
            }
            this.readAheadKb = v;
            return this;
        }

        /** Builds the spec. */
        public DiskSpec build() {
            return new DiskSpec(driver, size, limits.build(), maxSectors, readAheadKb, description);
        }
    }
}
