/**
 * dm-multipath ({@code drivers/md/dm-mpath.c}) with its path selectors ({@code dm-ps-round-robin.c},
 * {@code dm-ps-service-time.c}, {@code dm-ps-queue-length.c}): the target type with {@code multipath_ctr}'s checks
 * ({@code parse_features}, {@code parse_hw_handler}, {@code parse_priority_group}, {@code parse_path_selector},
 * {@code parse_path}, each selector's {@code add_path}) and the kernel's error texts; the model
 * ({@code multipath_iterate_devices}, {@code choose_pgpath}, the selectors' {@code select_path}, {@code start_io} and
 * {@code end_io}, {@code multipath_map_bio} for {@code queue_mode bio}, {@code multipath_clone_and_map} for the
 * request-based device, {@code multipath_status}); and the finding for paths whose limits differ.
 */
package dev.dmmodel.impl.dm.multipath;
