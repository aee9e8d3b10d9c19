package dev.dmmodel.impl.dm;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.cache.CacheTargetType;
import dev.dmmodel.impl.dm.crypt.CryptTargetType;
import dev.dmmodel.impl.dm.error.ErrorTargetType;
import dev.dmmodel.impl.dm.linear.LinearTargetType;
import dev.dmmodel.impl.dm.snapshot.SnapshotOriginTargetType;
import dev.dmmodel.impl.dm.snapshot.SnapshotTargetType;
import dev.dmmodel.impl.dm.multipath.MultipathTargetType;
import dev.dmmodel.impl.dm.raid.RaidTargetType;
import dev.dmmodel.impl.dm.striped.StripedTargetType;
import dev.dmmodel.impl.dm.thin.ThinPoolTargetType;
import dev.dmmodel.impl.dm.thin.ThinTargetType;
import dev.dmmodel.impl.dm.writecache.WritecacheTargetType;
import dev.dmmodel.impl.dm.zero.ZeroTargetType;
import java.util.List;
import java.util.Optional;

/** The target types the model has ({@code dm_register_target} of each module), in the order tables list them. */
public final class TargetTypes {

    /** Every modelled type. */
    public static final List<TargetType> ALL = List.of(LinearTargetType.INSTANCE, StripedTargetType.INSTANCE,
            ThinPoolTargetType.INSTANCE, ThinTargetType.INSTANCE, ZeroTargetType.INSTANCE, ErrorTargetType.INSTANCE,
            CryptTargetType.INSTANCE, SnapshotOriginTargetType.INSTANCE, SnapshotTargetType.INSTANCE,
            MultipathTargetType.INSTANCE, CacheTargetType.INSTANCE, WritecacheTargetType.INSTANCE,
            RaidTargetType.INSTANCE);

    /** Their names, as {@code dmsetup table} prints them. */
    public static final List<String> NAMES = ALL.stream().map(TargetType::name).toList();

    private TargetTypes() {
    }

    /** The type of a name ({@code dm_get_target_type}), if the model has it. */
    // drivers/md/dm-target.c: dm_get_target_type
    public static Optional<TargetType> byName(String name) {
        return ALL.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** The type of a table target. */
    public static TargetType of(DmTarget target) {
        if (target instanceof dev.dmmodel.dm.OpaqueTarget) {
            return dev.dmmodel.impl.dm.opaque.OpaqueTargetType.INSTANCE;
        }
        return ALL.stream().filter(t -> t.targetClass().isInstance(target)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no model for target type " + target.type()));
    }
}
