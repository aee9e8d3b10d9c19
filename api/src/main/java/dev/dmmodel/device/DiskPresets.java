package dev.dmmodel.device;

import dev.dmmodel.units.Bytes;
import java.util.Objects;

/**
 * Disks a user recognises, each a named immutable {@link DiskSpec} (in the manner of Jimfs's
 * {@code Configuration.unix()}): a preset can be kept, compared and shared. Each preset's Javadoc lists
 * what it implies; every preset is 16 GiB until given a size, and a variant is derived from it:
 *
 * <pre>{@code
 * DiskSpec raid = DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4));
 * DiskSpec pata = DiskPresets.qemuAhci().toBuilder().maxHwSectors(256).size(Bytes.gib(1)).build();
 * }</pre>
 *
 * <p>The values are what the Linux drivers set (and, where noted, what the recorded qemu cases in the
 * project's conformance set show). Unless a preset says otherwise, {@code max_sectors} is left to the
 * kernel profile ({@code min(max_hw_sectors, cap)}: 2560 sectors on 6.x, 1024 on 3.10 and 2.6.32, 255 on
 * 2.6.0; for an sd disk with an optimal transfer length, that length on 6.1), and so is
 * {@code read_ahead_kb}.
 */
public final class DiskPresets {
    private static final long UINT_MAX = 0xFFFF_FFFFL;

    private static final DiskSpec AHCI_SATA = DiskSpec.builder(DiskDriver.SD)
            .description("AHCI SATA disk")
            .maxHwSectors(65535)
            .maxSegments(168)
            .maxSegmentSize(65536)
            .segBoundaryMask(UINT_MAX)
            .dmaAlignment(511)
            .rotational(true)
            .build();

    private static final DiskSpec AHCI_SATA_SSD = AHCI_SATA.toBuilder()
            .description("AHCI SATA SSD").rotational(false).discard(512, 4194240).build();

    private static final DiskSpec QEMU_AHCI = AHCI_SATA.toBuilder()
            .description("qemu AHCI disk").discard(512, 4194240).build();

    private static final DiskSpec NVME_SSD = DiskSpec.builder(DiskDriver.NVME)
            .description("NVMe SSD")
            .maxHwSectors(2048)
            .maxSegments(127)
            .maxSegmentSize(UINT_MAX)
            .virtBoundaryMask(4095)
            .discard(512, 4294967295L / 512)
            .maxWriteZeroesSectors(2048)
            .dmaAlignment(3)
            .rotational(false)
            .build();

    private static final DiskSpec SAS_DISK = DiskSpec.builder(DiskDriver.SD)
            .description("SAS disk")
            .physicalBlockSize(4096)
            .maxHwSectors(32767)
            .maxSegments(128)
            .maxSegmentSize(65536)
            .dmaAlignment(3)
            .rotational(true)
            .build();

    private static final DiskSpec LOOP = DiskSpec.builder(DiskDriver.LOOP)
            .description("loop device")
            .maxHwSectors(255)
            .maxSegments(128)
            .maxSegmentSize(65536)
            .discard(4096, 8388607)
            .rotational(false)
            .build();

    private static final DiskSpec NULL_BLK = DiskSpec.builder(DiskDriver.NULL_BLK)
            .description("null_blk")
            .maxHwSectors(255)
            .maxSegments(128)
            .maxSegmentSize(65536)
            .rotational(false)
            .build();

    private static final DiskSpec VIRTIO_BLK = DiskSpec.builder(DiskDriver.VIRTIO_BLK)
            .description("virtio-blk disk")
            .maxHwSectors(UINT_MAX - 1)
            .maxSegments(254)
            .maxSegmentSize(UINT_MAX)
            .discard(512, 4194303)
            .maxWriteZeroesSectors(4194303)
            .rotational(true)
            .build();

    private DiskPresets() {
    }

