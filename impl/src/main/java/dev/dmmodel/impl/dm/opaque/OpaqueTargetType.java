package dev.dmmodel.impl.dm.opaque;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.OpaqueTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Any target type the model does not have. Its constructor's rules are unknown, so it takes every argument as
 * given; an argument written {@code major:minor} that names a known device is one of its devices (the kernel
 * prints every device of every target that way, {@code format_dev_t}), anything else stays as written.
 */
public final class OpaqueTargetType implements TargetType {

    /** The one instance. */
    public static final OpaqueTargetType INSTANCE = new OpaqueTargetType();

    private OpaqueTargetType() {
    }

    /** Not a name any table uses: the type of each target is its own ({@link OpaqueTarget#type()}). */
    @Override
    public String name() {
        return "(not modelled)";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return OpaqueTarget.class;
    }

    // drivers/md/dm-table.c: dm_get_device of each device argument, whatever the target's ctr makes of the rest
    @Override
    public DmTarget construct(TargetArgs a) {
        List<String> args = new ArrayList<>(a.args());
        List<Integer> devices = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Optional<String> d = a.deviceIfKnown(i);
            if (d.isPresent()) {
                args.set(i, d.get());
                devices.add(i);
            }
        }
        return new OpaqueTarget(a.start(), a.length(), a.type(), args, devices, Optional.empty());
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new OpaqueModel((OpaqueTarget) target, deviceSize);
    }
}
