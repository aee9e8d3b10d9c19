/**
 * dm-writecache ({@code drivers/md/dm-writecache.c}), SSD mode: its target type with {@code writecache_ctr}'s
 * argument rules and the kernel's error texts, and its model ({@code writecache_iterate_devices},
 * {@code writecache_io_hints}, {@code writecache_map}: writes into consecutive free blocks of the cache device,
 * reads of cached blocks one block at a time, the metadata commit of {@code writecache_flush} on the autocommit
 * timer or a flush, {@code writecache_status}).
 */
package dev.dmmodel.impl.dm.writecache;
