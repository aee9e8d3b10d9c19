package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * md raid10 ({@code drivers/md/raid10.c}): chunks laid out in near, far or offset copies ({@code md/layout}: near
 * copies in bits 0–7, far copies in bits 8–15, bit 16 offset); a bio is split at chunk boundaries, a write goes to
 * every copy, a read to one.
 */
public final class Raid10 implements MdPersonality {

    /** The one instance. */
    public static final Raid10 INSTANCE = new Raid10();

    private Raid10() {
    }

    @Override
    public MdLevel level() {
        return MdLevel.RAID10;
    }

    /** The geometry of {@code setup_geo}: copies, raid disks, chunk and the far copies' stride. */
    record Geo(int nearCopies, int farCopies, boolean farOffset, int raidDisks, long chunk, long stride) {
        int copies() {
            return nearCopies * farCopies;
        }
    }

    /**
     * The {@code md/layout} number of a raid10 layout: {@code near} keeps {@code copies} in bits 0–7 with one far
     * copy, {@code far} and {@code offset} one near copy and {@code copies} in bits 8–15, offset also bit 16
     * (mdadm's {@code n2}, {@code f2}, {@code o2}; dm-raid's {@code raid10_format}).
     *
     * @param format {@code near}, {@code far} or {@code offset}
     */
    // drivers/md/raid10.c: setup_geo (the decoding); drivers/md/dm-raid.c: raid10_format_to_md_layout
    public static int layout(String format, int copies) {
        return switch (format) {
            case "near" -> copies | 1 << 8;
            case "far" -> 1 | copies << 8;
            case "offset" -> 1 | copies << 8 | 1 << 16;
            default -> throw new IllegalArgumentException("raid10 format " + format + ": near, far or offset");
        };
    }

    // drivers/md/raid10.c: setup_geo — the layout's fields; copies must fit the raid disks
    static Geo geo(String array, MdArraySpec spec) {
        int layout = spec.layout();
        int nc = layout & 0xff;
        int fc = (layout >> 8) & 0xff;
        boolean fo = (layout & (1 << 16)) != 0;
        if (layout >> 17 != 0 || nc < 1 || fc < 1) {
            throw new LayoutException(array, "layout", Integer.toString(layout), "md/raid10:" + array
                    + ": unsupported raid10 layout " + layout + " (near copies in bits 0-7, far copies in bits 8-15, "
                    + "offset in bit 16; near=2 is 258)");
        }
        if (nc * fc > spec.raidDisks()) {
            throw new LayoutException(array, "layout", Integer.toString(layout), "md/raid10:" + array + ": "
                    + nc * fc + " copies (near " + nc + " x far " + fc + ") need at least as many raid disks, not "
                    + spec.raidDisks());
        }
        long chunk = spec.chunk().count();
        if (Long.bitCount(chunk) != 1) {
            throw new LayoutException(array, "chunk_size", Long.toString(chunk * 512), "md/raid10:" + array
                    + ": chunk size must be a power of 2, not " + chunk * 512 + " bytes");
        }
        long stride;
        if (fo) {
            stride = chunk;
        } else {
            stride = devSectors(spec, nc, fc, chunk) / fc / chunk * chunk;
        }
        return new Geo(nc, fc, fo, spec.raidDisks(), chunk, stride);
    }

    // drivers/md/raid10.c: calc_sectors — chunks per member used, rounded up over the raid disks
    private static long devSectors(MdArraySpec spec, int nc, int fc, long chunk) {
        long chunks = arrayChunks(spec, nc, fc, chunk);
        long used = Math.multiplyExact(chunks, (long) nc * fc);
        return (used + spec.raidDisks() - 1) / spec.raidDisks() * chunk;
    }

    // drivers/md/raid10.c: raid10_size — member chunks / far copies × raid disks / near copies
    private static long arrayChunks(MdArraySpec spec, int nc, int fc, long chunk) {
        long sectors = spec.members().stream().mapToLong(m -> m.dataSize().count()).min().orElse(0);
        return Math.multiplyExact(sectors / chunk / fc, spec.raidDisks()) / nc;
    }

    // drivers/md/raid10.c: raid10_run — the layout; enough members that every chunk keeps a copy
    @Override
    public void check(String array, MdArraySpec spec) {
        Geo g = geo(array, spec);
        for (long chunk = 0; chunk < g.raidDisks(); chunk++) {
            boolean any = false;
            for (long[] c : findPhys(g, chunk * g.chunk())) {
                any |= spec.member((int) c[0]).isPresent();
            }
            if (!any) {
                throw new LayoutException(array, "raid_disks", Integer.toString(spec.members().size()), "md/raid10:"
                        + array + ": not enough operational mirrors (no member holds a copy of chunk " + chunk + ")");
            }
        }
    }

    @Override
    public long size(MdArraySpec spec) {
        Geo g = geo("md", spec);
        return Math.multiplyExact(arrayChunks(spec, g.nearCopies(), g.farCopies(), g.chunk()), g.chunk());
    }

