/** {@code sgdisk}: its command line and how it places partitions. */
package dev.dmmodel.impl.sgdisk;
