package dev.dmmodel.impl.dm;

/** A target that completes I/O itself, with no device below: dm-zero or dm-error. */
public interface ZeroLike {
    /** Whether I/O fails (dm-error) rather than succeeding with zeroes (dm-zero). */
    boolean fails();
}
