package dev.dmmodel.impl.dm.table;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;

/**
 * One table line's arguments as a target's constructor reads them, with the checks every constructor shares
 * and messages that name the source, line and column: the argument count, numbers ({@code kstrtou*}),
 * devices ({@code dm_get_device}), and the target's length. Each target type's {@code construct}
 * ({@link dev.dmmodel.impl.dm.TargetType}) reads its own arguments through this.
 */
public final class TargetArgs {
    /** {@code UINT_MAX}: the largest value of a {@code kstrtouint} field. */
    public static final long UINT_MAX = 4_294_967_295L;

    private final String source;
    private final DmTableLine l;
    private final Optional<String> device;
    private final DmTargets.DeviceSyntax syntax;
    private final DmTargets.DeviceResolver devices;
    private final List<String> a;

    TargetArgs(String source, DmTableLine l, Optional<String> device, DmTargets.DeviceSyntax syntax,
               DmTargets.DeviceResolver devices) {
        this.source = source;
        this.l = l;
        this.device = device;
        this.syntax = syntax;
        this.devices = devices;
        this.a = l.args();
    }

    /** The target's first sector in the table. */
    public Sectors start() {
        return Sectors.of(l.start());
    }

    /** The target's length in sectors. */
    public Sectors length() {
        return Sectors.of(l.length());
    }

    /** The arguments after the target type. */
    public List<String> args() {
        return a;
    }

    /** Argument {@code i} as written. */
    public String arg(int i) {
        return a.get(i);
    }

    /** The number of arguments. */
    public int count() {
        return a.size();
    }

    /** The line as written, for messages. */
    public String lineText() {
        return l.text();
    }

    /** An error at argument {@code i} with its own found and expected texts. */
    public DmTableException at(int i, String found, String expected) {
        return new DmTableException(source, l.number(), l.argColumn(i), found + " in '" + l.text() + "'", expected);
    }

    /** " of device X" when the line does not name its device itself. */
    String ofDevice() {
        return device.filter(d -> l.dmName().isEmpty()).map(d -> " of device " + DmTableException.quote(d)).orElse("");
    }

    /** {@code <major:minor>}, or {@code <device>} when paths are allowed ({@code <metadata device>}...). */
    public String dev(String placeholder) {
        return "<" + (syntax == DmTargets.DeviceSyntax.MAJOR_MINOR ? placeholder
                : placeholder.replace("major:minor", "device")) + ">";
    }

    /** Refuses a wrong argument count, showing the usage ({@code "Invalid argument count"}). */
    public void arity(boolean ok, String usage) {
        if (!ok) {
            throw new DmTableException(source, l.number(), l.columns().get(2), a.size() + " argument(s) in '"
                    + l.text() + "'", "'" + usage + "'");
        }
    }

    /** Argument {@code i} as a canonical decimal number. */
    public long number(int i, String what) {
        return DmTableLine.number(source, l.number(), l.argColumn(i), l.text(), a.get(i), what);
    }

    /** An error at argument {@code i}: its value, and what the constructor accepts there. */
    public DmTableException invalid(int i, String expected) {
        return new DmTableException(source, l.number(), l.argColumn(i), DmTableException.quote(a.get(i)) + " in '"
                + l.text() + "'", expected);
    }

    /** An error for the target as a whole (its type column). */
    public DmTableException notValid(String why) {
        return new DmTableException(source, l.number(), l.columns().get(2), "a " + l.type()
                + " target that is not valid (" + why + ") in '" + l.text() + "'", "a target the kernel accepts");
    }

    /** An offset on the device below that, with the target's length, stays in the model's range. */
    // the model adds the length to an offset on the device below
    public void endsInRange(long offset, int i) {
        if (offset > Long.MAX_VALUE - l.length()) {
            throw invalid(i, "an offset that, with the length of " + l.length() + " sectors, ends at most at sector "
                    + Long.MAX_VALUE + " (the model's range)");
        }
    }

    /** The target type as the line writes it. */
    public String type() {
        return l.type();
    }

    /**
     * Argument {@code i} as a device if it is written {@code major:minor} and names a device known here, resolved
     * as {@link #device(int)} resolves it; empty otherwise (for targets whose arguments are not known).
     */
    public Optional<String> deviceIfKnown(int i) {
        String token = a.get(i);
        int colon = token.indexOf(':');
        if (colon <= 0 || colon == token.length() - 1 || !allDigits(token, 0, colon)
                || !allDigits(token, colon + 1, token.length()) || token.length() > 16) {
            return Optional.empty();
        }
        long major = small(token.substring(0, colon));
        long minor = small(token.substring(colon + 1));
        if (!fitsMkdev(major, minor)) {
            return Optional.empty();
        }
        return devices.resolve(major + ":" + minor);
    }

    // dm_get_device -> dm_devt_from_path: "%u:%u" is a device number (MKDEV must hold it), anything else a path
    /** Argument {@code i} as a device, resolved to the name the table holds. */
    public String device(int i) {
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
            if (!fitsMkdev(major, min)) {
                throw new DmTableException(source, l.number(), l.argColumn(i), "device "
                        + DmTableException.quote(token) + " in '" + l.text() + "'", "a device as major:minor, "
                        + "major at most 4095 and minor at most 1048575 (MKDEV)");
            }
            reference = major + ":" + min;
        } else if (syntax == DmTargets.DeviceSyntax.MAJOR_MINOR) {
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

    // include/linux/kdev_t.h: MKDEV — a 12-bit major and a 20-bit minor (MINORBITS)
    private static boolean fitsMkdev(long major, long minor) {
        return major <= 4095 && minor <= 0xFFFFF;
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
