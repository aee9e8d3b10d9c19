package dev.dmmodel.impl.tools;

import dev.dmmodel.workload.Command;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** coreutils {@code sleep}: the sum of its operands, each a number with an optional unit. */
final class SleepTool {

    private static final Pattern INTERVAL = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)([smhd]?)");
    /** Durations beyond this (about 292 years) are not modelled. */
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000_000L);

    private SleepTool() {
    }

    // src/sleep.c: main — each operand through cl_strtod and apply_suffix, the intervals added
    static Command sleep(List<String> args, ParseContext ctx) {
        if (args.isEmpty()) {
            throw ctx.fail("sleep: missing operand");
        }
        BigDecimal seconds = BigDecimal.ZERO;
        for (String a : args) {
            if (a.equals("--help") || a.equals("--version")) {
                throw ctx.fail("sleep " + a + " only prints: nothing to model");
            }
            if (a.equalsIgnoreCase("inf") || a.equalsIgnoreCase("infinity")) {
                throw ctx.fail("sleep " + a + " never ends: a workload must finish");
            }
            Matcher m = INTERVAL.matcher(a);
            if (!m.matches()) {
                throw ctx.fail("sleep: invalid time interval " + Quoting.quoteaf(a));
            }
            long factor = switch (m.group(2)) {
                case "m" -> 60;
                case "h" -> 3600;
                case "d" -> 86400;
                default -> 1;
            };
            seconds = seconds.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(factor)));
        }
        if (seconds.compareTo(MAX_SECONDS) > 0) {
            throw ctx.fail("sleep of " + seconds.toPlainString() + " s is longer than the model's clock holds"
                    + " (" + MAX_SECONDS + " s)");
        }
        // xnanosleep: to the nanosecond, rounded up
        long nanos = seconds.movePointRight(9).setScale(0, RoundingMode.CEILING).longValueExact();
        return new Command.Sleep(ctx.line(), Duration.ofNanos(nanos));
    }
}
