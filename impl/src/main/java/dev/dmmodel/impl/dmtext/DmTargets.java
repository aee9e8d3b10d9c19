package dev.dmmodel.impl.dmtext;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ErrorTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.dm.ZeroTarget;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that reads a target's arguments, with the checks of the kernel's constructors in their order:
 * {@code linear_ctr} (dm-linear.c), {@code stripe_ctr} (dm-stripe.c), {@code pool_ctr} and
 * {@code parse_pool_features}, {@code thin_ctr} (dm-thin.c), {@code zero_ctr} (dm-zero.c) and
 * {@code io_err_ctr} (dm-target.c). Used by {@link DmTableParser} and by the snapshot reader.
 *
 * <p>Numbers are read as the kernel's {@code kstrtou*}/{@code sscanf} read canonical decimal numbers: digits
 * only (a {@code +} sign, which the kernel would also take, is refused), at most the model's range
 * ({@link Long#MAX_VALUE}; {@code unsigned int} fields at most 4294967295). Where the kernel ignores
 * arguments ({@code pool_ctr} past its feature words, {@code io_err_ctr} with other than two arguments), so
 * does this reader; the table the kernel prints back has none of them.
 */
public final class DmTargets {

    /** The target types the model has, as {@code dmsetup table} names them. */
    public static final List<String> TYPES = List.of("linear", "striped", "thin-pool", "thin", "zero", "error");

    /** {@code UINT_MAX}: the largest value of a {@code kstrtouint} field. */
    static final long UINT_MAX = 4_294_967_295L;
    /** {@code parse_pool_features}: {@code {0, 4, "Invalid number of pool feature arguments"}}. */
    static final int MAX_POOL_FEATURES = ThinPoolTarget.MAX_FEATURES;

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
        return new Reader(source, line, device, syntax, devices).target();
    }

    /** One line's reading, so that every message can name the line. */
    private static final class Reader {
        private final String source;
        private final DmTableLine l;
        private final Optional<String> device;
        private final DeviceSyntax syntax;
        private final DeviceResolver devices;
        private final List<String> a;

        Reader(String source, DmTableLine l, Optional<String> device, DeviceSyntax syntax, DeviceResolver devices) {
            this.source = source;
            this.l = l;
            this.device = device;
            this.syntax = syntax;
            this.devices = devices;
            this.a = l.args();
        }

        DmTarget target() {
            Sectors start = Sectors.of(l.start());
            Sectors length = Sectors.of(l.length());
            try {
                switch (l.type()) {
                    case "linear":
                        return linear(start, length);
                    case "striped":
                        return striped(start, length);
                    case "thin-pool":
                        return thinPool(start, length);
                    case "thin":
                        return thin(start, length);
                    case "zero":
                        // zero_ctr: "No arguments required"
                        arity(a.isEmpty(), "zero (no arguments)");
                        return new ZeroTarget(start, length);
                    case "error":
                        // io_err_ctr ignores its arguments (or, from 6.10 on, takes two like linear); none print
                        return new ErrorTarget(start, length);
                    default:
                        throw new DmTableException(source, l.number(), l.columns().get(2), "target type "
                                + DmTableException.quote(l.type()) + ofDevice() + " in '" + l.text() + "'",
                                "one of " + String.join(", ", TYPES));
                }
            } catch (DmTableException e) {
                throw e;
            } catch (IllegalArgumentException e) { // a rule the api's target records check as well
                throw new DmTableException(source, l.number(), l.columns().get(2), "a " + l.type()
                        + " target that is not valid (" + e.getMessage() + ") in '" + l.text() + "'",
                        "a target the kernel accepts");
            }
        }

        private String ofDevice() {
            return device.filter(d -> l.dmName().isEmpty()).map(d -> " of device " + DmTableException.quote(d))
                    .orElse("");
        }

        // linear_ctr: "Invalid argument count", "Invalid device sector", dm_get_device
        private DmTarget linear(Sectors start, Sectors length) {
            arity(a.size() == 2, "linear " + dev("major:minor") + " <offset>");
            long offset = number(1, "the offset in sectors");
            String d = device(0);
            endsInRange(offset, 1);
            return new LinearTarget(start, length, d, Sectors.of(offset));
        }

        // stripe_ctr: count and chunk first, then the divisibility of the length, then the destinations
        private DmTarget striped(Sectors start, Sectors length) {
            String usage = "striped <#stripes> <chunk sectors> (" + dev("major:minor") + " <offset>)...";
            arity(a.size() >= 2, usage);
            long stripes = number(0, "the number of stripes");
            if (stripes < 1 || stripes > UINT_MAX) {
                throw invalid(0, "the number of stripes, from 1 to " + UINT_MAX + " (stripe_ctr: Invalid stripe count)");
            }
            long chunk = number(1, "the chunk size in sectors");
            if (chunk < 1 || chunk > UINT_MAX) {
                throw invalid(1, "the chunk size in sectors, from 1 to " + UINT_MAX + " (stripe_ctr: Invalid chunk_size)");
            }
            if (l.length() % stripes != 0) {
                throw notValid("striped target: length (" + l.length()
                        + " sectors) is not divisible by the number of stripes (" + stripes + ")");
            }
            long width = l.length() / stripes;
            if (width % chunk != 0) {
                throw notValid("striped target: stripe width (" + width
                        + " sectors) is not divisible by the chunk size (" + chunk + " sectors)");
            }
            arity(a.size() == 2 + 2 * stripes, usage);
            if (chunk < 8) {
                throw new DmTableException(source, l.number(), l.argColumn(1), "chunk size " + chunk + " sectors in '"
                        + l.text() + "'", "a chunk size of at least 8 sectors: stripe_ctr takes any from 1, but the "
                        + "model's striped target needs a whole page");
            }
            List<StripedTarget.Stripe> list = new ArrayList<>();
            for (int i = 0; i < stripes; i++) {
                String d = device(2 + 2 * i);
                long offset = number(3 + 2 * i, "the stripe's offset in sectors");
                endsInRange(offset, 3 + 2 * i);
                list.add(new StripedTarget.Stripe(d, Sectors.of(offset)));
            }
            return new StripedTarget(start, length, chunk, list);
        }

        // pool_ctr: "Invalid argument count", "Error setting metadata or data device", parse_pool_features,
        // dm_get_device x2, "Invalid block size", "Invalid low water mark"; DM_TARGET_SINGLETON is the table's
        private DmTarget thinPool(Sectors start, Sectors length) {
            String usage = "thin-pool " + dev("metadata major:minor") + " " + dev("data major:minor")
                    + " <block sectors> <low water mark> [<#features> <feature>...]";
            arity(a.size() >= 4, usage);
            if (a.get(0).equals(a.get(1))) {
                throw new DmTableException(source, l.number(), l.argColumn(1), "the same device "
                        + DmTableException.quote(a.get(0)) + " for metadata and data in '" + l.text() + "'",
                        "two different devices (pool_ctr: Error setting metadata or data device)");
            }
            Set<ThinPoolFeature> features = EnumSet.noneOf(ThinPoolFeature.class);
            if (a.size() > 4) {
                long count = number(4, "the number of feature words");
                if (count > MAX_POOL_FEATURES) {
                    throw invalid(4, "the number of feature words, 0 to " + MAX_POOL_FEATURES
                            + " (parse_pool_features: Invalid number of pool feature arguments)");
                }
                arity(a.size() - 5 >= count, usage);
                for (int i = 5; i < 5 + count; i++) {
                    String word = a.get(i).toLowerCase(Locale.ROOT); // strcasecmp
                    try {
                        features.add(ThinPoolFeature.ofWord(word));
                    } catch (IllegalArgumentException e) {
                        throw new DmTableException(source, l.number(), l.argColumn(i), "thin-pool feature "
                                + DmTableException.quote(a.get(i)) + " in '" + l.text() + "'",
                                "one of skip_block_zeroing, ignore_discard, no_discard_passdown, read_only, "
                                        + "error_if_no_space");
                    }
                }
            }
            String meta = device(0);
            String data = device(1);
            long block = number(2, "the block size in sectors");
            if (block < ThinPoolTarget.MIN_BLOCK_SECTORS || block > ThinPoolTarget.MAX_BLOCK_SECTORS
                    || block % ThinPoolTarget.MIN_BLOCK_SECTORS != 0) {
                throw invalid(2, "the block size in sectors, a multiple of " + ThinPoolTarget.MIN_BLOCK_SECTORS
                        + " from " + ThinPoolTarget.MIN_BLOCK_SECTORS + " to " + ThinPoolTarget.MAX_BLOCK_SECTORS
                        + " (pool_ctr: Invalid block size)");
            }
            long lowWater = number(3, "the low water mark in blocks");
            return new ThinPoolTarget(start, length, meta, data, block, lowWater, features);
        }

        // thin_ctr: "Invalid argument count", "Error setting origin device", dm_get_device, read_dev_id
        private DmTarget thin(Sectors start, Sectors length) {
            arity(a.size() == 2 || a.size() == 3, "thin " + dev("pool major:minor") + " <device id> ["
                    + dev("external origin major:minor") + "]");
            Optional<String> origin = Optional.empty();
            if (a.size() == 3) {
                if (a.get(0).equals(a.get(2))) {
                    throw new DmTableException(source, l.number(), l.argColumn(2), "the pool " + DmTableException
                            .quote(a.get(0)) + " as external origin in '" + l.text() + "'",
                            "an origin other than the pool (thin_ctr: Error setting origin device)");
                }
                origin = Optional.of(device(2));
            }
            String pool = device(0);
            long id = number(1, "the thin device id");
            if (id > ThinTarget.MAX_DEVICE_ID) {
                throw invalid(1, "the thin device id, from 0 to " + ThinTarget.MAX_DEVICE_ID
                        + " (thin_ctr: Invalid device id)");
            }
            return new ThinTarget(start, length, pool, id, origin);
        }

        /** {@code <major:minor>}, or {@code <device>} when paths are allowed ({@code <metadata device>}...). */
        private String dev(String placeholder) {
            return "<" + (syntax == DeviceSyntax.MAJOR_MINOR ? placeholder
                    : placeholder.replace("major:minor", "device")) + ">";
        }

        private void arity(boolean ok, String usage) {
            if (!ok) {
                throw new DmTableException(source, l.number(), l.columns().get(2), a.size() + " argument(s) in '"
                        + l.text() + "'", "'" + usage + "'");
            }
        }

        private long number(int i, String what) {
            return DmTableLine.number(source, l.number(), l.argColumn(i), l.text(), a.get(i), what);
        }

        private DmTableException invalid(int i, String expected) {
            return new DmTableException(source, l.number(), l.argColumn(i), DmTableException.quote(a.get(i)) + " in '"
                    + l.text() + "'", expected);
        }

        private DmTableException notValid(String why) {
            return new DmTableException(source, l.number(), l.columns().get(2), "a " + l.type()
                    + " target that is not valid (" + why + ") in '" + l.text() + "'", "a target the kernel accepts");
        }

        // the model adds the length to an offset on the device below
        private void endsInRange(long offset, int i) {
            if (offset > Long.MAX_VALUE - l.length()) {
                throw invalid(i, "an offset that, with the length of " + l.length() + " sectors, ends at most at sector "
                        + Long.MAX_VALUE + " (the model's range)");
            }
        }

        // dm_get_device -> dm_devt_from_path: "%u:%u" is a device number (MKDEV must hold it), anything else a path
        private String device(int i) {
            String token = a.get(i);
            int colon = token.indexOf(':');
            String reference;
            if (colon > 0 && allDigits(token, 0, colon)) {
                String minor = token.substring(colon + 1);
                if (!allDigits(minor, 0, minor.length()) || minor.isEmpty()) {
                    throw new DmTableException(source, l.number(), l.argColumn(i), "device "
                            + DmTableException.quote(token) + " in '" + l.text() + "'", "a device as major:minor");
                }
                long major = small(token.substring(0, colon));
                long min = small(minor);
                if (major > 4095 || min > 0xFFFFF) {
                    throw new DmTableException(source, l.number(), l.argColumn(i), "device "
                            + DmTableException.quote(token) + " in '" + l.text() + "'", "a device as major:minor, "
                            + "major at most 4095 and minor at most 1048575 (MKDEV)");
                }
                reference = major + ":" + min;
            } else if (syntax == DeviceSyntax.MAJOR_MINOR) {
                throw new DmTableException(source, l.number(), l.argColumn(i), "device " + DmTableException.quote(token)
                        + " in '" + l.text() + "'", "a device as major:minor");
            } else {
                reference = token;
            }
            Optional<String> name = devices.resolve(reference);
            if (name.isEmpty()) {
                throw new DmTableException(source, l.number(), l.argColumn(i), "device " + reference + ", "
                        + devices.unknownFound() + ", in '" + l.text() + "'", devices.unknownExpected());
            }
            return name.get();
        }

        private static boolean allDigits(String s, int from, int to) {
            for (int i = from; i < to; i++) {
                if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                    return false;
                }
            }
            return true;
        }

        /** A decimal number, saturated above 2^31 (only compared against small limits). */
        private static long small(String digits) {
            long v = 0;
            for (int i = 0; i < digits.length(); i++) {
                v = Math.min(v * 10 + (digits.charAt(i) - '0'), 1L << 31);
            }
            return v;
        }
    }
}
