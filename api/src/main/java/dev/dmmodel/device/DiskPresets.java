package dev.dmmodel.device;

import dev.dmmodel.units.Bytes;

/**
 * Disks a user recognises, each a {@link DiskSpec.Builder} to override before use. The values are what
 * the Linux drivers set (and, where noted, what the recorded qemu cases in the project's conformance
 * set show); max_sectors is left to the kernel profile unless a preset says otherwise.
 */
public final class DiskPresets {
    private static final long UINT_MAX = 0xFFFF_FFFFL;

    private DiskPresets() {
    }

    /**
     * A SATA hard disk on an AHCI controller (libata): 512-byte sectors, rotational,
     * {@code max_segments} 168 ({@code AHCI_MAX_SG}), 64 KiB segments, {@code max_hw_sectors} 65535
     * ({@code ATA_MAX_SECTORS_LBA48}), no discard. Seed 004's data disk.
     */
    public static DiskSpec.Builder ahciSata() {
        return DiskSpec.builder(DiskDriver.SD)
                .description("AHCI SATA disk")
                .maxHwSectors(65535)
                .maxSegments(168)
                .maxSegmentSize(65536)
                .segBoundaryMask(UINT_MAX)
                .dmaAlignment(511)
                .rotational(true);
    }

    /** A SATA SSD on AHCI: as {@link #ahciSata()}, not rotational, with TRIM (512-byte granularity). */
    public static DiskSpec.Builder ahciSataSsd() {
        return ahciSata().description("AHCI SATA SSD").rotational(false).discard(512, 4194240);
    }

    /**
     * qemu's emulated AHCI disk ({@code ich9-ahci} + {@code ide-hd}) as recorded with libata's
     * {@code force=max_sec_lba48}: as {@link #ahciSata()} with TRIM (512 bytes, 2147450880 bytes max).
     * Without that option the disk identifies behind a PATA bridge and is capped at 128 KiB:
     * {@code qemuAhci().maxHwSectors(256)}.
     */
    public static DiskSpec.Builder qemuAhci() {
        return ahciSata().description("qemu AHCI disk").discard(512, 4194240);
    }

    /**
     * An NVMe SSD: 512-byte LBAs (override for 4 KiB formats), not rotational, {@code max_hw_sectors}
     * 1 MiB (MDTS), 127 segments with a 4 KiB {@code virt_boundary_mask} (PRP lists) and unlimited
     * segment size, discard with 512-byte granularity, write-zeroes, 4-byte DMA alignment.
     */
    public static DiskSpec.Builder nvmeSsd() {
        return DiskSpec.builder(DiskDriver.NVME)
                .description("NVMe SSD")
                .maxHwSectors(2048)
                .maxSegments(127)
                .maxSegmentSize(UINT_MAX)
                .virtBoundaryMask(4095)
                .discard(512, 4294967295L / 512)
                .maxWriteZeroesSectors(2048)
                .dmaAlignment(3)
                .rotational(false);
    }

    /**
     * A SAS hard disk on a SAS HBA: 512e (4 KiB physical), rotational, 128 segments of 64 KiB,
     * {@code max_hw_sectors} 32767, no discard.
     */
    public static DiskSpec.Builder sasDisk() {
        return DiskSpec.builder(DiskDriver.SD)
                .description("SAS disk")
                .physicalBlockSize(4096)
                .maxHwSectors(32767)
                .maxSegments(128)
                .maxSegmentSize(65536)
                .dmaAlignment(3)
                .rotational(true);
    }

    /**
     * A hardware RAID volume as its controller exports it through sd: io_min = chunk, io_opt = chunk ×
     * data disks (its optimal transfer length), rotational, 128 segments, {@code max_hw_sectors} 65534.
     *
     * @param level the RAID level
     * @param disks member disks (e.g. 8 for a 7+1 RAID 5)
     * @param chunk the per-disk chunk (stripe unit)
     * @throws IllegalArgumentException if the level does not allow that many disks, or the chunk is not
     *     a positive multiple of 512 bytes
     */
    public static DiskSpec.Builder hardwareRaid(RaidLevel level, int disks, Bytes chunk) {
        int data = level.dataDisks(disks);
        if (chunk.count() == 0 || !chunk.isWholeSectors()) {
            throw new IllegalArgumentException("hardware RAID chunk (" + chunk.count()
                    + " bytes) must be a positive multiple of 512 bytes");
        }
        return DiskSpec.builder(DiskDriver.SD)
                .description(level + " volume, " + disks + " disks, " + chunk + " chunk")
                .ioMin(chunk.count())
                .ioOpt(chunk.times(data).count())
                .maxHwSectors(65534)
                .maxSegments(128)
                .maxSegmentSize(65536)
                .dmaAlignment(3)
                .rotational(true);
    }

