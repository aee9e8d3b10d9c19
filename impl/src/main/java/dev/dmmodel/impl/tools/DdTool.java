package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.tools.Shell.Redir;
import dev.dmmodel.workload.Command;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * GNU coreutils 9.x dd's operand parsing ({@code scanargs}, {@code parse_integer}).
 *
 * Operands are read exactly as GNU coreutils 9.x {@code dd} reads them ({@code scanargs} and
 * {@code parse_integer} in {@code src/dd.c}, {@code xstrtoumax} from gnulib), for GNU/Linux (where
 * {@code iflag=binary}, {@code text}, {@code cio} and {@code nolinks} are rejected, their flags being 0):
 * <ul>
 *   <li>numbers: decimal, with the multiplicative suffixes {@code c}=1, {@code w}=2, {@code b}=512,
 *       {@code kB}=1000, {@code K}={@code k}={@code KiB}=1024, {@code MB}, {@code M}, {@code MiB}, ... up to
 *       {@code Q}; a bare suffix means one of it ({@code bs=M}); {@code AxB} multiplies; a number ending
 *       in {@code B} ({@code count=1MB}, {@code skip=4096B}) counts bytes in {@code count=}, {@code skip=}
 *       and {@code seek=} (dd 9.1);</li>
 *   <li>{@code count=} and {@code skip=}/{@code iseek=} count {@code ibs}-sized blocks, {@code seek=}/{@code
 *       oseek=} {@code obs}-sized blocks, unless {@code iflag=count_bytes}/{@code skip_bytes},
 *       {@code oflag=seek_bytes} or a {@code B} suffix; the record holds the resolved byte counts;
 *       {@code count=} of more than {@link Long#MAX_VALUE} bytes is recorded as {@link Long#MAX_VALUE}, and
 *       {@code count=9223372036854775807} means no limit, as in dd;</li>
 *   <li>flags: what was given, plus {@code SKIP_BYTES}/{@code COUNT_BYTES}/{@code SEEK_BYTES} where a
 *       {@code B} suffix implied them, as dd adds them;</li>
 *   <li>conversions: dd's effective set: {@code ascii} implies {@code unblock}, {@code ebcdic} and
 *       {@code ibm} imply {@code block}, and {@code block}/{@code unblock} are dropped when no {@code cbs=}
 *       is given (dd then ignores them, and does not reject {@code conv=block,unblock});</li>
 *   <li>rejections, in dd's order and words: {@code dd: unrecognized operand 'X'}, {@code dd: invalid
 *       number: 'X'} (with {@code : Value too large for defined data type} on overflow), {@code dd: invalid
 *       input flag: 'X'}, {@code dd: invalid output flag: 'X'}, {@code dd: invalid conversion: 'X'},
 *       {@code dd: invalid status level: 'X'}, {@code dd: invalid output flag: 'fullblock'}, {@code dd:
 *       cannot combine any two of {ascii,ebcdic,ibm}}, {@code ... block and unblock}, {@code ... lcase and
 *       ucase}, {@code ... excl and nocreat}, {@code ... direct and nocache}, {@code dd: offset too large:
 *       cannot truncate to a length of seek=N (M-byte) blocks}, and, for offsets beyond 2^63-1 bytes that dd
 *       can only try to reach, {@code dd: FILE: cannot skip|seek: Value too large for defined data
 *       type}.</li>
 * </ul>
 */
final class DdTool {
    // gnulib strtol_error
    static final int OK = 0;
    static final int OVERFLOW = 1;
    static final int INVALID_SUFFIX_CHAR = 2;
    static final int INVALID = 4;

    static final BigInteger INTMAX = BigInteger.valueOf(Long.MAX_VALUE);
    /** MIN (IDX_MAX - 1, MIN (SSIZE_MAX, OFF_T_MAX)) on 64-bit Linux. */
    static final long MAX_BLOCKSIZE = Long.MAX_VALUE - 1;
    static final String EOVERFLOW = "Value too large for defined data type";
    static final String DD_SUFFIXES = "bcEGkKMPQRTwYZ0";

