package dev.dmmodel.engine;

import java.util.Objects;

/**
 * What one classic dm snapshot ({@code snapshot} target, {@code drivers/md/dm-snap.c}) did during a simulation,
 * and its exception store's fill level as {@code dmsetup status} prints it.
 *
 * @param snapshotDevice the snapshot device (kernel name)
 * @param originDevice the origin's real device (kernel name)
 * @param cowDevice the COW device (kernel name)
 * @param chunkSectors the chunk size in sectors
 * @param chunksCopied chunks kcopyd copied from the origin to the COW device (first writes to the origin, partial
 *     first writes to the snapshot)
 * @param fullChunkWrites first writes to the snapshot that covered a whole chunk, so nothing was copied
 * @param commits exception store commits (a chunk-sized {@code PREFLUSH|FUA} metadata write each; none for a
 *     transient store)
 * @param originWriteSectors sectors written to the origin device through its {@code snapshot-origin} target while
 *     this snapshot was valid
 * @param largestOriginWriteSectors the largest write bio that reached the origin's dm device
 * @param usedSectors the COW sectors in use ({@code next_free} times the chunk size for a persistent store), the
 *     first number of {@code dmsetup status}
 * @param totalSectors the COW device's size, the second number
 * @param metadataSectors the header and the metadata areas so far, in sectors, the third number (0 for a
 *     transient store)
 * @param invalid whether the snapshot was invalidated (the COW device filled, or an I/O error): status
 *     {@code Invalid}
 * @param overflowed whether a write to a {@code PO} snapshot found the COW device full: status {@code Overflow}
 */
public record SnapshotStats(String snapshotDevice, String originDevice, String cowDevice, long chunkSectors,
                            long chunksCopied, long fullChunkWrites, long commits, long originWriteSectors,
                            long largestOriginWriteSectors, long usedSectors, long totalSectors, long metadataSectors,
                            boolean invalid, boolean overflowed) {

    /** Rejects nulls. */
    public SnapshotStats {
        Objects.requireNonNull(snapshotDevice, "snapshotDevice");
        Objects.requireNonNull(originDevice, "originDevice");
        Objects.requireNonNull(cowDevice, "cowDevice");
    }

    /**
     * The snapshot target's part of {@code dmsetup status} ({@code snapshot_status}): {@code Invalid},
     * {@code Overflow}, or {@code <used sectors>/<total sectors> <metadata sectors>} such as {@code 24/65536 16}.
     */
    public String dmsetupStatus() {
        if (invalid) {
            return "Invalid";
        }
        if (overflowed) {
            return "Overflow";
        }
        return usedSectors + "/" + totalSectors + " " + metadataSectors;
    }

    /** Bytes kcopyd read from the origin and wrote to the COW device (each, not summed). */
    public long bytesCopied() {
        return Math.multiplyExact(Math.multiplyExact(chunksCopied, chunkSectors), 512L);
    }
}
