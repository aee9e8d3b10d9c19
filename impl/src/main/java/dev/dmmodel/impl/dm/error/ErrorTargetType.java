package dev.dmmodel.impl.dm.error;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ErrorTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.function.Function;

/** dm-error's target type ({@code drivers/md/dm-target.c}: {@code io_err_ctr}). */
public final class ErrorTargetType implements TargetType {

    /** The one instance. */
    public static final ErrorTargetType INSTANCE = new ErrorTargetType();

    private ErrorTargetType() {
    }

    @Override
    public String name() {
        return "error";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return ErrorTarget.class;
    }

    // drivers/md/dm-target.c: io_err_ctr ignores its arguments (or, from 6.10 on, takes two like linear); none print
    @Override
    public DmTarget construct(TargetArgs a) {
        return new ErrorTarget(a.start(), a.length());
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new ErrorModel();
    }
}
