/**
 * Layout findings with stable ids, each with its numbers and fix: alignment of partitions, PV data areas and dm
 * devices, overlaps; the validator that runs every family's checks (dm-thin's are in {@code impl.dm.thin}).
 */
package dev.dmmodel.impl.finding;
