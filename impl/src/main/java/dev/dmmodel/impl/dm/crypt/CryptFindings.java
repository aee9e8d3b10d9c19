package dev.dmmodel.impl.dm.crypt;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sizes;
import java.util.List;

/** The layout checks of dm-crypt devices, one method per kind of finding. */
public final class CryptFindings {

    private CryptFindings() {
    }

    /** Every crypt finding of the device's crypt targets. */
    public static void check(Layout layout, DmDevice dm, List<Finding> out) {
        for (DmTarget t : dm.table().targets()) {
            if (t instanceof CryptTarget c && layout.find(c.device()).isPresent()) {
                QueueLimits below = layout.device(c.device()).limits();
                sectorBelowPhysicalBlock(dm, c, below, out);
                discardsDropped(dm, c, below, out);
            }
        }
    }

    // drivers/md/dm-crypt.c: crypt_io_hints raises logical_block_size to cc->sector_size, nothing more: with 512-byte
    // crypt sectors the device stays 512-byte addressable over a 4 KiB-physical disk
    static void sectorBelowPhysicalBlock(DmDevice dm, CryptTarget c, QueueLimits below, List<Finding> out) {
        if (c.sectorSize() >= below.physicalBlockSize()) {
            return;
        }
        FindingType type = FindingType.CRYPT_SECTOR_BELOW_PHYSICAL_BLOCK;
        long perBlock = below.physicalBlockSize() / c.sectorSize();
        out.add(new Finding(type, type.defaultSeverity(), dm.name(), dm.name() + " (" + dm.dmName() + ") encrypts "
                + c.sectorSize() + "-byte sectors on " + c.device() + ", whose physical block is "
                + below.physicalBlockSize() + " bytes: it offers " + c.sectorSize() + "-byte logical blocks, so a write"
                + " smaller than or off a " + below.physicalBlockSize() + "-byte block is a read-modify-write in the"
                + " drive, and the cipher runs " + perBlock + " times per " + Sizes.format(below.physicalBlockSize()),
                "use " + below.physicalBlockSize() + "-byte crypt sectors (cryptsetup luksFormat --sector-size "
                        + below.physicalBlockSize() + ", or cryptsetup reencrypt --sector-size "
                        + below.physicalBlockSize() + " for an existing LUKS2 device)",
                List.of(new LimitRef(c.device(), LimitField.PHYSICAL_BLOCK_SIZE),
                        new LimitRef(dm.name(), LimitField.LOGICAL_BLOCK_SIZE))));
    }

    // drivers/md/dm-crypt.c: crypt_ctr sets ti->num_discard_bios only with allow_discards; without it the device
    // reports discard_max_bytes 0 whatever the device below supports
    static void discardsDropped(DmDevice dm, CryptTarget c, QueueLimits below, List<Finding> out) {
        if (c.allowDiscards() || below.maxDiscardSectors() == 0) {
            return;
        }
        FindingType type = FindingType.CRYPT_DISCARDS_DROPPED;
        out.add(new Finding(type, type.defaultSeverity(), dm.name(), dm.name() + " (" + dm.dmName() + ") has no "
                + "allow_discards: it reports discard_max_bytes 0, so fstrim, blkdiscard and discard mounts do nothing,"
                + " although " + c.device() + " below takes discards of up to "
                + Sizes.format(Math.multiplyExact(below.maxDiscardSectors(), 512L)),
                "open it with discards if revealing free blocks is acceptable (cryptsetup open --allow-discards, "
                        + "or --persistent for LUKS2; crypttab option discard)",
                List.of(new LimitRef(dm.name(), LimitField.DISCARD_MAX_BYTES),
                        new LimitRef(c.device(), LimitField.DISCARD_MAX_BYTES))));
    }
}
