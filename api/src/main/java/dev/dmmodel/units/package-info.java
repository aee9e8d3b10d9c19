/**
 * Exact sizes: {@link dev.dmmodel.units.Sectors} (512-byte sectors) and {@link dev.dmmodel.units.Bytes}, parsed
 * from the forms users write; overflow is an error.
 */
package dev.dmmodel.units;
