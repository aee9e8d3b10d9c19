package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code snapshot}: a dm-snapshot ({@code drivers/md/dm-snap.c}) of {@code originDevice}, table line
 * {@code <origin device> <COW device> <P|PO|N> <chunk size> [<# feature args> [<arg>]*]}. Reads of a chunk that
 * has an exception go to the COW device, the rest to the origin; the first write to a chunk of the origin (or a
 * partial write to the snapshot) copies the chunk to the COW device first.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param originDevice kernel name of the origin device (the origin's real device under LVM)
 * @param cowDevice kernel name of the COW device, which holds the exception store
 * @param store the exception store type ({@code P}, {@code PO} or {@code N})
 * @param chunkSectors the chunk size in sectors: "Chunk size is not a power of 2" otherwise
 * @param discardZeroesCow {@code discard_zeroes_cow}: a discard of a whole chunk that has an exception zeroes it
 *     on the COW device
 * @param discardPassdownOrigin {@code discard_passdown_origin}: discards go to the origin device too; "depends on
 *     discard_zeroes_cow"
 */
public record SnapshotTarget(Sectors start, Sectors length, String originDevice, String cowDevice, Store store,
                             long chunkSectors, boolean discardZeroesCow, boolean discardPassdownOrigin)
        implements DmTarget {

    /**
     * The exception store types of {@code dm-exception-store.c}: {@code P} persistent, {@code PO} persistent that
     * lets the snapshot overflow instead of invalidating it (LVM's {@code snapshot_overflow}), {@code N} transient.
     */
    public enum Store {
        /** {@code P}: the exceptions are written to the COW device ({@code dm-snap-persistent.c}). */
        PERSISTENT("P"),
        /**
         * {@code PO}: persistent; a write to the snapshot that finds the COW device full fails and marks the
         * snapshot "Overflow" rather than invalidating it ({@code userspace_supports_overflow}).
         */
        PERSISTENT_OVERFLOW("PO"),
        /** {@code N}: transient, the exceptions are kept in memory only ({@code dm-snap-transient.c}). */
        TRANSIENT("N");

        private final String word;

        Store(String word) {
            this.word = word;
        }

        /** The word tables use: {@code P}, {@code PO} or {@code N}. */
        public String word() {
            return word;
        }

        /** Whether the exceptions are kept on the COW device. */
        public boolean persistent() {
            return this != TRANSIENT;
        }
    }

    /** Rejects nulls, empty targets, chunk sizes that are not powers of two and a passdown without zeroing. */
    public SnapshotTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("snapshot", length);
        Objects.requireNonNull(originDevice, "originDevice");
        Objects.requireNonNull(cowDevice, "cowDevice");
        Objects.requireNonNull(store, "store");
        if (chunkSectors <= 0 || Long.bitCount(chunkSectors) != 1) {
            throw new IllegalArgumentException("snapshot target: chunk size " + chunkSectors
                    + " sectors is not a power of 2 (Chunk size is not a power of 2)");
        }
        if (originDevice.equals(cowDevice)) {
            throw new IllegalArgumentException("snapshot target: COW device " + cowDevice
                    + " cannot be the same as origin device");
        }
        if (discardPassdownOrigin && !discardZeroesCow) {
            throw new IllegalArgumentException("snapshot target: discard_passdown_origin feature depends on "
                    + "discard_zeroes_cow");
        }
    }

    @Override
    public String type() {
        return "snapshot";
    }

    @Override
    public List<String> devices() {
        return List.of(originDevice, cowDevice);
    }

    /** The feature arguments in {@code snapshot_status}'s order. */
    public List<String> features() {
        List<String> out = new ArrayList<>();
        if (discardZeroesCow) {
            out.add("discard_zeroes_cow");
        }
        if (discardPassdownOrigin) {
            out.add("discard_passdown_origin");
        }
        return List.copyOf(out);
    }

    // dm-snap.c: snapshot_status (STATUSTYPE_TABLE) — origin, COW, the store's status (type and chunk size), features
    @Override
    public String arguments(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder().append(fmt.apply(originDevice)).append(' ').append(fmt.apply(cowDevice))
                .append(' ').append(store.word()).append(' ').append(chunkSectors);
        List<String> f = features();
        if (!f.isEmpty()) {
            sb.append(' ').append(f.size());
            for (String s : f) {
                sb.append(' ').append(s);
            }
        }
        return sb.toString();
    }

    @Override
    public SnapshotTarget at(Sectors newStart) {
        return new SnapshotTarget(newStart, length, originDevice, cowDevice, store, chunkSectors, discardZeroesCow,
                discardPassdownOrigin);
    }
}
