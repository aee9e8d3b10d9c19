/**
 * The block layer ({@code block/}): bios and their vectors ({@code bio.c}: {@link dev.dmmodel.impl.block.Bio},
 * {@link dev.dmmodel.impl.block.Bvecs}, {@link dev.dmmodel.impl.block.Bios}), the submission path
 * ({@code blk-core.c}: {@link dev.dmmodel.impl.block.BlockLayer} — partition remap, {@code submit_bio_noacct},
 * the loop that runs lower devices first, the plug, {@code bio_endio}, {@code blkdev_issue_discard}), splitting
 * to a queue's limits ({@code blk-merge.c}: {@link dev.dmmodel.impl.block.Splitter} — {@code max_sectors},
 * {@code max_segments}, segment size and virt boundary, {@code chunk_sectors}, discard limits), request-based
 * disks with plugging and merging ({@code blk-mq.c}: {@link dev.dmmodel.impl.block.DiskQueue},
 * {@link dev.dmmodel.impl.block.Request}, {@link dev.dmmodel.impl.block.Plug}), the tracepoints
 * ({@link dev.dmmodel.impl.block.Events}) and {@code /proc/diskstats}
 * ({@link dev.dmmodel.impl.block.Accounting}), and the queue limits themselves ({@code blk-settings.c}:
 * {@link dev.dmmodel.impl.block.Limits}, the kernel's {@code struct queue_limits}, and
 * {@link dev.dmmodel.impl.block.BlockLimits}: {@code blk_set_stacking_limits}, {@code blk_stack_limits},
 * alignment offsets, {@code blk_validate_limits}, driver max_sectors, readahead, sysfs writes).
 */
package dev.dmmodel.impl.block;
