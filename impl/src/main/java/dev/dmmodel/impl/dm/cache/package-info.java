/**
 * dm-cache ({@code drivers/md/dm-cache-target.c}, {@code dm-cache-policy-smq.c}): its target type with
 * {@code cache_ctr}/{@code parse_cache_args}'s argument rules and the kernel's error texts, its model
 * ({@code cache_iterate_devices}, {@code cache_io_hints}, {@code cache_map} for writethrough, writeback and
 * passthrough, promotions as kcopyd copies, {@code cache_status}), the smq policy's promotion rule
 * ({@link dev.dmmodel.impl.dm.cache.SmqPolicy}) and the findings of cache stacks.
 */
package dev.dmmodel.impl.dm.cache;
