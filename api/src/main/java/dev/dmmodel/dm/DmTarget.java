package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.function.Function;

/**
 * One line of a device-mapper table: a target type mapping {@code length} sectors starting at
 * {@code start} of the dm device. Underlying devices are named by kernel name ({@code sda1},
 * {@code dm-2}).
 */
public sealed interface DmTarget permits LinearTarget, StripedTarget, ZeroTarget, ErrorTarget, ThinPoolTarget,
        ThinTarget, CryptTarget, SnapshotOriginTarget, SnapshotTarget, MultipathTarget, CacheTarget,
        WritecacheTarget, RaidTarget, OpaqueTarget {

    /** First sector of the dm device that this target maps. */
    Sectors start();

    /** Number of sectors mapped. */
    Sectors length();

    /** The target type as dmsetup prints it: {@code linear}, {@code striped}, {@code thin-pool} ... */
    String type();

    /** Kernel names of the devices this target uses, in table order. */
    List<String> devices();

    /**
     * The target's arguments as in {@code dmsetup table}, with each device written by
     * {@code device} (e.g. to {@code major:minor}).
     */
    String arguments(Function<String, String> device);

    /** The sector after the last one mapped. */
    default Sectors end() {
        return start().plus(length());
    }

    /** This target moved to another start (the table builder places targets back to back). */
    DmTarget at(Sectors newStart);
}
