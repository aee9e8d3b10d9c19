package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import java.util.ArrayList;
import java.util.List;

/**
 * md raid0 ({@code drivers/md/raid0.c}): strip zones over the members (one zone when they are equally large), a
 * bio split at every chunk boundary, each piece remapped to the member that holds its chunk.
 */
public final class Raid0 implements MdPersonality {

    /** The one instance. */
    public static final Raid0 INSTANCE = new Raid0();

    /** {@code RAID0_ORIG_LAYOUT}: a multi-zone array mapped as before 5.4 (member by the array sector). */
    static final int ORIG_LAYOUT = 1;
    /** {@code RAID0_ALT_MULTIZONE_LAYOUT}: a multi-zone array mapped by the sector within the zone. */
    static final int ALT_MULTIZONE_LAYOUT = 2;

    private Raid0() {
    }

    @Override
    public MdLevel level() {
        return MdLevel.RAID0;
    }

    /**
     * One strip zone ({@code struct strip_zone}): the array sectors before {@code zoneEnd}, over {@code slots} from
     * {@code devStart} sectors into each of them.
     */
    record Zone(long zoneEnd, long devStart, List<Integer> slots) {
    }

    // drivers/md/raid0.c: raid0_run / create_strip_zones — every slot filled; a multi-zone array needs its layout
    @Override
    public void check(String array, MdArraySpec spec) {
        if (!spec.complete()) {
            throw new LayoutException(array, "raid_disks", Integer.toString(spec.raidDisks()), "md/raid0:" + array
                    + ": too few disks (" + spec.members().size() + " of " + spec.raidDisks() + ") - aborting!");
        }
        List<Zone> zones = zones(spec);
        if (zones.size() > 1 && zones.get(1).slots().size() > 1 && spec.layout() != ORIG_LAYOUT
                && spec.layout() != ALT_MULTIZONE_LAYOUT) {
            throw new LayoutException(array, "layout", Integer.toString(spec.layout()), "md/raid0:" + array
                    + ": cannot assemble multi-zone RAID0 with default_layout setting (members of different sizes "
                    + "need md/layout 1 or 2)");
        }
    }

    // drivers/md/raid0.c: raid0_size — every member's data rounded down to the chunk
    @Override
    public long size(MdArraySpec spec) {
        long total = 0;
        for (MdMember m : spec.members()) {
            total = Math.addExact(total, usable(m, spec));
        }
        return total;
    }

    private static long usable(MdMember m, MdArraySpec spec) {
        long chunk = spec.chunk().count();
        return m.dataSize().count() / chunk * chunk;
    }

    // drivers/md/raid0.c: create_strip_zones — zone 0 over every member up to the smallest; each next zone over the
    // members larger than the previous zone's, in slot order
    static List<Zone> zones(MdArraySpec spec) {
        List<Zone> zones = new ArrayList<>();
        long devStart = 0;
        long zoneEnd = 0;
        while (true) {
            List<Integer> slots = new ArrayList<>();
            long smallest = Long.MAX_VALUE;
            for (MdMember m : spec.members()) {
                long sectors = usable(m, spec);
                if (sectors > devStart) {
                    slots.add(m.slot());
                    smallest = Math.min(smallest, sectors);
                }
            }
            if (slots.isEmpty()) {
                return List.copyOf(zones);
            }
            zoneEnd = Math.addExact(zoneEnd, Math.multiplyExact(smallest - devStart, slots.size()));
            zones.add(new Zone(zoneEnd, devStart, List.copyOf(slots)));
            devStart = smallest;
        }
    }

    // drivers/md/raid0.c: raid0_set_limits — max_hw_sectors and write-zeroes the chunk, io_min the chunk,
    // io_opt the chunk × raid disks (before 6.10 the same through blk_queue_* in raid0_run)
    @Override
    public void setLimits(Limits lim, MdArraySpec spec, KernelProfile p) {
        long chunk = spec.chunk().count();
        lim.maxHwSectors = chunk;
        lim.maxSectors = Math.min(lim.maxSectors, chunk);
        lim.maxWriteZeroesSectors = p.writeZeroesSupported() ? chunk : 0;
        lim.ioMin = Math.multiplyExact(chunk, 512);
        lim.ioOpt = Math.multiplyExact(lim.ioMin, spec.raidDisks());
    }

    @Override
    public Conf run(MdArray array) {
        return new R0Conf(array, zones(array.spec()));
    }

    /** {@code struct r0conf}. */
    private static final class R0Conf implements Conf {
        private final MdArray md;
        private final List<Zone> zones;
        private final long chunk;
        private final int layout;