    // drivers/md/raid10.c: raid10_set_limits — no write-zeroes, io_min the chunk, io_opt the chunk × stripes
    // (raid10_nr_stripes); chunk_sectors the chunk since "md/raid10: set chunk_sectors limit" (mainline 6.17, in the
    // 6.12 stable series: recorded on 6.12.117; the same series set dm-stripe's), so the block layer splits
    @Override
    public void setLimits(Limits lim, MdArraySpec spec, KernelProfile p) {
        Geo g = geo("md", spec);
        lim.maxWriteZeroesSectors = 0;
        lim.ioMin = Math.multiplyExact(g.chunk(), 512);
        int stripes = g.raidDisks() % g.nearCopies() != 0 ? g.raidDisks() : g.raidDisks() / g.nearCopies();
        lim.ioOpt = Math.multiplyExact(lim.ioMin, stripes);
        if (p.isAtLeast(6, 12)) {
            lim.chunkSectors = g.chunk();
        }
    }

    /**
     * {@code raid10_find_phys}: every copy of array sector {@code sector}, as {slot, sector on the member from its
     * data offset}, in the kernel's order (near copies first, each followed by its far copies).
     */
    static List<long[]> findPhys(Geo g, long sector) {
        long chunk = sector / g.chunk();
        long inChunk = sector % g.chunk();
        long stripe = Math.multiplyExact(chunk, g.nearCopies());
        int dev = (int) (stripe % g.raidDisks());
        stripe /= g.raidDisks();
        if (g.farOffset()) {
            stripe = Math.multiplyExact(stripe, g.farCopies());
        }
        long s = Math.addExact(inChunk, Math.multiplyExact(stripe, g.chunk()));
        List<long[]> out = new ArrayList<>();
        for (int n = 0; n < g.nearCopies(); n++) {
            int d = dev;
            long ss = s;
            out.add(new long[] {d, ss});
            for (int f = 1; f < g.farCopies(); f++) {
                d += g.nearCopies();
                if (d >= g.raidDisks()) {
                    d -= g.raidDisks();
                }
                ss += g.stride();
                out.add(new long[] {d, ss});
            }
            dev++;
            if (dev >= g.raidDisks()) {
                dev = 0;
                s += g.chunk();
            }
        }
        return out;
    }

    @Override
    public Conf run(MdArray array) {
        return new R10Conf(array, geo(array.name(), array.spec()));
    }

    /** {@code struct r10conf}. */
    private static final class R10Conf implements Conf {
        private final MdArray md;
        private final Geo geo;
        private final long[] headPosition;

        R10Conf(MdArray md, Geo geo) {
            this.md = md;
            this.geo = geo;
            this.headPosition = new long[geo.raidDisks()];
        }

        // drivers/md/raid10.c: raid10_make_request — a bio crossing a chunk (with fewer near copies than disks) is
        // split there, and one crossing a barrier unit; the piece goes to its copies
        @Override
        public void makeRequest(Bio bio) {
            long sectors = bio.sectors;
            if (geo.nearCopies() < geo.raidDisks() && bio.sector % geo.chunk() + sectors > geo.chunk()) {
                sectors = geo.chunk() - bio.sector % geo.chunk();
            }
            long unitEnd = (bio.sector / Raid1.BARRIER_UNIT_SECTORS + 1) * Raid1.BARRIER_UNIT_SECTORS;
            sectors = Math.min(sectors, unitEnd - bio.sector);
            if (sectors < bio.sectors) {
                Bio front = md.splitFront(bio, sectors, md.explaining()
                        ? (sectors == unitEnd - bio.sector ? "raid10 barrier unit of " + Raid1.BARRIER_UNIT_SECTORS
                                + " sectors ends at " + unitEnd : "raid10 chunk of " + geo.chunk() + " sectors ends at "
                                + (bio.sector + sectors)) : "");
                md.block().submitBioNoacct(bio);
                bio = front;
            }
            List<long[]> copies = findPhys(geo, bio.sector);
            if (bio.op == Op.READ) {
                long[] c = readBalance(copies);
                headPosition[(int) c[0]] = c[1] + bio.sectors;
                md.remapClone(bio, (int) c[0], c[1], bio.sector);
                return;
            }
            // drivers/md/raid10.c: raid10_write_request — one clone per copy whose member is there
            for (long[] c : copies) {
                if (md.spec().member((int) c[0]).isPresent()) {
                    headPosition[(int) c[0]] = c[1] + bio.sectors;
                    md.remapClone(bio, (int) c[0], c[1], bio.sector);
                }
            }
        }

        /**
         * {@code read_balance} with idle members: the copy whose member's head is at it, otherwise the first copy
         * present. Which mirror the kernel picks among busy ones depends on timing (a 1 MiB read was spread 6/2/6/2
         * and 4/4/6/2 over the members in two runs, not packaged); this choice is deterministic.
         */
        // drivers/md/raid10.c: read_balance
        private long[] readBalance(List<long[]> copies) {
            long[] first = null;
            for (long[] c : copies) {
                if (md.spec().member((int) c[0]).isEmpty()) {
                    continue;
                }
                if (headPosition[(int) c[0]] == c[1]) {
                    return c;
                }
                if (first == null) {
                    first = c;
                }
            }
            return first;
        }
    }
}
