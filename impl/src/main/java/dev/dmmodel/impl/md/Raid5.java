package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLimits;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.md.raid5.Raid5Geometry;
import dev.dmmodel.impl.md.raid5.StripeCache;
import java.util.ArrayList;
import java.util.List;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;

/**
 * md raid4, raid5 and raid6 ({@code drivers/md/raid5.c}): data chunks with P (and Q) parity, written through the
 * stripe cache in 4 KiB pages; direct reads bypass the cache chunk by chunk.
 */
public final class Raid5 implements MdPersonality {

    private static final Raid5 RAID4 = new Raid5(MdLevel.RAID4);
    private static final Raid5 RAID5 = new Raid5(MdLevel.RAID5);
    private static final Raid5 RAID6 = new Raid5(MdLevel.RAID6);

    /** {@code RAID5_MAX_REQ_STRIPES}: the stripes one request may cover (6.0+). */
    static final long MAX_REQ_STRIPES = 256;
    /** {@code RAID5_STRIPE_SECTORS} with the default 4 KiB {@code stripe_size}. */
    static final long STRIPE_SECTORS = 8;

    private final MdLevel level;

    private Raid5(MdLevel level) {
        this.level = level;
    }

    /** The personality of raid4, raid5 or raid6. */
    static Raid5 forLevel(MdLevel level) {
        return switch (level) {
            case RAID4 -> RAID4;
            case RAID5 -> RAID5;
            case RAID6 -> RAID6;
            default -> throw new IllegalArgumentException(level + " is not a raid4/5/6 level");
        };
    }

    @Override
    public MdLevel level() {
        return level;
    }

    /** {@code max_degraded}: parity members, 2 for raid6, else 1. */
    int maxDegraded() {
        return level == MdLevel.RAID6 ? 2 : 1;
    }

    // drivers/md/raid5.c: setup_conf / raid5_run — enough disks for the level, a power-of-two chunk of whole pages,
    // no more members missing than the parity covers
    @Override
    public void check(String array, MdArraySpec spec) {
        int min = level == MdLevel.RAID6 ? 4 : 2;
        if (spec.raidDisks() < min) {
            throw new LayoutException(array, "raid_disks", Integer.toString(spec.raidDisks()), "md/raid:" + array
                    + ": not enough disks for " + level.sysfsName() + " (" + spec.raidDisks() + ", at least " + min
                    + ")");
        }
        long chunk = spec.chunk().count();
        if (chunk % STRIPE_SECTORS != 0 || Long.bitCount(chunk) != 1) {
            throw new LayoutException(array, "chunk_size", Long.toString(chunk * 512), "md/raid:" + array
                    + ": invalid chunk size " + chunk * 512 + " (a power of 2, at least 4096 bytes)");
        }
        int missing = spec.raidDisks() - spec.members().size();
        if (missing > maxDegraded()) {
            throw new LayoutException(array, "raid_disks", Integer.toString(spec.members().size()), "md/raid:"
                    + array + ": not enough operational devices (" + missing + "/" + spec.raidDisks() + " failed)");
        }
    }

    // drivers/md/raid5.c: raid5_size — the smallest member's data in whole chunks × the data disks
    @Override
    public long size(MdArraySpec spec) {
        long chunk = spec.chunk().count();
        long sectors = spec.members().stream().mapToLong(m -> m.dataSize().count()).min().orElse(0) / chunk * chunk;
        return Math.multiplyExact(sectors, spec.raidDisks() - maxDegraded());
    }

    // drivers/md/raid5.c: raid5_set_limits — io_min the chunk, io_opt the data stripe, discard granularity the
    // stripe, no write-zeroes
    @Override
    public void setLimits(Limits lim, MdArraySpec spec, KernelProfile p) {
        long chunkBytes = Math.multiplyExact(spec.chunk().count(), 512);
        int dataDisks = spec.raidDisks() - maxDegraded();
        lim.ioMin = chunkBytes;
        lim.ioOpt = Math.multiplyExact(chunkBytes, dataDisks);
        // stripe = roundup_pow_of_two(data_disks * chunk pages) * PAGE_SIZE
        long pages = Math.multiplyExact((long) dataDisks, chunkBytes / 4096);
        lim.discardGranularity = Long.highestOneBit(pages) == pages ? pages * 4096 : Long.highestOneBit(pages) * 2
                * 4096;
        lim.maxWriteZeroesSectors = 0;
    }

    // drivers/md/raid5.c: raid5_set_limits — discards only with devices_handle_discard_safely (off by default);
    // 6.0+ max_hw_sectors of RAID5_MAX_REQ_STRIPES stripes and no limit on segments
    @Override
    public void afterStacking(Limits lim, MdArraySpec spec, KernelProfile p) {
        lim.maxHwDiscardSectors = 0;
        lim.maxDiscardSectors = 0;
        if (p.isAtLeast(6, 0)) {
            lim.maxHwSectors = MAX_REQ_STRIPES * STRIPE_SECTORS;
            lim.maxSectors = Math.min(lim.maxSectors, lim.maxHwSectors);
            lim.maxSegments = BlockLimits.USHRT_MAX;
        }
    }

