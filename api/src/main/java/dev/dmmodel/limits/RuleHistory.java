package dev.dmmodel.limits;

import dev.dmmodel.limits.KernelProfile.AlignmentMath;
import dev.dmmodel.limits.KernelProfile.BioShaping;
import dev.dmmodel.limits.KernelProfile.Builder;
import dev.dmmodel.limits.KernelProfile.ChunkSectorsStacking;
import dev.dmmodel.limits.KernelProfile.ReadAheadFolios;
import dev.dmmodel.limits.KernelProfile.ThinDiscardLimit;
import dev.dmmodel.limits.KernelProfile.ThinPoolIoHints;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Every rule of {@link KernelProfile}: its value in the oldest kernel the model knows (2.6.0) and each upstream
 * change since, with the release that first had it and why. {@link KernelProfile#forRelease(String)} composes a
 * profile from this table: each rule as of the latest change at or before the release.
 *
 * <p>The presets are the recorded truth; the table must reproduce each of them at its version (a test checks
 * every rule). Where an upstream change reached a recorded kernel only through a stable backport, the change is
 * placed at the recorded release and its reason says so; where the release of a change could not be settled from
 * the kernel's history, the reason says between which releases it lies and where it is placed.
 */
final class RuleHistory {

    /**
     * An upstream release as the history counts them: the 2.x series by its third number (2.6.31), 3.0 and later
     * by major.minor (the third number there is a stable update, which the history does not distinguish).
     */
    record Point(int major, int minor, int patch) implements Comparable<Point> {

        Point {
            if (major < 2 || minor < 0 || patch < 0 || (major > 2 && patch != 0)) {
                throw new IllegalArgumentException("release point " + major + "." + minor + "." + patch
                        + " is not an upstream release (2.x.y, or x.y from 3.0 on)");
            }
        }

        /** The point of a {@code uname -r} release: 4.18.0-553.el8_10 is 4.18, 2.6.32-220.el6 is 2.6.32. */
        static Point of(KernelRelease r) {
            return r.major() == 2 ? new Point(2, r.minor(), r.patch()) : new Point(r.major(), r.minor(), 0);
        }

        /** The point of a profile's version. */
        static Point of(KernelProfile p) {
            return p.major() == 2 ? new Point(2, p.minor(), p.patch()) : new Point(p.major(), p.minor(), 0);
        }

        /** {@code 2.6.31}, {@code 4.3}. */
        String text() {
            return major == 2 ? major + "." + minor + "." + patch : major + "." + minor;
        }

        @Override
        public int compareTo(Point o) {
            if (major != o.major) {
                return Integer.compare(major, o.major);
            }
            if (minor != o.minor) {
                return Integer.compare(minor, o.minor);
            }
            return Integer.compare(patch, o.patch);
        }

        @Override
        public String toString() {
            return text();
        }
    }

    /** From {@code since} on, the rule has {@code value}, because of {@code reason} (the kernel function or commit). */
    record Change<T>(Point since, T value, String reason) {
        Change {
            Objects.requireNonNull(since, "since");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** One rule: how to read it from a profile and set it on a builder, its oldest value and its changes. */
    static final class Rule<T> {
        private final String name;
        private final Function<KernelProfile, T> getter;
        private final BiConsumer<Builder, T> setter;
        private final T oldest;
        private final String oldestReason;
        private final List<Change<T>> changes;

        private Rule(String name, Function<KernelProfile, T> getter, BiConsumer<Builder, T> setter, T oldest,
                     String oldestReason, List<Change<T>> changes) {
            this.name = name;
            this.getter = getter;
            this.setter = setter;
            this.oldest = oldest;
            this.oldestReason = oldestReason;
            this.changes = List.copyOf(changes);
            Point last = OLDEST;
            for (Change<T> c : this.changes) {
                if (c.since().compareTo(last) <= 0) {
                    throw new IllegalStateException("rule " + name + ": change at " + c.since()
                            + " is not after " + last);
                }
                last = c.since();
            }
        }

        /** The getter's name in {@link KernelProfile}. */
        String name() {
            return name;
        }

        /** The value in 2.6.0 and why. */
        T oldest() {
            return oldest;
        }

        String oldestReason() {
            return oldestReason;
        }

        /** The changes, oldest first. */
        List<Change<T>> changes() {
            return changes;
        }

        /** The value of the latest change at or before {@code p} (the oldest value before any change). */
        T valueAt(Point p) {
            T v = oldest;
            for (Change<T> c : changes) {
                if (c.since().compareTo(p) <= 0) {
                    v = c.value();
                }
            }
            return v;
        }

        /** This rule's value in a profile. */
        T of(KernelProfile p) {
            return getter.apply(p);
        }

        void applyAt(Point p, Builder b) {
            setter.accept(b, valueAt(p));
        }
    }

    /** The oldest kernel the model knows. */
    static final Point OLDEST = new Point(2, 6, 0);
    /** The newest recorded kernel. */
    static final Point NEWEST_RECORDED = new Point(7, 2, 0);

    private static final long KIB = 1024;

    private static Point v(int major, int minor) {
        return new Point(major, minor, 0);
    }

    private static Point v26(int patch) {
        return new Point(2, 6, patch);
    }

    private static <T> Change<T> at(Point since, T value, String reason) {
        return new Change<>(since, value, reason);
    }

    @SafeVarargs
    private static <T> Rule<T> rule(String name, Function<KernelProfile, T> getter, BiConsumer<Builder, T> setter,
                                    T oldest, String oldestReason, Change<T>... changes) {
        return new Rule<>(name, getter, setter, oldest, oldestReason, List.of(changes));
    }

    /** Every rule, in the order of the getters in {@link KernelProfile}. */
    static final List<Rule<?>> RULES = List.of(
            rule("maxSectorsCap", KernelProfile::maxSectorsCap, Builder::maxSectorsCap, 255L,
                    "MAX_SECTORS (255) is the block layer's default soft limit",
                    at(v26(16), 1024L, "BLK_DEF_MAX_SECTORS = 1024 caps max_sectors apart from max_hw_sectors"
                            + " (\"[SCSI] seperate max_sectors from max_hw_sectors\", SCSI pull of January 2006)"),
                    at(v(4, 3), 2560L, "BLK_DEF_MAX_SECTORS raised to 2560, 1280 KiB (d2be537c3ba3 \"block: bump"
                            + " BLK_DEF_MAX_SECTORS to 2560\")"),
                    at(v(6, 17), 8192L, "BLK_DEF_MAX_SECTORS_CAP raised to 4 MiB (9b8b84879d4a \"block: Increase"
                            + " BLK_DEF_MAX_SECTORS_CAP\"; the ATA quirks of 6.19/7.0 cap buggy devices again)")),
            rule("sdMaxSectorsFromOptimalTransfer", KernelProfile::sdMaxSectorsFromOptimalTransfer,
                    Builder::sdMaxSectorsFromOptimalTransfer, false,
                    "sd_revalidate_disk leaves max_sectors to the block layer's default",
                    at(v(4, 4), true, "sd_revalidate_disk sets max_sectors to the Block Limits VPD optimal transfer"
                            + " length (ca369d51b3e1 \"block/sd: Fix device-imposed transfer length limits\")"),
                    at(v(6, 11), false, "sd only reports io_opt; blk_validate_limits derives max_sectors"
                            + " (a23634644afc \"block: take io_opt and io_min into account for max_sectors\")")),
            rule("validateLimitsOnCommit", KernelProfile::validateLimitsOnCommit,
                    Builder::validateLimitsOnCommit, false,
                    "dm copies the stacked limits into its queue as they are (dm_table_set_restrictions)",
                    at(v(6, 10), true, "dm commits its limits through queue_limits_set, so blk_validate_limits"
                            + " (6.9, d690cb8ae14b) runs on them (1c0e720228ad \"dm: use queue_limits_set\";"
                            + " a 6.9 attempt was reverted)")),
            rule("ioOptRaisesMaxSectors", KernelProfile::ioOptRaisesMaxSectors, Builder::ioOptRaisesMaxSectors,
                    false, "max_sectors never follows io_opt or io_min",
                    at(v(6, 11), true, "blk_validate_limits sets max_sectors from io_opt, or from a large io_min"
                            + " (a23634644afc \"block: take io_opt and io_min into account for max_sectors\")")),
            rule("alignmentMath", KernelProfile::alignmentMath, Builder::alignmentMath, AlignmentMath.NONE,
                    "no I/O topology: no io_min, io_opt or alignment_offset",
                    at(v26(31), AlignmentMath.POWER_OF_TWO_MASKS, "I/O topology with power-of-two masks in"
                            + " blk_stack_limits (c72758f33784 \"block: Export I/O topology for block devices and"
                            + " partitions\")"),
                    at(v(3, 19), AlignmentMath.MODULO, "alignments compared with % (b8839b8c55f3 \"block: fix"
                            + " alignment_offset math that assumes io_min is a power-of-2\", dated October 2014:"
                            + " 3.18 or 3.19, not settled by a tag; placed at 3.19)")),
            rule("chunkSectorsStacking", KernelProfile::chunkSectorsStacking, Builder::chunkSectorsStacking,
                    ChunkSectorsStacking.NONE,
                    "no chunk_sectors; from 3.16 (762380ad9322) a driver's own, not stacked by blk_stack_limits",
                    at(v(4, 10), ChunkSectorsStacking.GCD, "blk_stack_limits stacks chunk_sectors with"
                            + " min_not_zero (987b3b26eb7b \"block: update chunk_sectors in blk_stack_limits()\");"
                            + " for the power-of-two chunk sizes allowed before 5.10 that is their gcd. 5.10-rc1's"
                            + " lcm_not_zero (22ada802ede8) was replaced by gcd (7e7986f9d3ba) before 5.10:"
                            + " no release stacks by lcm")),
            rule("stripedSetsChunkSectors", KernelProfile::stripedSetsChunkSectors,
                    Builder::stripedSetsChunkSectors, false,
                    "stripe_io_hints sets only io_min and io_opt",
                    at(v(6, 12), true, "stripe_io_hints sets chunk_sectors to the chunk (5fb9d4341b78 \"dm-stripe:"
                            + " limit chunk_sectors to the stripe size\", mainline 6.17, backported to 6.15.y and"
                            + " 6.16.y and, as the 6.12.117 recording shows, to 6.12.y; placed at 6.12 to match it)")),
            rule("thinPoolIoHints", KernelProfile::thinPoolIoHints, Builder::thinPoolIoHints,
                    ThinPoolIoHints.NONE, "no thin-pool target",
                    at(v(3, 2), ThinPoolIoHints.IO_OPT_IS_BLOCK, "dm-thin's pool_io_hints sets io_opt to the"
                            + " block (991d9fa02da0 \"dm: add thin provisioning target\")"),
                    at(v(3, 19), ThinPoolIoHints.BLOCK_SIZE_HINTS, "pool_io_hints cuts max_sectors to a"
                            + " power-of-two factor of the block and sets io_min (\"dm thin: adjust max_sectors_kb"
                            + " based on thinp blocksize\", \"dm thin: set minimum_io_size to pool's data block"
                            + " size\"; late 2014: 3.18 or 3.19, not settled by a tag; placed at 3.19)")),
            rule("thinDiscardLimit", KernelProfile::thinDiscardLimit, Builder::thinDiscardLimit,
                    ThinDiscardLimit.NONE, "no thin target, no thin discards",
                    at(v(3, 4), ThinDiscardLimit.FIXED_16_GIB, "thin devices take discards (\"dm thin: support"
                            + " discards\", ≈3.4); upstream advertised one pool block (set_discard_limits) until"
                            + " \"dm thin: range discard support\" (34fbcf6257eb, ≈4.1) set 16 GiB in thin_io_hints;"
                            + " the model has no one-block value and LINUX_3_10 records 16 GiB"),
                    at(v(6, 4), ThinDiscardLimit.BIO_PRISON_RANGE, "thin_io_hints advertises BIO_PRISON_MAX_RANGE"
                            + " (1024) blocks (\"dm bio prison v1: improve concurrent IO performance\", dm-6.4)")),
            rule("stacksDmaAlignment", KernelProfile::stacksDmaAlignment, Builder::stacksDmaAlignment, false,
                    "dma_alignment is a queue field, not a stacked limit",
                    at(v(6, 1), true, "blk_stack_limits stacks dma_alignment (c964d62f5cab \"block: make"
                            + " dma_alignment a stacking queue_limit\", a 6.1-rc fix also queued for 6.0.y)")),
            rule("readAheadFromIoOpt", KernelProfile::readAheadFromIoOpt, Builder::readAheadFromIoOpt, false,
                    "read-ahead stays VM_READAHEAD_PAGES (128 KiB) for dm devices",
                    at(v(5, 10), true, "blk_queue_io_opt sets read-ahead to twice io_opt (c2e4cd57cfa1 \"block:"
                            + " lift setting the readahead size into the block layer\")")),
            rule("writeZeroesSupported", KernelProfile::writeZeroesSupported, Builder::writeZeroesSupported, false,
                    "no REQ_OP_WRITE_ZEROES",
                    at(v(4, 10), true, "REQ_OP_WRITE_ZEROES (a6f0788ec288 \"block: add support for"
                            + " REQ_OP_WRITE_ZEROES\")")),
            rule("plugsDirectWrites", KernelProfile::plugsDirectWrites, Builder::plugsDirectWrites, true,
                    "O_DIRECT writes to a block device are plugged (the queue's own plugging before 2.6.39, then"
                            + " blkdev_write_iter's blk_start_plug)",
                    at(v(6, 5), false, "blkdev_write_iter no longer plugs (712c7364655f \"block: don't plug in"
                            + " blkdev_write_iter\")")),
            rule("bioShaping", KernelProfile::bioShaping, Builder::bioShaping, BioShaping.AT_BUILD,
                    "bio_add_page shapes a bio against the top queue (max_sectors, merge_bvec_fn)",
                    at(v(4, 3), BioShaping.ON_ENTRY, "every queue splits what it receives (blk_queue_split,"
                            + " 54efd50bfd87 \"block: make generic_make_request handle arbitrarily sized bios\")")),
            rule("readaheadPerBuffer", KernelProfile::readaheadPerBuffer, Builder::readaheadPerBuffer, true,
                    "block-device read-ahead reads one bio per buffer (block_read_full_page)",
                    at(v(3, 18), false, "multi-page read-ahead bios (mpage_readpages; 447f05bb488b \"block_dev:"
                            + " implement readpages() to optimize sequential read\")")),
            rule("plugMaxRequests", KernelProfile::plugMaxRequests, Builder::plugMaxRequests, 4,
                    "the queue unplugs at unplug_thresh = 4 requests",
                    at(v26(39), 16, "on-stack plugging (73c101011926) replaces the queue's plug; the cap"
                            + " BLK_MAX_REQUEST_COUNT = 16 came with 55c022bbddb2 \"block: avoid building too big"
                            + " plug list\" (July 2011, 3.1); 2.6.39 and 3.0 had no cap and are modelled with 16"),
                    at(v(5, 10), 32, "BLK_MAX_REQUEST_COUNT = 32 (ba0ffdd8ce48 \"block: bump max plugged deferred"
                            + " size from 16 to 32\", mainline 5.16; backported to 5.10.y in November 2021 and to"
                            + " 5.15.3; placed at 5.10 to match LINUX_5_10, so 5.10.0-5.10.79 and 5.11-5.15.2 are"
                            + " given 32 where they had 16)")),
            rule("plugFlushBytes", KernelProfile::plugFlushBytes, Builder::plugFlushBytes, 0L,
                    "a plug is flushed by count only",
                    at(v(4, 10), 128 * KIB, "a plugged request of BLK_PLUG_FLUSH_SIZE (128 KiB) flushes the plug"
                            + " (\"block: immediately dispatch big size request\", Shaohua Li, October 2016)")),
            rule("linearRemapsEmptyFlushes", KernelProfile::linearRemapsEmptyFlushes,
                    Builder::linearRemapsEmptyFlushes, false,
                    "linear_map_bio moves only bios with data (an empty flush stays at sector 0)",
                    at(v(5, 19), true, "linear_map remaps every bio (\"dm: simplify basic targets\","
                            + " for-5.19/dm-changes)"),
                    at(v(6, 11), false, "dm sends the empty flushes of a linear/striped table straight to its"
                            + " devices (flush_bypasses_map; aaa53168cbcc \"dm: optimize flushes\")")),
            rule("tracesDeferredRemaps", KernelProfile::tracesDeferredRemaps, Builder::tracesDeferredRemaps, false,
                    "bios dm-thin submits from its worker are not traced as remaps",
                    at(v(5, 18), true, "dm-thin submits deferred bios with dm_submit_bio_remap, which traces them"
                            + " (a92512819b1f \"dm thin: use dm_submit_bio_remap\")")),
            rule("directReadsSync", KernelProfile::directReadsSync, Builder::directReadsSync, false,
                    "O_DIRECT reads of a block device are plain reads (rwbs R)",
                    at(v(6, 1), true, "recorded: RS on 6.1, R on 5.10; the change lies between 5.11 and 6.1"
                            + " (blkdev_direct_IO was rewritten in 5.16-5.19; commit not found; placed at 6.1)")),
            rule("readAheadFromMaxSectorsWhenRotational", KernelProfile::readAheadFromMaxSectorsWhenRotational,
                    Builder::readAheadFromMaxSectorsWhenRotational, false,
                    "a device without io_opt reads ahead 128 KiB",
                    at(v(7, 2), true, "recorded on 7.2: a rotational device without io_opt reads ahead twice its"
                            + " max_sectors; the change lies after 6.12, by 7.2 (commit not found; placed at 7.2)")),
            rule("stripedDiscardSpansStripes", KernelProfile::stripedDiscardSpansStripes,
                    Builder::stripedDiscardSpansStripes, false,
                    "dm-striped advertises one device's discard limit",
                    at(v(7, 2), true, "recorded on 7.2: stripe_io_hints advertises the stripes' discard limits"
                            + " together; the change lies after 6.12, by 7.2 (commit not found; placed at 7.2)")),
            rule("readAheadFolios", KernelProfile::readAheadFolios, Builder::readAheadFolios,
                    ReadAheadFolios.SINGLE_PAGES, "a block device's page cache holds single pages",
                    at(v(6, 15), ReadAheadFolios.MARKER_ORDER_PLUS_TWO, "every block device's page cache takes"
                            + " large folios (3c20917120ce \"block/bdev: enable large folio support for large logical"
                            + " block sizes\": set_init_blocksize sets the mapping's orders from the block size up to"
                            + " MAX_PAGECACHE_ORDER), so page_cache_ra_order (793917d997df \"mm/readahead: Add large"
                            + " folio readahead\", 5.18) reads block devices in folios two orders above the marked"
                            + " folio's"),
                    at(v(6, 17), ReadAheadFolios.ALIGNED_ORDER_RAMP, "page_cache_ra_order honours the order it is"
                            + " given, so a synchronous window is read in pages (bdb86f6b8763 \"mm/readahead: honour"
                            + " new_order in page_cache_ra_order()\"); page_cache_async_ra cuts a window's end to a"
                            + " folio boundary (18ebe55a9236 \"mm/readahead: terminate async readahead on natural"
                            + " boundary\") and ramps the order kept in file_ra_state (c4602f9fa77f \"mm/readahead:"
                            + " store folio order in struct file_ra_state\"); Ryan Roberts' series, mm-stable for 6.17")),
            rule("unpluggedRequestsWaitInScheduler", KernelProfile::unpluggedRequestsWaitInScheduler,
                    Builder::unpluggedRequestsWaitInScheduler, false,
                    "a request made without a plug is dispatched as it is made (kblockd, which blk_mq_submit_bio"
                            + " hands the queue run to, preempts the submitter at once; 6.10 - 7.1: the flush of the"
                            + " plug __submit_bio holds around each bio, 060406c61c7c \"block: add plug while"
                            + " submitting IO\", runs the queue in the submitter)",
                    at(v(7, 2), true, "__submit_bio holds no plug (9cbbac29d752 \"block: Remove redundant plug in"
                            + " __submit_bio()\", block-7.2, June 2026, marked for stable): blk_mq_submit_bio inserts"
                            + " an unplugged request into the I/O scheduler and kblockd runs the queue, under lazy"
                            + " preemption once the submitter sleeps; recorded on 7.2.13")));

    private RuleHistory() {
    }

    /** A builder holding every rule as of {@code p} (name and version as given). */
    static Builder compose(Point p, String name, String description) {
        Builder b = KernelProfile.builder(name, p.major(), p.minor(), p.patch()).description(description);
        for (Rule<?> r : RULES) {
            r.applyAt(p, b);
        }
        return b;
    }

    /** Whether two profiles have the same value for every rule of the table (name, version and description aside). */
    static boolean sameRules(KernelProfile a, KernelProfile b) {
        if (a.pageSize() != b.pageSize()) {
            return false;
        }
        for (Rule<?> r : RULES) {
            if (!r.of(a).equals(r.of(b))) {
                return false;
            }
        }
        return true;
    }

    /** The rules in which two profiles differ, as {@code name: a → b}, for messages and tests. */
    static List<String> differences(KernelProfile a, KernelProfile b) {
        List<String> out = new ArrayList<>();
        for (Rule<?> r : RULES) {
            if (!r.of(a).equals(r.of(b))) {
                out.add(r.name() + ": " + r.of(a) + " → " + r.of(b));
            }
        }
        return out;
    }
}
