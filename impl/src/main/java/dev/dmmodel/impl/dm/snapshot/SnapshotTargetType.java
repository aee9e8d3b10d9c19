package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.SnapshotTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.Locale;
import java.util.function.Function;

/**
 * dm-snapshot's snapshot target type ({@code drivers/md/dm-snap.c}: {@code snapshot_ctr},
 * {@code parse_snapshot_features}; {@code dm-exception-store.c}: {@code dm_exception_store_create},
 * {@code set_chunk_size}, {@code dm_exception_store_set_chunk_size}). A failure in the exception store's part is
 * reported by the kernel as "Couldn't create exception store"; the messages give the store's own reason too.
 * The chunk size's checks against the devices' logical block sizes need the devices' limits and are made when the
 * limits are computed ({@link SnapshotModel#ioHints}).
 */
public final class SnapshotTargetType implements TargetType {

    /** The one instance. */
    public static final SnapshotTargetType INSTANCE = new SnapshotTargetType();

    /** {@code INT_MAX >> SECTOR_SHIFT}: the largest chunk size in sectors ("Chunk size is too high"). */
    static final long MAX_CHUNK_SECTORS = Integer.MAX_VALUE >> 9;

    private static final String STORE_FAILED = "snapshot_ctr: Couldn't create exception store";

    private SnapshotTargetType() {
    }

    @Override
    public String name() {
        return "snapshot";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return SnapshotTarget.class;
    }

    // dm-snap.c: snapshot_ctr — 4 or more arguments, the features after the first four, the origin, the COW
    // device (not the origin), then the exception store (type and chunk size)
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() >= 4, "snapshot " + a.dev("origin major:minor") + " " + a.dev("COW major:minor")
                + " <P|PO|N> <chunk size> [<# feature args> [<arg>]*] (snapshot_ctr: requires 4 or more arguments)");
        boolean[] features = features(a);
        String origin = a.device(0);
        String cow = a.device(1);
        if (cow.equals(origin)) {
            throw a.invalid(1, "a COW device other than the origin device " + origin
                    + " (snapshot_ctr: COW device cannot be the same as origin device)");
        }
        SnapshotTarget.Store store = store(a);
        long chunk = chunkSize(a);
        return new SnapshotTarget(a.start(), a.length(), origin, cow, store, chunk, features[0], features[1]);
    }

    // dm-exception-store.c: dm_exception_store_create — "P", "PO" (persistent_ctr's overflow option) or "N"
    private static SnapshotTarget.Store store(TargetArgs a) {
        String w = a.arg(2).toUpperCase(Locale.ROOT);
        switch (w) {
            case "P":
                return SnapshotTarget.Store.PERSISTENT;
            case "PO":
                return SnapshotTarget.Store.PERSISTENT_OVERFLOW;
            case "N":
                return SnapshotTarget.Store.TRANSIENT;
            default:
                if (w.startsWith("P")) {
                    throw a.invalid(2, "P or PO: the persistent store's only option is O ("
                            + "persistent_ctr: Unsupported persistent store option; " + STORE_FAILED + ")");
                }
                if (w.startsWith("N")) {
                    return SnapshotTarget.Store.TRANSIENT;
                }
                throw a.invalid(2, "P, PO or N (dm_exception_store_create: Exception store type is not P or N; "
                        + STORE_FAILED + ")");
        }
    }

    // dm-exception-store.c: set_chunk_size (kstrtouint, "Invalid chunk size"; 0 = the size in the COW header) and
    // dm_exception_store_set_chunk_size (a power of 2, at most INT_MAX >> SECTOR_SHIFT)
    private static long chunkSize(TargetArgs a) {
        String v = a.arg(3);
        if (v.isEmpty() || v.length() > 10 || !v.chars().allMatch(c -> c >= '0' && c <= '9')
                || Long.parseLong(v) > TargetArgs.UINT_MAX) {
            throw a.invalid(3, "the chunk size in sectors, an unsigned 32-bit number (set_chunk_size: Invalid chunk "
                    + "size; " + STORE_FAILED + ")");
        }
        long chunk = Long.parseLong(v);
        if (chunk == 0) {
            throw a.invalid(3, "a chunk size other than 0: 0 takes the size from an existing COW header, which the "
                    + "model does not read (snapshot_ctr: Chunk size not set)");
        }
        if (Long.bitCount(chunk) != 1) {
            throw a.invalid(3, "a chunk size that is a power of 2 (dm_exception_store_set_chunk_size: Chunk size is "
                    + "not a power of 2; " + STORE_FAILED + ")");
        }
        if (chunk > MAX_CHUNK_SECTORS) {
            throw a.invalid(3, "a chunk size of at most " + MAX_CHUNK_SECTORS + " sectors "
                    + "(dm_exception_store_set_chunk_size: Chunk size is too high; " + STORE_FAILED + ")");
        }
        return chunk;
    }

    // dm-snap.c: parse_snapshot_features — dm_read_arg_group {0, 2}, discard_zeroes_cow, discard_passdown_origin
    private static boolean[] features(TargetArgs a) {
        boolean zeroes = false;
        boolean passdown = false;
        if (a.count() == 4) {
            return new boolean[] {false, false};
        }
        long n = a.number(4, "the number of feature arguments (parse_snapshot_features: Invalid number of feature "
                + "arguments)");
        if (n > 2 || n > a.count() - 5) {
            throw a.invalid(4, "a number of feature arguments from 0 to 2 and at most the " + (a.count() - 5)
                    + " that follow (parse_snapshot_features: Invalid number of feature arguments)");
        }
        if (a.count() != 5 + n) {
            throw a.at(5 + (int) n, (a.count() - 5 - n) + " argument(s) after the " + n + " feature ones",
                    "none: snapshot_ctr ignores them, and the model keeps only what dmsetup table shows");
        }
        for (int i = 5; i < a.count(); i++) {
            String f = a.arg(i).toLowerCase(Locale.ROOT);
            if (f.equals("discard_zeroes_cow")) {
                zeroes = true;
            } else if (f.equals("discard_passdown_origin")) {
                passdown = true;
            } else {
                throw a.invalid(i, "discard_zeroes_cow or discard_passdown_origin (parse_snapshot_features: "
                        + "Unrecognised feature requested)");
            }
        }
        if (passdown && !zeroes) {
            throw a.invalid(4, "discard_zeroes_cow with discard_passdown_origin (parse_snapshot_features: "
                    + "discard_passdown_origin feature depends on discard_zeroes_cow)");
        }
        return new boolean[] {zeroes, passdown};
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        SnapshotTarget t = (SnapshotTarget) target;
        return new SnapshotModel(t, deviceSize.apply(t.cowDevice()));
    }
}
