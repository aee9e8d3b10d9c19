/**
 * md, Linux software RAID ({@code drivers/md/md.c} and one class per personality): {@link MdPersonality} is
 * {@code struct md_personality} — the run-time checks of {@code <pers>_run}, the array size ({@code <pers>_size}),
 * the queue limits ({@code <pers>_set_limits}, stacked from the members by {@link MdLimits}) and the request path
 * ({@code make_request}); {@link MdArray} is the array in the block layer ({@code md_submit_bio}). raid0
 * ({@link Raid0}), raid1 ({@link Raid1}), raid10 ({@link Raid10}) and raid4/5/6 ({@link Raid5}, with the stripe
 * cache of {@code impl.md.raid5}).
 */
package dev.dmmodel.impl.md;
