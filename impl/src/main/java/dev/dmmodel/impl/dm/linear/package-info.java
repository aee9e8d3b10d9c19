/**
 * dm-linear ({@code drivers/md/dm-linear.c}): its target type with {@code linear_ctr}'s argument rules, and its
 * model ({@code linear_iterate_devices}, {@code linear_map}).
 */
package dev.dmmodel.impl.dm.linear;
