/**
 * The block layer ({@code block/}): bios and their vectors ({@code bio.c}). The rest of the block layer
 * (limits stacking in {@code blk-settings.c}, splitting in {@code blk-merge.c}, requests and plugging in
 * {@code blk-mq.c}, partitions, diskstats) moves here from {@code impl.limits} and {@code impl.engine}.
 */
package dev.dmmodel.impl.block;
