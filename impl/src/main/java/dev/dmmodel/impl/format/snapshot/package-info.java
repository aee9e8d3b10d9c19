/**
 * A host snapshot as {@code bin/dmmodel-snapshot} collects it ({@code docs/snapshot-format.md}): sysfs block and
 * queue attributes, {@code dmsetup table}/{@code status}, LVM metadata and reports, read into layout steps.
 */
package dev.dmmodel.impl.format.snapshot;
