package dev.dmmodel.impl.lvm.report;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * A size field (SIZ) of an LVM report as printed by {@code libdm/libdm-string.c: dm_size_to_string}: {@code "2048S"}
 * ({@code --units s}), {@code "1048576B"} ({@code --units b}), {@code "0 "} (zero in human units), or a human
 * or explicit unit with two decimals ({@code "4.00m"}, {@code "<10.00g"}, {@code "10.74G"}).
 *
 * <p>A value in sectors or bytes is exact. A value with two decimals was rounded, so it is turned into sectors
 * only when the field's context leaves a single candidate: exactly one sector count that the field may take
 * (a power of two for an extent or stripe size, a multiple of 128 sectors for a thin-pool chunk) lies in the
 * interval the printed value may stand for (&plusmn;0.005 of the unit; with the {@code <} marker of
 * {@code --units r}, below the printed value). Otherwise the caller reports that the field needs
 * {@code --units s}; a rounded value is never guessed.
 */
final class ReportSize {

    /** What sector counts a field may take, to resolve a rounded value. */
    enum Context {
        /** Any count: a rounded value is never accepted (dev_size, pe_start...). */
        ANY(v -> true),
        /** A power of two sectors ({@code vg_extent_size}, {@code stripe_size}). */
        POWER_OF_TWO(v -> v > 0 && Long.bitCount(v) == 1),
        /** A multiple of 128 sectors, 64 KiB ({@code chunk_size} of a thin pool: lib/thin/thin.c). */
        CHUNK(v -> v > 0 && v % 128 == 0);

        private final LongPredicate allowed;

        Context(LongPredicate allowed) {
            this.allowed = allowed;
        }
    }

    /** Why a size text was refused: the caller adds the field and the location. */
    static final class BadSize extends Exception {
        private static final long serialVersionUID = 1L;

        BadSize(String message) {
            super(message, null, false, false);
        }
    }

    private static final String UNITS = "kmgtpeKMGTPE";
    private static final java.util.regex.Pattern WHOLE = java.util.regex.Pattern.compile("[0-9]{1,19}");
    private static final java.util.regex.Pattern DECIMALS = java.util.regex.Pattern.compile("[0-9]{1,19}(\\.[0-9]{1,2})?");
    private static final java.util.regex.Pattern BARE = java.util.regex.Pattern.compile("[0-9]+(\\.[0-9]+)?");
    private static final BigDecimal HALF_HUNDREDTH = new BigDecimal("0.005");
    private static final BigInteger SECTOR = BigInteger.valueOf(512);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private ReportSize() {
    }

    /**
     * The size in sectors, or empty for an undefined field ({@code ""}).
     *
     * @throws BadSize with a message saying what was found and what is expected
     */
    static Optional<Long> sectors(String text, Context context) throws BadSize {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        // libdm-string.c: dm_size_to_string prints zero as "0" and, in human units, a space for the suffix
        if (text.equals("0 ") || text.equals("0")) {
            return Optional.of(0L);
        }
        char suffix = text.charAt(text.length() - 1);
        String number = text.substring(0, text.length() - 1);
        if (suffix == 'S' || suffix == 'B') {
            if (!WHOLE.matcher(number).matches()) {
                throw new BadSize("expected a whole number before '" + suffix + "'");
            }
            BigInteger n = new BigInteger(number);
            if (suffix == 'B') {
                if (n.mod(SECTOR).signum() != 0) {
                    throw new BadSize("expected a whole number of 512-byte sectors, found " + n + " bytes");
                }
                n = n.divide(SECTOR);
            }
            if (n.compareTo(LONG_MAX) > 0) {
                throw new BadSize("the size exceeds " + Long.MAX_VALUE + " sectors");
            }
            return Optional.of(n.longValueExact());
        }
        int unit = UNITS.indexOf(suffix);
        boolean roundedUp = number.startsWith("<");
        if (roundedUp) {
            number = number.substring(1);
        }
        if (unit < 0 || !DECIMALS.matcher(number).matches()) {
            if (BARE.matcher(text).matches()) {
                throw new BadSize("a size without a unit (--nosuffix) cannot be read; re-run without --nosuffix and "
                        + "with --units s");
            }
            throw new BadSize("expected a size such as \"2048S\" (--units s), \"1048576B\" or \"4.00m\"");
        }
        // libdm-string.c: dm_units_to_factor: lower case powers of 1024, upper case powers of 1000
        int power = unit % 6 + 1;
        BigInteger base = BigInteger.valueOf(unit < 6 ? 1024 : 1000).pow(power);
        BigDecimal printed = new BigDecimal(number);
        BigDecimal bytesPerUnit = new BigDecimal(base);
        BigDecimal sectorsPerUnit = bytesPerUnit.divide(new BigDecimal(SECTOR));
        BigDecimal low = printed.subtract(HALF_HUNDREDTH).max(BigDecimal.ZERO).multiply(sectorsPerUnit);
        BigDecimal high = (roundedUp ? printed : printed.add(HALF_HUNDREDTH)).multiply(sectorsPerUnit);
        // the candidates: whole sector counts in [low, high] (high excluded with '<': the value was rounded up)
        BigInteger first = low.setScale(0, java.math.RoundingMode.CEILING).toBigInteger();
        BigInteger last = high.setScale(0, java.math.RoundingMode.FLOOR).toBigInteger();
        if (roundedUp && new BigDecimal(last).compareTo(high) == 0) {
            last = last.subtract(BigInteger.ONE);
        }
        if (first.compareTo(LONG_MAX) > 0) {
            throw new BadSize("the size exceeds " + Long.MAX_VALUE + " sectors");
        }
        if (last.compareTo(LONG_MAX) > 0) {
            last = LONG_MAX;
        }
        long found = -1;
        if (context != Context.ANY) {
            for (int shift = 0; shift < 63; shift++) {
                // powers of two are few; a multiple of 128 is checked around them and at the interval's ends
                long p = 1L << shift;
                if (context == Context.POWER_OF_TWO) {
                    if (BigInteger.valueOf(p).compareTo(first) >= 0 && BigInteger.valueOf(p).compareTo(last) <= 0) {
                        if (found >= 0) {
                            found = -2;
                            break;
                        }
                        found = p;
                    }
                }
            }
            if (context == Context.CHUNK) {
                BigInteger q = BigInteger.valueOf(128);
                BigInteger lo = first.add(q).subtract(BigInteger.ONE).divide(q).multiply(q);
                if (lo.compareTo(last) <= 0) {
                    found = lo.add(q).compareTo(last) <= 0 ? -2 : lo.longValueExact();
                }
            }
        }
        if (found >= 0 && context.allowed.test(found)) {
            return Optional.of(found);
        }
        throw new BadSize("\"" + text + "\" is rounded to two decimals and does not name one exact size; re-run with "
                + "--units s");
    }
}
