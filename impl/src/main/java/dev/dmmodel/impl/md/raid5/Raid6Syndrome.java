package dev.dmmodel.impl.md.raid5;

/**
 * raid6's Q arithmetic on 8 bytes at once ({@code lib/raid6}): GF(2^8) with the polynomial x^8+x^4+x^3+x^2+1
 * (0x11d) and generator 2, each byte of a {@code long} a field element of its own.
 */
final class Raid6Syndrome {
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LOW_BITS = 0xfefefefefefefefeL;

    private Raid6Syndrome() {
    }

    // lib/raid6/int.uc: SHLBYTE and MASK — every byte times 2: shift left within the byte, and where the top bit
    // fell out, add the reduction 0x1d
    static long times2(long bytes) {
        long carry = (bytes & HIGH_BITS) >>> 7;
        return ((bytes << 1) & LOW_BITS) ^ (carry * 0x1d);
    }

    /** Every byte times g^power. */
    static long timesPowerOf2(long bytes, int power) {
        long v = bytes;
        for (int i = 0; i < power; i++) {
            v = times2(v);
        }
        return v;
    }

    // lib/raid6/int.uc: raid6_int_gen_syndrome — Horner's rule from the highest slot down: q = q*2 ^ D[slot]
    static long q(long[] bySlot) {
        long q = 0;
        for (int slot = bySlot.length - 1; slot >= 0; slot--) {
            q = times2(q) ^ bySlot[slot];
        }
        return q;
    }
}
