package dev.dmmodel.lvm;

import java.util.Objects;

/**
 * An {@code lvcreate -s VG/ORIGIN [-n NAME]} without a size: a thin snapshot of a thin volume, in the
 * origin's pool, of the origin's size, flagged {@code ACTIVATION_SKIP} (so not activated).
 *
 * @param origin the thin LV to snapshot
 * @param name the snapshot's name, or empty for LVM's generated {@code lvolN}
 */
public record ThinSnapshotRequest(String origin, String name) {

    /** Rejects nulls. */
    public ThinSnapshotRequest {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(name, "name");
    }
}
