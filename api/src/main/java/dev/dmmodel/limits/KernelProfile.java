package dev.dmmodel.limits;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The block-layer rules of one kernel version, as a named immutable preset (in the manner of Jimfs's
 * {@code Configuration}). Each preset's Javadoc lists what it implies; derive a variant with
 * {@link #toBuilder()}.
 *
 * <p>{@link #LINUX_7_2}, {@link #LINUX_6_12}, {@link #LINUX_6_1} and {@link #LINUX_5_10} were checked against
 * recordings of real kernels (Debian's 7.2.13, 6.12.117, 6.1.192 and 5.10.223); the historic presets reproduce the
 * rules the real cases of those eras need, from the kernel sources of the time.
 *
 * <p>Any other release is composed rule by rule ({@link #forRelease(String)}): each rule knows the upstream
 * release where it changed and why ({@code docs/kernel-releases.md}), so RHEL 8's 4.18 or Ubuntu's 5.15 gets the
 * rules of its own version rather than those of the nearest preset.
 */
public final class KernelProfile {

    /** How {@code blk_stack_limits} compares and combines alignments. */
    public enum AlignmentMath {
        /** No I/O topology (before 2.6.31): no io_min/io_opt/alignment_offset stacking at all. */
        NONE,
        /** {@code &} with {@code granularity - 1}: assumes powers of two (2.6.31 – ≈3.18). */
        POWER_OF_TWO_MASKS,
        /** {@code %}: non-power-of-two io_min works ("fix alignment_offset math", 3.18 or 3.19). */
        MODULO
    }

    /** How {@code chunk_sectors} is stacked. */
    public enum ChunkSectorsStacking {
        /** Not stacked: no {@code chunk_sectors} field before 3.16, a driver's own value up to 4.9. */
        NONE,
        /** {@code lcm_not_zero}: only 5.10's release candidates stacked this way; no release does. */
        LCM,
        /**
         * {@code gcd} (5.10+); 4.10 – 5.9 took the {@code min_not_zero}, which is the same for the power-of-two
         * chunk sizes those kernels allowed.
         */
        GCD
    }

    /** What dm-thin's {@code pool_io_hints} does. */
    public enum ThinPoolIoHints {
        /** No thin target in this kernel. */
        NONE,
        /** 3.2 – 3.18: io_min reset (to the physical block size), io_opt = block size. */
        IO_OPT_IS_BLOCK,
        /**
         * 3.19+: when max_sectors &lt; block, cut max_sectors to the largest power of two dividing the
         * block; unless io_opt is already a multiple of the block, io_min = max_sectors (if it
         * divides the block) else the block, and io_opt = the block.
         */
        BLOCK_SIZE_HINTS
    }

    /** Where a bio gets its size. */
    public enum BioShaping {
        /**
         * Before 4.3: when it is built, by the top device's queue ({@code bio_add_page}: max_sectors,
         * max_segments, {@code bio_get_nr_vecs}, dm's {@code merge_bvec_fn}); queues below never split it.
         */
        AT_BUILD,
        /** 4.3+: built up to {@code BIO_MAX_VECS} pages, then split by every queue it enters. */
        ON_ENTRY
    }

    /** The discard limit a thin device advertises ({@code thin_io_hints}). */
    public enum ThinDiscardLimit {
        /** No discard support on thin devices. */
        NONE,
        /**
         * A fixed 16 GiB ({@code thin_io_hints}, ≈4.1 – 6.3; the model also gives it to 3.4 – 4.0, which advertised
         * one pool block).
         */
        FIXED_16_GIB,
        /** 1024 × the pool block ({@code BIO_PRISON_MAX_RANGE}, 6.4+; recorded on 6.12). */
        BIO_PRISON_RANGE
    }

    /**
     * How a block device's read-ahead lays out its page-cache folios ({@code mm/readahead.c}:
     * {@code page_cache_ra_order}, {@code page_cache_async_ra}). The windows' sizes ramp as
     * {@code get_init_ra_size} / {@code get_next_ra_size} say in every kind; the kinds differ in the folios a
     * window is read in, which decides how many bio_vecs (and bios) a window takes and, from 6.17, where an
     * asynchronous window ends.
     */
    public enum ReadAheadFolios {
        /** Before 6.15: a block device's page cache holds single pages only; every window is read in pages. */
        SINGLE_PAGES,
        /**
         * 6.15 – 6.16: every block device's page cache takes large folios, up to {@code MAX_PAGECACHE_ORDER}
         * ({@code set_init_blocksize} sets the mapping's folio orders); {@code page_cache_ra_order} reads a window
         * in folios two orders above the order it is given (0 for a synchronous window, the readahead-marked
         * folio's for an asynchronous one), no larger than the window, aligned to their size; windows under 4
         * pages are read in pages.
         */
        MARKER_ORDER_PLUS_TWO,
        /**
         * 6.17+: large folios as from 6.15, the order kept in {@code file_ra_state}: a synchronous window is read
         * in single pages, each asynchronous window two orders above the previous one (up to 2 MiB folios), and an
         * asynchronous window's end is cut down to a multiple of that order's folio size (at most the largest
         * power of two dividing the read-ahead limit), so that the windows end on folio boundaries.
         */
        ALIGNED_ORDER_RAMP
    }

    /**
     * Linux 7.2 (recorded: Debian unstable's 7.2.13+deb14). The rules of 6.12 (limits validated on every
     * commit, sd leaves max_sectors alone, dm-striped's chunk_sectors, thin discards of 1024 blocks, an empty
     * flush through dm-linear at sector 0), and, all seen in the recordings: the default cap on max_sectors is
     * 4 MiB ({@code BLK_DEF_MAX_SECTORS_CAP} = 8192 sectors; 6.12: 2560), so a disk that allows it reports
     * max_sectors_kb 4096; a rotational device without an io_opt reads ahead twice its max_sectors
     * ({@link #readAheadFromMaxSectorsWhenRotational()}); dm-striped advertises its stripes' discard limits together
     * ({@link #stripedDiscardSpansStripes()}); no plug of {@code __submit_bio}'s own any more, so a request made without
     * a plug waits in the disk's I/O scheduler until the submitter sleeps and the submitter's later bios back-merge
     * into it ({@link #unpluggedRequestsWaitInScheduler()}): the pieces of one O_DIRECT write that dm sends to one
     * disk end up in one request, as 6.1's writer's plug merged them (O_DIRECT writes are not plugged, as on 6.12);
     * a block device's read-ahead reads in large folios whose order ramps with the windows, each asynchronous
     * window ending on a folio boundary ({@link #readAheadFolios()}: windows of 8, 32, 120, 480, 896, 1536, 1024,
     * 2048 pages for an 8 KiB reader with read_ahead_kb 8192).
     */
    public static final KernelProfile LINUX_7_2 = builder("linux-7.2", 7, 2, 0)
            .description("Linux 7.2 as recorded on Debian unstable's 7.2.13+deb14, the newest recorded kernel")
            .maxSectorsCap(8192)
            .sdMaxSectorsFromOptimalTransfer(false)
            .validateLimitsOnCommit(true)
            .ioOptRaisesMaxSectors(true)
            .alignmentMath(AlignmentMath.MODULO)
            .chunkSectorsStacking(ChunkSectorsStacking.GCD)
            .stripedSetsChunkSectors(true)
            .thinPoolIoHints(ThinPoolIoHints.BLOCK_SIZE_HINTS)
            .thinDiscardLimit(ThinDiscardLimit.BIO_PRISON_RANGE)
            .stacksDmaAlignment(true)
            .readAheadFromIoOpt(true)
            .writeZeroesSupported(true)
            .plugsDirectWrites(false)
            .linearRemapsEmptyFlushes(false)
            .tracesDeferredRemaps(true)
            .directReadsSync(true)
            .readAheadFromMaxSectorsWhenRotational(true)
            .stripedDiscardSpansStripes(true)
            .readAheadFolios(ReadAheadFolios.ALIGNED_ORDER_RAMP)
            .unpluggedRequestsWaitInScheduler(true)
            .build();

    /**
     * Linux 6.12 (the default; recorded: Debian 12's 6.12.117). Differences from 6.1, all seen in the
     * recordings: limits are validated on every commit ({@code blk_validate_limits}), so max_sectors is
     * recomputed from max_hw/max_dev/max_user sectors (a thin pool's cut to a power-of-two factor does
     * not survive) and an alignment_offset is reduced modulo the physical block size, which clears the
     * misaligned flag; the sd driver no longer lowers max_sectors to the optimal transfer length;
     * dm-striped sets chunk_sectors to its chunk; thin devices advertise 1024 × the block for discard;
     * dma_alignment is stacked; an empty flush through dm-linear stays at sector 0 (dm sends it straight to
     * the devices, 6.11+); O_DIRECT writes are not plugged (since 6.5), so each request of one write is
     * issued as it is made (by the flush of the plug {@code __submit_bio} holds around each bio, 6.10 – 7.1). Cap 2560 sectors; chunk_sectors stacked by gcd; bios split on entry; a plug holds
     * 32 requests and is flushed once its newest request reaches 128 KiB.
     */
    public static final KernelProfile LINUX_6_12 = builder("linux-6.12", 6, 12, 0)
            .description("Linux 6.12 as recorded on Debian 12's 6.12.117 (the default profile)")
            .maxSectorsCap(2560)
            .sdMaxSectorsFromOptimalTransfer(false)
            .validateLimitsOnCommit(true)
            .ioOptRaisesMaxSectors(true)
            .alignmentMath(AlignmentMath.MODULO)
            .chunkSectorsStacking(ChunkSectorsStacking.GCD)
            .stripedSetsChunkSectors(true)
            .thinPoolIoHints(ThinPoolIoHints.BLOCK_SIZE_HINTS)
            .thinDiscardLimit(ThinDiscardLimit.BIO_PRISON_RANGE)
            .stacksDmaAlignment(true)
            .readAheadFromIoOpt(true)
            .writeZeroesSupported(true)
            .plugsDirectWrites(false)
            .linearRemapsEmptyFlushes(false)
            .tracesDeferredRemaps(true)
            .directReadsSync(true)
            .readAheadFromMaxSectorsWhenRotational(false)
            .stripedDiscardSpansStripes(false)
            .readAheadFolios(ReadAheadFolios.SINGLE_PAGES)
            .unpluggedRequestsWaitInScheduler(false)
            .build();

    /**
     * Linux 6.1 (recorded: Debian 12's 6.1.192). dm copies the stacked limits as they are, so a thin
     * pool's max_sectors cut to a power-of-two factor of its block stays; the sd driver lowers
     * max_sectors to the optimal transfer length (io_opt); a misaligned stack reports
     * alignment_offset -1; thin devices advertise a fixed 16 GiB discard; dma_alignment is stacked
     * (dm starts from 511, so it shows 511 over disks with smaller masks); dm-linear adds its offset to an
     * empty flush; O_DIRECT writes run under the writer's plug, which holds 32 requests and is flushed once
     * its newest request reaches 128 KiB ({@code BLK_PLUG_FLUSH_SIZE}; recorded with 128 KiB stripe chunks).
     * Cap 2560 sectors; chunk_sectors stacked by gcd; readahead = max(2 × io_opt, 128 KiB); bios split on
     * entry.
     */
    public static final KernelProfile LINUX_6_1 = builder("linux-6.1", 6, 1, 0)
            .description("Linux 6.1 as recorded on Debian 12's 6.1.192")
            .maxSectorsCap(2560)
            .sdMaxSectorsFromOptimalTransfer(true)
            .validateLimitsOnCommit(false)
            .ioOptRaisesMaxSectors(false)
            .alignmentMath(AlignmentMath.MODULO)
            .chunkSectorsStacking(ChunkSectorsStacking.GCD)
            .stripedSetsChunkSectors(false)
            .thinPoolIoHints(ThinPoolIoHints.BLOCK_SIZE_HINTS)
            .thinDiscardLimit(ThinDiscardLimit.FIXED_16_GIB)
            .stacksDmaAlignment(true)
            .readAheadFromIoOpt(true)
            .writeZeroesSupported(true)
            .plugsDirectWrites(true)
            .linearRemapsEmptyFlushes(true)
            .tracesDeferredRemaps(true)
            .directReadsSync(true)
            .readAheadFromMaxSectorsWhenRotational(false)
            .stripedDiscardSpansStripes(false)
            .readAheadFolios(ReadAheadFolios.SINGLE_PAGES)
            .unpluggedRequestsWaitInScheduler(false)
            .build();

    /**
     * Linux 5.10 (Debian 11; recorded: 5.10.223, {@code 5.10.0-32-amd64}). The limits of 6.1 (sd lowers
     * max_sectors to io_opt, a misaligned stack reports -1, chunk_sectors stacked by gcd (5.10 is the first
     * release that does), thin devices advertise 16 GiB for discard, dm-striped leaves chunk_sectors 0), and, all
     * seen in the recordings: dma_alignment is not a stacked limit (6.1) and sysfs has no dma_alignment or
     * virt_boundary_mask file; an empty flush through dm-linear stays at sector 0 ({@code linear_map} remapped
     * only bios with data); bios dm-thin submits from its worker are not traced as remaps from the thin device
     * ({@link #tracesDeferredRemaps()}); O_DIRECT reads are plain {@code R} ({@link #directReadsSync()}).
     */
    public static final KernelProfile LINUX_5_10 = builder("linux-5.10", 5, 10, 0)
            .description("Linux 5.10 as recorded on Debian 11's 5.10.223 (5.10.0-32-amd64)")
            .maxSectorsCap(2560)
            .sdMaxSectorsFromOptimalTransfer(true)
            .validateLimitsOnCommit(false)
            .ioOptRaisesMaxSectors(false)
            .alignmentMath(AlignmentMath.MODULO)
            .chunkSectorsStacking(ChunkSectorsStacking.GCD)
            .stripedSetsChunkSectors(false)
            .thinPoolIoHints(ThinPoolIoHints.BLOCK_SIZE_HINTS)
            .thinDiscardLimit(ThinDiscardLimit.FIXED_16_GIB)
            .stacksDmaAlignment(false)
            .readAheadFromIoOpt(true)
            .writeZeroesSupported(true)
            .plugsDirectWrites(true)
            .linearRemapsEmptyFlushes(false)
            .tracesDeferredRemaps(false)
            .directReadsSync(false)
            .readAheadFromMaxSectorsWhenRotational(false)
            .stripedDiscardSpansStripes(false)
            .readAheadFolios(ReadAheadFolios.SINGLE_PAGES)
            .unpluggedRequestsWaitInScheduler(false)
            .build();

    /**
     * Linux 3.10 (RHEL 7's base; seed 004's era). {@code BLK_DEF_MAX_SECTORS} = 1024 caps max_sectors;
     * bios are shaped when built by the top queue (bio_add_page, dm merge_bvec) and never split below;
     * readahead reads one bio per buffer; a plug holds 16 requests (3.x: {@code BLK_MAX_REQUEST_COUNT}); alignments are
     * combined with power-of-two masks; no chunk_sectors; pool_io_hints only sets io_opt to the block
     * (io_min reset to the physical block size); thin devices advertise one pool block for discard
     * ({@code set_discard_limits}); no write-zeroes; readahead stays 128 KiB; an empty flush through
     * dm-linear stays at sector 0 ({@code linear_map_bio} remaps only bios with data).
     */
    public static final KernelProfile LINUX_3_10 = builder("linux-3.10", 3, 10, 0)
            .description("Linux 3.10 (RHEL 7's base) from the kernel sources of its time, without RHEL's backports")
            .bioShaping(BioShaping.AT_BUILD)
            .readaheadPerBuffer(true)
            .plugMaxRequests(16)
            .plugFlushBytes(0)
            .maxSectorsCap(1024)
            .sdMaxSectorsFromOptimalTransfer(false)
            .validateLimitsOnCommit(false)
            .ioOptRaisesMaxSectors(false)
            .alignmentMath(AlignmentMath.POWER_OF_TWO_MASKS)
            .chunkSectorsStacking(ChunkSectorsStacking.NONE)
            .stripedSetsChunkSectors(false)
            .thinPoolIoHints(ThinPoolIoHints.IO_OPT_IS_BLOCK)
            .thinDiscardLimit(ThinDiscardLimit.FIXED_16_GIB)
            .stacksDmaAlignment(false)
            .readAheadFromIoOpt(false)
            .writeZeroesSupported(false)
            .plugsDirectWrites(true)
            .linearRemapsEmptyFlushes(false)
            .tracesDeferredRemaps(false)
            .directReadsSync(false)
            .readAheadFromMaxSectorsWhenRotational(false)
            .stripedDiscardSpansStripes(false)
            .readAheadFolios(ReadAheadFolios.SINGLE_PAGES)
            .unpluggedRequestsWaitInScheduler(false)
            .build();

    /**
     * Linux 2.6.32 (RHEL 6 / Scientific Linux 6; seed 001's era). Cap 1024 sectors; bios shaped when built
     * by the top queue; readahead reads one bio per buffer ({@code block_read_full_page}); a plug is
     * unplugged at 4 requests ({@code unplug_thresh}); power-of-two alignment masks; no chunk_sectors, no
     * thin provisioning (no pool or thin io_hints, no thin discard), no write-zeroes; readahead 128 KiB; an
     * empty flush (barrier) through dm-linear stays at sector 0.
     */
    public static final KernelProfile LINUX_2_6_32 = builder("linux-2.6.32", 2, 6, 32)
            .description("Linux 2.6.32 (RHEL 6's base) from the kernel sources of its time, without RHEL's backports")
            .bioShaping(BioShaping.AT_BUILD)
            .readaheadPerBuffer(true)
            .plugMaxRequests(4)
            .plugFlushBytes(0)
            .maxSectorsCap(1024)
            .sdMaxSectorsFromOptimalTransfer(false)
            .validateLimitsOnCommit(false)
            .ioOptRaisesMaxSectors(false)
            .alignmentMath(AlignmentMath.POWER_OF_TWO_MASKS)
            .chunkSectorsStacking(ChunkSectorsStacking.NONE)
            .stripedSetsChunkSectors(false)
            .thinPoolIoHints(ThinPoolIoHints.NONE)
            .thinDiscardLimit(ThinDiscardLimit.NONE)
            .stacksDmaAlignment(false)
            .readAheadFromIoOpt(false)
            .writeZeroesSupported(false)
            .plugsDirectWrites(true)
            .linearRemapsEmptyFlushes(false)
            .tracesDeferredRemaps(false)
            .directReadsSync(false)
            .readAheadFromMaxSectorsWhenRotational(false)
            .stripedDiscardSpansStripes(false)
            .readAheadFolios(ReadAheadFolios.SINGLE_PAGES)
            .unpluggedRequestsWaitInScheduler(false)
            .build();

    /**
     * Linux 2.6.0 (seed 000's and 003's era). {@code MAX_SECTORS} = 255 is the default soft limit
     * and drivers set their own; no io_min/io_opt topology (added in 2.6.31), so every device reports
     * 512-byte blocks with io_min = physical block, no io_opt and alignment_offset 0 unless set; bios shaped
     * when built by the top queue ({@code bio_add_page} against max_sectors); readahead one bio per buffer;
     * a plug is unplugged at 4 requests ({@code unplug_thresh}); no thin provisioning; no empty flushes
     * (barriers rode on data bios).
     */
    public static final KernelProfile LINUX_2_6_0 = builder("linux-2.6.0", 2, 6, 0)
            .description("Linux 2.6.0 from the kernel sources of its time, the oldest kernel the model knows")
            .bioShaping(BioShaping.AT_BUILD)
            .readaheadPerBuffer(true)
            .plugMaxRequests(4)
            .plugFlushBytes(0)
            .maxSectorsCap(255)
            .sdMaxSectorsFromOptimalTransfer(false)
            .validateLimitsOnCommit(false)
            .ioOptRaisesMaxSectors(false)
            .alignmentMath(AlignmentMath.NONE)
            .chunkSectorsStacking(ChunkSectorsStacking.NONE)
            .stripedSetsChunkSectors(false)
            .thinPoolIoHints(ThinPoolIoHints.NONE)
            .thinDiscardLimit(ThinDiscardLimit.NONE)
            .stacksDmaAlignment(false)
            .readAheadFromIoOpt(false)
            .writeZeroesSupported(false)
            .plugsDirectWrites(true)
            .linearRemapsEmptyFlushes(false)
            .tracesDeferredRemaps(false)
            .directReadsSync(false)
            .readAheadFromMaxSectorsWhenRotational(false)
            .stripedDiscardSpansStripes(false)
            .readAheadFolios(ReadAheadFolios.SINGLE_PAGES)
            .unpluggedRequestsWaitInScheduler(false)
            .build();

    private static final List<KernelProfile> PRESETS =
            List.of(LINUX_2_6_0, LINUX_2_6_32, LINUX_3_10, LINUX_5_10, LINUX_6_1, LINUX_6_12, LINUX_7_2);

    private static final String KNOWN = "7.2, 6.12, 6.1, 5.10, 3.10, 2.6.32, 2.6.0";

    private final String name;
    private final String description;
    private final int major;
    private final int minor;
    private final int patch;
    private final long pageSize;
    private final long maxSectorsCap;
    private final boolean sdMaxSectorsFromOptimalTransfer;
    private final boolean validateLimitsOnCommit;
    private final boolean ioOptRaisesMaxSectors;
    private final AlignmentMath alignmentMath;
    private final ChunkSectorsStacking chunkSectorsStacking;
    private final boolean stripedSetsChunkSectors;
    private final ThinPoolIoHints thinPoolIoHints;
    private final ThinDiscardLimit thinDiscardLimit;
    private final boolean stacksDmaAlignment;
    private final boolean readAheadFromIoOpt;
    private final boolean writeZeroesSupported;
    private final boolean plugsDirectWrites;
    private final BioShaping bioShaping;
    private final boolean readaheadPerBuffer;
    private final int plugMaxRequests;
    private final long plugFlushBytes;
    private final boolean linearRemapsEmptyFlushes;
    private final boolean tracesDeferredRemaps;
    private final boolean directReadsSync;
    private final boolean readAheadFromMaxSectorsWhenRotational;
    private final boolean stripedDiscardSpansStripes;
    private final ReadAheadFolios readAheadFolios;
    private final boolean unpluggedRequestsWaitInScheduler;

    private KernelProfile(Builder b) {
        this.name = b.name;
        this.description = b.description;
        this.major = b.major;
        this.minor = b.minor;
        this.patch = b.patch;
        this.pageSize = b.pageSize;
        this.maxSectorsCap = b.maxSectorsCap;
        this.sdMaxSectorsFromOptimalTransfer = b.sdMaxSectorsFromOptimalTransfer;
        this.validateLimitsOnCommit = b.validateLimitsOnCommit;
        this.ioOptRaisesMaxSectors = b.ioOptRaisesMaxSectors;
        this.alignmentMath = b.alignmentMath;
        this.chunkSectorsStacking = b.chunkSectorsStacking;
        this.stripedSetsChunkSectors = b.stripedSetsChunkSectors;
        this.thinPoolIoHints = b.thinPoolIoHints;
        this.thinDiscardLimit = b.thinDiscardLimit;
        this.stacksDmaAlignment = b.stacksDmaAlignment;
        this.readAheadFromIoOpt = b.readAheadFromIoOpt;
        this.writeZeroesSupported = b.writeZeroesSupported;
        this.plugsDirectWrites = b.plugsDirectWrites;
        this.bioShaping = b.bioShaping;
        this.readaheadPerBuffer = b.readaheadPerBuffer;
        this.plugMaxRequests = b.plugMaxRequests;
        this.plugFlushBytes = b.plugFlushBytes;
        this.linearRemapsEmptyFlushes = b.linearRemapsEmptyFlushes;
        this.tracesDeferredRemaps = b.tracesDeferredRemaps;
        this.directReadsSync = b.directReadsSync;
        this.readAheadFromMaxSectorsWhenRotational = b.readAheadFromMaxSectorsWhenRotational;
        this.stripedDiscardSpansStripes = b.stripedDiscardSpansStripes;
        this.readAheadFolios = b.readAheadFolios;
        this.unpluggedRequestsWaitInScheduler = b.unpluggedRequestsWaitInScheduler;
    }

    /** The default profile, {@link #LINUX_6_12}. */
    public static KernelProfile defaultProfile() {
        return LINUX_6_12;
    }

    /** The presets, oldest first. */
    public static List<KernelProfile> presets() {
        return PRESETS;
    }

    /**
     * The preset for a short name as the command line takes it: {@code 7.2}, {@code 6.12}, {@code 6.1},
     * {@code 5.10}, {@code 3.10}, {@code 2.6.32}, {@code 2.6.0} (with or without a {@code linux-} prefix). For any
     * other release use {@link #forRelease(String)}, or {@link #of(String)} for either.
     *
     * @throws IllegalArgumentException naming the known names
     */
    public static KernelProfile named(String name) {
        Objects.requireNonNull(name, "name");
        return preset(name).orElseThrow(() -> new IllegalArgumentException("unknown kernel profile '" + name
                + "' (known: " + KNOWN + ")"));
    }

    /**
     * The profile of a {@code uname -r} release such as {@code 6.1.0-57-amd64} or
     * {@code 4.18.0-553.el8_10.x86_64}: every rule as of the latest upstream change at or before the release's
     * upstream version (the history of each rule, with the change's release and kernel commit, is in
     * {@code docs/kernel-releases.md}). The version is the one the text starts with, which is the upstream base
     * for RHEL ({@code .el7} 3.10, {@code .el8} 4.18, {@code .el9} 5.14, {@code .el10} 6.12), Ubuntu
     * ({@code -91-generic}), Debian ({@code -amd64}, {@code +deb13}), Fedora ({@code .fc40}) and SUSE
     * ({@code -default}); from 3.0 on the third number is a stable update and does not change the rules, in the
     * 2.6 series it is the release (2.6.32).
     *
     * <p>At a preset's version the result is the preset itself ({@code 6.1.0-32-amd64} gives {@link #LINUX_6_1}).
     * Any other release gives a profile named {@code linux-<major>.<minor>} ({@code linux-2.6.<n>} in the 2.6
     * series) whose {@link #description()} names the release, the distribution it recognised and what to keep in
     * mind: that RHEL backports block-layer changes, that a release newer than the newest recorded kernel (7.2) is
     * given 7.2's rules, and that one older than 2.6.0 is given 2.6.0's.
     *
     * @throws IllegalArgumentException naming the text when it does not start with a version such as 6.1.0
     */
    public static KernelProfile forRelease(String release) {
        KernelRelease r = KernelRelease.parse(Objects.requireNonNull(release, "release"));
        RuleHistory.Point point = RuleHistory.Point.of(r);
        KernelProfile composed = RuleHistory.compose(point, "linux-" + point.text(), Distributions.describe(r, point))
                .build();
        for (KernelProfile p : PRESETS) {
            if (RuleHistory.Point.of(p).equals(point) && RuleHistory.sameRules(p, composed)) {
                return p;
            }
        }
        return composed;
    }

    /**
     * A preset by its short name ({@link #named(String)}: {@code 6.12}, {@code linux-6.1}) or else the profile of a
     * release ({@link #forRelease(String)}: {@code 6.8}, {@code 4.18.0-553.el8_10.x86_64}, {@code linux-7.5}), as
     * the command line's {@code --kernel} takes it.
     *
     * @throws IllegalArgumentException naming the text when it is neither a preset's name nor a release
     */
    public static KernelProfile of(String kernel) {
        Objects.requireNonNull(kernel, "kernel");
        String text = kernel.strip();
        Optional<KernelProfile> preset = preset(text);
        if (preset.isPresent()) {
            return preset.get();
        }
        try {
            return forRelease(text.startsWith("linux-") ? text.substring("linux-".length()) : text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown kernel '" + kernel + "': neither a profile (" + KNOWN
                    + ") nor a release such as 6.1.0-57-amd64 (as uname -r prints it)", e);
        }
    }

    private static Optional<KernelProfile> preset(String name) {
        String n = name.startsWith("linux-") ? name : "linux-" + name;
        for (KernelProfile p : PRESETS) {
            if (p.name.equals(n)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static int compare(int a1, int b1, int c1, int a2, int b2, int c2) {
        if (a1 != a2) {
            return Integer.compare(a1, a2);
        }
        if (b1 != b2) {
            return Integer.compare(b1, b2);
        }
        return Integer.compare(c1, c2);
    }

    /** Whether this kernel is at least {@code major.minor}. */
    public boolean isAtLeast(int major, int minor) {
        return compare(this.major, this.minor, 0, major, minor, 0) >= 0;
    }

    /** The profile's name, e.g. {@code linux-6.12}. */
    public String name() {
        return name;
    }

    /**
     * One line on what this profile is: a preset's recording or sources ({@code Linux 6.1 as recorded on Debian
     * 12's 6.1.192}); for a profile {@link #forRelease(String)} composed, the release it was asked for, the
     * distribution it recognised and any caveat (RHEL's backports, a release newer than the newest recorded
     * kernel). Not part of {@link #equals(Object)}.
     */
    public String description() {
        return description;
    }

    /** Major version. */
    public int major() {
        return major;
    }

    /** Minor version. */
    public int minor() {
        return minor;
    }

    /** The third version number (the release in the 2.6 series; 0 for the presets from 3.10 on). */
    int patch() {
        return patch;
    }

    /** The CPU page size in bytes (4096). */
    public long pageSize() {
        return pageSize;
    }

    /**
     * The default soft cap on max_sectors: 255 ({@code MAX_SECTORS}, 2.6.0 – 2.6.15), 1024
     * ({@code BLK_DEF_MAX_SECTORS}, 2.6.16 – 4.2), 2560 (4.3 – 6.16), 8192 = 4 MiB ({@code BLK_DEF_MAX_SECTORS_CAP},
     * 6.17+).
     */
    public long maxSectorsCap() {
        return maxSectorsCap;
    }

    /** Whether sd lowers max_sectors to the device's optimal transfer length (4.4 – 6.10). */
    public boolean sdMaxSectorsFromOptimalTransfer() {
        return sdMaxSectorsFromOptimalTransfer;
    }

    /** Whether limits are re-validated on every commit ({@code blk_validate_limits}, 6.9+; dm commits through it from 6.10). */
    public boolean validateLimitsOnCommit() {
        return validateLimitsOnCommit;
    }

    /** Whether an io_opt (or io_min) above the cap raises max_sectors to it (6.11+). */
    public boolean ioOptRaisesMaxSectors() {
        return ioOptRaisesMaxSectors;
    }

    /** How stacking compares alignments. */
    public AlignmentMath alignmentMath() {
        return alignmentMath;
    }

    /** How chunk_sectors is stacked. */
    public ChunkSectorsStacking chunkSectorsStacking() {
        return chunkSectorsStacking;
    }

    /** Whether dm-striped sets chunk_sectors to its chunk size (mainline 6.17; in the stable 6.12.y as recorded). */
    public boolean stripedSetsChunkSectors() {
        return stripedSetsChunkSectors;
    }

    /** What dm-thin's pool_io_hints does. */
    public ThinPoolIoHints thinPoolIoHints() {
        return thinPoolIoHints;
    }

    /** The discard limit of thin devices. */
    public ThinDiscardLimit thinDiscardLimit() {
        return thinDiscardLimit;
    }

    /** Whether blk_stack_limits stacks dma_alignment (max of top and bottom; 6.1+). */
    public boolean stacksDmaAlignment() {
        return stacksDmaAlignment;
    }

    /** Whether readahead is set to max(2 × io_opt, 128 KiB) when limits change (5.10+). */
    public boolean readAheadFromIoOpt() {
        return readAheadFromIoOpt;
    }

    /** Whether the kernel has REQ_OP_WRITE_ZEROES (4.10+). */
    public boolean writeZeroesSupported() {
        return writeZeroesSupported;
    }

    /**
     * Whether {@code O_DIRECT} writes to a block device run under the writer's plug, so that pieces of one
     * write that dm sends to the same disk merge into one request ({@code blkdev_write_iter} plugged every
     * write until 6.5; recorded: plugged on 5.10 and 6.1, not on 6.12 and 7.2, where the pieces merge in the disk's
     * I/O scheduler instead, {@link #unpluggedRequestsWaitInScheduler()}).
     */
    public boolean plugsDirectWrites() {
        return plugsDirectWrites;
    }

    /** Where bios get their size: when built (before 4.3) or by every queue they enter. */
    public BioShaping bioShaping() {
        return bioShaping;
    }

    /**
     * Whether block-device readahead reads one bio per buffer ({@code block_read_full_page}, until 3.17)
     * rather than multi-page bios ({@code mpage_readpages}, 3.18+).
     */
    public boolean readaheadPerBuffer() {
        return readaheadPerBuffer;
    }

    /**
     * Requests a plug holds before it is flushed: the old queue's {@code unplug_thresh} of 4 before 2.6.39's
     * on-stack plugging; {@code BLK_MAX_REQUEST_COUNT} 16 (3.1), 32 (5.16, and the stable 5.10.y and 5.15.y).
     */
    public int plugMaxRequests() {
        return plugMaxRequests;
    }

    /** A plugged request this large flushes the plug ({@code BLK_PLUG_FLUSH_SIZE}, 128 KiB, 4.10+); 0 = no such rule. */
    public long plugFlushBytes() {
        return plugFlushBytes;
    }

    /**
     * Whether dm-linear adds its offset to an empty flush, so that the flush reaches the device below at the
     * target's start rather than at sector 0 ({@code linear_map} remapped every bio from 5.19; before,
     * {@code linear_map_bio} left bios without data alone; since 6.11 dm sends the empty flushes of a table
     * of linear and striped targets straight to its devices, {@code flush_bypasses_map}). dm-striped never
     * moves an empty flush. Recorded: the target's offset on 6.1, sector 0 on 5.10, 6.12 and 7.2.
     */
    public boolean linearRemapsEmptyFlushes() {
        return linearRemapsEmptyFlushes;
    }

    /**
     * Whether a bio a dm target submits later (from a worker: dm-thin's bios that waited for a block to be
     * provisioned or copied) is traced as a {@code block_bio_remap} from the dm device, as the target's own
     * remaps are ({@code dm_submit_bio_remap}, 5.18). Recorded: traced on 6.1, 6.12 and 7.2; not on 5.10.
     */
    public boolean tracesDeferredRemaps() {
        return tracesDeferredRemaps;
    }

    /**
     * Whether {@code O_DIRECT} reads of a block device carry {@code REQ_SYNC} (rwbs {@code RS}) rather than a
     * plain {@code R} ({@code blkdev_direct_IO}; the release of the change between 5.10 and 6.1 is not settled).
     * Recorded: {@code R} on 5.10, {@code RS} on 6.1, 6.12 and 7.2.
     */
    public boolean directReadsSync() {
        return directReadsSync;
    }

    /**
     * Whether a rotational device without an optimal I/O size reads ahead twice its max_sectors rather than the
     * 128 KiB default; with an io_opt it stays {@code 2 × io_opt}, and a non-rotational one keeps 128 KiB. A dm
     * device is rotational when a device below it is, so dm-linear over such a disk reads ahead as far as the disk.
     * Recorded on 7.2: AHCI and qemu virtio-scsi disks (rotational) without io_opt show {@code read_ahead_kb}
     * 8192 with max_sectors_kb 4096 (256 with 128), scsi_debug and null_blk disks (non-rotational) 128 whatever
     * their max_sectors_kb, dm-linear over the AHCI disks 8192; 6.12 and earlier show 128 for all of them.
     */
    public boolean readAheadFromMaxSectorsWhenRotational() {
        return readAheadFromMaxSectorsWhenRotational;
    }

    /**
     * Whether dm-striped advertises a discard limit of its stripes together (the devices' limit × stripes,
     * rounded down to a whole stripe, {@code stripe_io_hints}) rather than one device's. Recorded on 7.2 (2 stripes of
     * 2147450880-byte disks: 4294836224); 6.12 and earlier: the devices' limit.
     */
    public boolean stripedDiscardSpansStripes() {
        return stripedDiscardSpansStripes;
    }

    /**
     * The folios a block device's read-ahead reads its windows in: single pages before 6.15; from 6.15 (every
     * block device's page cache takes large folios, {@code set_init_blocksize}) folios two orders above the
     * readahead-marked folio ({@code page_cache_ra_order}); from 6.17 an order kept in {@code file_ra_state},
     * 0 for a synchronous window and 2 more for each asynchronous one, whose end is cut to a folio boundary
     * ({@code page_cache_async_ra}). Recorded: single pages on 5.10, 6.1 and 6.12 (256-page bios of 4 KiB
     * pages); on 7.2 an 8 KiB reader's windows of 8, 32, 120, 480, 896, 1536 and then 1024 and 2048 pages
     * (read_ahead_kb 8192) in folios of up to 2 MiB.
     */
    public ReadAheadFolios readAheadFolios() {
        return readAheadFolios;
    }

    /**
     * Whether a request that a task makes without a plug, for a disk with an I/O scheduler, waits in the scheduler
     * until the task sleeps (waits for its I/O), so that the task's later bios back-merge into it there
     * ({@code blk_mq_submit_bio} inserts such a request and runs the queue from kblockd). Since 7.2 nothing hides
     * this: {@code __submit_bio} no longer holds a plug of its own around each bio (9cbbac29d752 "block: Remove
     * redundant plug in __submit_bio()", undoing 6.10's 060406c61c7c), and under the lazy preemption of the recorded
     * 7.2 kernel kblockd's worker gets the CPU only when the submitter sleeps or at the next scheduler tick (the
     * tick is not modelled). Before, such a request was dispatched as it was made: 6.10 – 7.1 by the flush of
     * {@code __submit_bio}'s plug in the submitter, earlier by kblockd preempting the submitter at once. Recorded:
     * dispatched at once on 5.10, 6.1 and 6.12; waiting on 7.2 (a 1 MiB O_DIRECT write over dm-striped gives one
     * request per disk, inserted at its first piece).
     */
    public boolean unpluggedRequestsWaitInScheduler() {
        return unpluggedRequestsWaitInScheduler;
    }

    /** A builder starting from this profile's rules, to derive a variant. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A builder for a custom profile, starting from {@link #LINUX_6_12}'s rules. */
    public static Builder builder(String name, int major, int minor) {
        return new Builder(LINUX_6_12).name(name).version(major, minor, 0)
                .description("a custom profile starting from linux-6.12's rules");
    }

    /** A builder with the defaults of the fields (the rules of a current kernel), for the presets and composing. */
    static Builder builder(String name, int major, int minor, int patch) {
        return new Builder(null).name(name).version(major, minor, patch);
    }

    /**
     * Two profiles are equal when they have the same name, version and rules. The {@link #description()} does not
     * take part: a profile read back from a layout file's {@code kernel:} equals the one written, whatever release
     * text it was first composed for.
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof KernelProfile)) {
            return false;
        }
        KernelProfile p = (KernelProfile) o;
        return major == p.major && minor == p.minor && patch == p.patch && pageSize == p.pageSize
                && maxSectorsCap == p.maxSectorsCap
                && sdMaxSectorsFromOptimalTransfer == p.sdMaxSectorsFromOptimalTransfer
                && validateLimitsOnCommit == p.validateLimitsOnCommit
                && ioOptRaisesMaxSectors == p.ioOptRaisesMaxSectors
                && stripedSetsChunkSectors == p.stripedSetsChunkSectors
                && stacksDmaAlignment == p.stacksDmaAlignment && readAheadFromIoOpt == p.readAheadFromIoOpt
                && writeZeroesSupported == p.writeZeroesSupported && plugsDirectWrites == p.plugsDirectWrites
                && bioShaping == p.bioShaping && readaheadPerBuffer == p.readaheadPerBuffer
                && plugMaxRequests == p.plugMaxRequests && plugFlushBytes == p.plugFlushBytes
                && linearRemapsEmptyFlushes == p.linearRemapsEmptyFlushes
                && tracesDeferredRemaps == p.tracesDeferredRemaps
                && directReadsSync == p.directReadsSync
                && readAheadFromMaxSectorsWhenRotational == p.readAheadFromMaxSectorsWhenRotational
                && stripedDiscardSpansStripes == p.stripedDiscardSpansStripes
                && readAheadFolios == p.readAheadFolios
                && unpluggedRequestsWaitInScheduler == p.unpluggedRequestsWaitInScheduler
                && name.equals(p.name)
                && alignmentMath == p.alignmentMath && chunkSectorsStacking == p.chunkSectorsStacking
                && thinPoolIoHints == p.thinPoolIoHints && thinDiscardLimit == p.thinDiscardLimit;
    }

    /** Consistent with {@link #equals(Object)}. */
    @Override
    public int hashCode() {
        return Objects.hash(name, major, minor, patch, maxSectorsCap, validateLimitsOnCommit, alignmentMath,
                chunkSectorsStacking, thinPoolIoHints, thinDiscardLimit);
    }

    /** The name, e.g. {@code linux-6.12} (the description is {@link #description()}). */
    @Override
    public String toString() {
        return name;
    }

    /** Builder for profiles; each rule is set once or inherited from the starting profile. */
    public static final class Builder {
        private String name;
        private String description = "a custom kernel profile";
        private int major;
        private int minor;
        private int patch;
        private long pageSize = 4096;
        private long maxSectorsCap = 2560;
        private boolean sdMaxSectorsFromOptimalTransfer;
        private boolean validateLimitsOnCommit;
        private boolean ioOptRaisesMaxSectors;
        private AlignmentMath alignmentMath = AlignmentMath.MODULO;
        private ChunkSectorsStacking chunkSectorsStacking = ChunkSectorsStacking.GCD;
        private boolean stripedSetsChunkSectors;
        private ThinPoolIoHints thinPoolIoHints = ThinPoolIoHints.BLOCK_SIZE_HINTS;
        private ThinDiscardLimit thinDiscardLimit = ThinDiscardLimit.FIXED_16_GIB;
        private boolean stacksDmaAlignment;
        private boolean readAheadFromIoOpt = true;
        private boolean writeZeroesSupported = true;
        private boolean plugsDirectWrites = true;
        private BioShaping bioShaping = BioShaping.ON_ENTRY;
        private boolean readaheadPerBuffer = false;
        private int plugMaxRequests = 32;
        private long plugFlushBytes = 128 * 1024;
        private boolean linearRemapsEmptyFlushes = false;
        private boolean tracesDeferredRemaps = true;
        private boolean directReadsSync = true;
        private boolean readAheadFromMaxSectorsWhenRotational = false;
        private boolean stripedDiscardSpansStripes = false;
        private ReadAheadFolios readAheadFolios = ReadAheadFolios.SINGLE_PAGES;
        private boolean unpluggedRequestsWaitInScheduler = false;

        private Builder(KernelProfile from) {
            if (from != null) {
                name = from.name;
                description = from.description;
                major = from.major;
                minor = from.minor;
                patch = from.patch;
                pageSize = from.pageSize;
                maxSectorsCap = from.maxSectorsCap;
                sdMaxSectorsFromOptimalTransfer = from.sdMaxSectorsFromOptimalTransfer;
                validateLimitsOnCommit = from.validateLimitsOnCommit;
                ioOptRaisesMaxSectors = from.ioOptRaisesMaxSectors;
                alignmentMath = from.alignmentMath;
                chunkSectorsStacking = from.chunkSectorsStacking;
                stripedSetsChunkSectors = from.stripedSetsChunkSectors;
                thinPoolIoHints = from.thinPoolIoHints;
                thinDiscardLimit = from.thinDiscardLimit;
                stacksDmaAlignment = from.stacksDmaAlignment;
                readAheadFromIoOpt = from.readAheadFromIoOpt;
                writeZeroesSupported = from.writeZeroesSupported;
                plugsDirectWrites = from.plugsDirectWrites;
                bioShaping = from.bioShaping;
                readaheadPerBuffer = from.readaheadPerBuffer;
                plugMaxRequests = from.plugMaxRequests;
                plugFlushBytes = from.plugFlushBytes;
                linearRemapsEmptyFlushes = from.linearRemapsEmptyFlushes;
                tracesDeferredRemaps = from.tracesDeferredRemaps;
                directReadsSync = from.directReadsSync;
                readAheadFromMaxSectorsWhenRotational = from.readAheadFromMaxSectorsWhenRotational;
                stripedDiscardSpansStripes = from.stripedDiscardSpansStripes;
                readAheadFolios = from.readAheadFolios;
                unpluggedRequestsWaitInScheduler = from.unpluggedRequestsWaitInScheduler;
            }
        }

        /** Sets the name. */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Sets the one-line description ({@link KernelProfile#description()}); a builder from {@code toBuilder()}
         * keeps the original's.
         *
         * @throws IllegalArgumentException if it is blank
         */
        public Builder description(String description) {
            Objects.requireNonNull(description, "description");
            if (description.isBlank()) {
                throw new IllegalArgumentException("a kernel profile's description must not be blank");
            }
            this.description = description.strip();
            return this;
        }

        /** Sets the version. */
        public Builder version(int major, int minor, int patch) {
            if (major < 2 || minor < 0 || patch < 0) {
                throw new IllegalArgumentException("kernel version " + major + "." + minor + "." + patch + " is not valid");
            }
            this.major = major;
            this.minor = minor;
            this.patch = patch;
            return this;
        }

        /** Sets the default max_sectors cap in sectors. */
        public Builder maxSectorsCap(long sectors) {
            if (sectors < 8) {
                throw new IllegalArgumentException("maxSectorsCap (" + sectors + ") must be at least one page (8 sectors)");
            }
            this.maxSectorsCap = sectors;
            return this;
        }

        /** See {@link KernelProfile#sdMaxSectorsFromOptimalTransfer()}. */
        public Builder sdMaxSectorsFromOptimalTransfer(boolean v) {
            this.sdMaxSectorsFromOptimalTransfer = v;
            return this;
        }

        /** See {@link KernelProfile#validateLimitsOnCommit()}. */
        public Builder validateLimitsOnCommit(boolean v) {
            this.validateLimitsOnCommit = v;
            return this;
        }

        /** See {@link KernelProfile#ioOptRaisesMaxSectors()}. */
        public Builder ioOptRaisesMaxSectors(boolean v) {
            this.ioOptRaisesMaxSectors = v;
            return this;
        }

        /** See {@link KernelProfile#alignmentMath()}. */
        public Builder alignmentMath(AlignmentMath v) {
            this.alignmentMath = Objects.requireNonNull(v, "alignmentMath");
            return this;
        }

        /** See {@link KernelProfile#chunkSectorsStacking()}. */
        public Builder chunkSectorsStacking(ChunkSectorsStacking v) {
            this.chunkSectorsStacking = Objects.requireNonNull(v, "chunkSectorsStacking");
            return this;
        }

        /** See {@link KernelProfile#stripedSetsChunkSectors()}. */
        public Builder stripedSetsChunkSectors(boolean v) {
            this.stripedSetsChunkSectors = v;
            return this;
        }

        /** See {@link KernelProfile#thinPoolIoHints()}. */
        public Builder thinPoolIoHints(ThinPoolIoHints v) {
            this.thinPoolIoHints = Objects.requireNonNull(v, "thinPoolIoHints");
            return this;
        }

        /** See {@link KernelProfile#thinDiscardLimit()}. */
        public Builder thinDiscardLimit(ThinDiscardLimit v) {
            this.thinDiscardLimit = Objects.requireNonNull(v, "thinDiscardLimit");
            return this;
        }

        /** See {@link KernelProfile#stacksDmaAlignment()}. */
        public Builder stacksDmaAlignment(boolean v) {
            this.stacksDmaAlignment = v;
            return this;
        }

        /** See {@link KernelProfile#readAheadFromIoOpt()}. */
        public Builder readAheadFromIoOpt(boolean v) {
            this.readAheadFromIoOpt = v;
            return this;
        }

        /** See {@link KernelProfile#writeZeroesSupported()}. */
        public Builder writeZeroesSupported(boolean v) {
            this.writeZeroesSupported = v;
            return this;
        }

        /** See {@link KernelProfile#plugsDirectWrites()}. */
        public Builder plugsDirectWrites(boolean v) {
            this.plugsDirectWrites = v;
            return this;
        }

        /** See {@link KernelProfile#bioShaping()}. */
        public Builder bioShaping(BioShaping v) {
            this.bioShaping = Objects.requireNonNull(v, "bioShaping");
            return this;
        }

        /** See {@link KernelProfile#readaheadPerBuffer()}. */
        public Builder readaheadPerBuffer(boolean v) {
            this.readaheadPerBuffer = v;
            return this;
        }

        /** See {@link KernelProfile#plugMaxRequests()}. */
        public Builder plugMaxRequests(int v) {
            if (v < 1) {
                throw new IllegalArgumentException("plugMaxRequests (" + v + ") must be at least 1");
            }
            this.plugMaxRequests = v;
            return this;
        }

        /** See {@link KernelProfile#plugFlushBytes()}. */
        public Builder plugFlushBytes(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("plugFlushBytes (" + v + ") must not be negative");
            }
            this.plugFlushBytes = v;
            return this;
        }

        /** See {@link KernelProfile#linearRemapsEmptyFlushes()}. */
        public Builder linearRemapsEmptyFlushes(boolean v) {
            this.linearRemapsEmptyFlushes = v;
            return this;
        }

        /** See {@link KernelProfile#tracesDeferredRemaps()}. */
        public Builder tracesDeferredRemaps(boolean v) {
            this.tracesDeferredRemaps = v;
            return this;
        }

        /** See {@link KernelProfile#directReadsSync()}. */
        public Builder directReadsSync(boolean v) {
            this.directReadsSync = v;
            return this;
        }

        /** See {@link KernelProfile#readAheadFromMaxSectorsWhenRotational()}. */
        public Builder readAheadFromMaxSectorsWhenRotational(boolean v) {
            this.readAheadFromMaxSectorsWhenRotational = v;
            return this;
        }

        /** See {@link KernelProfile#stripedDiscardSpansStripes()}. */
        public Builder stripedDiscardSpansStripes(boolean v) {
            this.stripedDiscardSpansStripes = v;
            return this;
        }

        /** See {@link KernelProfile#readAheadFolios()}. */
        public Builder readAheadFolios(ReadAheadFolios v) {
            this.readAheadFolios = Objects.requireNonNull(v, "readAheadFolios");
            return this;
        }

        /** See {@link KernelProfile#unpluggedRequestsWaitInScheduler()}. */
        public Builder unpluggedRequestsWaitInScheduler(boolean v) {
            this.unpluggedRequestsWaitInScheduler = v;
            return this;
        }

        /** Builds the profile. */
        public KernelProfile build() {
            if (name == null) {
                throw new IllegalStateException("a kernel profile needs a name");
            }
            return new KernelProfile(this);
        }
    }
}