    @Override
    public Conf run(MdArray array) {
        return new R5Conf(array, this);
    }

    /** A personality state with stripe-cache counters. */
    interface StripeStats {
        /** The stripe cache's counters. */
        StripeCache.Stats stripeStats();
    }

    /** {@code struct r5conf}: the geometry, the stripe cache and the bios waiting for raid5d. */
    private static final class R5Conf implements Conf, StripeStats {
        private final MdArray md;
        private final Raid5Geometry geometry;
        private final StripeCache cache;
        private final List<Bio> waiting = new ArrayList<>();
        private boolean wakeupPending;

        R5Conf(MdArray md, Raid5 pers) {
            this.md = md;
            MdArraySpec spec = md.spec();
            long chunk = spec.chunk().count();
            this.geometry = new Raid5Geometry(pers.level.number(), spec.layout(), spec.raidDisks(), chunk);
            long component = spec.members().stream().mapToLong(m -> m.dataSize().count()).min().orElse(0)
                    / chunk * chunk;
            // the engine needs the I/O, not the contents: memory stays the cache's heads however much is written
            this.cache = new StripeCache(geometry, StripeCache.NR_STRIPES, component, false);
        }

        // drivers/md/raid5.c: raid5_make_request — reads bypass the cache chunk by chunk (chunk_aligned_read), writes
        // are added to their stripe heads page by page and handled by raid5d once the submitter unplugs
        @Override
        public void makeRequest(Bio bio) {
            if (bio.op == Op.READ) {
                alignedRead(bio);
                return;
            }
            if (bio.op != Op.WRITE) {
                md.block().fail(bio, md.name() + ": " + bio.op + " on " + md.spec().level().sysfsName()
                        + " is not modelled (raid5 takes discards only with devices_handle_discard_safely)");
                return;
            }
            if (!md.spec().complete()) {
                md.block().fail(bio, md.name() + ": writes to a degraded " + md.spec().level().sysfsName()
                        + " array are not modelled");
                return;
            }
            cache.addWrite(bio.sector, bio.sectors);
            bio.remaining++;
            waiting.add(bio);
            // drivers/md/raid5.c: release_stripe_plug — stripe heads wait on the plug (raid5_unplug) or raid5d wakes
            if (!wakeupPending) {
                wakeupPending = true;
                if (!md.block().checkPlugged(this, () -> md.block().defer(this::raid5d))) {
                    md.block().defer(this::raid5d);
                }
            }
        }

        // drivers/md/raid5.c: chunk_aligned_read — a read across a chunk is split there (the rest resubmitted), then
        // raid5_read_one_chunk sends the piece straight to the data disk that holds it
        private void alignedRead(Bio bio) {
            long chunk = geometry.chunkSectors();
            long left = chunk - bio.sector % chunk;
            if (left < bio.sectors) {
                Bio front = md.splitFront(bio, left, md.explaining()
                        ? "chunk_aligned_read: chunk of " + chunk + " sectors ends at " + (bio.sector + left) : "");
                md.block().submitBioNoacct(bio);
                bio = front;
            }
            Raid5Geometry.Location loc = geometry.computeSector(bio.sector);
            if (md.spec().member(loc.dataDisk()).isEmpty()) {
                md.block().fail(bio, md.name() + ": a read of missing member " + loc.dataDisk()
                        + " (reconstruction from parity) is not modelled");
                return;
            }
            md.remapClone(bio, loc.dataDisk(), loc.memberSector(), bio.sector);
        }

        // drivers/md/raid5.c: raid5d -> handle_stripe -> ops_run_io — under raid5d's own plug, each stripe head's
        // reads, then its writes (one page per bio: reads R, writes WS as recorded); the bios that filled them complete
        private void raid5d() {
            wakeupPending = false;
            md.block().startPlug();
            for (StripeCache.StripeWork w : cache.handle()) {
                for (StripeCache.MemberIo io : w.reads()) {
                    md.submitOwn(io.disk(), Op.READ, 0, io.memberSector(), io.sectors(), io.fromSector(), null);
                }
                for (StripeCache.MemberIo io : w.writes()) {
                    md.submitOwn(io.disk(), Op.WRITE, Bio.SYNC, io.memberSector(), io.sectors(), io.fromSector(),
                            null);
                }
            }
            md.block().finishPlug();
            List<Bio> done = new ArrayList<>(waiting);
            waiting.clear();
            done.forEach(md.block()::endio);
        }

        @Override
        public StripeCache.Stats stripeStats() {
            return cache.stats();
        }
    }
}
