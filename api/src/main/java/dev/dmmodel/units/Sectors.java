package dev.dmmodel.units;

/**
 * A count of 512-byte sectors, the unit in which the kernel addresses every block device whatever
 * its logical block size ({@code SECTOR_SHIFT = 9}).
 *
 * <p>Arithmetic is exact: an overflow throws a {@link SizeException} naming the operands; it never
 * wraps.
 *
 * @param count the number of sectors, never negative
 */
public record Sectors(long count) implements Comparable<Sectors> {

    /** Bytes per sector. */
    public static final long SECTOR_SIZE = 512;

    /** Zero sectors. */
    public static final Sectors ZERO = new Sectors(0);

    /** Rejects negative counts. */
    public Sectors {
        if (count < 0) {
            throw new SizeException("sector count (" + count + ") must not be negative");
        }
    }

    /** Returns {@code count} sectors. */
    public static Sectors of(long count) {
        return count == 0 ? ZERO : new Sectors(count);
    }

    /**
     * Converts a byte count that must be a whole number of sectors.
     *
     * @throws SizeException if {@code bytes} is not a multiple of 512
     */
    public static Sectors ofBytes(long bytes) {
        if (bytes < 0) {
            throw new SizeException("byte count (" + bytes + ") must not be negative");
        }
        if (bytes % SECTOR_SIZE != 0) {
            throw new SizeException(bytes + " bytes is not a whole number of 512-byte sectors");
        }
        return of(bytes / SECTOR_SIZE);
    }

    /**
     * Parses a size as users write it and converts it to sectors. A bare number is a sector count;
     * otherwise see {@link Bytes#parse(String)}. The size must be a whole number of sectors.
     */
    public static Sectors parse(String text) {
        return Bytes.parse(text, SizeUnit.SECTORS).toSectors();
    }

    /** The size in bytes. */
    public Bytes toBytes() {
        return Bytes.of(Math2.multiply(count, SECTOR_SIZE, "sectors to bytes"));
    }

    /** Exact sum. */
    public Sectors plus(Sectors other) {
        return of(Math2.add(count, other.count, "sector sum"));
    }

    /** Exact sum. */
    public Sectors plus(long sectors) {
        return of(Math2.add(count, sectors, "sector sum"));
    }

    /** Exact difference; it must not be negative. */
    public Sectors minus(Sectors other) {
        if (other.count > count) {
            throw new SizeException(count + " - " + other.count + " sectors would be negative");
        }
        return of(count - other.count);
    }

    /** Exact product. */
    public Sectors times(long factor) {
        return of(Math2.multiply(count, factor, "sector product"));
    }

    /** Whether this count is a multiple of {@code other} (false when other is zero). */
    public boolean isMultipleOf(long other) {
        return other != 0 && count % other == 0;
    }

    @Override
    public int compareTo(Sectors o) {
        return Long.compare(count, o.count);
    }

    @Override
    public String toString() {
        return count + "s";
    }
}
