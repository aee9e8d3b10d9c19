package dev.dmmodel.impl.lvm;

import dev.dmmodel.units.Bytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How LVM's command line reads a size option ({@code -L}, {@code -V}, {@code -s}, {@code -c},
 * {@code --dataalignment}, ...): a decimal number, possibly with a fraction ({@code 1.5g}), and one unit
 * letter of {@code b s k m g t p e} in either case, all binary ({@code k} = KiB); a bare number takes the
 * option's default unit. The size must come out a whole number of 512-byte sectors.
 */
public final class LvmSizeArg {

    private static final Pattern SIZE = Pattern.compile("(\\d{1,40})(?:\\.(\\d{1,40}))?([bBsSkKmMgGtTpPeE]?)");
    /** Sizes are kept below 2^62 bytes, as every size the model holds. */
    private static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(62);

    private LvmSizeArg() {
    }

    /**
     * The exact size, or the reason LVM's reading refuses it (to be worded with the option by the caller).
     *
     * @param text the argument as written
     * @param defaultUnit the unit of a bare number: {@code 'm'} for most options, {@code 'k'} for chunk and
     *     stripe sizes
     */
    // tools/lvmcmdline.c: _size_arg (strtod, then the unit's factor; 'b' bytes, 's' sectors)
    public static Sized read(String text, char defaultUnit) {
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            return new Sized(Optional.empty(), "a size: a number (a fraction allowed) and one of b s k m g t p e"
                    + " (a bare number is " + (defaultUnit == 'k' ? "KiB" : "MiB") + ")");
        }
        char unit = m.group(3).isEmpty() ? defaultUnit : Character.toLowerCase(m.group(3).charAt(0));
        BigInteger factor = switch (unit) {
            case 'b' -> BigInteger.ONE;
            case 's' -> BigInteger.valueOf(512);
            default -> BigInteger.valueOf(1024).pow("kmgtpe".indexOf(unit) + 1);
        };
        BigDecimal number = new BigDecimal(m.group(1) + (m.group(2) == null ? "" : "." + m.group(2)));
        BigDecimal bytes = number.multiply(new BigDecimal(factor));
        BigInteger whole;
        try {
            whole = bytes.toBigIntegerExact();
        } catch (ArithmeticException fraction) {
            return new Sized(Optional.empty(), "a whole number of bytes (" + text + " is " + bytes.toPlainString()
                    + " bytes)");
        }
        if (whole.compareTo(LIMIT) >= 0) {
            return new Sized(Optional.empty(), "a size below 2^62 bytes");
        }
        if (whole.mod(BigInteger.valueOf(512)).signum() != 0) {
            return new Sized(Optional.empty(), "a whole number of 512-byte sectors (" + text + " is "
                    + whole + " bytes)");
        }
        return new Sized(Optional.of(Bytes.of(whole.longValueExact())), "");
    }

    /**
     * A size as read.
     *
     * @param size the size, if it could be read
     * @param expected what was expected instead, when it could not
     */
    public record Sized(Optional<Bytes> size, String expected) {
    }
}
