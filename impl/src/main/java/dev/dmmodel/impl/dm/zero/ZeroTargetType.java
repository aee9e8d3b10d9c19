package dev.dmmodel.impl.dm.zero;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ZeroTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.function.Function;

/** dm-zero's target type ({@code drivers/md/dm-zero.c}). */
public final class ZeroTargetType implements TargetType {

    /** The one instance. */
    public static final ZeroTargetType INSTANCE = new ZeroTargetType();

    private ZeroTargetType() {
    }

    @Override
    public String name() {
        return "zero";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return ZeroTarget.class;
    }

    // drivers/md/dm-zero.c: zero_ctr — "No arguments required"
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() == 0, "zero (no arguments)");
        return new ZeroTarget(a.start(), a.length());
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new ZeroModel();
    }
}