        R0Conf(MdArray md, List<Zone> zones) {
            this.md = md;
            this.zones = zones;
            this.chunk = md.spec().chunk().count();
            this.layout = zones.size() == 1 || zones.get(1).slots().size() == 1 ? ORIG_LAYOUT : md.spec().layout();
        }

        // drivers/md/raid0.c: raid0_make_request — a bio crossing a chunk is split there (traced); the rest is mapped
        // first, then the piece
        @Override
        public void makeRequest(Bio bio) {
            if (bio.op == Op.DISCARD) {
                handleDiscard(bio);
                return;
            }
            long sectors = chunk - bio.sector % chunk;
            if (sectors < bio.sectors) {
                Bio front = md.splitFront(bio, sectors, md.explaining()
                        ? "raid0 chunk of " + chunk + " sectors ends at " + (bio.sector + sectors) : "");
                if (bio.sectors > chunk) {
                    md.block().submitBioNoacct(bio);
                } else {
                    mapSubmit(bio);
                }
                bio = front;
            }
            mapSubmit(bio);
        }

        // drivers/md/raid0.c: raid0_map_submit_bio — find_zone, map_sector, the member's zone start and data offset
        private void mapSubmit(Bio bio) {
            long orig = bio.sector;
            int z = zoneOf(orig);
            Zone zone = zones.get(z);
            long inZone = z == 0 ? orig : orig - zones.get(z - 1).zoneEnd();
            long[] mapped = mapSector(zone, layout == ORIG_LAYOUT ? orig : inZone, inZone);
            md.remapClone(bio, (int) mapped[0], mapped[1] + zone.devStart(), orig);
        }

        private int zoneOf(long sector) {
            for (int i = 0; i < zones.size(); i++) {
                if (sector < zones.get(i).zoneEnd()) {
                    return i;
                }
            }
            throw new IllegalStateException(md.name() + ": sector " + sector + " beyond the last strip zone");
        }

        // drivers/md/raid0.c: map_sector — the member by the chunk number of `sector`, the offset by the chunk row of
        // the zone offset; returns {slot, sector in the zone on that member}
        private long[] mapSector(Zone zone, long sector, long sectorOffset) {
            long inChunk = sector % chunk;
            long chunkNo = sector / chunk;
            int nb = zone.slots().size();
            long row = sectorOffset / (chunk * nb);
            int slot = zone.slots().get((int) (chunkNo % nb));
            return new long[] {slot, row * chunk + inChunk};
        }

        // drivers/md/raid0.c: raid0_handle_discard — split at the zone's end, then one discard per member of the part
        // of the range on it
        private void handleDiscard(Bio bio) {
            int z = zoneOf(bio.sector);
            Zone zone = zones.get(z);
            if (bio.sector + bio.sectors > zone.zoneEnd()) {
                Bio front = md.splitFront(bio, zone.zoneEnd() - bio.sector, md.explaining()
                        ? "raid0 zone " + z + " ends at " + zone.zoneEnd() : "");
                md.block().submitBioNoacct(bio);
                bio = front;
            }
            long base = z == 0 ? 0 : zones.get(z - 1).zoneEnd();
            long start = bio.sector - base;
            long end = bio.sector + bio.sectors - base;
            int nb = zone.slots().size();
            long stripe = chunk * nb;
            long firstStripe = start / stripe;
            long lastStripe = end / stripe;
            long startDisk = (start % stripe) / chunk;
            long startOffset = start % chunk + firstStripe * chunk;
            long endDisk = (end % stripe) / chunk;
            long endOffset = end % chunk + lastStripe * chunk;
            for (int disk = 0; disk < nb; disk++) {
                long devStart = disk < startDisk ? (firstStripe + 1) * chunk
                        : disk > startDisk ? firstStripe * chunk : startOffset;
                long devEnd = disk < endDisk ? (lastStripe + 1) * chunk
                        : disk > endDisk ? lastStripe * chunk : endOffset;
                if (devEnd <= devStart) {
                    continue;
                }
                int slot = zone.slots().get(disk);
                MdMember m = md.member(slot);
                Bio d = new Bio(m.device(), Op.DISCARD, 0,
                        Math.addExact(devStart + zone.devStart(), m.dataOffset().count()), devEnd - devStart, null);
                d.parent = bio;
                bio.remaining++;
                if (md.block().events.enabled()) {
                    md.block().events.emit(d.device, EventType.BIO_REMAP, d.rwbs(), d.sector, d.sectors,
                            "from=" + md.name() + ":" + bio.sector);
                }
                md.block().submitBioNoacct(d);
            }
        }
    }
}
