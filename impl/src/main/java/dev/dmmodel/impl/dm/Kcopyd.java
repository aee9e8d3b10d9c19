package dev.dmmodel.impl.dm;

/** dm-kcopyd's constants the targets that copy or zero through it share ({@code drivers/md/dm-kcopyd.c}). */
public final class Kcopyd {
    /** {@code DEFAULT_SUB_JOB_SIZE_KB}: a copy or zero job is split into sub-jobs of 512 KiB = 1024 sectors. */
    // drivers/md/dm-kcopyd.c: DEFAULT_SUB_JOB_SIZE_KB
    public static final long SUB_JOB_SECTORS = 1024;

    private Kcopyd() {
    }
}
