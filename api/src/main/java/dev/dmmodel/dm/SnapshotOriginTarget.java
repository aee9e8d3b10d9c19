package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code snapshot-origin}: dm-snapshot's origin target ({@code drivers/md/dm-snap.c}), table line
 * {@code <origin device>}. It "maps a linear range of a device, with hooks for snapshotting": reads pass to the
 * device unchanged; a write first has every snapshot of that device copy the chunks it touches to their COW
 * devices. The device is the origin's real device ({@code -real} under LVM), the one the snapshots name as
 * their origin.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param device kernel name of the origin's real device
 */
public record SnapshotOriginTarget(Sectors start, Sectors length, String device) implements DmTarget {

    /** Rejects nulls and empty targets. */
    public SnapshotOriginTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("snapshot-origin", length);
        Objects.requireNonNull(device, "device");
    }

    @Override
    public String type() {
        return "snapshot-origin";
    }

    @Override
    public List<String> devices() {
        return List.of(device);
    }

    // dm-snap.c: origin_status (STATUSTYPE_TABLE) — the device
    @Override
    public String arguments(Function<String, String> fmt) {
        return fmt.apply(device);
    }

    @Override
    public SnapshotOriginTarget at(Sectors newStart) {
        return new SnapshotOriginTarget(newStart, length, device);
    }
}
