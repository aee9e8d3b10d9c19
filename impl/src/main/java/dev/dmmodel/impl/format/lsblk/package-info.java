/**
 * util-linux {@code lsblk --json --bytes --output-all}: its columns, which util-linux release added each, and the
 * disks and partitions they describe.
 */
package dev.dmmodel.impl.format.lsblk;
