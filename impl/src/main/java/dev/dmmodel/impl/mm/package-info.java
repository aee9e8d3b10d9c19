/**
 * Memory management as block I/O sees it ({@code mm/}, {@code fs/buffer.c}, {@code block/bdev.c}): a block
 * device's page cache with its soft block size ({@link dev.dmmodel.impl.mm.PageCache}, {@code set_init_blocksize}),
 * buffered reads with on-demand readahead ({@link dev.dmmodel.impl.mm.BufferedRead}: {@code filemap_read},
 * {@code ondemand_readahead}, {@code mpage_readahead}), writeback one bio per dirty soft block
 * ({@link dev.dmmodel.impl.mm.Writeback}: {@code block_write_full_folio}), and how a process's buffer lies in
 * physical memory ({@link dev.dmmodel.impl.mm.UserBuffer}), which decides a direct-I/O bio's segments.
 */
package dev.dmmodel.impl.mm;
