package dev.dmmodel.impl.dm.thin;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sizes;
import java.util.List;

/** Checks of thin pools and their thin devices, with one factory per kind of finding. */
public final class ThinFindings {
    /** thin-provisioning-tools' thin_metadata_size: mappings per btree leaf, a 4 KiB metadata block. */
    static final long ENTRIES_PER_LEAF = 126;

    private ThinFindings() {
    }

    public static void check(Layout layout, DmDevice pool, ThinPoolTarget t, List<Finding> out) {
        long bs = t.blockSectors();
        QueueLimits data = layout.device(t.dataDevice()).limits();
        // a block that is not whole stripes makes every block write a partial-stripe write somewhere
        if (data.ioOpt() > 512 && (bs * 512) % data.ioOpt() != 0) {
            out.add(new Finding(FindingType.THIN_BLOCK_NOT_FULL_STRIPE, FindingType.THIN_BLOCK_NOT_FULL_STRIPE
                    .defaultSeverity(), pool.name(), pool.name() + " (" + pool.dmName() + ") has " + Sizes.format(bs * 512)
                    + " blocks on " + t.dataDevice() + " whose full stripe is " + Sizes.format(data.ioOpt())
                    + ": provisioning and zeroing a block writes part of a stripe (parity read-modify-write)",
                    "use a block size that is a multiple of " + Sizes.format(data.ioOpt())
                    + " (lvcreate --chunksize; LVM's performance policy picks io_opt)",
                    List.of(new LimitRef(t.dataDevice(), LimitField.OPTIMAL_IO_SIZE))));
        }
        long virtual = 0;
        for (DmDevice d : layout.dmDevices()) {
            for (DmTarget x : d.table().targets()) {
                if (x instanceof ThinTarget thin && thin.poolDevice().equals(pool.name())) {
                    virtual += x.length().count();
                }
            }
        }
        long dataSectors = t.length().count();
        if (virtual > dataSectors) {
            out.add(new Finding(FindingType.THIN_OVERPROVISIONED, FindingType.THIN_OVERPROVISIONED.defaultSeverity(),
                    pool.name(), String.format(java.util.Locale.ROOT, "the thin devices of %s (%s) are %s in all, "
                            + "%.2f times its %s of data: writes beyond that fail or queue when it fills",
                            pool.name(), pool.dmName(), Sizes.format(virtual * 512), (double) virtual / dataSectors,
                            Sizes.format(dataSectors * 512)),
                    "monitor data usage (dmsetup status) and set a low water mark or LVM autoextend"));
        }
        // thin_metadata_size: 1 + ceil(chunks / 126) + thins metadata blocks of 4 KiB
        long chunks = dataSectors / bs;
        long thins = Math.max(1, countThins(layout, pool.name()));
        long neededSectors = (1 + (chunks + ENTRIES_PER_LEAF - 1) / ENTRIES_PER_LEAF + thins) * 8;
        long metaSectors = layout.device(t.metadataDevice()).size().count();
        if (metaSectors < neededSectors) {
            out.add(new Finding(FindingType.THIN_METADATA_TOO_SMALL, FindingType.THIN_METADATA_TOO_SMALL
                    .defaultSeverity(), pool.name(), pool.name() + " (" + pool.dmName() + "): metadata device "
                    + t.metadataDevice() + " has " + Sizes.format(metaSectors * 512) + ", but mapping all " + chunks
                    + " blocks of " + thins + " thin device(s) needs about " + Sizes.format(neededSectors * 512)
                    + " (thin_metadata_size)", "grow the metadata to at least " + Sizes.format(neededSectors * 512)
                    + " (lvextend --poolmetadatasize) or use larger blocks"));
        }
        long maxBio = largestBio(layout, pool, t);
        if (bs > maxBio) {
            out.add(new Finding(FindingType.THIN_BLOCK_LARGER_THAN_BIO, FindingType.THIN_BLOCK_LARGER_THAN_BIO
                    .defaultSeverity(), pool.name(), pool.name() + " (" + pool.dmName() + ") has " + bs
                    + "-sector blocks, but no bio reaching its thin devices can be larger than " + maxBio
                    + " sectors here: no write overwrites a whole block, so every new block is zeroed first"
                    + (t.zeroNewBlocks() ? "" : " (zeroing is off: the rest of each block keeps stale data)"),
                    "use blocks of at most " + maxBio + " sectors (" + Sizes.format(maxBio * 512) + ")",
                    bioBasis(layout, pool)));
        }
    }

