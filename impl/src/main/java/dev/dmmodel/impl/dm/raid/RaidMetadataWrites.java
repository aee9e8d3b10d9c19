package dev.dmmodel.impl.dm.raid;

import dev.dmmodel.dm.RaidTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Op;
import java.util.List;

/**
 * The writes dm-raid's md makes to its metadata devices ({@code _rmeta_N}): the superblock at sector 0 and the
 * write-intent bitmap from sector 8 (4 KiB in), each a one-block preflush + FUA metadata write (rwbs FWFSM) to every
 * metadata device, as recorded in {@code kernel-traces-6.12-stacks/lvmraid-*}:
 * <ul>
 *   <li>the first write to a clean array: the bitmap superblock and the array superblock marked active
 *       ({@code md_write_start} -> {@code md_update_sb}, which writes the bitmap's superblock first), then the
 *       bitmap bits the write sets ({@code md_bitmap_unplug}) before the data;</li>
 *   <li>{@link #SAFEMODE_DELAY_NANOS} after the last write the array is marked clean: bitmap superblock and array
 *       superblock again ({@code md_check_recovery} in safe mode);</li>
 *   <li>the bitmap daemon ({@code md_bitmap_daemon_work}, every {@link #DAEMON_SLEEP_NANOS}) writes the bitmap on
 *       its first pass after the write and once more when the bits it clears have decayed, two passes later.</li>
 * </ul>
 * In {@code lvmraid-r1-w1M-at0}: 8, 0, 8 with the write at 39.65 s, 8, 0 at 40.08 s, 8 at 45.18 s and 55.42 s — seven
 * per metadata device in every write phase. The daemon's recorded passes fall 5.5 s and 15.8 s after the write; the
 * model puts them at 5 s and 15 s (one and three periods), inside the recordings' 16 s of idling. Reads write nothing.
 */
final class RaidMetadataWrites {

    /** md's {@code DEFAULT_SAFEMODE_DELAY}: 200 ms. */
    static final long SAFEMODE_DELAY_NANOS = 200_000_000L;
    /** The bitmap daemon's period ({@code bitmap_info.daemon_sleep}, 5 s unless {@code daemon_sleep} is given). */
    static final long DAEMON_SLEEP_NANOS = 5_000_000_000L;
    /** The array superblock's sector on a metadata device. */
    static final long SUPERBLOCK_SECTOR = 0;
    /** The bitmap's first sector on a metadata device (4 KiB in). */
    static final long BITMAP_SECTOR = 8;
    /** {@code bitmap_super_t}: 256 bytes before the bits. */
    static final long BITMAP_SUPER_BYTES = 256;

    private static final int FLAGS = Bio.PREFLUSH | Bio.FUA | Bio.SYNC | Bio.META;

    private final List<String> metadataDevices;
    private final long bitmapSectors;
    private boolean clean = true;
    private boolean bitsSet;
    private long now;
    private long cleanAt = -1;
    private long daemonFirstAt = -1;
    private long daemonClearAt = -1;

    /**
     * @param target the raid target (its metadata devices by kernel name)
     * @param deviceSectors each device's data size ({@code dev_sectors}): the bitmap holds one bit per region
     */
    RaidMetadataWrites(RaidTarget target, long deviceSectors) {
        this.metadataDevices = target.raidDevices().stream().flatMap(d -> d.metadata().stream()).toList();
        long region = target.regionSize().orElse(4096);
        long bits = (deviceSectors + region - 1) / region;
        long bytes = BITMAP_SUPER_BYTES + (bits + 7) / 8;
        // write_page: the bitmap's first page, as many 512-byte blocks as it uses
        this.bitmapSectors = Math.min(8, (bytes + 511) / 512);
    }

    /** Whether the array keeps metadata (LVM's raid LVs do; a table with {@code -} metadata devices does not). */
    boolean present() {
        return !metadataDevices.isEmpty();
    }

    /** A write reaches the array: mark it active and set its bitmap bits first, as needed. */
    // drivers/md/md.c: md_write_start; drivers/md/md-bitmap.c: md_bitmap_startwrite / md_bitmap_unplug
    void beforeWrite(BlockLayer block) {
        if (!present()) {
            return;
        }
        if (clean) {
            write(block, BITMAP_SECTOR, bitmapSectors);
            write(block, SUPERBLOCK_SECTOR, 1);
            clean = false;
        }
        if (!bitsSet) {
            write(block, BITMAP_SECTOR, bitmapSectors);
            bitsSet = true;
        }
        cleanAt = now + SAFEMODE_DELAY_NANOS;
        daemonFirstAt = now + DAEMON_SLEEP_NANOS;
        daemonClearAt = now + 3 * DAEMON_SLEEP_NANOS;
    }

    /** Time passes: the safe-mode timer and the bitmap daemon's passes that fall due write. */
    // drivers/md/md.c: md_safemode_timeout -> md_check_recovery; drivers/md/md-bitmap.c: md_bitmap_daemon_work
    void clockAdvanced(BlockLayer block, long fromNanos, long toNanos) {
        if (present()) {
            if (cleanAt >= 0 && cleanAt <= toNanos) {
                write(block, BITMAP_SECTOR, bitmapSectors);
                write(block, SUPERBLOCK_SECTOR, 1);
                clean = true;
                cleanAt = -1;
            }
            if (daemonFirstAt >= 0 && daemonFirstAt <= toNanos) {
                write(block, BITMAP_SECTOR, bitmapSectors);
                daemonFirstAt = -1;
            }
            if (daemonClearAt >= 0 && daemonClearAt <= toNanos) {
                write(block, BITMAP_SECTOR, bitmapSectors);
                bitsSet = false;
                daemonClearAt = -1;
            }
        }
        now = toNanos;
    }

    // drivers/md/md.c: md_super_write — REQ_OP_WRITE | REQ_SYNC | REQ_PREFLUSH | REQ_FUA | REQ_META to each device
    private void write(BlockLayer block, long sector, long sectors) {
        for (String d : metadataDevices) {
            block.submitBioNoacct(new Bio(d, Op.WRITE, FLAGS, sector, sectors, block.pages(sectors)));
        }
    }
}
