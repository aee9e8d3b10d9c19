package dev.dmmodel.units;

import java.util.Locale;

/**
 * Units a size may be written in. Binary units are powers of 1024, decimal units powers of 1000.
 *
 * <p>Suffix rules ({@link Bytes#parse(String)}): {@code s} sectors, {@code b}/{@code B} bytes,
 * {@code k m g t p e} in either case are binary (as {@code lvcreate -L} reads them,
 * {@code tools/lvmcmdline.c:_size_arg}), {@code KiB MiB ...} binary, {@code kB KB MB GB ...} decimal.
 */
public enum SizeUnit {
    /** Bytes. */
    BYTES(1),
    /** 512-byte sectors. */
    SECTORS(512),
    /** 1024 bytes. */
    KIB(1L << 10),
    /** 1024² bytes. */
    MIB(1L << 20),
    /** 1024³ bytes. */
    GIB(1L << 30),
    /** 1024⁴ bytes. */
    TIB(1L << 40),
    /** 1024⁵ bytes. */
    PIB(1L << 50),
    /** 1024⁶ bytes. */
    EIB(1L << 60),
    /** 1000 bytes. */
    KB(1000L),
    /** 1000² bytes. */
    MB(1000_000L),
    /** 1000³ bytes. */
    GB(1000_000_000L),
    /** 1000⁴ bytes. */
    TB(1000_000_000_000L),
    /** 1000⁵ bytes. */
    PB(1000_000_000_000_000L),
    /** 1000⁶ bytes. */
    EB(1000_000_000_000_000_000L);

    private final long bytes;

    SizeUnit(long bytes) {
        this.bytes = bytes;
    }

    /** Bytes in one of this unit. */
    public long bytes() {
        return bytes;
    }

    /**
     * The unit a suffix names, or null if the suffix is not a size unit. An empty suffix is not
     * handled here.
     */
    static SizeUnit ofSuffix(String suffix) {
        switch (suffix) {
            case "s": case "S": return SECTORS;
            case "b": case "B": return BYTES;
            default: break;
        }
        String lower = suffix.toLowerCase(Locale.ROOT);
        if (suffix.length() == 1) {
            // lvcreate style: k m g t p e are 1024-based whatever the case
            return binary(lower.charAt(0));
        }
        if (lower.length() == 3 && lower.charAt(1) == 'i' && lower.charAt(2) == 'b') {
            return binary(lower.charAt(0));
        }
        if (lower.length() == 2 && lower.charAt(1) == 'b') {
            return decimal(lower.charAt(0));
        }
        return null;
    }

    private static SizeUnit binary(char c) {
        switch (c) {
            case 'k': return KIB;
            case 'm': return MIB;
            case 'g': return GIB;
            case 't': return TIB;
            case 'p': return PIB;
            case 'e': return EIB;
            default: return null;
        }
    }

    private static SizeUnit decimal(char c) {
        switch (c) {
            case 'k': return KB;
            case 'm': return MB;
            case 'g': return GB;
            case 't': return TB;
            case 'p': return PB;
            case 'e': return EB;
            default: return null;
        }
    }
}
