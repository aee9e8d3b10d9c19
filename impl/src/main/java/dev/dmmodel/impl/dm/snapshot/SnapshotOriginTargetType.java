package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.SnapshotOriginTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.function.Function;

/** dm-snapshot's origin target type ({@code drivers/md/dm-snap.c}: {@code origin_ctr}). */
public final class SnapshotOriginTargetType implements TargetType {

    /** The one instance. */
    public static final SnapshotOriginTargetType INSTANCE = new SnapshotOriginTargetType();

    private SnapshotOriginTargetType() {
    }

    @Override
    public String name() {
        return "snapshot-origin";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return SnapshotOriginTarget.class;
    }

    // dm-snap.c: origin_ctr — exactly one argument, the device ("Cannot get target device")
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() == 1, "snapshot-origin " + a.dev("major:minor")
                + " (origin_ctr: origin: incorrect number of arguments)");
        return new SnapshotOriginTarget(a.start(), a.length(), a.device(0));
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new SnapshotOriginModel((SnapshotOriginTarget) target);
    }
}
