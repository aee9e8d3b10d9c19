package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * {@code writecache}: dm-writecache ({@code drivers/md/dm-writecache.c}) caching writes to {@code originDevice}
 * on {@code cacheDevice} in blocks of {@code blockSize} bytes, in the words of its table line
 * {@code <p|s> <origin dev> <cache dev> <block size> <#optional args> <optional arg>*}.
 *
 * <p>The kernel prints the optional arguments it was given in a fixed order ({@code writecache_status}), whatever
 * their order in the table loaded: {@link #arguments} does the same.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param pmem {@code p}: persistent memory; {@code s} (false): an SSD or other block device
 * @param originDevice kernel name of the origin device
 * @param cacheDevice kernel name of the cache device
 * @param blockSize the cache block size in bytes: a power of two from 512 to the page size (4096)
 * @param options the optional arguments given
 */
public record WritecacheTarget(Sectors start, Sectors length, boolean pmem, String originDevice, String cacheDevice,
                               long blockSize, Options options) implements DmTarget {

    /**
     * {@code writecache_ctr}'s optional arguments, each present only if the table gives it (as the kernel's
     * {@code *_set} flags).
     *
     * @param startSector {@code start_sector}: sectors of the cache device skipped before the metadata
     * @param highWatermark {@code high_watermark}: percent of blocks in use that starts writeback (default 50)
     * @param lowWatermark {@code low_watermark}: percent of blocks in use that stops it (default 45)
     * @param writebackJobs {@code writeback_jobs}: blocks written back at once
     * @param autocommitBlocks {@code autocommit_blocks}: uncommitted blocks that force a commit (default 65536 for
     *     SSD, 64 for pmem)
     * @param autocommitTime {@code autocommit_time}: milliseconds after a write that the metadata is committed
     *     (default 1000)
     * @param fua {@code fua} (true) or {@code nofua} (false): FUA for writeback (pmem only)
     * @param cleaner {@code cleaner}: write everything back, cache nothing new
     * @param maxAge {@code max_age}: milliseconds after which a block is written back
     * @param metadataOnly {@code metadata_only}: cache only REQ_META writes
     * @param pauseWriteback {@code pause_writeback}: milliseconds writeback waits after I/O (SSD only)
     */
    public record Options(OptionalLong startSector, OptionalLong highWatermark, OptionalLong lowWatermark,
                          OptionalLong writebackJobs, OptionalLong autocommitBlocks, OptionalLong autocommitTime,
                          Optional<Boolean> fua, boolean cleaner, OptionalLong maxAge, boolean metadataOnly,
                          OptionalLong pauseWriteback) {

        /** No optional argument. */
        public static final Options NONE = new Options(OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                Optional.empty(), false, OptionalLong.empty(), false, OptionalLong.empty());

        /** Rejects nulls and the values {@code writecache_ctr} refuses ("Invalid optional argument"). */
        public Options {
            Objects.requireNonNull(startSector, "startSector");
            Objects.requireNonNull(highWatermark, "highWatermark");
            Objects.requireNonNull(lowWatermark, "lowWatermark");
            Objects.requireNonNull(writebackJobs, "writebackJobs");
            Objects.requireNonNull(autocommitBlocks, "autocommitBlocks");
            Objects.requireNonNull(autocommitTime, "autocommitTime");
            Objects.requireNonNull(fua, "fua");
            Objects.requireNonNull(maxAge, "maxAge");
            Objects.requireNonNull(pauseWriteback, "pauseWriteback");
            range("start_sector", startSector, Long.MAX_VALUE);
            range("high_watermark", highWatermark, 100);
            range("low_watermark", lowWatermark, 100);
            range("writeback_jobs", writebackJobs, 4_294_967_295L);
            range("autocommit_blocks", autocommitBlocks, 4_294_967_295L);
            range("autocommit_time", autocommitTime, 3_600_000);
            range("max_age", maxAge, 86_400_000);
            range("pause_writeback", pauseWriteback, 60_000);
            if (highWatermark.orElse(50) < lowWatermark.orElse(45)) {
                throw new IllegalArgumentException("writecache target: high_watermark " + highWatermark.orElse(50)
                        + " below low_watermark " + lowWatermark.orElse(45) + " (High watermark must be greater "
                        + "than or equal to low watermark)");
            }
        }

        private static void range(String name, OptionalLong v, long max) {
            if (v.isPresent() && (v.getAsLong() < 0 || v.getAsLong() > max)) {
                throw new IllegalArgumentException("writecache target: " + name + " " + v.getAsLong()
                        + " is not from 0 to " + max + " (Invalid optional argument)");
            }
        }

        /** The optional argument words as {@code writecache_status} prints them, in its order. */
        public List<String> words() {
            List<String> out = new ArrayList<>();
            startSector.ifPresent(v -> out.addAll(List.of("start_sector", Long.toString(v))));
            highWatermark.ifPresent(v -> out.addAll(List.of("high_watermark", Long.toString(v))));
            lowWatermark.ifPresent(v -> out.addAll(List.of("low_watermark", Long.toString(v))));
            writebackJobs.ifPresent(v -> out.addAll(List.of("writeback_jobs", Long.toString(v))));
            autocommitBlocks.ifPresent(v -> out.addAll(List.of("autocommit_blocks", Long.toString(v))));
            autocommitTime.ifPresent(v -> out.addAll(List.of("autocommit_time", Long.toString(v))));
            maxAge.ifPresent(v -> out.addAll(List.of("max_age", Long.toString(v))));
            if (cleaner) {
                out.add("cleaner");
            }
            fua.ifPresent(f -> out.add(f ? "fua" : "nofua"));
            if (metadataOnly) {
                out.add("metadata_only");
            }
            pauseWriteback.ifPresent(v -> out.addAll(List.of("pause_writeback", Long.toString(v))));
            return List.copyOf(out);
        }
    }

    /** Rejects nulls, empty targets, block sizes the kernel refuses and pmem-only options in SSD mode. */
    public WritecacheTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("writecache", length);
        Objects.requireNonNull(originDevice, "originDevice");
        Objects.requireNonNull(cacheDevice, "cacheDevice");
        Objects.requireNonNull(options, "options");
        if (blockSize < 512 || blockSize > 4096 || Long.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("writecache target: block size " + blockSize + " bytes is not a "
                    + "power of two from 512 to 4096 (Invalid block size)");
        }
        if (!pmem && options.fua().isPresent()) {
            throw new IllegalArgumentException("writecache target: " + (options.fua().get() ? "fua" : "nofua")
                    + " is for pmem mode only (Invalid optional argument)");
        }
        if (pmem && options.pauseWriteback().isPresent()) {
            throw new IllegalArgumentException("writecache target: pause_writeback is for SSD mode only (Invalid "
                    + "optional argument)");
        }
    }

    @Override
    public String type() {
        return "writecache";
    }

    @Override
    public List<String> devices() {
        return List.of(originDevice, cacheDevice);
    }

    // dm-writecache.c: writecache_status (STATUSTYPE_TABLE)
    @Override
    public String arguments(Function<String, String> fmt) {
        List<String> words = options.words();
        StringBuilder sb = new StringBuilder().append(pmem ? 'p' : 's').append(' ').append(fmt.apply(originDevice))
                .append(' ').append(fmt.apply(cacheDevice)).append(' ').append(blockSize).append(' ')
                .append(words.size());
        for (String w : words) {
            sb.append(' ').append(w);
        }
        return sb.toString();
    }

    @Override
    public WritecacheTarget at(Sectors newStart) {
        return new WritecacheTarget(newStart, length, pmem, originDevice, cacheDevice, blockSize, options);
    }
}