    /**
     * A SATA hard disk on an AHCI controller (libata); seed 004's data disk. A disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#SD sd}, 16 GiB
     *   <li>has 512-byte logical and physical blocks, io_min 512, no io_opt
     *   <li>takes {@code max_hw_sectors} 65535 ({@code ATA_MAX_SECTORS_LBA48}), so {@code max_sectors} is
     *       the profile's cap
     *   <li>takes {@code max_segments} 168 ({@code AHCI_MAX_SG}) of at most 64 KiB, segment boundary
     *       {@code 0xffffffff}, dma_alignment 511
     *   <li>is rotational, with no discard and no write-zeroes
     * </ul>
     */
    public static DiskSpec ahciSata() {
        return AHCI_SATA;
    }

    /**
     * A SATA SSD on AHCI: {@link #ahciSata()} with these differences:
     *
     * <ul>
     *   <li>not rotational
     *   <li>TRIM: discard granularity 512 bytes, at most 4194240 sectors
     * </ul>
     */
    public static DiskSpec ahciSataSsd() {
        return AHCI_SATA_SSD;
    }

    /**
     * qemu's emulated AHCI disk ({@code ich9-ahci} + {@code ide-hd}) as recorded with libata's
     * {@code force=max_sec_lba48} ({@code limits-ahci-lba48} and the {@code thin-*} cases):
     * {@link #ahciSata()} (rotational, 168 segments, {@code max_hw_sectors} 65535) with TRIM: discard
     * granularity 512 bytes, at most 4194240 sectors (2147450880 bytes). Without that option the disk
     * identifies behind a PATA bridge and is capped at 128 KiB:
     * {@code qemuAhci().toBuilder().maxHwSectors(256).build()}.
     */
    public static DiskSpec qemuAhci() {
        return QEMU_AHCI;
    }

    /**
     * An NVMe SSD. A disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#NVME nvme}, 16 GiB
     *   <li>has 512-byte LBAs (override for 4 KiB formats), io_min 512, no io_opt
     *   <li>takes {@code max_hw_sectors} 2048 (a 1 MiB MDTS)
     *   <li>takes 127 segments of unlimited size with a 4 KiB {@code virt_boundary_mask} (PRP lists),
     *       dma_alignment 3
     *   <li>discards with 512-byte granularity (at most 8388607 sectors) and writes zeroes up to 2048
     *       sectors
     *   <li>is not rotational
     * </ul>
     */
    public static DiskSpec nvmeSsd() {
        return NVME_SSD;
    }

    /**
     * A SAS hard disk on a SAS HBA. A disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#SD sd}, 16 GiB
     *   <li>is 512e: 512-byte logical and 4 KiB physical blocks, so io_min 4096; no io_opt
     *   <li>takes {@code max_hw_sectors} 32767, 128 segments of at most 64 KiB, dma_alignment 3
     *   <li>is rotational, with no discard and no write-zeroes
     * </ul>
     */
    public static DiskSpec sasDisk() {
        return SAS_DISK;
    }

    /**
     * A hardware RAID volume as its controller exports it through sd. A disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#SD sd}, 16 GiB, described as "RAID5 volume, 8 disks, 64KiB
     *       chunk" (for example)
     *   <li>has 512-byte blocks, io_min = the chunk, io_opt = chunk × data disks (its optimal transfer
     *       length; 448 KiB for a 7+1 RAID 5 with 64 KiB chunks), so on 6.1 {@code max_sectors} = io_opt
     *       (896 sectors there) and on 6.12 the cap (2560)
     *   <li>takes {@code max_hw_sectors} 65534, 128 segments of at most 64 KiB, dma_alignment 3
     *   <li>is rotational, with no discard and no write-zeroes
     * </ul>
     *
     * @param level the RAID level
     * @param disks member disks (e.g. 8 for a 7+1 RAID 5)
     * @param chunk the per-disk chunk (stripe unit)
     * @throws IllegalArgumentException if the level does not allow that many disks, or the chunk is not
     *     a positive multiple of 512 bytes
     */
    public static DiskSpec hardwareRaid(RaidLevel level, int disks, Bytes chunk) {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(chunk, "chunk");
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
                .rotational(true)
                .build();
    }

