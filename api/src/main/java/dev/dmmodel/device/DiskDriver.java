package dev.dmmodel.device;

/**
 * The driver behind a whole disk, which decides some of its limits (e.g. sd's optimal transfer length
 * rule for max_sectors, partition device numbers).
 */
public enum DiskDriver {
    /** SCSI disk ({@code sd}): SAS/SATA behind libata, hardware RAID volumes, virtio-scsi, scsi_debug. */
    SD(8),
    /** NVMe namespace. */
    NVME(259),
    /** virtio-blk. */
    VIRTIO_BLK(254),
    /** The loop driver. */
    LOOP(7),
    /** null_blk. */
    NULL_BLK(252),
    /** Any other driver; limits are exactly as given. */
    OTHER(240);

    private final int major;

    DiskDriver(int major) {
        this.major = major;
    }

    /** The usual major number of the driver's whole disks. */
    public int major() {
        return major;
    }
}
