package dev.dmmodel.dm;

import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A target of a type the model does not implement ({@code crypt}, {@code delay}, {@code integrity},
 * {@code verity}, {@code vdo}, {@code multipath}, an out-of-tree module, ...), kept so that a host with one never
 * fails to import: devices above it stack on it as usual, {@code check} reports it, and I/O through it is refused
 * with a message naming the device and the target while every other device still traces.
 *
 * <p>Its queue limits cannot be computed, since its {@code io_hints} are unknown: {@code limits} holds the limits
 * the kernel reported for the dm device (sysfs {@code queue/}), which the device then has. Without them the
 * devices below are stacked with no hints of the target's own.
 *
 * <p>Secrets in the arguments (a dm-crypt key) are replaced by zeros when the target is made
 * ({@link TargetSecrets#redact}): no target holds one.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param type the target type as the table names it
 * @param args the arguments as the table gives them, with each device argument a kernel name
 * @param deviceArgs the indexes in {@code args} of the arguments that name devices, in order
 * @param limits the dm device's queue limits as the kernel reported them, if known
 */
public record OpaqueTarget(Sectors start, Sectors length, String type, List<String> args, List<Integer> deviceArgs,
                           Optional<QueueLimits> limits) implements DmTarget {

    /** Rejects nulls, blank names and arguments, device indexes outside the arguments; redacts secrets. */
    public OpaqueTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive(String.valueOf(type), length);
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(limits, "limits");
        if (type.isBlank() || type.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("target type '" + type + "': expected one word");
        }
        args = TargetSecrets.redact(type, args);
        for (String a : args) {
            if (a.isEmpty() || a.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException(type + " target: argument '" + a + "' is empty or has blanks");
            }
        }
        deviceArgs = List.copyOf(deviceArgs);
        for (int i : deviceArgs) {
            if (i < 0 || i >= args.size()) {
                throw new IllegalArgumentException(type + " target: device argument " + i + " of " + args.size()
                        + " arguments");
            }
        }
    }

    @Override
    public List<String> devices() {
        List<String> out = new ArrayList<>();
        for (int i : deviceArgs) {
            out.add(args.get(i));
        }
        return List.copyOf(out);
    }

    @Override
    public String arguments(Function<String, String> device) {
        List<String> out = new ArrayList<>(args);
        for (int i : deviceArgs) {
            out.set(i, device.apply(args.get(i)));
        }
        return String.join(" ", out);
    }

    @Override
    public OpaqueTarget at(Sectors newStart) {
        return new OpaqueTarget(newStart, length, type, args, deviceArgs, limits);
    }
}
