package dev.dmmodel.impl.lvm;

/**
 * What {@code pvcreate} reads about a device from sysfs ({@code lib/device/dev-type.c}) and the host.
 *
 * @param ioMinBytes {@code queue/minimum_io_size} in bytes (0 if absent)
 * @param ioOptBytes {@code queue/optimal_io_size} in bytes (0 if absent)
 * @param alignmentOffsetBytes {@code alignment_offset} in bytes; -1 is the kernel's "misaligned"
 * @param logicalBlockSize {@code queue/logical_block_size} in bytes
 * @param pageSize the host's page size in bytes (4096 on x86-64)
 * @param mdStripeWidthSectors an MD RAID device's chunk size times its data disks, 0 for any other device
 */
public record PvTopology(long ioMinBytes, long ioOptBytes, long alignmentOffsetBytes, long logicalBlockSize,
                         long pageSize, long mdStripeWidthSectors) {

    /** A disk with 512-byte blocks and no topology hints on a 4 KiB-page host. */
    public static final PvTopology PLAIN = new PvTopology(0, 0, 0, 512, 4096, 0);

    /** What pvcreate reads from a device's queue limits on a host with {@code pageSize}-byte pages. */
    // lib/device/dev-type.c: dev_minimum_io_size, dev_optimal_io_size, dev_alignment_offset
    public static PvTopology of(dev.dmmodel.limits.QueueLimits l, long pageSize) {
        return new PvTopology(l.ioMin(), l.ioOpt(), l.misaligned() ? -1 : l.alignmentOffset(), l.logicalBlockSize(),
                pageSize, 0);
    }

    /** Rejects values sysfs cannot report. */
    public PvTopology {
        if (ioMinBytes < 0 || ioOptBytes < 0) {
            throw new IllegalArgumentException("minimum_io_size (" + ioMinBytes + ") and optimal_io_size ("
                    + ioOptBytes + ") must not be negative");
        }
        if (alignmentOffsetBytes < -1) {
            throw new IllegalArgumentException("alignment_offset (" + alignmentOffsetBytes
                    + ") must be -1 (misaligned) or a byte offset");
        }
        if (logicalBlockSize < 512 || Long.bitCount(logicalBlockSize) != 1) {
            throw new IllegalArgumentException("logical_block_size (" + logicalBlockSize
                    + ") must be a power of two of at least 512 bytes");
        }
        if (pageSize < 4096 || Long.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size (" + pageSize
                    + ") must be a power of two of at least 4096 bytes");
        }
        if (mdStripeWidthSectors < 0) {
            throw new IllegalArgumentException("MD stripe width (" + mdStripeWidthSectors + ") must not be negative");
        }
    }
}
