package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.block.Splitter;
import dev.dmmodel.trace.EventType;
import java.util.Objects;

/**
 * A running md array in the block layer ({@code struct mddev} with its gendisk): {@code md_submit_bio} splits a bio
 * to the array's limits, sends a preflush to every member ({@code md_flush_request}) and hands the bio to the
 * personality's {@code make_request}. The helpers here are what the personalities share: {@code bio_split} +
 * {@code bio_chain}, the remap of a clone onto a member at its data offset, and bios of the array's own.
 */
public final class MdArray implements BlockLayer.BioBasedDriver {
    private final BlockLayer block;
    private final String name;
    private final MdArraySpec spec;
    private final MdPersonality personality;
    private final MdPersonality.Conf conf;
    /** Whether the array has a gendisk of its own (an md device) rather than being dm-raid's. */
    private final boolean gendisk;
    private long arrayWrites;
    private long arrayWriteSectors;
    private long largestWrite;
    private long memberWriteSectors;

    /**
     * What the array did in a run (for findings): writes it took and their sectors, the largest, and the sectors its
     * members were written; for raid4/5/6 the stripe cache's counters, else null.
     *
     * @param arrayWrites write bios the personality took
     * @param arrayWriteSectors their sectors
     * @param largestWriteSectors the largest of them
     * @param memberWriteSectors sectors written to the members (copies, parity)
     * @param stripes the stripe cache's counters (raid4/5/6), or null
     */
    public record Stats(long arrayWrites, long arrayWriteSectors, long largestWriteSectors, long memberWriteSectors,
                        dev.dmmodel.impl.md.raid5.StripeCache.Stats stripes) {
    }

    /** The run's counters. */
    public Stats stats() {
        return new Stats(arrayWrites, arrayWriteSectors, largestWrite, memberWriteSectors,
                conf instanceof Raid5.StripeStats r ? r.stripeStats() : null);
    }

    /** Counts a write the personality takes, once: not again when a remainder it split off comes back. */
    private void countWrite(Bio bio) {
        if (bio.op == Op.WRITE && bio.sectors > 0 && !bio.mdCounted) {
            bio.mdCounted = true;
            arrayWrites++;
            arrayWriteSectors = Math.addExact(arrayWriteSectors, bio.sectors);
            largestWrite = Math.max(largestWrite, bio.sectors);
        }
    }

    /**
     * The array {@code name} over {@code spec}'s members (by kernel name), running its personality.
     *
     * @param block the block layer its bios go through
     */
    public MdArray(BlockLayer block, String name, MdArraySpec spec) {
        this(block, name, spec, true);
    }

    /**
     * An array as md or as dm-raid runs it: dm-raid's mddev has no gendisk, so its personality's remaps and splits
     * are not traced ({@code mddev_trace_remap} and the personalities test {@code mddev->gendisk}); its members'
     * bios show only as queued on them.
     *
     * @param name the md device, or the dm-raid device whose table holds the array
     */
    public MdArray(BlockLayer block, String name, MdArraySpec spec, boolean gendisk) {
        this.block = Objects.requireNonNull(block, "block");
        this.name = Objects.requireNonNull(name, "name");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.gendisk = gendisk;
        this.personality = MdPersonality.of(spec.level());
        this.conf = personality.run(this);
    }

    /**
     * {@code md_handle_request} as dm-raid's {@code raid_map} calls it: the personality takes {@code bio}, whose
     * sector is the array's (an empty preflush goes to every member first, {@code md_flush_request}).
     */
    // drivers/md/md.c: md_handle_request
    public void handleRequest(Bio bio) {
        if (bio.has(Bio.PREFLUSH) && flushRequest(bio)) {
            return;
        }
        countWrite(bio);
        conf.makeRequest(bio);
    }

    /** The array's kernel name ({@code md0}). */
    public String name() {
        return name;
    }

    /** The array's configuration, members by kernel name. */
    public MdArraySpec spec() {
        return spec;
    }

    /** The block layer. */
    public BlockLayer block() {
        return block;
    }

    /** The personality's state, for tests and statistics. */
    MdPersonality.Conf conf() {
        return conf;
    }

    // drivers/md/md.c: md_submit_bio — bio_split_to_limits, then md_handle_request -> pers->make_request
    @Override
    public void submitBio(Bio bio) {
        bio.dmBio = true;
        if (!block.atBuild() && bio.sectors > 0) {
            Splitter.Result r = Splitter.check(bio, block.queueLimits(name));
            if (r.splitSectors() > 0 && r.splitSectors() < bio.sectors) {
                Bio front = splitFront(bio, r.splitSectors(), block.events.explain
                        ? Splitter.why(r, bio.sector, block.queueLimits(name)) + " of " + name : "");
                block.submitBioNoacct(bio);
                bio = front;
            }
        }
        block.accounting.io(name, bio.op, bio.sectors);
        if (bio.has(Bio.PREFLUSH) && flushRequest(bio)) {
            return;
        }
        countWrite(bio);
        conf.makeRequest(bio);
    }

