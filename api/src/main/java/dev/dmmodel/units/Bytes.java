package dev.dmmodel.units;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * An exact, non-negative number of bytes.
 *
 * @param count the number of bytes, never negative
 */
public record Bytes(long count) implements Comparable<Bytes> {

    /** Zero bytes. */
    public static final Bytes ZERO = new Bytes(0);

    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** Rejects negative counts. */
    public Bytes {
        if (count < 0) {
            throw new SizeException("byte count (" + count + ") must not be negative");
        }
    }

    /** Returns {@code count} bytes. */
    public static Bytes of(long count) {
        return count == 0 ? ZERO : new Bytes(count);
    }

    /** {@code n} KiB. */
    public static Bytes kib(long n) {
        return of(Math2.multiply(n, SizeUnit.KIB.bytes(), "KiB to bytes"));
    }

    /** {@code n} MiB. */
    public static Bytes mib(long n) {
        return of(Math2.multiply(n, SizeUnit.MIB.bytes(), "MiB to bytes"));
    }

    /** {@code n} GiB. */
    public static Bytes gib(long n) {
        return of(Math2.multiply(n, SizeUnit.GIB.bytes(), "GiB to bytes"));
    }

    /** {@code n} TiB. */
    public static Bytes tib(long n) {
        return of(Math2.multiply(n, SizeUnit.TIB.bytes(), "TiB to bytes"));
    }

    /**
     * Parses a size as users write it; a bare number is bytes.
     *
     * <p>Accepted: {@code 512}, {@code 2048s} (sectors), {@code 4KiB}, {@code 1MiB}, {@code 100G} or
     * {@code 100g} (1024-based, as lvcreate reads them), {@code 1GB} or {@code 1kB} (1000-based),
     * {@code 1.5g}. The result must be a whole number of bytes.
     *
     * @throws SizeException naming the text when it is empty, negative, fractional in bytes,
     *     has an unknown suffix or does not fit in a long
     */
    public static Bytes parse(String text) {
        return parse(text, SizeUnit.BYTES);
    }

    /**
     * Parses a size whose bare numbers are in {@code bareUnit} (LVM: KiB for {@code --dataalignment},
     * MiB for {@code -L}).
     */
    public static Bytes parse(String text, SizeUnit bareUnit) {
        if (text == null) {
            throw new SizeException("size text must not be null");
        }
        String t = text.strip();
        int i = 0;
        if (i < t.length() && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
            i++;
        }
        while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) {
            i++;
        }
        String number = t.substring(0, i);
        String suffix = t.substring(i).strip();
        if (number.isEmpty() || number.equals("+") || number.equals("-") || number.equals(".")) {
            throw new SizeException("'" + text + "' is not a size: expected a number with an optional unit");
        }
        if (number.startsWith("-")) {
            throw new SizeException("size '" + text + "' must not be negative");
        }
        SizeUnit unit = suffix.isEmpty() ? bareUnit : SizeUnit.ofSuffix(suffix);
        if (unit == null) {
            throw new SizeException("size '" + text + "' has an unknown unit '" + suffix
                    + "' (expected s, b, k/m/g/t/p/e, KiB..EiB or kB..EB)");
        }
        BigDecimal value;
        try {
            value = new BigDecimal(number).multiply(BigDecimal.valueOf(unit.bytes()));
        } catch (NumberFormatException e) {
            throw new SizeException("'" + text + "' is not a size: bad number '" + number + "'");
        }
        BigInteger exact;
        try {
            exact = value.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw new SizeException("size '" + text + "' is not a whole number of bytes");
        }
        if (exact.compareTo(LONG_MAX) > 0) {
            throw new SizeException("size '" + text + "' is too large (more than " + Long.MAX_VALUE + " bytes)");
        }
        return of(exact.longValueExact());
    }

    /**
     * The size in sectors.
     *
     * @throws SizeException if this is not a whole number of sectors
     */
    public Sectors toSectors() {
        return Sectors.ofBytes(count);
    }

    /** Whether this is a whole number of 512-byte sectors. */
    public boolean isWholeSectors() {
        return count % Sectors.SECTOR_SIZE == 0;
    }

    /** Exact sum. */
    public Bytes plus(Bytes other) {
        return of(Math2.add(count, other.count, "byte sum"));
    }

    /** Exact product. */
    public Bytes times(long factor) {
        return of(Math2.multiply(count, factor, "byte product"));
    }

    @Override
    public int compareTo(Bytes o) {
        return Long.compare(count, o.count);
    }

    /** A short human form: the largest binary unit that divides the size exactly, else bytes. */
    @Override
    public String toString() {
        return Sizes.format(count);
    }
}
