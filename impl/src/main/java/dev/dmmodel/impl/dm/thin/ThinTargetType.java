package dev.dmmodel.impl.dm.thin;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.Optional;
import java.util.function.Function;

/** dm-thin's thin target type ({@code drivers/md/dm-thin.c}: {@code thin_ctr}). */
public final class ThinTargetType implements TargetType {

    /** The one instance. */
    public static final ThinTargetType INSTANCE = new ThinTargetType();

    private ThinTargetType() {
    }

    @Override
    public String name() {
        return "thin";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return ThinTarget.class;
    }

    // thin_ctr: "Invalid argument count", "Error setting origin device", dm_get_device, read_dev_id
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() == 2 || a.count() == 3, "thin " + a.dev("pool major:minor") + " <device id> ["
                + a.dev("external origin major:minor") + "]");
        Optional<String> origin = Optional.empty();
        if (a.count() == 3) {
            if (a.arg(0).equals(a.arg(2))) {
                throw a.at(2, "the pool " + DmTableException
                        .quote(a.arg(0)) + " as external origin",
                        "an origin other than the pool (thin_ctr: Error setting origin device)");
            }
            origin = Optional.of(a.device(2));
        }
        String pool = a.device(0);
        long id = a.number(1, "the thin device id");
        if (id > ThinTarget.MAX_DEVICE_ID) {
            throw a.invalid(1, "the thin device id, from 0 to " + ThinTarget.MAX_DEVICE_ID
                    + " (thin_ctr: Invalid device id)");
        }
        return new ThinTarget(a.start(), a.length(), pool, id, origin);
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new ThinModel((ThinTarget) target, deviceSize);
    }
}
