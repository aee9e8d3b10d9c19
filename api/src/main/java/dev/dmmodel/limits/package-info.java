/**
 * Queue limits and the kernel's rules by version: {@link dev.dmmodel.limits.QueueLimits} ({@code struct
 * queue_limits}, {@code include/linux/blkdev.h}), {@link dev.dmmodel.limits.KernelProfile} (named presets, one per
 * recorded kernel, and a profile composed for any release with {@link
 * dev.dmmodel.limits.KernelProfile#forRelease}), {@link dev.dmmodel.limits.KernelRelease} (a {@code uname -r}
 * text).
 */
package dev.dmmodel.limits;
