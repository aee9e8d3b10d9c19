package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.tools.Getopt.Opt;
import dev.dmmodel.workload.Command;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** util-linux {@code blkdiscard}, with util-linux's size parser ({@code strtosize}). */
final class BlkdiscardTool {

    private BlkdiscardTool() {
    }

    // --- blkdiscard --------------------------------------------------------------------------------

    static Command blkdiscard(List<String> args, ParseContext ctx) {
        Getopt g = Getopt.parse("blkdiscard", args, "hfsvqzo:l:p:",
                Map.of("offset", "o", "length", "l", "step", "p", "secure", "s", "zeroout", "z", "force", "f",
                        "verbose", "v", "quiet", "q", "help", "h"), ctx);
        long offset = 0;
        OptionalLong length = OptionalLong.empty();
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "o": {
                    BigInteger v = utilLinuxSize(o.arg(), "failed to parse offset", ctx);
                    if (v.bitLength() > 63) {
                        throw ctx.fail("blkdiscard: offset is greater than device size");
                    }
                    offset = v.longValueExact();
                    break;
                }
                case "l": {
                    BigInteger v = utilLinuxSize(o.arg(), "failed to parse length", ctx);
                    // beyond 2^63-1 the range reaches past the end of any device: "to the end"
                    length = v.bitLength() > 63 ? OptionalLong.empty() : OptionalLong.of(v.longValueExact());
                    break;
                }
                case "p": throw ctx.fail("blkdiscard -p/--step is not modelled");
                case "s": throw ctx.fail("blkdiscard -s/--secure is not modelled");
                case "z": throw ctx.fail("blkdiscard -z/--zeroout is not modelled");
                case "h": throw ctx.fail("blkdiscard --help prints help: nothing to model");
                default: break;
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("blkdiscard: no device specified");
        }
        if (g.operands().size() > 1) {
            throw ctx.fail("blkdiscard: unexpected number of arguments");
        }
        return new Command.Blkdiscard(ctx.line(), offset, length, g.operands().get(0));
    }

    static final BigInteger UINTMAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /**
     * util-linux parse_size() (strtosize_or_err): a number (C base 0: {@code 0x} hex, leading {@code 0}
     * octal) with an optional fraction and suffix K M G T P E Z Y (either case; {@code XiB} or bare = 1024^N,
     * {@code XB} = 1000^N).
     */
    static BigInteger utilLinuxSize(String str, String what, ParseContext ctx) {
        String invalid = "blkdiscard: " + what + ": '" + str + "': Invalid argument";
        String range = "blkdiscard: " + what + ": '" + str + "': Numerical result out of range";
        int p = 0;
        while (p < str.length() && Character.isWhitespace(str.charAt(p))) {
            p++;
        }
        if (str.isEmpty() || (p < str.length() && str.charAt(p) == '-')) {
            throw ctx.fail(invalid);
        }
        if (p < str.length() && str.charAt(p) == '+') {
            p++;
        }
        int base = 10;
        int digits = p;
        if (str.startsWith("0x", p) || str.startsWith("0X", p)) {
            if (p + 2 < str.length() && Character.digit(str.charAt(p + 2), 16) >= 0) {
                base = 16;
                digits = p + 2;
            }
        } else if (str.startsWith("0", p)) {
            base = 8;
        }
        int q = digits;
        BigInteger x = BigInteger.ZERO;
        while (q < str.length() && Character.digit(str.charAt(q), base) >= 0) {
            x = x.multiply(BigInteger.valueOf(base)).add(BigInteger.valueOf(Character.digit(str.charAt(q), base)));
            q++;
        }
        if (q == digits) {
            throw ctx.fail(invalid);
        }
        if (x.compareTo(UINTMAX) > 0) {
            throw ctx.fail(range);
        }
        if (q == str.length()) {
            return x;
        }
        // fraction (decimal point of the C locale)
        String frac = "";
        if (str.charAt(q) == '.') {
            int f = q + 1;
            while (f < str.length() && Character.isDigit(str.charAt(f))) {
                f++;
            }
            frac = str.substring(q + 1, f);
            q = f;
            if (q == str.length()) {
                if (frac.chars().anyMatch(c -> c != '0')) {
                    throw ctx.fail(invalid); // a fraction without a suffix
                }
                return x;
            }
        }
        String suffix = str.substring(q);
        int unitBase;
        if (suffix.length() == 3 && suffix.charAt(1) == 'i' && (suffix.charAt(2) == 'B' || suffix.charAt(2) == 'b')) {
            unitBase = 1024;
        } else if (suffix.length() == 2 && (suffix.charAt(1) == 'B' || suffix.charAt(1) == 'b')) {
            unitBase = 1000;
        } else if (suffix.length() == 1) {
            unitBase = 1024;
        } else {
            throw ctx.fail(invalid);
        }
        int power = "KMGTPEZY".indexOf(Character.toUpperCase(suffix.charAt(0))) + 1;
        if (power == 0 || (Character.isLowerCase(suffix.charAt(0)) && "zy".indexOf(suffix.charAt(0)) >= 0)) {
            throw ctx.fail(invalid);
        }
        BigInteger unit = BigInteger.valueOf(unitBase).pow(power);
        BigInteger value = x.multiply(unit);
        if (value.compareTo(UINTMAX) > 0) {
            throw ctx.fail(range);
        }
        if (!frac.isEmpty() && frac.chars().anyMatch(c -> c != '0')) {
            // parse_size adds frac_base / (seg_div / seg) digit by digit (integer divisions)
            String digitsOnly = frac.replaceFirst("0+$", "");
            int zeros = 0;
            while (zeros < digitsOnly.length() && digitsOnly.charAt(zeros) == '0') {
                zeros++;
            }
            BigInteger fracNum = new BigInteger(digitsOnly.substring(zeros));
            BigInteger fracDiv = BigInteger.TEN;
            while (fracDiv.compareTo(fracNum) < 0) {
                fracDiv = fracDiv.multiply(BigInteger.TEN);
            }
            fracDiv = fracDiv.multiply(BigInteger.TEN.pow(zeros));
            BigInteger poz = BigInteger.ONE;
            BigInteger rest = fracNum;
            do {
                BigInteger[] qr = rest.divideAndRemainder(BigInteger.TEN);
                int seg = qr[1].intValue();
                BigInteger segDiv = fracDiv.divide(poz);
                rest = qr[0];
                poz = poz.multiply(BigInteger.TEN);
                if (seg != 0 && segDiv.divide(BigInteger.valueOf(seg)).signum() != 0) {
                    value = value.add(unit.divide(segDiv.divide(BigInteger.valueOf(seg))));
                }
            } while (rest.signum() != 0);
        }
        return value;
    }

}
