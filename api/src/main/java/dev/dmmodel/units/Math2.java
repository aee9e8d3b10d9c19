package dev.dmmodel.units;

/** Exact arithmetic that reports overflow as a {@link SizeException} naming the operation. */
final class Math2 {
    private Math2() {
    }

    static long add(long a, long b, String what) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw new SizeException(what + " overflows: " + a + " + " + b);
        }
        return r;
    }

    static long multiply(long a, long b, String what) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if ((hi != 0 || lo < 0) && (hi != -1 || lo >= 0)) {
            throw new SizeException(what + " overflows: " + a + " * " + b);
        }
        return lo;
    }
}
