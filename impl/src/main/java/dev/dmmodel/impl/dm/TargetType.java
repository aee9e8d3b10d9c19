package dev.dmmodel.impl.dm;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.function.Function;

/**
 * One device-mapper target type, as the kernel's {@code struct target_type} holds it: its name, its
 * constructor's argument rules ({@code .ctr}) and its model ({@code .iterate_devices}, {@code .io_hints},
 * {@code .map}). Each type lives in its target's package ({@code impl.dm.linear}, {@code impl.dm.thin}, ...);
 * {@link TargetTypes} lists them.
 */
public interface TargetType {

    /** The name tables use ({@code target_type.name}). */
    String name();

    /** The API's target record this type builds. */
    Class<? extends DmTarget> targetClass();

    /**
     * The target of one table line, with the checks of the kernel's constructor in its order.
     *
     * @throws dev.dmmodel.impl.dm.table.DmTableException naming the line, column, value and rule
     */
    DmTarget construct(TargetArgs args);

    /**
     * The model of a target of this type.
     *
     * @param deviceSize the size in sectors of a device by kernel name (for targets that look below)
     */
    TargetModel model(DmTarget target, Function<String, Long> deviceSize);
}
