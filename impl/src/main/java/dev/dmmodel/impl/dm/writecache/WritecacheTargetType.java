package dev.dmmodel.impl.dm.writecache;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.WritecacheTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * dm-writecache's target type ({@code drivers/md/dm-writecache.c}: {@code writecache_ctr}); the checks that need
 * the devices are {@link WritecacheModel#checkDevices}'s.
 */
public final class WritecacheTargetType implements TargetType {

    /** The one instance. */
    public static final WritecacheTargetType INSTANCE = new WritecacheTargetType();

    /** {@code writecache_ctr}'s {@code _args}: at most 18 optional argument words. */
    static final int MAX_OPT_PARAMS = 18;

    private static final String INVALID = " (writecache_ctr: Invalid optional argument)";

    private WritecacheTargetType() {
    }

    @Override
    public String name() {
        return "writecache";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return WritecacheTarget.class;
    }

    // writecache_ctr: mode, origin, cache device, block size ("Bad arguments" when one is missing), then the
    // optional arguments (dm_read_arg_group {0, 18})
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() >= 5, "writecache <p|s> " + a.dev("origin major:minor") + " " + a.dev("cache major:minor")
                + " <block size> <#optional args> <optional arg>* (writecache_ctr: Bad arguments)");
        String mode = a.arg(0).toLowerCase(Locale.ROOT);
        if (!mode.equals("s") && !mode.equals("p")) {
            throw a.invalid(0, "s (SSD) or p (persistent memory) (writecache_ctr: Bad arguments)");
        }
        boolean pmem = mode.equals("p");
        if (pmem) {
            // persistent_memory_claim needs a DAX device: the model has none
            throw a.invalid(0, "s: the model has no persistent memory (DAX) devices (writecache_ctr: Unable to map "
                    + "persistent memory for cache)");
        }
        String origin = a.device(1);
        String cache = a.device(2);
        long bs = a.number(3, "the block size in bytes (writecache_ctr: Invalid block size)");
        if (bs < 512 || bs > 4096 || Long.bitCount(bs) != 1) {
            throw a.invalid(3, "a power of two from 512 to the page size 4096 (writecache_ctr: Invalid block size)");
        }
        long n = a.number(4, "the number of optional arguments (writecache_ctr: Invalid number of feature args)");
        if (n > MAX_OPT_PARAMS || n > a.count() - 5) {
            throw a.invalid(4, "a number of optional arguments from 0 to " + MAX_OPT_PARAMS + " and at most the "
                    + (a.count() - 5) + " that follow (writecache_ctr: Invalid number of feature args)");
        }
        int end = 5 + (int) n;
        if (a.count() != end) {
            throw a.at(end, (a.count() - end) + " argument(s) after the " + n + " optional ones",
                    "none: writecache_ctr does not read them");
        }
        OptionalLong startSector = OptionalLong.empty();
        OptionalLong high = OptionalLong.empty();
        OptionalLong low = OptionalLong.empty();
        OptionalLong jobs = OptionalLong.empty();
        OptionalLong blocks = OptionalLong.empty();
        OptionalLong time = OptionalLong.empty();
        OptionalLong maxAge = OptionalLong.empty();
        OptionalLong pause = OptionalLong.empty();
        boolean cleaner = false;
        boolean metadataOnly = false;
        for (int i = 5; i < end; i++) {
            String w = a.arg(i).toLowerCase(Locale.ROOT);
            boolean valued = i + 1 < end;
            switch (w) {
                case "start_sector" -> {
                    requireValue(a, i, valued);
                    startSector = OptionalLong.of(value(a, ++i, Long.MAX_VALUE));
                }
                case "high_watermark" -> {
                    requireValue(a, i, valued);
                    high = OptionalLong.of(value(a, ++i, 100));
                }
                case "low_watermark" -> {
                    requireValue(a, i, valued);
                    low = OptionalLong.of(value(a, ++i, 100));
                }
                case "writeback_jobs" -> {
                    requireValue(a, i, valued);
                    jobs = OptionalLong.of(value(a, ++i, TargetArgs.UINT_MAX));
                }
                case "autocommit_blocks" -> {
                    requireValue(a, i, valued);
                    blocks = OptionalLong.of(value(a, ++i, TargetArgs.UINT_MAX));
                }
                case "autocommit_time" -> {
                    requireValue(a, i, valued);
                    time = OptionalLong.of(value(a, ++i, 3_600_000));
                }
                case "max_age" -> {
                    requireValue(a, i, valued);
                    maxAge = OptionalLong.of(value(a, ++i, 86_400_000));
                }
                case "pause_writeback" -> {
                    requireValue(a, i, valued);
                    pause = OptionalLong.of(value(a, ++i, 60_000));
                }
                case "cleaner" -> cleaner = true;
                case "metadata_only" -> metadataOnly = true;
                case "fua", "nofua" -> throw a.invalid(i, "fua and nofua only in pmem mode" + INVALID);
                default -> throw a.invalid(i, "start_sector, high_watermark, low_watermark, writeback_jobs, "
                        + "autocommit_blocks, autocommit_time, max_age, cleaner, fua, nofua, metadata_only or "
                        + "pause_writeback" + INVALID);
            }
        }
        if (high.orElse(50) < low.orElse(45)) {
            throw a.notValid("high_watermark " + high.orElse(50) + " below low_watermark " + low.orElse(45)
                    + ": writecache_ctr: High watermark must be greater than or equal to low watermark");
        }
        WritecacheTarget.Options o = new WritecacheTarget.Options(startSector, high, low, jobs, blocks, time,
                Optional.empty(), cleaner, maxAge, metadataOnly, pause);
        return new WritecacheTarget(a.start(), a.length(), false, origin, cache, bs, o);
    }

    // writecache_ctr: a valued option needs its value within opt_params ("&& opt_params >= 1")
    private static void requireValue(TargetArgs a, int i, boolean valued) {
        if (!valued) {
            throw a.invalid(i, a.arg(i) + " followed by its value within the optional arguments" + INVALID);
        }
    }

    // writecache_ctr: sscanf("%u%c") / "%llu%c" and the option's range
    private static long value(TargetArgs a, int i, long max) {
        long v = a.number(i, "a number for " + a.arg(i - 1) + INVALID);
        if (v > max) {
            throw a.invalid(i, a.arg(i - 1) + " from 0 to " + max + INVALID);
        }
        return v;
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new WritecacheModel((WritecacheTarget) target, deviceSize);
    }
}
