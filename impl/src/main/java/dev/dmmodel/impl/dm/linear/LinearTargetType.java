package dev.dmmodel.impl.dm.linear;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import dev.dmmodel.units.Sectors;
import java.util.function.Function;

/** dm-linear's target type ({@code drivers/md/dm-linear.c}: {@code linear_ctr}). */
public final class LinearTargetType implements TargetType {

    /** The one instance. */
    public static final LinearTargetType INSTANCE = new LinearTargetType();

    private LinearTargetType() {
    }

    @Override
    public String name() {
        return "linear";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return LinearTarget.class;
    }

    // linear_ctr: "Invalid argument count", "Invalid device sector", dm_get_device
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() == 2, "linear " + a.dev("major:minor") + " <offset>");
        long offset = a.number(1, "the offset in sectors");
        String d = a.device(0);
        a.endsInRange(offset, 1);
        return new LinearTarget(a.start(), a.length(), d, Sectors.of(offset));
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new LinearModel((LinearTarget) target);
    }
}
