/**
 * File formats users bring and take away: host snapshots ({@link dev.dmmodel.io.HostSnapshot}), {@code lsblk}
 * output, LVM metadata, reports and command lines, dm tables, and layout files (YAML/JSON). Bad input is a {@link
 * dev.dmmodel.io.FormatException} naming the file, line and rule.
 */
package dev.dmmodel.io;
