package dev.dmmodel.lvm;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;

/**
 * An {@code lvcreate -s -L SIZE [-c CHUNK] [-n NAME] VG/ORIGIN [PV...]}: a classic (copy-on-write) snapshot of a
 * linear or striped LV. LVM allocates a COW store of {@code size} (rounded up to whole extents) and activates the
 * snapshot as dm-snapshot does: the origin's table moves to {@code vg-origin-real}, the origin becomes a
 * {@code snapshot-origin} over it, and {@code vg-name} is a {@code snapshot} of {@code vg-origin-real} with its
 * exceptions on {@code vg-name-cow} ({@code lib/activate/dev_manager.c}).
 *
 * @param origin the LV to snapshot (a linear or striped LV of the VG)
 * @param name the snapshot's name, or empty for LVM's generated {@code lvolN}
 * @param size the COW store's size ({@code -L}), at least one byte
 * @param chunkSize the exception chunk size ({@code -c}): a power of two from 8 sectors (4 KiB, LVM's default) to
 *     1024 (512 KiB)
 * @param pvs the PVs the COW store may use (kernel names or paths), empty for any
 * @param pvRanges the PE ranges ({@code /dev/sdb:0-7}) the COW store may use, as {@link LvCreateRequest} takes them
 */
public record CowSnapshotRequest(String origin, String name, Bytes size, Sectors chunkSize, List<String> pvs,
                                 List<ExtentRange> pvRanges) {

    /** LVM's default chunk size for classic snapshots ({@code DEFAULT_CHUNKSIZE}): 4 KiB. */
    public static final Sectors DEFAULT_CHUNK = Sectors.of(8);

    /** Rejects nulls, an empty size and a chunk size {@code lvcreate} refuses. */
    public CowSnapshotRequest {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(chunkSize, "chunkSize");
        pvs = List.copyOf(pvs);
        pvRanges = List.copyOf(pvRanges);
        if (size.count() == 0) {
            throw new IllegalArgumentException("lvcreate -s " + origin + ": the COW size (-L) must be above zero");
        }
        long c = chunkSize.count();
        // tools/lvcreate.c: _read_snapshot_params (as SegmentType.Snapshot checks the metadata's chunk_size)
        if (c < SegmentType.Snapshot.MIN_CHUNK_SECTORS || c > SegmentType.Snapshot.MAX_CHUNK_SECTORS
                || Long.bitCount(c) != 1) {
            throw new IllegalArgumentException("Chunk size " + c + " sectors must be a power of 2 in the range 4K to"
                    + " 512K");
        }
    }

    /** A snapshot of {@code origin} named {@code name} with a COW store of {@code size} and 4 KiB chunks. */
    public CowSnapshotRequest(String origin, String name, Bytes size) {
        this(origin, name, size, DEFAULT_CHUNK, List.of(), List.of());
    }

    /** A snapshot whose COW store may use whole PVs only. */
    public CowSnapshotRequest(String origin, String name, Bytes size, Sectors chunkSize, List<String> pvs) {
        this(origin, name, size, chunkSize, pvs, List.of());
    }
}
