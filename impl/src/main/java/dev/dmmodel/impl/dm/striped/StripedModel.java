package dev.dmmodel.impl.dm.striped;

import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** dm-striped ({@code drivers/md/dm-stripe.c}). */
public final class StripedModel implements TargetModel {
    private final StripedTarget target;

    /** The model of one striped table target. */
    public StripedModel(StripedTarget target) {
        this.target = target;
    }

    // dm-stripe.c: stripe_iterate_devices — each stripe from its physical_start for stripe_width sectors
    @Override
    public List<DeviceArea> iterateDevices() {
        List<DeviceArea> out = new ArrayList<>();
        for (StripedTarget.Stripe s : target.stripes()) {
            out.add(new DeviceArea(s.device(), s.offset().count(), target.stripeWidth()));
        }
        return out;
    }

    // dm-stripe.c: stripe_io_hints — io_min = chunk, io_opt = chunk × stripes (6.12: chunk_sectors = chunk too)
    @Override
    public void ioHints(Limits l, Function<String, Limits> deviceLimits, KernelProfile p) {
        if (p.alignmentMath() == KernelProfile.AlignmentMath.NONE) {
            return;
        }
        long chunkBytes = target.chunkSectors() * 512;
        if (p.stripedSetsChunkSectors()) {
            l.chunkSectors = target.chunkSectors();
        }
        // blk_limits_io_min: never below the logical or physical block size
        l.ioMin = Math.max(chunkBytes, Math.max(l.logicalBlockSize, l.physicalBlockSize));
        l.ioOpt = Math.multiplyExact(chunkBytes, target.stripes().size());
        if (p.stripedDiscardSpansStripes() && l.maxHwDiscardSectors > 0) {
            l.maxHwDiscardSectors = overStripes(l.maxHwDiscardSectors);
            l.maxDiscardSectors = overStripes(l.maxDiscardSectors);
            if (l.maxUserDiscardSectors > 0 && l.maxUserDiscardSectors < dev.dmmodel.limits.QueueLimits.UINT_MAX) {
                l.maxUserDiscardSectors = overStripes(l.maxUserDiscardSectors);
            }
        }
    }

    // dm-stripe.c: stripe_io_hints as recorded on 7.2 — one device's discard limit × stripes, in whole stripes
    // (chunk × stripes): 2 × 2147450880 bytes over 64 KiB chunks gives 4294836224
    private long overStripes(long sectors) {
        long stripes = target.stripes().size();
        long width = Math.multiplyExact(target.chunkSectors(), stripes);
        return Math.multiplyExact(sectors, stripes) / width * width;
    }

    // dm-stripe.c: stripe_ctr — dm_set_target_max_io_len(ti, chunk_size): no clone crosses a chunk
    @Override
    public long maxIoLen() {
        return target.chunkSectors();
    }

    // dm-stripe.c: stripe_map_sector — chunk, then stripe, then the chunk's row on that stripe
    @Override
    public Remap map(long offset) {
        long chunk = target.chunkSectors();
        long stripes = target.stripes().size();
        long chunkNo = offset / chunk;
        long inChunk = offset % chunk;
        int stripe = (int) (chunkNo % stripes);
        long row = chunkNo / stripes;
        StripedTarget.Stripe s = target.stripes().get(stripe);
        return new Remap(s.device(), s.offset().count() + row * chunk + inChunk);
    }

    // dm-stripe.c: stripe_map_range_sector — a range end on another stripe rounds to that stripe's chunk edge
    private long rangeSector(long offset, int targetStripe) {
        long chunk = target.chunkSectors();
        long stripes = target.stripes().size();
        long chunkNo = offset / chunk;
        int stripe = (int) (chunkNo % stripes);
        long result = (chunkNo / stripes) * chunk + offset % chunk;
        if (stripe == targetStripe) {
            return result;
        }
        result -= result % chunk;
        if (targetStripe < stripe) {
            result += chunk;
        }
        return result;
    }

    // dm-stripe.c: stripe_map — a discard or write-zeroes goes once to every stripe (num_discard_bios = stripes),
    // each the part of the range on that stripe (stripe_map_range); the rest is a plain remap
    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        if (clone.op != Op.DISCARD && clone.op != Op.WRITE_ZEROES) {
            return TargetModel.super.map(ctx, bio, clone, offset);
        }
        BlockLayer block = ctx.block();
        bio.remaining--; // the one clone dm core made stands for none: each stripe gets its own
        for (int stripe = 0; stripe < target.stripes().size(); stripe++) {
            long[] range = mapRange(stripe, offset, clone.sectors);
            if (range == null) {
                continue;
            }
            Bio piece = new Bio(target.stripes().get(stripe).device(), bio.op, bio.flags, range[0], range[1], null);
            piece.parent = bio;
            bio.remaining++;
            if (block.events.enabled()) {
                block.events.emit(piece.device, EventType.BIO_REMAP, piece.rwbs(), piece.sector, piece.sectors,
                        "from=" + ctx.device() + ":" + bio.sector);
            }
            block.submitBioNoacct(piece);
        }
        return MapResult.SUBMITTED;
    }

    /**
     * dm-stripe.c: stripe_map_range — the part of {@code [offset, offset + length)} on one stripe, as
     * {@code {device sector, sectors}}, or null when none of it is there.
     */
    long[] mapRange(int stripe, long offset, long length) {
        long begin = rangeSector(offset, stripe);
        long end = rangeSector(offset + length, stripe);
        if (begin >= end) {
            return null;
        }
        return new long[] {target.stripes().get(stripe).offset().count() + begin, end - begin};
    }

    // dm-stripe.c: stripe_ctr — one discard / write-zeroes bio per stripe
    @Override
    public int numDiscardBios() {
        return target.stripes().size();
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    @Override
    public int numWriteZeroesBios() {
        return target.stripes().size();
    }
}
