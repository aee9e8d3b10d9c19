package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.workload.Command;
import java.util.EnumSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code dd} commands built as records, without the parser (as the engine tests' {@code EngineTestSupport}
 * builds them; copied here and extended with reads and offsets).
 */
final class Commands {
    private Commands() {
    }

    /** {@code dd if=/dev/zero of=OUT bs=BS count=N seek=SEEK oflag=direct,seek_bytes}. */
    static Command.Dd directWrite(String out, long bs, long count, long seekBytes) {
        return new Command.Dd("dd if=/dev/zero of=" + out + " bs=" + bs + " count=" + count + " seek=" + seekBytes
                + " oflag=direct,seek_bytes", "/dev/zero", out, bs, bs, true, OptionalLong.of(bs * count), 0,
                seekBytes, Set.of(), EnumSet.of(Command.DdFlag.DIRECT, Command.DdFlag.SEEK_BYTES), Set.of());
    }

    /** {@code dd if=IN of=/dev/null bs=BS count=N skip=SKIP iflag=direct,skip_bytes}. */
    static Command.Dd directRead(String in, long bs, long count, long skipBytes) {
        return new Command.Dd("dd if=" + in + " of=/dev/null bs=" + bs + " count=" + count + " skip=" + skipBytes
                + " iflag=direct,skip_bytes", in, "/dev/null", bs, bs, true, OptionalLong.of(bs * count), skipBytes,
                0, EnumSet.of(Command.DdFlag.DIRECT, Command.DdFlag.SKIP_BYTES), Set.of(), Set.of());
    }

    /** {@code dd if=/dev/zero of=OUT bs=BS count=N seek=SEEK oflag=seek_bytes} through the page cache. */
    static Command.Dd bufferedWrite(String out, long bs, long count, long seekBytes) {
        return new Command.Dd("dd if=/dev/zero of=" + out + " bs=" + bs + " count=" + count + " seek=" + seekBytes
                + " oflag=seek_bytes", "/dev/zero", out, bs, bs, true, OptionalLong.of(bs * count), 0, seekBytes,
                Set.of(), EnumSet.of(Command.DdFlag.SEEK_BYTES), Set.of());
    }

    /**
     * {@code dd if=/dev/zero of=OUT bs=BS count=N seek=SEEK oflag=seek_bytes,sync} (each write written back
     * before it returns) or, with {@code fsync}, {@code ... oflag=seek_bytes conv=fsync} (written back once at
     * the end).
     */
    static Command.Dd bufferedWriteSynced(String out, long bs, long count, long seekBytes, boolean fsync) {
        if (fsync) {
            return new Command.Dd("dd if=/dev/zero of=" + out + " bs=" + bs + " count=" + count + " seek=" + seekBytes
                    + " oflag=seek_bytes conv=fsync", "/dev/zero", out, bs, bs, true, OptionalLong.of(bs * count), 0,
                    seekBytes, Set.of(), EnumSet.of(Command.DdFlag.SEEK_BYTES), EnumSet.of(Command.DdConv.FSYNC));
        }
        return new Command.Dd("dd if=/dev/zero of=" + out + " bs=" + bs + " count=" + count + " seek=" + seekBytes
                + " oflag=seek_bytes,sync", "/dev/zero", out, bs, bs, true, OptionalLong.of(bs * count), 0, seekBytes,
                Set.of(), EnumSet.of(Command.DdFlag.SEEK_BYTES, Command.DdFlag.SYNC), Set.of());
    }

    /** {@code dd if=IN of=/dev/null bs=BS count=N skip=SKIP iflag=skip_bytes} through the page cache. */
    static Command.Dd bufferedRead(String in, long bs, long count, long skipBytes) {
        return new Command.Dd("dd if=" + in + " of=/dev/null bs=" + bs + " count=" + count + " skip=" + skipBytes
                + " iflag=skip_bytes", in, "/dev/null", bs, bs, true, OptionalLong.of(bs * count), skipBytes, 0,
                EnumSet.of(Command.DdFlag.SKIP_BYTES), Set.of(), Set.of());
    }

    /** {@code sync}. */
    static Command.Sync sync() {
        return new Command.Sync("sync");
    }
}
