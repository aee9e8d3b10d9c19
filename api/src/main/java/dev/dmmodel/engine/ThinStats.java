package dev.dmmodel.engine;

import java.util.Objects;

/**
 * What dm-thin did for one thin device during a simulation: blocks provisioned, how many first writes
 * did not cover their whole block, and the extra I/O that cost (zeroing new blocks, copying shared ones).
 *
 * @param thinDevice the thin device (kernel name)
 * @param poolDevice the pool device (kernel name)
 * @param blockSectors the pool's block size in sectors
 * @param blocksProvisioned blocks newly mapped to this device (first writes and broken sharing)
 * @param partialFirstWrites provisioning writes that did not cover their whole block
 * @param blocksZeroed blocks zeroed before their first write ({@code schedule_zero})
 * @param blocksCopied shared blocks copied before being written ({@code break_sharing})
 * @param largestBioSectors the largest data bio that reached the thin device
 * @param writeBios data write bios that reached the thin device
 * @param poolUsedBlocks the pool's used data blocks now
 * @param poolTotalBlocks the pool's data blocks
 * @param lowWaterMarkReached whether the pool's free blocks fell to its low water mark (one dm event)
 * @param outOfSpaceBios writes that needed a block when the pool had none: failed at once with
 *     {@code error_if_no_space}, otherwise held until the pool grows or {@code no_space_timeout} expires
 * @param mappedSectors sectors of this thin device mapped now (mapped blocks times the block size), the first
 *     number of its {@code dmsetup status}
 * @param highestMappedSector the last sector of its highest mapped block, or -1 when nothing is mapped (the
 *     second number of its {@code dmsetup status}, printed {@code -})
 * @param poolTransactionId the pool's transaction id ({@code set_transaction_id}), as its status shows it
 */
public record ThinStats(String thinDevice, String poolDevice, long blockSectors, long blocksProvisioned,
                        long partialFirstWrites, long blocksZeroed, long blocksCopied, long largestBioSectors,
                        long writeBios, long poolUsedBlocks, long poolTotalBlocks, boolean lowWaterMarkReached,
                        long outOfSpaceBios, long mappedSectors, long highestMappedSector,
                        long poolTransactionId) {

    /** Rejects nulls. */
    public ThinStats {
        Objects.requireNonNull(thinDevice, "thinDevice");
        Objects.requireNonNull(poolDevice, "poolDevice");
    }

    /**
     * The thin target's part of {@code dmsetup status} ({@code thin_status}): mapped sectors and the highest
     * mapped sector, e.g. {@code 16384 16383}, or {@code 0 -} when nothing is mapped.
     */
    public String dmsetupStatus() {
        return mappedSectors + " " + (highestMappedSector < 0 ? "-" : Long.toString(highestMappedSector));
    }

    /** Bytes written to the data device beyond the data itself: zeroed blocks and copies' writes. */
    public long extraBytesWritten() {
        return (blocksZeroed + blocksCopied) * blockSectors * 512;
    }

    /** Bytes read from the data device to copy shared blocks. */
    public long extraBytesRead() {
        return blocksCopied * blockSectors * 512;
    }
}
