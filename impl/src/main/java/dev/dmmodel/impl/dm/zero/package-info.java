/**
 * dm-zero ({@code drivers/md/dm-zero.c}): reads return zeroes, writes are dropped, no device below.
 */
package dev.dmmodel.impl.dm.zero;