    /**
     * A 3ware 8000-series RAID volume under Linux 2.6.0 (seeds 000 and 003): the 3w-xxxx driver's
     * {@code sg_tablesize} 62 ({@code TW_MAX_SGL_LENGTH}) and {@code max_sectors} 256; no topology hints
     * (that kernel had none).
     */
    public static DiskSpec.Builder threeWare(int disks) {
        if (disks < 1) {
            throw new IllegalArgumentException("3ware volume: disks (" + disks + ") must be at least 1");
        }
        return DiskSpec.builder(DiskDriver.SD)
                .description("3ware 8506 RAID volume, " + disks + " disks")
                .maxHwSectors(256)
                .maxSectors(256)
                .maxSegments(62)
                .maxSegmentSize(65536)
                .rotational(true);
    }

    /** A loop device over a file: 512-byte blocks, 128 segments of 64 KiB, 255-sector hardware limit. */
    public static DiskSpec.Builder loop() {
        return DiskSpec.builder(DiskDriver.LOOP)
                .description("loop device")
                .maxHwSectors(255)
                .maxSegments(128)
                .maxSegmentSize(65536)
                .discard(4096, 8388607)
                .rotational(false);
    }

    /**
     * null_blk with {@code memory_backed=1 blocksize=512} as recorded: 255-sector hardware limit (127 KiB),
     * 128 segments of 64 KiB, no discard, not rotational.
     */
    public static DiskSpec.Builder nullBlk() {
        return DiskSpec.builder(DiskDriver.NULL_BLK)
                .description("null_blk")
                .maxHwSectors(255)
                .maxSegments(128)
                .maxSegmentSize(65536)
                .rotational(false);
    }

    /**
     * scsi_debug as recorded: 2048 segments of unlimited size, no hardware sector limit, 4-byte DMA
     * alignment, write-zeroes of 65535 logical blocks (rounded down to whole physical blocks), no
     * discard, not rotational.
     *
     * @param logicalBlockSize {@code sector_size}
     * @param physicalBlockSize {@code sector_size << physblk_exp}
     * @param optimalBlocks {@code opt_blks} in logical blocks (0 = none; scsi_debug's default is 1024)
     */
    public static DiskSpec.Builder scsiDebug(long logicalBlockSize, long physicalBlockSize, long optimalBlocks) {
        long lbsSectors = logicalBlockSize / 512;
        long pbsSectors = physicalBlockSize / 512;
        long writeZeroes = 65535 * lbsSectors / pbsSectors * pbsSectors;
        return DiskSpec.builder(DiskDriver.SD)
                .description("scsi_debug disk")
                .logicalBlockSize(logicalBlockSize)
                .physicalBlockSize(physicalBlockSize)
                .ioOpt(optimalBlocks * logicalBlockSize)
                .maxHwSectors(UINT_MAX - 1 - (UINT_MAX - 1) % lbsSectors)
                .maxSegments(2048)
                .maxSegmentSize(UINT_MAX)
                .maxWriteZeroesSectors(writeZeroes)
                .dmaAlignment(3)
                .rotational(false);
    }

    /** A virtio-blk disk: 254 segments of unlimited size, write-zeroes and discard, not rotational. */
    public static DiskSpec.Builder virtioBlk() {
        return DiskSpec.builder(DiskDriver.VIRTIO_BLK)
                .description("virtio-blk disk")
                .maxHwSectors(UINT_MAX - 1)
                .maxSegments(254)
                .maxSegmentSize(UINT_MAX)
                .discard(512, 4194303)
                .maxWriteZeroesSectors(4194303)
                .rotational(true);
    }
}
