/**
 * dm-error ({@code drivers/md/dm-target.c}, {@code io_err_*}): every I/O fails, no device below.
 */
package dev.dmmodel.impl.dm.error;