    static final Map<String, Command.DdFlag> FLAGS = new LinkedHashMap<>();
    static final Map<String, Set<Command.DdConv>> CONVERSIONS = new LinkedHashMap<>();
    static final List<String> STATUSES = List.of("none", "noxfer", "progress");

    static {
        // dd.c flags[] on GNU/Linux: binary, text, cio and nolinks are 0 there, hence rejected
        FLAGS.put("append", Command.DdFlag.APPEND);
        FLAGS.put("direct", Command.DdFlag.DIRECT);
        FLAGS.put("directory", Command.DdFlag.DIRECTORY);
        FLAGS.put("dsync", Command.DdFlag.DSYNC);
        FLAGS.put("noatime", Command.DdFlag.NOATIME);
        FLAGS.put("nocache", Command.DdFlag.NOCACHE);
        FLAGS.put("noctty", Command.DdFlag.NOCTTY);
        FLAGS.put("nofollow", Command.DdFlag.NOFOLLOW);
        FLAGS.put("nonblock", Command.DdFlag.NONBLOCK);
        FLAGS.put("sync", Command.DdFlag.SYNC);
        FLAGS.put("fullblock", Command.DdFlag.FULLBLOCK);
        FLAGS.put("count_bytes", Command.DdFlag.COUNT_BYTES);
        FLAGS.put("skip_bytes", Command.DdFlag.SKIP_BYTES);
        FLAGS.put("seek_bytes", Command.DdFlag.SEEK_BYTES);

        CONVERSIONS.put("ascii", EnumSet.of(Command.DdConv.ASCII, Command.DdConv.UNBLOCK));
        CONVERSIONS.put("ebcdic", EnumSet.of(Command.DdConv.EBCDIC, Command.DdConv.BLOCK));
        CONVERSIONS.put("ibm", EnumSet.of(Command.DdConv.IBM, Command.DdConv.BLOCK));
        CONVERSIONS.put("block", EnumSet.of(Command.DdConv.BLOCK));
        CONVERSIONS.put("unblock", EnumSet.of(Command.DdConv.UNBLOCK));
        CONVERSIONS.put("lcase", EnumSet.of(Command.DdConv.LCASE));
        CONVERSIONS.put("ucase", EnumSet.of(Command.DdConv.UCASE));
        CONVERSIONS.put("sparse", EnumSet.of(Command.DdConv.SPARSE));
        CONVERSIONS.put("swab", EnumSet.of(Command.DdConv.SWAB));
        CONVERSIONS.put("noerror", EnumSet.of(Command.DdConv.NOERROR));
        CONVERSIONS.put("nocreat", EnumSet.of(Command.DdConv.NOCREAT));
        CONVERSIONS.put("excl", EnumSet.of(Command.DdConv.EXCL));
        CONVERSIONS.put("notrunc", EnumSet.of(Command.DdConv.NOTRUNC));
        CONVERSIONS.put("sync", EnumSet.of(Command.DdConv.SYNC));
        CONVERSIONS.put("fdatasync", EnumSet.of(Command.DdConv.FDATASYNC));
        CONVERSIONS.put("fsync", EnumSet.of(Command.DdConv.FSYNC));
    }

    private DdTool() {
    }

    /** A parsed dd number: its value (0..INTMAX_MAX) and gnulib error bits. */
    record Num(long value, int err) {
    }

