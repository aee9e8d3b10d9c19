/**
 * Targets the model does not implement ({@code drivers/md/dm-*.c} beyond linear, striped, thin, zero and error):
 * kept as {@link dev.dmmodel.dm.OpaqueTarget}s so that a host with one imports. Their limits are the ones the
 * kernel reported, their devices stack below them as usual, and I/O that reaches one is refused with a message
 * naming the device and the target.
 */
package dev.dmmodel.impl.dm.opaque;
