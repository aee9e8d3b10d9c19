package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.tools.Getopt.Opt;
import dev.dmmodel.workload.Command;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/** {@code mkfs.xfs} (xfsprogs) and {@code mkfs.ext4} (e2fsprogs): the sector and block sizes they write. */
final class MkfsTool {

    private MkfsTool() {
    }

    // --- mkfs --------------------------------------------------------------------------------------

    static Command mkfsXfs(List<String> args, ParseContext ctx) {
        Getopt g = Getopt.parse("mkfs.xfs", args, "b:c:d:i:l:L:m:n:KNp:qr:s:CfV", Map.of(), ctx);
        long sectorSize = 0;
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "N": throw ctx.fail("mkfs.xfs -N (dry run) writes nothing: nothing to model");
                case "V": throw ctx.fail("mkfs.xfs -V prints the version: nothing to model");
                case "s": sectorSize = xfsSectorSize(o.arg(), ctx); break;
                default: break;
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("mkfs.xfs: no device name given in argument list");
        }
        if (g.operands().size() > 1) {
            throw ctx.fail("mkfs.xfs: extra arguments");
        }
        return new Command.Mkfs(ctx.line(), "xfs", sectorSize, g.operands().get(0));
    }

    /** {@code -s size=N} / {@code -s sectsize=N}, checked as xfsprogs' getnum() checks it. */
    static long xfsSectorSize(String value, ParseContext ctx) {
        long size = 0;
        for (String sub : value.split(",", -1)) {
            int eq = sub.indexOf('=');
            String key = eq < 0 ? sub : sub.substring(0, eq);
            if (!key.equals("size") && !key.equals("sectsize")) {
                throw ctx.fail("unknown option -s " + sub);
            }
            if (eq < 0 || eq == sub.length() - 1) {
                throw ctx.fail("-s " + key + " option requires a value");
            }
            String v = sub.substring(eq + 1);
            long c = xfsCvtnum(v);
            if (c == -1) {
                throw ctx.fail("Invalid value " + v + " for -s " + key
                        + " option. Not a valid value or illegal suffix");
            }
            if (c < 512) {
                throw ctx.fail("Invalid value " + v + " for -s " + key + " option. Value is too small.");
            }
            if (c > 32768) {
                throw ctx.fail("Invalid value " + v + " for -s " + key + " option. Value is too large.");
            }
            if (Long.bitCount(c) != 1) {
                throw ctx.fail("Invalid value " + v + " for -s " + key + " option. Value must be a power of 2.");
            }
            size = c;
        }
        return size;
    }

    /** xfsprogs cvtnum() without block/sector suffixes (unknown while -s itself is parsed): -1 if invalid. */
    static long xfsCvtnum(String s) {
        int i = 0;
        long base = 10;
        String t = s.strip();
        if (t.startsWith("0x") || t.startsWith("0X")) {
            base = 16;
            i = 2;
        } else if (t.length() > 1 && t.startsWith("0")) {
            base = 8;
            i = 1;
        }
        int digitsStart = i;
        BigInteger v = BigInteger.ZERO;
        while (i < t.length() && Character.digit(t.charAt(i), (int) base) >= 0) {
            v = v.multiply(BigInteger.valueOf(base)).add(BigInteger.valueOf(Character.digit(t.charAt(i), (int) base)));
            i++;
        }
        if (i == digitsStart && base != 8) {
            return -1;
        }
        if (v.bitLength() > 62) {
            return -1;
        }
        long n = v.longValue();
        if (i == t.length()) {
            return n;
        }
        if (i != t.length() - 1) {
            return -1;
        }
        int shift;
        switch (Character.toLowerCase(t.charAt(i))) {
            case 'k': shift = 10; break;
            case 'm': shift = 20; break;
            case 'g': shift = 30; break;
            case 't': shift = 40; break;
            case 'p': shift = 50; break;
            case 'e': shift = 60; break;
            default: return -1;
        }
        return n > (Long.MAX_VALUE >> shift) ? -1 : n << shift;
    }

    static Command mkfsExt4(List<String> args, ParseContext ctx) {
        Getopt g = Getopt.parse("mkfs.ext4", args, "b:cd:e:g:i:jl:m:no:qr:s:t:vC:DE:FG:I:J:KL:M:N:O:R:ST:U:Vz:",
                Map.of(), ctx);
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "n": throw ctx.fail("mkfs.ext4 -n (dry run) writes nothing: nothing to model");
                case "V": throw ctx.fail("mkfs.ext4 -V prints the version: nothing to model");
                case "b": {
                    long b = ext4BlockSize(o.arg());
                    if (b < 1024 || b > 65536) {
                        throw ctx.fail("mkfs.ext4: invalid block size - " + o.arg());
                    }
                    break;
                }
                default: break;
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("mkfs.ext4: no device specified");
        }
        if (g.operands().size() > 2) {
            throw ctx.fail("mkfs.ext4: too many arguments");
        }
        // a second operand is the fs size in blocks (mke2fs DEVICE [fs-size]); it does not change the model
        return new Command.Mkfs(ctx.line(), "ext4", 0, g.operands().get(0));
    }

    /** e2fsprogs parse_num_blocks2() for -b: absolute value; 0 if not a number. */
    static long ext4BlockSize(String arg) {
        String t = arg.strip();
        int i = 0;
        if (i < t.length() && t.charAt(i) == '-') {
            i++;
        }
        int start = i;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == start || i - start > 12) {
            return 0;
        }
        long n = Long.parseLong(t.substring(start, i));
        if (i == t.length()) {
            return n;
        }
        if (i != t.length() - 1) {
            return 0;
        }
        switch (t.charAt(i)) {
            case 'T': case 't': return n << 40;
            case 'G': case 'g': return n << 30;
            case 'M': case 'm': return n << 20;
            case 'K': case 'k': return n << 10;
            case 's': return n << 9;
            default: return 0;
        }
    }

}