    static Command.Dd parse(List<String> argv, List<Redir> redirs, ParseContext ctx) {
        List<String> args = gnuOptions(argv, ctx);

        String input = null;
        String output = null;
        long ibs = 0;
        long obs = 0;
        long bs = 0;
        long cbs = 0;
        long count = Long.MAX_VALUE;
        long skip = 0;
        long seek = 0;
        boolean countB = false;
        boolean skipB = false;
        boolean seekB = false;
        Set<Command.DdFlag> iflags = EnumSet.noneOf(Command.DdFlag.class);
        Set<Command.DdFlag> oflags = EnumSet.noneOf(Command.DdFlag.class);
        Set<Command.DdConv> conv = EnumSet.noneOf(Command.DdConv.class);

        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw ctx.fail("dd: unrecognized operand " + Quoting.quoteaf(arg));
            }
            String name = arg.substring(0, eq);
            String val = arg.substring(eq + 1);
            switch (name) {
                case "if": input = val; continue;
                case "of": output = val; continue;
                case "conv": conv.addAll(symbols(val, CONVERSIONS, "invalid conversion", ctx)); continue;
                case "iflag": iflags.addAll(flags(val, "invalid input flag", ctx)); continue;
                case "oflag": oflags.addAll(flags(val, "invalid output flag", ctx)); continue;
                case "status": status(val, ctx); continue;
                default: break;
            }
            Num num = parseInteger(val);
            long n = num.value();
            int invalid = num.err();
            boolean hasB = val.indexOf('B') >= 0;
            long nMin = 0;
            long nMax = Long.MAX_VALUE;
            switch (name) {
                case "ibs": case "obs": case "bs":
                    nMin = 1;
                    nMax = MAX_BLOCKSIZE;
                    break;
                case "cbs":
                    nMin = 1;
                    break;
                case "skip": case "iseek":
                    skip = n;
                    skipB = hasB;
                    break;
                case "seek": case "oseek":
                    seek = n;
                    seekB = hasB;
                    break;
                case "count":
                    count = n;
                    countB = hasB;
                    break;
                default:
                    throw ctx.fail("dd: unrecognized operand " + Quoting.quoteaf(arg));
            }
            if (n < nMin) {
                invalid = INVALID;
            } else if (nMax < n) {
                invalid = OVERFLOW;
            }
            if (invalid != OK) {
                throw ctx.fail("dd: invalid number: " + Quoting.quoteaf(val)
                        + (invalid == OVERFLOW ? ": " + EOVERFLOW : ""));
            }
            switch (name) {
                case "ibs": ibs = n; break;
                case "obs": obs = n; break;
                case "bs": bs = n; break;
                case "cbs": cbs = n; break;
                default: break;
            }
        }

        boolean blockSizeGiven = bs != 0;
        if (blockSizeGiven) {
            ibs = bs;
            obs = bs;
        }
        if (ibs == 0) {
            ibs = 512;
        }
        if (obs == 0) {
            obs = 512;
        }
        if (cbs == 0) {
            conv.remove(Command.DdConv.BLOCK);
            conv.remove(Command.DdConv.UNBLOCK);
        }
        if (oflags.contains(Command.DdFlag.FULLBLOCK)) {
            throw ctx.fail("dd: invalid output flag: 'fullblock'");
        }
        if (skipB) {
            iflags.add(Command.DdFlag.SKIP_BYTES);
        }
        if (countB) {
            iflags.add(Command.DdFlag.COUNT_BYTES);
        }
        if (seekB) {
            oflags.add(Command.DdFlag.SEEK_BYTES);
        }
        int charsets = (conv.contains(Command.DdConv.ASCII) ? 1 : 0) + (conv.contains(Command.DdConv.EBCDIC) ? 1 : 0)
                + (conv.contains(Command.DdConv.IBM) ? 1 : 0);
        if (charsets > 1) {
            throw ctx.fail("dd: cannot combine any two of {ascii,ebcdic,ibm}");
        }
        if (conv.contains(Command.DdConv.BLOCK) && conv.contains(Command.DdConv.UNBLOCK)) {
            throw ctx.fail("dd: cannot combine block and unblock");
        }
        if (conv.contains(Command.DdConv.LCASE) && conv.contains(Command.DdConv.UCASE)) {
            throw ctx.fail("dd: cannot combine lcase and ucase");
        }
        if (conv.contains(Command.DdConv.EXCL) && conv.contains(Command.DdConv.NOCREAT)) {
            throw ctx.fail("dd: cannot combine excl and nocreat");
        }
        if ((iflags.contains(Command.DdFlag.DIRECT) && iflags.contains(Command.DdFlag.NOCACHE))
                || (oflags.contains(Command.DdFlag.DIRECT) && oflags.contains(Command.DdFlag.NOCACHE))) {
            throw ctx.fail("dd: cannot combine direct and nocache");
        }

        // shell redirections stand in for if=/of= when those are absent (dd then uses stdin/stdout)
        String stdin = null;
        String stdout = null;
        for (Redir r : redirs) {
            if (r.fd() == 0 && r.op().equals("<")) {
                stdin = r.target();
            } else if (r.fd() == 1 && (r.op().equals(">") || r.op().equals(">|") || r.op().equals(">>"))) {
                if (r.op().equals(">>") && !r.target().equals("/dev/null")) {
                    throw ctx.fail("dd >> (append to standard output) is not modelled: use oflag=append"
                            + " conv=notrunc");
                }
                stdout = r.target();
            } else if (!(r.fd() == 2 && r.op().equals(">") && r.target().equals("/dev/null"))
                    && !(r.op().equals(">&") || r.op().equals("&>"))) {
                throw ctx.fail("redirection '" + r.op() + " " + r.target() + "' is not modelled for dd");
            }
        }

        // seek overflow: dd's main() refuses before opening when it would truncate (of= given, no notrunc)
        BigInteger seekTotal = oflags.contains(Command.DdFlag.SEEK_BYTES) ? BigInteger.valueOf(seek)
                : BigInteger.valueOf(seek).multiply(BigInteger.valueOf(obs));
        boolean seekOverflow = seekTotal.compareTo(INTMAX) > 0;
        if (seekOverflow && output != null && !conv.contains(Command.DdConv.NOTRUNC)) {
            throw ctx.fail("dd: offset too large: cannot truncate to a length of seek=" + seek + " ("
                    + obs + "-byte) blocks");
        }
        BigInteger skipTotal = iflags.contains(Command.DdFlag.SKIP_BYTES) ? BigInteger.valueOf(skip)
                : BigInteger.valueOf(skip).multiply(BigInteger.valueOf(ibs));
        String inName = input != null ? input : stdin != null ? stdin : "-";
        String outName = output != null ? output : stdout != null ? stdout : "-";
        if (skipTotal.compareTo(INTMAX) > 0) {
            throw ctx.fail("dd: " + Quoting.quotef(input != null ? input : "standard input") + ": cannot skip: "
                    + EOVERFLOW);
        }
        if (seekOverflow) {
            throw ctx.fail("dd: " + Quoting.quotef(output != null ? output : "standard output") + ": cannot seek: "
                    + EOVERFLOW);
        }

        OptionalLong countBytes;
        if (count == Long.MAX_VALUE) {
            countBytes = OptionalLong.empty(); // dd's "no limit", given or not
        } else if (iflags.contains(Command.DdFlag.COUNT_BYTES)) {
            countBytes = OptionalLong.of(count);
        } else {
            BigInteger total = BigInteger.valueOf(count).multiply(BigInteger.valueOf(ibs));
            countBytes = OptionalLong.of(total.compareTo(INTMAX) > 0 ? Long.MAX_VALUE : total.longValue());
        }

        return new Command.Dd(ctx.line(), inName, outName, ibs, obs, blockSizeGiven, countBytes,
                skipTotal.longValueExact(), seekTotal.longValueExact(), iflags, oflags, conv);
    }

    /**
     * dd's parse_gnu_standard_options_only: the first argument that is an option ends dd (only --help and
     * --version exist); "--" ends options.
     */
    static List<String> gnuOptions(List<String> argv, ParseContext ctx) {
        List<String> operands = new ArrayList<>();
        boolean options = true;
        for (String a : argv) {
            if (options && a.equals("--")) {
                options = false;
                continue;
            }
            if (options && a.startsWith("--")) {
                int eq = a.indexOf('=');
                String n = eq < 0 ? a.substring(2) : a.substring(2, eq);
                boolean help = !n.isEmpty() && "help".startsWith(n);
                boolean version = !n.isEmpty() && "version".startsWith(n);
                if (!help && !version) {
                    throw ctx.fail("dd: unrecognized option '" + (eq < 0 ? a : a.substring(0, eq)) + "'");
                }
                String full = help ? "--help" : "--version";
                if (eq >= 0) {
                    throw ctx.fail("dd: option '" + full + "' doesn't allow an argument");
                }
                throw ctx.fail("dd " + full + " prints " + (help ? "help" : "its version")
                        + " and copies nothing");
            }
            if (options && a.startsWith("-") && a.length() > 1) {
                throw ctx.fail("dd: invalid option -- '" + a.charAt(1) + "'");
            }
            operands.add(a);
        }
        return operands;
    }

    static Set<Command.DdFlag> flags(String val, String message, ParseContext ctx) {
        Map<String, Set<Command.DdFlag>> table = new LinkedHashMap<>();
        FLAGS.forEach((k, v) -> table.put(k, EnumSet.of(v)));
        return symbols(val, table, message, ctx);
    }

    static void status(String val, ParseContext ctx) {
        // exclusive: the last symbol wins, every symbol must be known
        for (String sym : val.split(",", -1)) {
            if (!STATUSES.contains(sym)) {
                throw ctx.fail("dd: invalid status level: " + Quoting.localeQuote(sym));
            }
        }
    }

    /** dd's parse_symbols: comma-separated, each exactly a known symbol; the message names the symbol. */
    static <E extends Enum<E>> Set<E> symbols(String val, Map<String, Set<E>> table, String message,
            ParseContext ctx) {
        Set<E> out = new java.util.HashSet<>();
        for (String sym : val.split(",", -1)) {
            Set<E> v = table.get(sym);
            if (v == null) {
                throw ctx.fail("dd: " + message + ": " + Quoting.localeQuote(sym));
            }
            out.addAll(v);
        }
        return out;
    }

    /** dd's parse_integer. */
    static Num parseInteger(String str) {
        XResult x = xstrtoumax(str);
        int e = x.err();
        BigInteger n = x.value();
        int suffix = x.suffix();
        if ((e & ~OVERFLOW) == INVALID_SUFFIX_CHAR && charAt(str, suffix) == 'B' && suffix > 0
                && str.charAt(suffix - 1) != 'B') {
            suffix++;
            if (suffix >= str.length()) {
                e &= ~INVALID_SUFFIX_CHAR;
            }
        }
        long result;
        if ((e & ~OVERFLOW) == INVALID_SUFFIX_CHAR && charAt(str, suffix) == 'x') {
            Num o = parseInteger(str.substring(suffix + 1));
            int f = o.err();
            if ((f & ~OVERFLOW) != OK) {
                e = f;
                result = 0;
            } else {
                BigInteger product = n.multiply(BigInteger.valueOf(o.value()));
                if (product.compareTo(INTMAX) > 0 || (product.signum() != 0 && ((e | f) & OVERFLOW) != 0)) {
                    e = OVERFLOW;
                    result = Long.MAX_VALUE;
                } else {
                    result = product.longValue();
                    e = OK;
                }
            }
        } else if (n.compareTo(INTMAX) <= 0) {
            result = n.longValue();
        } else {
            e = OVERFLOW;
            result = Long.MAX_VALUE;
        }
        return new Num(result, e);
    }

    static char charAt(String s, int i) {
        return i >= 0 && i < s.length() ? s.charAt(i) : '\0';
    }

    record XResult(int err, BigInteger value, int suffix) {
    }

    static boolean cIsSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }

    /** gnulib xstrtoumax (base 10) with dd's valid suffixes "bcEGkKMPQRTwYZ0". */
    static XResult xstrtoumax(String s) {
        int q = 0;
        while (q < s.length() && cIsSpace(s.charAt(q))) {
            q++;
        }
        if (q < s.length() && s.charAt(q) == '-') {
            return new XResult(INVALID, BigInteger.ZERO, 0);
        }
        // strtoumax
        int p = q;
        if (p < s.length() && s.charAt(p) == '+') {
            p++;
        }
        int digitsStart = p;
        BigInteger tmp = BigInteger.ZERO;
        while (p < s.length() && s.charAt(p) >= '0' && s.charAt(p) <= '9') {
            tmp = tmp.multiply(BigInteger.TEN).add(BigInteger.valueOf(s.charAt(p) - '0'));
            p++;
        }
        int err = OK;
        if (p == digitsStart) {
            p = 0; // strtoumax sets the end pointer to the start when there is no number
            if (!(!s.isEmpty() && DD_SUFFIXES.indexOf(s.charAt(0)) >= 0)) {
                return new XResult(INVALID, BigInteger.ZERO, 0);
            }
            tmp = BigInteger.ONE;
        } else if (tmp.compareTo(BlkdiscardTool.UINTMAX) > 0) {
            tmp = BlkdiscardTool.UINTMAX;
            err = OVERFLOW;
        }
        if (p >= s.length()) {
            return new XResult(err, tmp, p);
        }
        char c = s.charAt(p);
        if (DD_SUFFIXES.indexOf(c) < 0) {
            return new XResult(err | INVALID_SUFFIX_CHAR, tmp, p);
        }
        int base = 1024;
        int suffixes = 1;
        if ("EGgkKMmPQRTtYZ".indexOf(c) >= 0) {
            char c1 = charAt(s, p + 1);
            if (c1 == 'i') {
                if (charAt(s, p + 2) == 'B') {
                    suffixes += 2;
                }
            } else if (c1 == 'B' || c1 == 'D') {
                base = 1000;
                suffixes++;
            }
        }
        BigInteger[] scaled = {tmp};
        int overflow;
        switch (c) {
            case 'b': overflow = scale(scaled, 512, 1); break;
            case 'c': overflow = OK; break;
            case 'w': overflow = scale(scaled, 2, 1); break;
            case 'k': case 'K': overflow = scale(scaled, base, 1); break;
            case 'M': overflow = scale(scaled, base, 2); break;
            case 'G': overflow = scale(scaled, base, 3); break;
            case 'T': overflow = scale(scaled, base, 4); break;
            case 'P': overflow = scale(scaled, base, 5); break;
            case 'E': overflow = scale(scaled, base, 6); break;
            case 'Z': overflow = scale(scaled, base, 7); break;
            case 'Y': overflow = scale(scaled, base, 8); break;
            case 'R': overflow = scale(scaled, base, 9); break;
            case 'Q': overflow = scale(scaled, base, 10); break;
            default: return new XResult(err | INVALID_SUFFIX_CHAR, tmp, p); // '0': never after digits
        }
        err |= overflow;
        p += suffixes;
        if (p < s.length()) {
            err |= INVALID_SUFFIX_CHAR;
        }
        return new XResult(err, scaled[0], p);
    }

    /** gnulib bkm_scale_by_power: saturates at UINTMAX_MAX and reports overflow. */
    static int scale(BigInteger[] x, int base, int power) {
        int err = OK;
        for (int i = 0; i < power; i++) {
            BigInteger v = x[0].multiply(BigInteger.valueOf(base));
            if (v.compareTo(BlkdiscardTool.UINTMAX) > 0) {
                x[0] = BlkdiscardTool.UINTMAX;
                err = OVERFLOW;
            } else {
                x[0] = v;
            }
        }
        return err;
    }
}
