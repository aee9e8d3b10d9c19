/**
 * Partition placement as the partitioning tools do it (msdos and gpt; parted's minimal and optimal alignment to the
 * disk's I/O limits).
 */
package dev.dmmodel.impl.partition;
