package dev.dmmodel.impl.lvm;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Sizes as LVM prints them in its messages: the largest binary unit not above the size, two decimals,
 * and a leading {@code <} when rounding to two decimals went up ({@code 64.00 KiB}, {@code <15.88 GiB}).
 */
public final class DisplaySize {

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private DisplaySize() {
    }

    /** A size given in 512-byte sectors. */
    public static String sectors(long sectors) {
        return sectors(BigInteger.valueOf(sectors));
    }

    /** A size given in 512-byte sectors, possibly beyond a long once in bytes. */
    static String sectors(BigInteger sectors) {
        return bytes(sectors.shiftLeft(9));
    }

    /** A size given in bytes. */
    // lib/display/display.c: display_size (libdm dm_size_to_string, units "r")
    static String bytes(BigInteger bytes) {
        if (bytes.signum() == 0) {
            return "0 ";
        }
        int unit = 0;
        while (unit < UNITS.length - 1 && bytes.compareTo(BigInteger.ONE.shiftLeft(10 * (unit + 1))) >= 0) {
            unit++;
        }
        // the divisor is a power of two, so the quotient is an exact finite decimal
        BigDecimal exact = new BigDecimal(bytes).divide(new BigDecimal(BigInteger.ONE.shiftLeft(10 * unit)));
        BigDecimal shown = exact.setScale(2, RoundingMode.HALF_EVEN);
        String marker = shown.compareTo(exact) > 0 ? "<" : "";
        return marker + shown.toPlainString() + " " + UNITS[unit];
    }
}
