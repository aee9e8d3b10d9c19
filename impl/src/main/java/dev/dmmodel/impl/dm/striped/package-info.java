/**
 * dm-striped ({@code drivers/md/dm-stripe.c}): its target type with {@code stripe_ctr}'s argument rules, and its
 * model ({@code stripe_io_hints}, {@code stripe_map}, {@code stripe_map_range} for discards).
 */
package dev.dmmodel.impl.dm.striped;
