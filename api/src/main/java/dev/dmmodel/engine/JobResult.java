package dev.dmmodel.engine;

import dev.dmmodel.workload.IoJob;
import java.util.Objects;

/**
 * What running an {@link IoJob} did.
 *
 * @param job the job
 * @param operations operations submitted
 * @param bytes bytes read, written, discarded or zeroed
 * @param errors operations the kernel refused or failed (misaligned O_DIRECT, out of space, error targets)
 * @param firstError the first error's message, empty if none
 */
public record JobResult(IoJob job, long operations, long bytes, long errors, String firstError) {
    /** Rejects nulls. */
    public JobResult {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(firstError, "firstError");
    }
}
