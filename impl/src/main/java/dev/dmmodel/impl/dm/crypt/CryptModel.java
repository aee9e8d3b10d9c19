package dev.dmmodel.impl.dm.crypt;

import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import java.util.List;
import java.util.function.Function;

/** dm-crypt ({@code drivers/md/dm-crypt.c}): where its I/O goes and in what sizes; no encryption. */
final class CryptModel implements TargetModel {

    /** {@code DM_CRYPT_DEFAULT_MAX_READ_SIZE} and {@code _WRITE_SIZE}: 128 KiB. */
    static final long DEFAULT_MAX_SIZE_BYTES = 131_072;

    /** {@code BIO_MAX_VECS << PAGE_SHIFT}: a write's clone holds at most 256 pages of 4 KiB. */
    static final long MAX_WRITE_BYTES = 256L * 4096;

    private final CryptTarget target;

    CryptModel(CryptTarget target) {
        this.target = target;
    }

    // dm-crypt.c: crypt_iterate_devices — the device from cc->start for the target's length
    @Override
    public List<DeviceArea> iterateDevices() {
        return List.of(new DeviceArea(target.device(), target.offset().count(), target.length().count()));
    }

    // dm-crypt.c: crypt_io_hints — block sizes and io_min at least the crypt sector size; DMA aligned to the
    // logical block
    @Override
    public void ioHints(Limits l, Function<String, Limits> deviceLimits, KernelProfile profile) {
        long size = target.sectorSize();
        l.logicalBlockSize = Math.max(l.logicalBlockSize, size);
        l.physicalBlockSize = Math.max(l.physicalBlockSize, size);
        l.ioMin = Math.max(l.ioMin, size);
        l.dmaAlignment = l.logicalBlockSize - 1;
    }

    // dm-crypt.c: crypt_ctr_optional — num_discard_bios = 1 only with allow_discards
    @Override
    public int numDiscardBios() {
        return target.allowDiscards() ? 1 : 0;
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    // dm-crypt.c: crypt_ctr leaves num_write_zeroes_bios 0
    @Override
    public int numWriteZeroesBios() {
        return 0;
    }

    /**
     * dm-crypt.c: get_max_request_size — the longest read or write clone in sectors: the module parameter (0 in
     * every recording, so the 128 KiB default), a write at most {@code BIO_MAX_VECS} pages, rounded down to the
     * larger of the device's logical block and the crypt sector, at least one of those.
     */
    static long maxRequestSectors(boolean write, long deviceLogicalBlock, long sectorSize) {
        long val = DEFAULT_MAX_SIZE_BYTES;
        if (write) {
            val = Math.min(val, MAX_WRITE_BYTES);
        }
        long align = Math.max(deviceLogicalBlock, sectorSize);
        val -= val % align;
        if (val == 0) {
            val = align;
        }
        return val / 512;
    }

    /** Whether {@code crypt_map} passes the bio straight through: a flush or a discard. */
    private static boolean bypasses(Bio bio) {
        return bio.has(Bio.PREFLUSH) || bio.op == Op.DISCARD;
    }

    // dm-crypt.c: crypt_map — a read or write longer than get_max_request_size is cut there
    // (dm_accept_partial_bio), counted from the bio's own start; dm core resubmits the rest
    @Override
    public long acceptedLen(MapContext ctx, Bio clone) {
        if (bypasses(clone)) {
            return clone.sectors;
        }
        long lbs = ctx.block().queueLimits(target.device()).logicalBlockSize;
        return Math.min(clone.sectors, maxRequestSectors(clone.op != Op.READ, lbs, target.sectorSize()));
    }

    // dm-crypt.c: crypt_map — flushes and discards are remapped by dm core; a read's clone is submitted at once
    // (kcryptd_io_read), a write's after encryption (kcryptd_crypt_write_io_submit), both with
    // dm_submit_bio_remap at cc->start + the offset into the target
    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        if (bypasses(clone)) {
            clone.device = target.device();
            if (clone.sectors > 0) {
                clone.sector = target.offset().count() + offset;
            }
            return MapResult.REMAPPED;
        }
        long perSector = target.sectorSize() / 512;
        // crypt_map: DM_MAPIO_KILL for a bio not aligned to the crypt sector or not a whole number of them
        if (clone.sector % perSector != 0 || clone.sectors % perSector != 0) {
            ctx.block().fail(clone, ctx.device() + ": I/O at sector " + clone.sector + " for " + clone.sectors
                    + " sectors is not aligned to the crypt sector size of " + target.sectorSize() + " bytes");
            return MapResult.SUBMITTED;
        }
        long from = clone.sector;
        clone.device = target.device();
        clone.sector = target.offset().count() + offset;
        // dm.c: dm_submit_bio_remap — trace_block_bio_remap(clone, dm device, the dm sector), then submit
        if (ctx.block().events.enabled()) {
            ctx.block().events.emit(clone.device, EventType.BIO_REMAP, clone.rwbs(), clone.sector, clone.sectors,
                    "from=" + ctx.device() + ":" + from);
        }
        ctx.block().submitBioNoacct(clone);
        return MapResult.SUBMITTED;
    }
}
