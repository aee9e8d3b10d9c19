package dev.dmmodel.impl.block;

/** The kernel's little arithmetic helpers, exact on {@code long}. */
public final class KernelMath {
    private KernelMath() {
    }

    /** {@code min_not_zero(a, b)}: the smaller, ignoring a zero ("unset") side. */
    public static long minNotZero(long a, long b) {
        if (a == 0) {
            return b;
        }
        if (b == 0) {
            return a;
        }
        return Math.min(a, b);
    }

    /** {@code gcd(a, b)}, with {@code gcd(0, x) = x}. */
    public static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** {@code lcm_not_zero(a, b)}: the other value when one is zero. */
    public static long lcmNotZero(long a, long b) {
        if (a == 0) {
            return b;
        }
        if (b == 0) {
            return a;
        }
        return Math.multiplyExact(a / gcd(a, b), b);
    }

    /** {@code round_down(v, m)} for any positive m. */
    public static long roundDown(long v, long m) {
        return v - v % m;
    }

    /** {@code roundup(v, m)} for any positive m. */
    public static long roundUp(long v, long m) {
        long r = v % m;
        return r == 0 ? v : Math.addExact(v - r, m);
    }

    /** {@code rounddown_pow_of_two(v)} for v &gt; 0. */
    public static long roundDownPowerOfTwo(long v) {
        return Long.highestOneBit(v);
    }

    /** Whether v is a power of two. */
    public static boolean isPowerOfTwo(long v) {
        return v > 0 && (v & (v - 1)) == 0;
    }
}
