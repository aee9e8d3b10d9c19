package dev.dmmodel.workload;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A synthetic I/O job, fio-like: {@code size} bytes from {@code offset} on a target device, in
 * {@code blockSize} operations, sequential or random, read, write, mixed, discard, write-zeroes or flush,
 * direct or buffered.
 *
 * <p>{@link #ops()} streams the operations: nothing is held per operation, so a job of any size (10 TiB
 * in 4 KiB blocks is 2.7 billion operations) iterates in constant memory. Each call starts again from
 * the first operation, and the same job always yields the same operations.
 *
 * <ul>
 *   <li>{@link Pattern#SEQUENTIAL}: block {@code i} at {@code offset + i * blockSize}.</li>
 *   <li>{@link Pattern#RANDOM}: like fio's default random map, every block of {@code [offset,
 *       offset + size)} is visited exactly once, in an order fixed by the seed (a keyed Feistel
 *       permutation with cycle walking, keys drawn from {@link SplittableRandom}); offsets are
 *       {@code offset + k * blockSize}.</li>
 *   <li>{@link Operation#MIXED}: each operation is a read with probability {@code readPercentage}/100,
 *       drawn from a {@link SplittableRandom} seeded with the job's seed (fio's {@code rwmixread}).</li>
 *   <li>{@link Operation#FLUSH}: {@code size / blockSize} flushes; a flush carries no data, so each
 *       {@link IoOp} has offset 0 and length 0.</li>
 * </ul>
 *
 * <p>Build with {@link #builder()}; the target and the size are required, the rest defaults to
 * sequential reads of 4 KiB, buffered, from offset 0, seed 0.
 */
public final class IoJob {

    /** Sector size every offset and length must be a multiple of. */
    private static final long SECTOR = 512;

    /** The order of the operations. */
    public enum Pattern {
        /** In ascending offset order. */
        SEQUENTIAL,
        /** Every block once, in a seed-determined order. */
        RANDOM
    }

    /** What the job does. */
    public enum Operation {
        /** Reads. */
        READ,
        /** Writes. */
        WRITE,
        /** Reads and writes, {@code readPercentage} percent reads. */
        MIXED,
        /** Discards (REQ_OP_DISCARD). */
        DISCARD,
        /** Write-zeroes (REQ_OP_WRITE_ZEROES). */
        WRITE_ZEROES,
        /** Flushes (an empty REQ_PREFLUSH). */
        FLUSH
    }

    /** The kind of one operation. */
    public enum OpType {
        /** A read. */
        READ,
        /** A write. */
        WRITE,
        /** A discard. */
        DISCARD,
        /** A write-zeroes. */
        WRITE_ZEROES,
        /** A flush (no data: offset and length 0). */
        FLUSH
    }

    /**
     * One operation.
     *
     * @param op what it does
     * @param offsetBytes where on the target, in bytes
     * @param lengthBytes how much, in bytes (0 for a flush)
     */
    public record IoOp(OpType op, long offsetBytes, long lengthBytes) {
        /** Rejects a null type and negative values. */
        public IoOp {
            Objects.requireNonNull(op, "op");
            if (offsetBytes < 0 || lengthBytes < 0) {
                throw new IllegalArgumentException("offset (" + offsetBytes + ") and length (" + lengthBytes
                        + ") must not be negative");
            }
        }
    }

    private final String target;
    private final Pattern pattern;
    private final long seed;
    private final Operation operation;
    private final int readPercentage;
    private final long blockSize;
    private final long size;
    private final long offset;
    private final boolean direct;

    private IoJob(Builder b) {
        this.target = b.target;
        this.pattern = b.pattern;
        this.seed = b.seed;
        this.operation = b.operation;
        this.readPercentage = b.readPercentage == null ? (b.operation == Operation.READ ? 100 : 0) : b.readPercentage;
        this.blockSize = b.blockSize;
        this.size = b.size;
        this.offset = b.offset;
        this.direct = b.direct;
    }

    /** A new builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The target device, e.g. {@code /dev/mapper/thin}. */
    public String target() {
        return target;
    }

    /** Sequential or random. */
    public Pattern pattern() {
        return pattern;
    }

    /** The seed of the random order and of the mixed read/write draw. */
    public long seed() {
        return seed;
    }

    /** What the job does. */
    public Operation operation() {
        return operation;
    }

    /** Percent reads: as given for {@link Operation#MIXED}, 100 for READ, 0 otherwise. */
    public int readPercentage() {
        return readPercentage;
    }

    /** Bytes per operation. */
    public long blockSize() {
        return blockSize;
    }

    /** Bytes covered. */
    public long size() {
        return size;
    }

    /** First byte covered. */
    public long offset() {
        return offset;
    }

    /** O_DIRECT (true) or through the page cache (false). */
    public boolean direct() {
        return direct;
    }

    /** The number of operations: {@code size / blockSize}. */
    public long opCount() {
        return size / blockSize;
    }

    /** Streams the operations, from the first, in constant memory. */
    public Iterator<IoOp> ops() {
        return new OpIterator();
    }

    private final class OpIterator implements Iterator<IoOp> {
        private final long count = opCount();
        private final BlockPermutation permutation =
                pattern == Pattern.RANDOM ? new BlockPermutation(count, seed) : null;
        private final SplittableRandom mix = operation == Operation.MIXED ? new SplittableRandom(seed) : null;
        private long next;

        @Override
        public boolean hasNext() {
            return next < count;
        }

        @Override
        public IoOp next() {
            if (next >= count) {
                throw new NoSuchElementException("all " + count + " operations of the job were returned");
            }
            long block = permutation == null ? next : permutation.apply(next);
            next++;
            long at = offset + block * blockSize;
            switch (operation) {
                case READ: return new IoOp(OpType.READ, at, blockSize);
                case WRITE: return new IoOp(OpType.WRITE, at, blockSize);
                case MIXED:
                    return new IoOp(mix.nextInt(100) < readPercentage ? OpType.READ : OpType.WRITE, at, blockSize);
                case DISCARD: return new IoOp(OpType.DISCARD, at, blockSize);
                case WRITE_ZEROES: return new IoOp(OpType.WRITE_ZEROES, at, blockSize);
                case FLUSH: return new IoOp(OpType.FLUSH, 0, 0);
                default: throw new AssertionError(operation);
            }
        }
    }

    /**
     * A bijection of {@code [0, n)}: a balanced Feistel network on the smallest even number of bits that
     * covers {@code n}, with cycle walking to stay below {@code n} (at most four steps on average).
     */
    private static final class BlockPermutation {
        private static final int ROUNDS = 6;
        private final long n;
        private final int halfBits;
        private final long mask;
        private final long[] keys = new long[ROUNDS];

        BlockPermutation(long n, long seed) {
            this.n = n;
            int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
            bits = Math.max(2, bits + (bits & 1));
            this.halfBits = bits / 2;
            this.mask = (1L << halfBits) - 1;
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < ROUNDS; i++) {
                keys[i] = random.nextLong();
            }
        }

        long apply(long x) {
            long y = x;
            do {
                y = encrypt(y);
            } while (y >= n);
            return y;
        }

        private long encrypt(long x) {
            long left = x >>> halfBits;
            long right = x & mask;
            for (long key : keys) {
                long f = mix64(right ^ key) & mask;
                long newRight = left ^ f;
                left = right;
                right = newRight;
            }
            return (left << halfBits) | right;
        }

        /** SplitMix64's finalizer. */
        private static long mix64(long z) {
            long v = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            v = (v ^ (v >>> 27)) * 0x94d049bb133111ebL;
            return v ^ (v >>> 31);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IoJob)) {
            return false;
        }
        IoJob j = (IoJob) o;
        return seed == j.seed && readPercentage == j.readPercentage && blockSize == j.blockSize && size == j.size
                && offset == j.offset && direct == j.direct && target.equals(j.target) && pattern == j.pattern
                && operation == j.operation;
    }

    @Override
    public int hashCode() {
        return Objects.hash(target, pattern, seed, operation, readPercentage, blockSize, size, offset, direct);
    }

    @Override
    public String toString() {
        return "IoJob[" + target + " " + pattern.name().toLowerCase(java.util.Locale.ROOT) + " "
                + operation.name().toLowerCase(java.util.Locale.ROOT)
                + (operation == Operation.MIXED ? " " + readPercentage + "% reads" : "")
                + " bs=" + blockSize + " size=" + size + " offset=" + offset + (direct ? " direct" : " buffered")
                + (pattern == Pattern.RANDOM || operation == Operation.MIXED ? " seed=" + seed : "") + "]";
    }

    /** Builds an {@link IoJob}; {@link #build()} checks every value and names the one that is wrong. */
    public static final class Builder {
        private String target;
        private Pattern pattern = Pattern.SEQUENTIAL;
        private long seed;
        private Operation operation = Operation.READ;
        private Integer readPercentage;
        private long blockSize = 4096;
        private Long size;
        private long offset;
        private boolean direct;

        private Builder() {
        }

        /** The target device (required). */
        public Builder target(String device) {
            this.target = device;
            return this;
        }

        /** Sequential or random. */
        public Builder pattern(Pattern p) {
            this.pattern = p;
            return this;
        }

        /** Sequential order (the default). */
        public Builder sequential() {
            return pattern(Pattern.SEQUENTIAL);
        }

        /** Random order with this seed. */
        public Builder random(long randomSeed) {
            this.seed = randomSeed;
            return pattern(Pattern.RANDOM);
        }

        /** The seed of the random order and of the mixed read/write draw (default 0). */
        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        /** What the job does. */
        public Builder operation(Operation op) {
            this.operation = op;
            return this;
        }

        /** Reads (the default). */
        public Builder read() {
            return operation(Operation.READ);
        }

        /** Writes. */
        public Builder write() {
            return operation(Operation.WRITE);
        }

        /** Reads and writes, {@code readPercent} percent reads (0 to 100). */
        public Builder mixed(int readPercent) {
            this.readPercentage = readPercent;
            return operation(Operation.MIXED);
        }

        /** Percent reads of a {@link Operation#MIXED} job. */
        public Builder readPercentage(int readPercent) {
            this.readPercentage = readPercent;
            return this;
        }

        /** Discards. */
        public Builder discard() {
            return operation(Operation.DISCARD);
        }

        /** Write-zeroes. */
        public Builder writeZeroes() {
            return operation(Operation.WRITE_ZEROES);
        }

        /** Flushes. */
        public Builder flush() {
            return operation(Operation.FLUSH);
        }

        /** Bytes per operation: positive, a multiple of 512 (default 4096). */
        public Builder blockSize(long bytes) {
            this.blockSize = bytes;
            return this;
        }

        /** Bytes covered: positive, a multiple of the block size (required). */
        public Builder size(long bytes) {
            this.size = bytes;
            return this;
        }

        /** First byte: not negative, a multiple of 512 (default 0). */
        public Builder offset(long bytes) {
            this.offset = bytes;
            return this;
        }

        /** O_DIRECT (true) or buffered (false, the default). */
        public Builder direct(boolean isDirect) {
            this.direct = isDirect;
            return this;
        }

        /** O_DIRECT. */
        public Builder direct() {
            return direct(true);
        }

        /** Through the page cache. */
        public Builder buffered() {
            return direct(false);
        }

        /**
         * Builds the job.
         *
         * @throws IllegalArgumentException naming the value that is wrong
         */
        public IoJob build() {
            if (target == null || target.isBlank()) {
                throw new IllegalArgumentException("the target device must be given");
            }
            Objects.requireNonNull(pattern, "pattern");
            Objects.requireNonNull(operation, "operation");
            if (blockSize <= 0 || blockSize % SECTOR != 0) {
                throw new IllegalArgumentException("block size must be a positive multiple of 512 bytes, not "
                        + blockSize);
            }
            if (size == null) {
                throw new IllegalArgumentException("the size must be given");
            }
            if (size <= 0) {
                throw new IllegalArgumentException("size must be positive, not " + size);
            }
            if (size % blockSize != 0) {
                throw new IllegalArgumentException("size (" + size + " bytes) must be a multiple of the block size ("
                        + blockSize + " bytes)");
            }
            if (offset < 0 || offset % SECTOR != 0) {
                throw new IllegalArgumentException("offset must be a non-negative multiple of 512 bytes, not "
                        + offset);
            }
            if (offset > Long.MAX_VALUE - size) {
                throw new IllegalArgumentException("offset (" + offset + ") + size (" + size
                        + ") is beyond the largest byte offset (" + Long.MAX_VALUE + ")");
            }
            if (operation == Operation.MIXED) {
                if (readPercentage == null) {
                    throw new IllegalArgumentException("a MIXED job needs a read percentage (0 to 100)");
                }
                if (readPercentage < 0 || readPercentage > 100) {
                    throw new IllegalArgumentException("read percentage must be 0 to 100, not " + readPercentage);
                }
            } else if (readPercentage != null) {
                throw new IllegalArgumentException("a read percentage applies only to MIXED jobs, not to "
                        + operation);
            }
            return new IoJob(this);
        }
    }
}
