package dev.dmmodel.lvm;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.SizeUnit;
import java.util.Objects;

/**
 * An {@code lvcreate -V SIZE --thinpool POOL [-n NAME]}: a thin volume in an existing pool.
 *
 * @param name the LV name, or empty for LVM's generated {@code lvolN}
 * @param virtualSize {@code -V}, rounded up to extents (and to the pool's chunk if that is larger)
 * @param pool the thin pool LV in the same VG
 */
public record ThinLvRequest(String name, Bytes virtualSize, String pool) {

    /** Rejects nulls. */
    public ThinLvRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(virtualSize, "virtualSize");
        Objects.requireNonNull(pool, "pool");
    }

    /** A request from text: {@code -V 64M} (a bare number is MiB, as lvcreate reads it). */
    public static ThinLvRequest of(String name, String virtualSize, String pool) {
        return new ThinLvRequest(name, Bytes.parse(virtualSize, SizeUnit.MIB), pool);
    }
}