    /**
     * Before 4.3 bios were built to fit: the personality's {@code merge_bvec_fn} keeps a bio inside one chunk
     * ({@code raid0_mergeable_bvec}, {@code raid10_mergeable_bvec}, {@code raid5_mergeable_bvec}); raid1 has none.
     */
    @Override
    public long mergeLimit(long sector) {
        long chunk = spec.chunk().count();
        return chunk == 0 ? Long.MAX_VALUE : chunk - sector % chunk;
    }

    // drivers/md/md.c: md_flush_request — an empty preflush to every member, chained to the bio; a bio without data
    // then completes, one with data goes on without REQ_PREFLUSH
    private boolean flushRequest(Bio bio) {
        bio.remaining++;
        for (MdMember m : spec.members()) {
            Bio flush = new Bio(m.device(), Op.WRITE, Bio.PREFLUSH, 0, 0, null);
            flush.parent = bio;
            bio.remaining++;
            block.submitBioNoacct(flush);
        }
        bio.flags &= ~Bio.PREFLUSH;
        if (bio.sectors == 0) {
            block.endio(bio);
            return true;
        }
        bio.remaining--;
        return false;
    }

    /**
     * {@code bio_split} + {@code bio_chain} + {@code trace_block_split}: the first {@code sectors} of {@code bio} as a
     * new bio whose completion counts towards {@code bio}, which now holds the rest.
     */
    public Bio splitFront(Bio bio, long sectors) {
        return splitFront(bio, sectors, "");
    }

    /**
     * {@link #splitFront(Bio, long)} saying why ({@link dev.dmmodel.trace.TraceEvent#why()}); callers build
     * {@code why} only when {@link #explaining()}.
     */
    public Bio splitFront(Bio bio, long sectors, String why) {
        Bio front = bio.clone(0, sectors);
        front.traced = true;
        front.mdCounted = bio.mdCounted;
        front.dmBio = true;
        front.parent = bio;
        bio.remaining++;
        bio.advance(sectors);
        if (gendisk && block.events.enabled()) {
            block.events.emit(name, EventType.SPLIT, front.rwbs(), front.sector, -1, "new_sector=" + bio.sector, why);
        }
        return front;
    }

    /** Whether events say why ({@code trace --why}). */
    public boolean explaining() {
        return block.events.explain;
    }

    /** The kernel name of the member in {@code slot}. */
    public String device(int slot) {
        return member(slot).device();
    }

    /** The member in {@code slot}. */
    public MdMember member(int slot) {
        return spec.member(slot).orElseThrow(() -> new IllegalStateException(name + ": slot " + slot + " is empty"));
    }

    /**
     * A clone of {@code bio} for the member in {@code slot} at {@code memberSector} (counted from the member's data
     * offset), traced as remapped from the array at {@code fromSector} and submitted; it completes into {@code bio}.
     */
    // drivers/md/md.c: mddev_trace_remap / trace_block_bio_remap(bio, disk_devt(mddev->gendisk), sector)
    public void remapClone(Bio bio, int slot, long memberSector, long fromSector) {
        Bio c = bio.clone(0, bio.sectors);
        MdMember m = member(slot);
        c.device = m.device();
        c.sector = Math.addExact(memberSector, m.dataOffset().count());
        c.parent = bio;
        bio.remaining++;
        if (c.op == Op.WRITE) {
            memberWriteSectors = Math.addExact(memberWriteSectors, c.sectors);
        }
        if (gendisk && block.events.enabled()) {
            block.events.emit(c.device, EventType.BIO_REMAP, c.rwbs(), c.sector, c.sectors,
                    "from=" + name + ":" + fromSector);
        }
        block.submitBioNoacct(c);
    }

    /**
     * A bio of the array's own (raid5's stripe I/O) to the member in {@code slot}, traced as remapped from the array
     * at {@code fromSector}; it completes into {@code parent} when that is not null.
     */
    public void submitOwn(int slot, Op op, int flags, long memberSector, long sectors, long fromSector, Bio parent) {
        MdMember m = member(slot);
        Bio b = new Bio(m.device(), op, flags, Math.addExact(memberSector, m.dataOffset().count()), sectors,
                block.pages(sectors));
        if (parent != null) {
            b.parent = parent;
            parent.remaining++;
        }
        if (op == Op.WRITE) {
            memberWriteSectors = Math.addExact(memberWriteSectors, sectors);
        }
        if (gendisk && block.events.enabled()) {
            block.events.emit(b.device, EventType.BIO_REMAP, b.rwbs(), b.sector, b.sectors,
                    "from=" + name + ":" + fromSector);
        }
        block.submitBioNoacct(b);
    }

    @Override
    public String toString() {
        return "MdArray[" + name + ", " + spec.level().sysfsName() + "]";
    }
}