    /**
     * A 3ware 8000-series RAID volume under Linux 2.6.0 (seeds 000 and 003). A disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#SD sd}, 16 GiB
     *   <li>has 512-byte blocks and no topology hints (that kernel had none): io_min 512, no io_opt
     *   <li>takes {@code max_hw_sectors} and an explicit {@code max_sectors} of 256, and
     *       {@code max_segments} 62 ({@code TW_MAX_SGL_LENGTH}, the driver's {@code sg_tablesize}) of at
     *       most 64 KiB
     *   <li>is rotational, with no discard and no write-zeroes
     * </ul>
     *
     * @param disks member disks (only in the description)
     * @throws IllegalArgumentException if {@code disks} is below 1
     */
    public static DiskSpec threeWare(int disks) {
        if (disks < 1) {
            throw new IllegalArgumentException("3ware volume: disks (" + disks + ") must be at least 1");
        }
        return DiskSpec.builder(DiskDriver.SD)
                .description("3ware 8506 RAID volume, " + disks + " disks")
                .maxHwSectors(256)
                .maxSectors(256)
                .maxSegments(62)
                .maxSegmentSize(65536)
                .rotational(true)
                .build();
    }

    /**
     * A loop device over a file. A disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#LOOP loop}, 16 GiB
     *   <li>has 512-byte blocks, io_min 512, no io_opt
     *   <li>takes {@code max_hw_sectors} 255, 128 segments of at most 64 KiB
     *   <li>discards with 4 KiB granularity (at most 8388607 sectors); no write-zeroes
     *   <li>is not rotational
     * </ul>
     */
    public static DiskSpec loop() {
        return LOOP;
    }

    /**
     * null_blk with {@code memory_backed=1 blocksize=512} as recorded ({@code limits-nb512}). A disk of this
     * preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#NULL_BLK null_blk}, 16 GiB
     *   <li>has 512-byte blocks, io_min 512, no io_opt
     *   <li>takes {@code max_hw_sectors} 255 (127 KiB), 128 segments of at most 64 KiB
     *   <li>has no discard and no write-zeroes, and is not rotational
     * </ul>
     */
    public static DiskSpec nullBlk() {
        return NULL_BLK;
    }

    /**
     * scsi_debug as recorded (the {@code limits-sd-*}, {@code ss-*}, {@code s3-*} and {@code lp-*} cases). A
     * disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#SD sd}, 16 GiB
     *   <li>has the given logical and physical block sizes, io_min = the physical block, io_opt =
     *       {@code optimalBlocks} logical blocks
     *   <li>has no hardware sector limit ({@code max_hw_sectors} {@code UINT_MAX - 1} rounded down to
     *       whole logical blocks), 2048 segments of unlimited size, dma_alignment 3
     *   <li>writes zeroes up to 65535 logical blocks (rounded down to whole physical blocks); no discard
     *   <li>is not rotational
     * </ul>
     *
     * @param logicalBlockSize {@code sector_size}
     * @param physicalBlockSize {@code sector_size << physblk_exp}
     * @param optimalBlocks {@code opt_blks} in logical blocks (0 = none; scsi_debug's default is 1024)
     */
    public static DiskSpec scsiDebug(long logicalBlockSize, long physicalBlockSize, long optimalBlocks) {
        long lbsSectors = logicalBlockSize / 512;
        long pbsSectors = physicalBlockSize / 512;
        if (lbsSectors < 1 || pbsSectors < 1) {
            throw new IllegalArgumentException("scsi_debug: block sizes (" + logicalBlockSize + ", "
                    + physicalBlockSize + ") must be at least 512 bytes");
        }
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
                .rotational(false)
                .build();
    }

    /**
     * A virtio-blk disk. A disk of this preset:
     *
     * <ul>
     *   <li>is driven by {@link DiskDriver#VIRTIO_BLK virtio-blk}, 16 GiB
     *   <li>has 512-byte blocks, io_min 512, no io_opt
     *   <li>has no hardware sector limit ({@code max_hw_sectors} {@code UINT_MAX - 1}), 254 segments of
     *       unlimited size
     *   <li>discards with 512-byte granularity and writes zeroes, each up to 4194303 sectors
     *   <li>is rotational (virtio-blk does not say otherwise)
     * </ul>
     */
    public static DiskSpec virtioBlk() {
        return VIRTIO_BLK;
    }
}
