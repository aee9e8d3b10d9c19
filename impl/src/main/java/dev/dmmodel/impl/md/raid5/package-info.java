/**
 * md raid4/5/6 ({@code drivers/md/raid5.c}) as pure algorithms for the md core to call: the geometry
 * ({@code raid5_compute_sector}, {@code raid5_compute_blocknr}, the trace's {@code from} sector, raid6's syndrome order)
 * and the stripe cache's write path (stripe heads, full-stripe / reconstruct-write / read-modify-write, the member
 * bios, cache persistence and LRU reuse), with contents and parity kept so identity can be checked.
 */
package dev.dmmodel.impl.md.raid5;
