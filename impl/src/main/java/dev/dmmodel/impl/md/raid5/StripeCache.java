package dev.dmmodel.impl.md.raid5;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * md raid4/5/6's stripe cache and its write path ({@code drivers/md/raid5.c}) for a clean, non-degraded array without
 * bitmap, journal or PPL: write bios are added page by page to stripe heads ({@code add_stripe_bio}) while the
 * submitter's plug holds them; {@link #handle()} is the unplug and raid5d's pass ({@code handle_stripe}): each pending
 * stripe head reads what it needs ({@code handle_stripe_fill}, {@code handle_stripe_dirtying}'s rmw / rcw choice) and
 * then writes its data pages and parity, one 8-sector bio per page ({@code ops_run_io}). Handled stripe heads stay in
 * the cache with their pages up to date, so a later write to them reads less; a new stripe head takes the least
 * recently released one of its hash bucket ({@code get_free_stripe}).
 *
 * <p>It also keeps contents: every write carries a 64-bit token per 512-byte sector, the stripe heads and a simulated
 * store of every member hold them, P is the XOR of the data and Q raid6's GF(2^8) syndrome of the data's bytes, both
 * computed the way the kernel chose (reconstruct from all data, or prexor of old data out of old parity). Members
 * start zeroed, which is consistent parity (as {@code mdadm --assume-clean} on zeroed disks).
 *
 * <p>Not modelled: reads through the cache (O_DIRECT reads bypass it: {@code raid5_read_one_chunk}, handled by the md
 * core), discards (off by default: {@code devices_handle_discard_safely}), degraded arrays, resync, reshape, and the
 * cache growing past {@code stripe_cache_size} under pressure ({@code R5_ALLOC_MORE}); when a hash bucket has no
 * inactive stripe head the submitter would sleep, which flushes its plug, so the pending heads are handled then (their
 * work is returned by the next {@link #handle()} first).
 *
 * <p>Mutable and deterministic (same calls, same results); not thread-safe: use it from one thread.
 */
public final class StripeCache {
    private static final Logger LOG = LoggerFactory.getLogger(StripeCache.class);

    /** {@code NR_STRIPES}: the default {@code stripe_cache_size}. */
    public static final int NR_STRIPES = 256;
    /** The smallest {@code stripe_cache_size} md accepts ({@code raid5_set_cache_size}: more than 16). */
    public static final int MIN_STRIPE_CACHE_SIZE = 17;
    /** The largest {@code stripe_cache_size} md accepts ({@code raid5_set_cache_size}). */
    public static final int MAX_STRIPE_CACHE_SIZE = 32768;
    /** {@code NR_STRIPE_HASH_LOCKS}: stripe heads are kept in this many buckets, each with its own LRU list. */
    public static final int NR_STRIPE_HASH_LOCKS = 8;

    private static final int PAGE = (int) Raid5Geometry.STRIPE_SECTORS;
    private static final int FULL_PAGE = (1 << PAGE) - 1;

    /** How a stripe head's parity was brought up to date ({@code schedule_reconstruction}). */
    public enum Reconstruct {
        /** Every data page overwritten: no reads, parity computed from the new data. */
        FULL_STRIPE,
        /** Reconstruct-write (rcw): parity computed from all data pages, reading those not written or cached. */
        RECONSTRUCT_WRITE,
        /** Read-modify-write (rmw): the old data and parity read, the old data xored out of the parity (prexor). */
        READ_MODIFY_WRITE
    }

    /**
     * One member bio: always one page ({@link Raid5Geometry#STRIPE_SECTORS} sectors); recorded rwbs {@code R} for
     * reads, {@code WS} for the writes of O_DIRECT and of {@code sync}'s writeback.
     *
     * @param disk the member index
     * @param write true for a write
     * @param memberSector the first sector, counted from the member's data offset
     * @param sectors its length in sectors
     * @param fromSector the sector {@code block_bio_remap} shows as {@code from=md0:<sector>}
     *     ({@link Raid5Geometry#remapFromSector})
     */
    public record MemberIo(int disk, boolean write, long memberSector, long sectors, long fromSector) {
        /** Checks that the numbers are not negative and the length positive. */
        public MemberIo {
            if (disk < 0 || memberSector < 0 || sectors <= 0 || fromSector < 0) {
                throw new IllegalArgumentException("MemberIo: disk (" + disk + "), memberSector (" + memberSector
                        + ") and fromSector (" + fromSector + ") must not be negative, sectors (" + sectors
                        + ") must be positive");
            }
        }
    }

    /**
     * What handling one stripe head does: the caller issues {@code reads}, and when they have completed,
     * {@code writes}. Both lists are in {@code ops_run_io}'s order (descending disk index).
     *
     * @param memberSector the stripe head's sector on every member ({@code sh->sector})
     * @param reconstruct how its parity was computed
     * @param reads the member reads, possibly none
     * @param writes the member writes: every data page written, then P (and Q) — never empty
     */
    public record StripeWork(long memberSector, Reconstruct reconstruct, List<MemberIo> reads, List<MemberIo> writes) {
        /** Copies the lists; rejects nulls. */
        public StripeWork {
            Objects.requireNonNull(reconstruct, "reconstruct");
            reads = List.copyOf(Objects.requireNonNull(reads, "reads"));
            writes = List.copyOf(Objects.requireNonNull(writes, "writes"));
        }
    }

    /**
     * Counters since the cache was made.
     *
     * @param stripeHeadsHandled stripe heads handled (each with writes)
     * @param fullStripeWrites of those, full-stripe writes
     * @param reconstructWrites of those, reconstruct-writes that were not full-stripe
     * @param readModifyWrites of those, read-modify-writes
     * @param pagesRead pages read per member (index = disk)
     * @param pagesWritten pages written per member (index = disk)
     */
    public record Stats(long stripeHeadsHandled, long fullStripeWrites, long reconstructWrites,
            long readModifyWrites, List<Long> pagesRead, List<Long> pagesWritten) {
        /** Copies the lists; rejects nulls. */
        public Stats {
            pagesRead = List.copyOf(Objects.requireNonNull(pagesRead, "pagesRead"));
            pagesWritten = List.copyOf(Objects.requireNonNull(pagesWritten, "pagesWritten"));
        }

        /** Pages read on all members. */
        public long totalPagesRead() {
            return pagesRead.stream().mapToLong(Long::longValue).sum();
        }

        /** Pages written on all members. */
        public long totalPagesWritten() {
            return pagesWritten.stream().mapToLong(Long::longValue).sum();
        }
    }

    /** One stripe head: a page per member at {@code sector}. */
    private final class StripeHead {
        final long sector;
        final int pd;
        final int qd;
        final long[][] page;
        final boolean[] uptodate;
        /** Per member, the sectors of the page pending writes cover (bit s = sector s of the page). */
        final int[] towrite;
        final long[][] towriteValue;

        StripeHead(long sector) {
            int n = geometry.raidDisks();
            this.sector = sector;
            this.pd = geometry.parityDisk(sector);
            this.qd = geometry.qDisk(sector);
            this.page = new long[n][PAGE];
            this.uptodate = new boolean[n];
            this.towrite = new int[n];
            this.towriteValue = new long[n][PAGE];
        }

        boolean isParity(int disk) {
            return disk == pd || disk == qd;
        }

        // drivers/md/raid5.c: __add_stripe_bio — a page whose pending bios cover all its sectors is R5_OVERWRITE
        boolean overwrite(int disk) {
            return towrite[disk] == FULL_PAGE;
        }

    }

    private final Raid5Geometry geometry;
    /** Whether the members' contents are kept (the data model), or only the I/O worked out. */
    private final boolean trackData;
    private final int stripeCacheSize;
    private final long componentSectors;
    private final long arraySectors;
    /** Every hashed stripe head, pending or inactive, by its sector. */
    private final Map<Long, StripeHead> heads = new HashMap<>();
    /** Per hash bucket, the inactive stripe heads, least recently released first. */
    private final List<LinkedHashMap<Long, StripeHead>> inactive = new ArrayList<>();
    /** Per hash bucket, the stripe heads in use (hashed). */
    private final int[] hashed = new int[NR_STRIPE_HASH_LOCKS];
    /** The stripe heads waiting for the unplug, by sector. */
    private final TreeMap<Long, StripeHead> plugged = new TreeMap<>();
    /** Work of stripe heads handled while a write waited for one (returned first by the next handle()). */
    private final List<StripeWork> handledEarly = new ArrayList<>();
    /** Per member, page sector to its 8 sector values (absent: zeros). */
    private final List<Map<Long, long[]>> members = new ArrayList<>();
    private long nextToken = 1;
    private long stripeHeadsHandled;
    private long fullStripeWrites;
    private long reconstructWrites;
    private long readModifyWrites;
    private final long[] pagesRead;
    private final long[] pagesWritten;

    /**
     * A cache for members of unlimited size.
     *
     * @param geometry the array's geometry
     * @param stripeCacheSize {@code stripe_cache_size}: {@value #MIN_STRIPE_CACHE_SIZE}..{@value
     *     #MAX_STRIPE_CACHE_SIZE} ({@value #NR_STRIPES} by default in md)
     * @throws IllegalArgumentException if the size is outside md's bounds
     */
    public StripeCache(Raid5Geometry geometry, int stripeCacheSize) {
        this(geometry, stripeCacheSize, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    /**
     * A cache for members of {@code componentSectors} data sectors each; writes must lie inside the array
     * ({@link Raid5Geometry#arraySectors}).
     *
     * @param geometry the array's geometry
     * @param stripeCacheSize {@code stripe_cache_size}: {@value #MIN_STRIPE_CACHE_SIZE}..{@value
     *     #MAX_STRIPE_CACHE_SIZE}
     * @param componentSectors each member's data size in sectors (md's {@code dev_sectors}), at least one chunk
     * @throws IllegalArgumentException if the size is outside md's bounds or the members are below one chunk
     */
    public StripeCache(Raid5Geometry geometry, int stripeCacheSize, long componentSectors) {
        this(geometry, stripeCacheSize, componentSectors, true);
    }

    /**
     * As {@link #StripeCache(Raid5Geometry, int, long)}, keeping the members' contents ({@link #readArray},
     * {@link #parityConsistent}) only when {@code trackData}: the engine does not, so that its memory stays that of
     * the cache's heads however much is written.
     */
    public StripeCache(Raid5Geometry geometry, int stripeCacheSize, long componentSectors, boolean trackData) {
        this(geometry, stripeCacheSize, componentSectors,
                Objects.requireNonNull(geometry, "geometry").arraySectors(componentSectors), trackData);
    }

    private StripeCache(Raid5Geometry geometry, int stripeCacheSize, long componentSectors, long arraySectors) {
        this(geometry, stripeCacheSize, componentSectors, arraySectors, true);
    }

    private StripeCache(Raid5Geometry geometry, int stripeCacheSize, long componentSectors, long arraySectors,
                        boolean trackData) {
        this.trackData = trackData;
        this.geometry = Objects.requireNonNull(geometry, "geometry");
        // drivers/md/raid5.c: raid5_set_cache_size — 16 < size <= 32768
        if (stripeCacheSize < MIN_STRIPE_CACHE_SIZE || stripeCacheSize > MAX_STRIPE_CACHE_SIZE) {
            throw new IllegalArgumentException("stripeCacheSize (" + stripeCacheSize + ") must be "
                    + MIN_STRIPE_CACHE_SIZE + ".." + MAX_STRIPE_CACHE_SIZE + " (raid5_set_cache_size)");
        }
        this.stripeCacheSize = stripeCacheSize;
        this.componentSectors = componentSectors;
        this.arraySectors = arraySectors;
        for (int b = 0; b < NR_STRIPE_HASH_LOCKS; b++) {
            inactive.add(new LinkedHashMap<>());
        }
        for (int d = 0; d < geometry.raidDisks(); d++) {
            members.add(new HashMap<>());
        }
        this.pagesRead = new long[geometry.raidDisks()];
        this.pagesWritten = new long[geometry.raidDisks()];
    }

    /** The array's geometry. */
    public Raid5Geometry geometry() {
        return geometry;
    }

    /** {@code stripe_cache_size}. */
    public int stripeCacheSize() {
        return stripeCacheSize;
    }

    /** The array's size in sectors ({@code Long.MAX_VALUE} when the members' size was not given). */
    public long arraySectors() {
        return arraySectors;
    }

    /**
     * Adds a write bio whose content token is the number of this call among the calls of this overload (1, 2, ...):
     * see {@link #addWrite(long, long, long)}.
     */
    public void addWrite(long arraySector, long sectors) {
        addWrite(arraySector, sectors, nextToken);
        nextToken++;
    }

    /**
     * Adds a write bio of {@code sectors} from {@code arraySector}, every sector of it holding {@code token}, to the
     * stripe heads it covers, page by page, as {@code raid5_make_request} does under the submitter's plug; nothing is
     * issued until {@link #handle()}. The bio need not be page-aligned and may cover many stripe heads. A stripe head
     * is taken from the cache or, when new, from its hash bucket's least recently released one. If a sector is
     * already pending (a write overlapping one not yet handled: {@code stripe_bio_overlaps}), or a bucket has no
     * stripe head to give, the submitter would sleep and so unplug: the pending stripe heads are handled first.
     *
     * @throws IllegalArgumentException if {@code sectors} is not positive or the range is outside the array
     */
    public void addWrite(long arraySector, long sectors, long token) {
        if (arraySector < 0) {
            throw new IllegalArgumentException("arraySector (" + arraySector + ") must not be negative");
        }
        if (sectors <= 0) {
            throw new IllegalArgumentException("sectors (" + sectors + ") must be positive");
        }
        if (sectors > arraySectors - arraySector) {
            throw new IllegalArgumentException("write of " + sectors + " sectors at arraySector " + arraySector
                    + " ends past the array's end (" + arraySectors + " sectors)");
        }
        long end = arraySector + sectors;
        // the bio's pages grouped by stripe head: {disk, first sector in the page, end sector in the page}
        TreeMap<Long, List<int[]>> byHead = new TreeMap<>();
        for (long s = arraySector; s < end; ) {
            long pageStart = s - s % PAGE;
            long pageEnd = Math.min(pageStart + PAGE, end);
            Raid5Geometry.Location loc = geometry.computeSector(pageStart);
            byHead.computeIfAbsent(loc.memberSector(), k -> new ArrayList<>())
                    .add(new int[] {loc.dataDisk(), (int) (s - pageStart), (int) (pageEnd - pageStart)});
            s = pageEnd;
        }
        for (Map.Entry<Long, List<int[]>> e : byHead.entrySet()) {
            StripeHead sh = getActiveStripe(e.getKey());
            if (overlaps(sh, e.getValue())) {
                LOG.debug("write at {} overlaps a pending write on stripe {}: unplugging", arraySector, sh.sector);
                unplug();
                sh = getActiveStripe(e.getKey());
            }
            addStripeBio(sh, e.getValue(), token);
            plugged.put(sh.sector, sh);
        }
    }

    // drivers/md/raid5.c: stripe_bio_overlaps — a new bio may not share a sector with one already on the page
    private static boolean overlaps(StripeHead sh, List<int[]> pieces) {
        for (int[] p : pieces) {
            if ((sh.towrite[p[0]] & mask(p[1], p[2])) != 0) {
                return true;
            }
        }
        return false;
    }

    // drivers/md/raid5.c: add_all_stripe_bios / __add_stripe_bio — the bio joins each data page it covers
    private static void addStripeBio(StripeHead sh, List<int[]> pieces, long token) {
        for (int[] p : pieces) {
            sh.towrite[p[0]] |= mask(p[1], p[2]);
            for (int s = p[1]; s < p[2]; s++) {
                sh.towriteValue[p[0]][s] = token;
            }
        }
    }

    private static int mask(int from, int to) {
        return ((1 << to) - 1) & ~((1 << from) - 1);
    }

    // drivers/md/raid5.c: stripe_hash_locks_hash — the bucket of a stripe head
    private static int bucket(long sector) {
        return (int) ((sector / PAGE) % NR_STRIPE_HASH_LOCKS);
    }

    // drivers/md/raid5.c: grow_one_stripe — stripe head k of the cache goes to bucket k % NR_STRIPE_HASH_LOCKS
    private int bucketCapacity(int bucket) {
        return stripeCacheSize / NR_STRIPE_HASH_LOCKS + (stripeCacheSize % NR_STRIPE_HASH_LOCKS > bucket ? 1 : 0);
    }

    // drivers/md/raid5.c: raid5_get_active_stripe — find_get_stripe takes a cached head off its inactive list;
    // else get_free_stripe takes the head of the bucket's inactive list (least recently released) and init_stripe
    // clears it; with none inactive the submitter waits, which flushes its plug
    private StripeHead getActiveStripe(long sector) {
        int b = bucket(sector);
        StripeHead sh = heads.get(sector);
        if (sh != null) {
            inactive.get(b).remove(sector);
            return sh;
        }
        if (hashed[b] < bucketCapacity(b)) {
            hashed[b]++;
        } else {
            if (inactive.get(b).isEmpty()) {
                LOG.debug("no free stripe head in bucket {} for stripe {}: unplugging", b, sector);
                unplug();
            }
            Iterator<Map.Entry<Long, StripeHead>> lru = inactive.get(b).entrySet().iterator();
            long victim = lru.next().getKey();
            lru.remove();
            heads.remove(victim);
        }
        sh = new StripeHead(sector);
        heads.put(sector, sh);
        return sh;
    }

    private void unplug() {
        handledEarly.addAll(handlePlugged());
    }

    /**
     * The unplug and raid5d's pass: handles every pending stripe head in ascending member-sector order and returns
     * what each does (after any handled early while a write waited). The kernel's order is that of its plug list
     * (for one bio, ascending from the stripe with the lowest chunk offset); the recordings compare member I/O as a
     * multiset. Afterwards every page read or written is up to date in the cache, and the member store holds the
     * writes.
     */
    public List<StripeWork> handle() {
        List<StripeWork> out = new ArrayList<>(handledEarly);
        handledEarly.clear();
        out.addAll(handlePlugged());
        return List.copyOf(out);
    }

    private List<StripeWork> handlePlugged() {
        List<StripeWork> out = new ArrayList<>();
        for (StripeHead sh : plugged.values()) {
            out.add(handleStripe(sh));
            // drivers/md/raid5.c: do_release_stripe — a handled head goes to the tail of its inactive list
            inactive.get(bucket(sh.sector)).put(sh.sector, sh);
        }
        plugged.clear();
        return out;
    }

    // drivers/md/raid5.c: handle_stripe — handle_stripe_fill, then handle_stripe_dirtying, then (when the reads
    // have completed) schedule_reconstruction's drain and parity, and ops_run_io's writes
    private StripeWork handleStripe(StripeHead sh) {
        int n = geometry.raidDisks();
        boolean[] read = new boolean[n];
        // drivers/md/raid5.c: need_this_block — a page being partly written must be read first (dev->towrite &&
        // !R5_OVERWRITE); handle_stripe_fill runs before handle_stripe_dirtying, so these pages are R5_LOCKED there
        // and count in neither rmw nor rcw
        for (int i = 0; i < n; i++) {
            if (!sh.isParity(i) && sh.towrite[i] != 0 && !sh.overwrite(i) && !sh.uptodate[i]) {
                read[i] = true;
            }
        }
        // drivers/md/raid5.c: handle_stripe_dirtying — rmw counts the pages a read-modify-write must read (pages
        // written and P/Q), rcw those a reconstruct-write must read (data pages not overwritten), skipping pages
        // locked or up to date
        int rmw = 0;
        int rcw = 0;
        for (int i = 0; i < n; i++) {
            if (read[i] || sh.uptodate[i]) {
                continue;
            }
            if (sh.towrite[i] != 0 || sh.isParity(i)) {
                rmw++;
            }
            if (!sh.overwrite(i) && !sh.isParity(i)) {
                rcw++;
            }
        }
        boolean full = true;
        for (int i = 0; i < n; i++) {
            if (!sh.isParity(i) && !sh.overwrite(i)) {
                full = false;
            }
        }
        // rmw_level PARITY_ENABLE_RMW (raid4/5, and raid6 where raid6_call.xor_syndrome exists, as on x86):
        // rmw only if strictly cheaper, ties to rcw; with nothing left to read, schedule_reconstruction gets
        // rcw == 0 (reconstruct) or else rmw (prexor)
        Reconstruct mode;
        if (rcw == 0) {
            mode = full ? Reconstruct.FULL_STRIPE : Reconstruct.RECONSTRUCT_WRITE;
        } else if (rmw == 0) {
            mode = Reconstruct.READ_MODIFY_WRITE;
        } else if (rmw < rcw) {
            mode = Reconstruct.READ_MODIFY_WRITE;
            for (int i = 0; i < n; i++) {
                if (!read[i] && !sh.uptodate[i] && (sh.towrite[i] != 0 || sh.isParity(i))) {
                    read[i] = true;
                }
            }
        } else {
            mode = Reconstruct.RECONSTRUCT_WRITE;
            for (int i = 0; i < n; i++) {
                if (!read[i] && !sh.uptodate[i] && !sh.overwrite(i) && !sh.isParity(i)) {
                    read[i] = true;
                }
            }
        }
        List<MemberIo> reads = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            if (read[i]) {
                readPage(sh, i);
                reads.add(io(sh, i, false));
            }
        }
        reconstruct(sh, mode);
        List<MemberIo> writes = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            if (sh.towrite[i] != 0 || sh.isParity(i)) {
                writePage(sh, i);
                writes.add(io(sh, i, true));
            }
        }
        Arrays.fill(sh.towrite, 0);
        stripeHeadsHandled++;
        switch (mode) {
            case FULL_STRIPE -> fullStripeWrites++;
            case RECONSTRUCT_WRITE -> reconstructWrites++;
            default -> readModifyWrites++;
        }
        return new StripeWork(sh.sector, mode, reads, writes);
    }

    private MemberIo io(StripeHead sh, int disk, boolean write) {
        return new MemberIo(disk, write, sh.sector, PAGE, geometry.remapFromSector(sh.sector, disk));
    }

    // drivers/md/raid5.c: raid5_end_read_request — a completed read makes the page R5_UPTODATE
    private void readPage(StripeHead sh, int disk) {
        long[] stored = trackData ? members.get(disk).get(sh.sector) : null;
        System.arraycopy(stored == null ? new long[PAGE] : stored, 0, sh.page[disk], 0, PAGE);
        sh.uptodate[disk] = true;
        pagesRead[disk]++;
    }

    private void writePage(StripeHead sh, int disk) {
        if (trackData) {
            members.get(disk).put(sh.sector, sh.page[disk].clone());
        }
        pagesWritten[disk]++;
    }

    // drivers/md/raid5.c: ops_run_prexor5/6, ops_run_biodrain, ops_run_reconstruct5/6 — rmw xors the old data out
    // of the old parity and the new data in (raid6: async_gen_syndrome's xor_syndrome on Q too); rcw and full-stripe
    // compute P (and Q) from every data page; ops_complete_reconstruct leaves written pages and parity R5_UPTODATE
    private void reconstruct(StripeHead sh, Reconstruct mode) {
        int n = geometry.raidDisks();
        for (int i = 0; i < n; i++) {
            if (sh.towrite[i] == 0) {
                continue;
            }
            long[] next = new long[PAGE];
            for (int s = 0; s < PAGE; s++) {
                boolean written = (sh.towrite[i] & (1 << s)) != 0;
                if (!written && !sh.uptodate[i]) {
                    throw new IllegalStateException("stripe " + sh.sector + " disk " + i + ": partial page not read");
                }
                next[s] = written ? sh.towriteValue[i][s] : sh.page[i][s];
            }
            if (mode == Reconstruct.READ_MODIFY_WRITE) {
                requireUptodate(sh, i);
                requireUptodate(sh, sh.pd);
                int slot = sh.qd >= 0 ? geometry.syndromeSlot(sh.sector, i) : 0;
                for (int s = 0; s < PAGE; s++) {
                    long delta = sh.page[i][s] ^ next[s];
                    sh.page[sh.pd][s] ^= delta;
                    if (sh.qd >= 0) {
                        requireUptodate(sh, sh.qd);
                        sh.page[sh.qd][s] ^= Raid6Syndrome.timesPowerOf2(delta, slot);
                    }
                }
            }
            sh.page[i] = next;
            sh.uptodate[i] = true;
        }
        if (mode != Reconstruct.READ_MODIFY_WRITE) {
            for (int i = 0; i < n; i++) {
                if (!sh.isParity(i)) {
                    requireUptodate(sh, i);
                }
            }
            for (int s = 0; s < PAGE; s++) {
                final int sector = s;
                sh.page[sh.pd][s] = parityP(sh, disk -> sh.page[disk][sector]);
                if (sh.qd >= 0) {
                    sh.page[sh.qd][s] = parityQ(sh, disk -> sh.page[disk][sector]);
                }
            }
        }
        sh.uptodate[sh.pd] = true;
        if (sh.qd >= 0) {
            sh.uptodate[sh.qd] = true;
        }
    }

    private static void requireUptodate(StripeHead sh, int disk) {
        if (!sh.uptodate[disk]) {
            throw new IllegalStateException("stripe " + sh.sector + " disk " + disk + " is not up to date");
        }
    }

    /** A data value of one page sector, by disk. */
    @FunctionalInterface
    private interface SectorValue {
        long of(int disk);
    }

    // drivers/md/raid5.c: ops_run_reconstruct5 — P is the XOR of the data blocks
    private long parityP(StripeHead sh, SectorValue value) {
        long p = 0;
        for (int i = 0; i < geometry.raidDisks(); i++) {
            if (!sh.isParity(i)) {
                p ^= value.of(i);
            }
        }
        return p;
    }

    // drivers/md/raid5.c: set_syndrome_sources — the data blocks in syndrome-slot order (DDF: P and Q slots zero)
    private long parityQ(StripeHead sh, SectorValue value) {
        long[] bySlot = new long[geometry.ddfLayout() ? geometry.raidDisks() : geometry.dataDisks()];
        for (int i = 0; i < geometry.raidDisks(); i++) {
            if (!sh.isParity(i)) {
                bySlot[geometry.syndromeSlot(sh.sector, i)] = value.of(i);
            }
        }
        return Raid6Syndrome.q(bySlot);
    }

    /**
     * What reading {@code arraySector} returns: the member store's value at that sector's place
     * ({@link Raid5Geometry#computeSector}): the token of the last handled write of it, 0 if never written. Writes
     * still pending (not yet {@link #handle() handled}) are not seen.
     *
     * @throws IllegalArgumentException if the sector is outside the array
     */
    public long readArray(long arraySector) {
        if (arraySector < 0 || arraySector >= arraySectors) {
            throw new IllegalArgumentException("arraySector (" + arraySector + ") must be 0.." + (arraySectors - 1));
        }
        Raid5Geometry.Location loc = geometry.computeSector(arraySector);
        return readMember(loc.dataDisk(), loc.memberSector());
    }

    /**
     * The member store's value at {@code memberSector} of {@code disk} (data, P or Q), 0 if never written.
     *
     * @throws IllegalArgumentException if the disk is not a member or the sector is outside the member
     */
    public long readMember(int disk, long memberSector) {
        if (!trackData) {
            throw new IllegalStateException("this stripe cache keeps no member contents (trackData false)");
        }
        requireDisk(disk);
        requireMemberSector(memberSector);
        long[] stored = members.get(disk).get(memberSector - memberSector % PAGE);
        return stored == null ? 0 : stored[(int) (memberSector % PAGE)];
    }

    /**
     * Whether the member store's P (and Q) of the stripe head at {@code memberSector} match its data, recomputed:
     * P = XOR of the data, Q = the GF(2^8) syndrome in {@link Raid5Geometry#syndromeSlot} order, per sector.
     *
     * @throws IllegalArgumentException if the sector is not a multiple of 8 or outside the member
     */
    public boolean parityConsistent(long memberSector) {
        if (!trackData) {
            throw new IllegalStateException("this stripe cache keeps no member contents (trackData false)");
        }
        requireMemberSector(memberSector);
        if (memberSector % PAGE != 0) {
            throw new IllegalArgumentException("memberSector (" + memberSector + ") must be a multiple of "
                    + PAGE + " (a stripe head's sector)");
        }
        StripeHead layout = new StripeHead(memberSector);
        for (int s = 0; s < PAGE; s++) {
            long sector = memberSector + s;
            SectorValue stored = disk -> readMember(disk, sector);
            if (parityP(layout, stored) != readMember(layout.pd, sector)) {
                return false;
            }
            if (layout.qd >= 0 && parityQ(layout, stored) != readMember(layout.qd, sector)) {
                return false;
            }
        }
        return true;
    }

    /** Whether a stripe head for {@code memberSector} is in the cache (pending or inactive). */
    public boolean isCached(long memberSector) {
        return heads.containsKey(memberSector);
    }

    /** The stripe heads in the cache (at most {@link #stripeCacheSize()}). */
    public int cachedStripeHeads() {
        return heads.size();
    }

    /** The stripe heads holding writes not yet handled. */
    public int pendingStripeHeads() {
        return plugged.size();
    }

    /** The counters so far. */
    public Stats stats() {
        return new Stats(stripeHeadsHandled, fullStripeWrites, reconstructWrites, readModifyWrites,
                Arrays.stream(pagesRead).boxed().toList(), Arrays.stream(pagesWritten).boxed().toList());
    }

    private void requireDisk(int disk) {
        if (disk < 0 || disk >= geometry.raidDisks()) {
            throw new IllegalArgumentException("disk (" + disk + ") must be a member index 0.."
                    + (geometry.raidDisks() - 1));
        }
    }

    private void requireMemberSector(long memberSector) {
        if (memberSector < 0 || memberSector >= componentSectors) {
            throw new IllegalArgumentException("memberSector (" + memberSector + ") must be 0.."
                    + (componentSectors - 1));
        }
    }
}
