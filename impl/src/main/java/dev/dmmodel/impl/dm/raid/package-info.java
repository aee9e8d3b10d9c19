/**
 * dm-raid ({@code drivers/md/dm-raid.c}): its target type with {@code raid_ctr}'s, {@code parse_raid_params}' and
 * {@code parse_dev_params}' argument rules and the kernel's error texts, and its model
 * ({@code raid_iterate_devices}, {@code raid_io_hints}, discard support as {@code configure_discard_support} sets
 * it, {@code max_io_len}, {@code raid_status} of an idle array). Its I/O ({@code raid_map}) goes through the md
 * personalities, which are not wired yet: I/O reaching a raid target ends the command that sent it.
 */
package dev.dmmodel.impl.dm.raid;