    // lib/metadata/pool_manip.c: handle_pool_metadata_spare — repair needs a spare as large as the largest _tmeta
    public static void metadataSpare(dev.dmmodel.lvm.VolumeGroup vg, List<Finding> out) {
        dev.dmmodel.lvm.LogicalVolume largest = null;
        long spare = -1;
        for (dev.dmmodel.lvm.LogicalVolume lv : vg.logicalVolumes()) {
            if (lv.role() == dev.dmmodel.lvm.LvRole.THIN_POOL_METADATA
                    && (largest == null || lv.extentCount() > largest.extentCount())) {
                largest = lv;
            } else if (lv.role() == dev.dmmodel.lvm.LvRole.POOL_METADATA_SPARE) {
                spare = Math.max(spare, lv.extentCount());
            }
        }
        if (largest == null || spare >= largest.extentCount()) {
            return;
        }
        String size = Sizes.format(largest.extentCount() * vg.extentSize().count() * 512);
        out.add(new Finding(FindingType.THIN_NO_METADATA_SPARE, FindingType.THIN_NO_METADATA_SPARE.defaultSeverity(),
                vg.name(), "volume group " + vg.name() + (spare < 0 ? " has no pool metadata spare"
                        : " has a pool metadata spare of " + spare + " extents") + ", but " + largest.name()
                        + " has " + largest.extentCount() + " extents (" + size + "): lvconvert --repair of its pool"
                        + " has nowhere to write the repaired metadata",
                "lvconvert --poolmetadataspare y " + vg.name() + "/" + poolOf(largest.name())
                        + " (needs " + largest.extentCount() + " free extents)"));
    }

    private static String poolOf(String tmeta) {
        return tmeta.endsWith("_tmeta") ? tmeta.substring(0, tmeta.length() - "_tmeta".length()) : tmeta;
    }

    private static long countThins(Layout layout, String pool) {
        long n = 0;
        for (DmDevice d : layout.dmDevices()) {
            for (DmTarget x : d.table().targets()) {
                if (x instanceof ThinTarget thin && thin.poolDevice().equals(pool)) {
                    n++;
                }
            }
        }
        return n;
    }

    // before 4.3: bio_get_nr_vecs and max_sectors of the thin device; since: BIO_MAX_VECS pages, and the thin
    // target's max_io_len, which dm caps at the thin device's max_sectors (≈5.10+)
    /** The limits {@link #largestBio} reads: each thin device's max_sectors, and max_segments before 4.3. */
    private static List<LimitRef> bioBasis(Layout layout, DmDevice pool) {
        List<LimitRef> out = new java.util.ArrayList<>();
        for (DmDevice d : layout.dmDevices()) {
            for (DmTarget x : d.table().targets()) {
                if (x instanceof ThinTarget thin && thin.poolDevice().equals(pool.name())) {
                    out.add(new LimitRef(d.name(), LimitField.MAX_SECTORS_KB));
                    if (layout.profile().bioShaping() == KernelProfile.BioShaping.AT_BUILD) {
                        out.add(new LimitRef(d.name(), LimitField.MAX_SEGMENTS));
                    }
                }
            }
        }
        return out;
    }

    private static long largestBio(Layout layout, DmDevice pool, ThinPoolTarget t) {
        long best = 0;
        KernelProfile p = layout.profile();
        for (DmDevice d : layout.dmDevices()) {
            for (DmTarget x : d.table().targets()) {
                if (x instanceof ThinTarget thin && thin.poolDevice().equals(pool.name())) {
                    QueueLimits q = d.limits();
                    long max;
                    if (p.bioShaping() == KernelProfile.BioShaping.AT_BUILD) {
                        max = dev.dmmodel.impl.block.Bios.largestBuiltBioSectors(q.maxSegments(), q.maxSectors());
                    } else {
                        max = Math.min(dev.dmmodel.impl.block.Bios.largestDirectBioSectors(), q.maxSectors());
                    }
                    best = Math.max(best, max);
                }
            }
        }
        return best == 0 ? Long.MAX_VALUE : best;
    }
}
