package dev.dmmodel.impl.dm.table;

import dev.dmmodel.dm.DmTarget;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a table line's target: finds its type ({@code dm_get_target_type}, {@link dev.dmmodel.impl.dm.TargetTypes})
 * and hands the arguments ({@link TargetArgs}) to that type's constructor, which lives in the target's package
 * ({@code linear_ctr} in {@code impl.dm.linear}, {@code stripe_ctr} in {@code impl.dm.striped}, {@code pool_ctr}
 * and {@code thin_ctr} in {@code impl.dm.thin}, {@code zero_ctr} and {@code io_err_ctr} in {@code impl.dm.zero} and
 * {@code impl.dm.error}). Used by {@link DmTableParser} and by the snapshot reader.
 *
 * <p>Numbers are read as the kernel's {@code kstrtou*}/{@code sscanf} read canonical decimal numbers: digits
 * only (a {@code +} sign, which the kernel would also take, is refused), at most the model's range
 * ({@link Long#MAX_VALUE}; {@code unsigned int} fields at most 4294967295). Where the kernel ignores
 * arguments ({@code pool_ctr} past its feature words, {@code io_err_ctr} with other than two arguments), so
 * does this reader; the table the kernel prints back has none of them.
 */
public final class DmTargets {

    /** The target types the model has, as {@code dmsetup table} names them. */
    public static final List<String> TYPES = dev.dmmodel.impl.dm.TargetTypes.NAMES;

    /** How devices may be written in arguments. */
    public enum DeviceSyntax {
        /** {@code major:minor} only, as the kernel prints tables ({@code format_dev_t}). */
        MAJOR_MINOR,
        /**
         * {@code major:minor} or a path or name ({@code /dev/sdb}, {@code /dev/mapper/vg-lv}), as
         * {@code dm_get_device} takes them in a table written for {@code dmsetup create}.
         */
        ANY
    }

    /** Maps a device as written (a {@code major:minor} already in canonical form) to the name a table holds. */
    public interface DeviceResolver {
        /**
         * The device name for a reference.
         *
         * @param reference {@code major:minor} in canonical form, or a path or name as written
         * @return the name the table is to hold, or empty if the reference names no device known here
         */
        Optional<String> resolve(String reference);

        /** What follows {@code device X, } in the message for an unknown device. */
        default String unknownFound() {
            return "which names no known device";
        }

        /** What is expected instead of an unknown device. */
        default String unknownExpected() {
            return "a known device";
        }

        /** Keeps every reference as written ({@code major:minor} canonical). */
        static DeviceResolver asWritten() {
            return Optional::of;
        }
    }

    private DmTargets() {
    }

    /**
     * The target of one line.
     *
     * @param source the text's name for messages
     * @param line the line
     * @param device the device the line belongs to, for messages when the line does not name it
     * @param syntax how devices may be written
     * @param devices maps device references to the names the target holds
     * @throws DmTableException if the target type is not one of {@link #TYPES}, or the arguments are not what
     *     the target's constructor accepts, or a device is unknown to {@code devices}
     */
    public static DmTarget target(String source, DmTableLine line, Optional<String> device, DeviceSyntax syntax,
                                  DeviceResolver devices) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(syntax, "syntax");
        Objects.requireNonNull(devices, "devices");
        TargetArgs args = new TargetArgs(source, line, device, syntax, devices);
        // a type the model does not have is kept as an opaque target: a host with one still imports
        dev.dmmodel.impl.dm.TargetType type = dev.dmmodel.impl.dm.TargetTypes.byName(line.type())
                .orElse(dev.dmmodel.impl.dm.opaque.OpaqueTargetType.INSTANCE);
        try {
            return type.construct(args);
        } catch (DmTableException e) {
            throw e;
        } catch (IllegalArgumentException e) { // a rule the api's target records check as well
            throw new DmTableException(source, line.number(), line.columns().get(2), "a " + line.type()
                    + " target that is not valid (" + e.getMessage() + ") in '" + line.text() + "'",
                    "a target the kernel accepts");
        }
    }
}
