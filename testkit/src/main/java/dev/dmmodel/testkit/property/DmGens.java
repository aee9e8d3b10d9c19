package dev.dmmodel.testkit.property;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.IoJob;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Generators for every part of a block-device stack, each valid by construction and shrinking towards the
 * simplest thing that still fails: fewer disks, partitions and LVs; smaller sizes; round numbers (powers of
 * two, then whole MiB); a preset's own limits rather than overridden ones; linear rather than striped LVs;
 * partitions at sector 2048; 4 MiB extents; 64 KiB stripes and thin blocks.
 *
 * <ul>
 *   <li>{@link #disks()}: a preset from {@link DiskPresets} (AHCI, SAS, NVMe, virtio, loop, null_blk,
 *       scsi_debug with 512/4096-byte sectors, hardware RAID, 3ware), sometimes with random but valid limits
 *       (alignment offset, {@code max_hw_sectors}, {@code max_segments},
 *       {@code max_segment_size}, {@code max_sectors_kb}, {@code chunk_sectors});</li>
 *   <li>{@link #partitionTables(StackPlan.Disk)}: msdos or GPT with 1–4 partitions, the first at sector 2048,
 *       63 (msdos, 512-byte sectors) or placed by parted's optimal or minimal alignment;</li>
 *   <li>{@link #stacks()}: whole {@link StackPlan}s — disks, partitions, PVs, a VG, linear and striped LVs, a
 *       thin pool with thin volumes;</li>
 *   <li>{@link #thinPools()}: a thin pool made with {@code dmsetup} and 1–4 thin devices, and
 *       {@link #thinScripts(Layout)}: writes, reads, discards, snapshots (with and without a device) and deletes
 *       on it, for properties of dm-thin's block sharing;</li>
 *   <li>{@link #dd(String, long, long)}, {@link #ioJobs(String, long, long)} and {@link #scripts(Layout, String)}:
 *       workloads for a device.</li>
 * </ul>
 *
 * <p>Generators that must know what LVM will do (how many extents a PV has) build the stack so far while
 * generating, under the kernel profile given.
 */
public final class DmGens {
    static final long KIB = 1024;
    static final long MIB = 1 << 20;
    static final long GIB = 1 << 30;
    static final long TIB = 1L << 40;
    /** dm-thin's block size limits: 64 KiB to 1 GiB, multiples of 64 KiB. */
    static final long THIN_MIN_BLOCK = 64 * KIB;
    static final long THIN_MAX_BLOCK = GIB;
    /** Partitions the partition table generator makes are at least this big (a PV needs room for extents). */
    static final long MIN_PARTITION = 64 * MIB;

    private DmGens() {
    }

    // ---- kernels and sizes

    /** The kernel profile presets, the default (6.12) first, then the others newest first. */
    public static Gen<KernelProfile> kernelProfiles() {
        return Gen.elements(KernelProfile.LINUX_6_12, KernelProfile.LINUX_7_2, KernelProfile.LINUX_6_1,
                KernelProfile.LINUX_5_10, KernelProfile.LINUX_3_10, KernelProfile.LINUX_2_6_32, KernelProfile.LINUX_2_6_0);
    }

    /**
     * Sizes in bytes in {@code [min, max]}, multiples of {@code grain} (a power of two), that shrink to round
     * numbers: mostly a power of two, often a whole number of MiB, sometimes any multiple of the grain;
     * shrinking prefers a power of two, then the smallest.
     *
     * @throws IllegalArgumentException if no multiple of the grain lies in the range
     */
    public static Gen<Long> roundSizes(long min, long max, long grain) {
        if (grain <= 0 || Long.bitCount(grain) != 1) {
            throw new IllegalArgumentException("grain " + grain + " is not a power of two");
        }
        long lo = ceilDiv(min, grain);
        long hi = max / grain;
        if (lo > hi || hi == 0) {
            throw new IllegalArgumentException("no multiple of " + grain + " in [" + min + ", " + max + "]");
        }
        lo = Math.max(lo, 1);
        List<Gen.Weighted<Long>> options = new ArrayList<>();
        long p2lo = ceilPow2(Math.max(min, grain));
        long p2hi = floorPow2(max);
        if (p2lo > 0 && p2lo <= p2hi) {
            options.add(Gen.weighted(4, Gen.powerOfTwo(p2lo, p2hi)));
        }
        if (grain <= MIB && ceilDiv(min, MIB) <= max / MIB && max / MIB > 0) {
            long a = Math.max(1, ceilDiv(min, MIB));
            options.add(Gen.weighted(3, Gen.logScale(a, max / MIB).map(m -> m * MIB)));
        }
        long first = lo;
        options.add(Gen.weighted(1, Gen.logScale(first, hi).map(g -> g * grain)));
        return Gen.frequency(options);
    }

    /** Thin pool block sizes up to 1 GiB: multiples of 64 KiB, shrinking to 64 KiB ({@link #thinBlockSizes(long)}). */
    public static Gen<Long> thinBlockSizes() {
        return thinBlockSizes(THIN_MAX_BLOCK);
    }

    /**
     * Thin pool block sizes in bytes that dm-thin accepts, no larger than {@code maxBytes} (at least 64 KiB):
     * mostly powers of two, sometimes other multiples of 64 KiB (LVM allows them); shrinking to 64 KiB.
     */
    public static Gen<Long> thinBlockSizes(long maxBytes) {
        long max = Math.min(THIN_MAX_BLOCK, maxBytes) / THIN_MIN_BLOCK * THIN_MIN_BLOCK;
        if (max < THIN_MIN_BLOCK) {
            throw new IllegalArgumentException("no thin block size fits in " + maxBytes + " bytes");
        }
        return Gen.frequency(
                Gen.weighted(3, Gen.powerOfTwo(THIN_MIN_BLOCK, floorPow2(max))),
                Gen.weighted(1, Gen.logScale(1, max / THIN_MIN_BLOCK).map(k -> k * THIN_MIN_BLOCK)));
    }

    // ---- disks

    /** Disks of 256 MiB to 4 TiB (see {@link #disks(long, long)}). */
    public static Gen<StackPlan.Disk> disks() {
        return disks(256 * MIB, 4 * TIB);
    }

    /**
     * Disks from the presets, of {@code minBytes} to {@code maxBytes} (round sizes), named as their driver
     * names its first disk ({@code sda}, {@code nvme0n1}, {@code vda}, {@code loop0}, {@code nullb0}; a stack
     * renames them). Now and then a limit is overridden with a random but valid value; each override
     * shrinks away, back to the preset's limits.
     */
    public static Gen<StackPlan.Disk> disks(long minBytes, long maxBytes) {
        Gen<Knobs> knobs = knobs();
        Gen<Preset> presets = presets();
        return s -> {
            // the overrides come first: as the most significant choices, shrinking removes them before it
            // simplifies the preset
            Knobs k = s.draw(knobs);
            Preset p = s.draw(presets);
            DiskSpec.Builder b = p.make().get().toBuilder();
            List<String> overrides = k.apply(b, p);
            long lbs = b.build().limits().logicalBlockSize();
            long size = s.draw(roundSizes(Math.max(minBytes, 64 * MIB), maxBytes, lbs));
            b.size(Bytes.of(size));
            DiskSpec spec = b.build();
            return new StackPlan.Disk(diskName(spec.driver(), 0), p.java(), overrides, spec);
        };
    }

    /**
     * Lists of {@code min} to {@code max} disks of {@code minBytes} to {@code maxBytes}, named as the kernel
     * would name them in attach order ({@code sda}, {@code sdb}, {@code nvme0n1}, ...). Shrinks to fewer,
     * simpler disks.
     */
    public static Gen<List<StackPlan.Disk>> diskLists(int min, int max, long minBytes, long maxBytes) {
        return disks(minBytes, maxBytes).listOf(min, max).map(DmGens::rename);
    }

    /** The name a driver gives its {@code index}th disk. */
    static String diskName(DiskDriver driver, int index) {
        switch (driver) {
            case NVME:
                return "nvme" + index + "n1";
            case VIRTIO_BLK:
                return "vd" + letters(index);
            case LOOP:
                return "loop" + index;
            case NULL_BLK:
                return "nullb" + index;
            default:
                return "sd" + letters(index);
        }
    }

    private static String letters(int index) {
        return index < 26 ? String.valueOf((char) ('a' + index))
                : letters(index / 26 - 1) + (char) ('a' + index % 26);
    }

    /** A preset: the Java that calls it and the call. */
    private record Preset(String java, Supplier<DiskSpec> make, long chunkBytes) {
    }

    private static Gen<Preset> presets() {
        Gen<Preset> raid = s -> {
            RaidLevel level = s.draw(Gen.elements(RaidLevel.RAID5, RaidLevel.RAID0, RaidLevel.RAID1, RaidLevel.RAID6,
                    RaidLevel.RAID10));
            int min = level == RaidLevel.RAID0 ? 2 : level == RaidLevel.RAID1 ? 2 : level == RaidLevel.RAID5 ? 3 : 4;
            int disks = (int) (long) s.draw(Gen.choose(min, 16));
            if (level == RaidLevel.RAID10 && disks % 2 == 1) {
                disks--;
            }
            if (level == RaidLevel.RAID1) {
                disks = 2;
            }
            long chunk = s.draw(Gen.powerOfTwo(16 * KIB, MIB, 64 * KIB));
            int n = disks;
            return new Preset("DiskPresets.hardwareRaid(RaidLevel." + level + ", " + n + ", "
                    + StackPlan.bytesJava(chunk) + ")", () -> DiskPresets.hardwareRaid(level, n, Bytes.of(chunk)),
                    chunk);
        };
        Gen<Preset> scsiDebug = s -> {
            long lbs = s.draw(Gen.elements(512L, 4096L));
            long pbs = s.draw(Gen.elements(lbs, 4096L));
            long opt = s.draw(Gen.elements(0L, 1024L, 128L));
            return new Preset("DiskPresets.scsiDebug(" + lbs + ", " + pbs + ", " + opt + ")",
                    () -> DiskPresets.scsiDebug(lbs, pbs, opt), 0);
        };
        Gen<Preset> threeWare = s -> {
            int n = (int) (long) s.draw(Gen.choose(2, 12));
            return new Preset("DiskPresets.threeWare(" + n + ")", () -> DiskPresets.threeWare(n), 0);
        };
        return Gen.oneOf(
                preset("DiskPresets.ahciSata()", DiskPresets::ahciSata),
                preset("DiskPresets.sasDisk()", DiskPresets::sasDisk),
                preset("DiskPresets.nvmeSsd()", DiskPresets::nvmeSsd),
                preset("DiskPresets.ahciSataSsd()", DiskPresets::ahciSataSsd),
                preset("DiskPresets.qemuAhci()", DiskPresets::qemuAhci),
                preset("DiskPresets.virtioBlk()", DiskPresets::virtioBlk),
                preset("DiskPresets.loop()", DiskPresets::loop),
                preset("DiskPresets.nullBlk()", DiskPresets::nullBlk),
                scsiDebug,
                raid,
                threeWare);
    }

    private static Gen<Preset> preset(String java, Supplier<DiskSpec> make) {
        return Gen.constant(new Preset(java, make, 0));
    }

    /**
     * Raw limit overrides, drawn before the preset and applied where they are valid for it. Each is one span
     * (on? then its value), so the shrinker deletes or zeroes it as a whole.
     */
    private record Knobs(long alignmentSteps, long maxHwSectors, long maxSegments,
                         long maxSegmentSize, long maxSectorsKb, boolean chunkSectors) {

        List<String> apply(DiskSpec.Builder b, Preset p) {
            List<String> out = new ArrayList<>();
            QueueLimits l = b.build().limits();
            long lbs = l.logicalBlockSize();
            if (alignmentSteps > 0 && l.physicalBlockSize() > lbs) {
                long steps = l.physicalBlockSize() / lbs;
                long offset = (1 + (alignmentSteps - 1) % (steps - 1)) * lbs;
                b.alignmentOffset(offset);
                out.add(".alignmentOffset(" + offset + ")");
            }
            long maxHw = l.maxHwSectors();
            long explicitMax = b.build().maxSectors();
            if (maxHwSectors > 0 && maxHwSectors >= Math.max(8, lbs / 512) && maxHwSectors >= explicitMax) {
                b.maxHwSectors(maxHwSectors);
                maxHw = maxHwSectors;
                out.add(".maxHwSectors(" + maxHwSectors + ")");
            }
            if (maxSegments > 0) {
                b.maxSegments(maxSegments);
                out.add(".maxSegments(" + maxSegments + ")");
            }
            if (maxSegmentSize > 0 && l.virtBoundaryMask() == 0) {
                b.maxSegmentSize(maxSegmentSize);
                out.add(".maxSegmentSize(" + maxSegmentSize + ")");
            }
            if (maxSectorsKb > 0 && maxSectorsKb * 2 <= maxHw && maxSectorsKb * 1024 >= Math.max(4096, lbs)) {
                b.maxSectorsKb(maxSectorsKb);
                out.add(".maxSectorsKb(" + maxSectorsKb + ")");
            }
            if (chunkSectors && p.chunkBytes() > 0) {
                b.chunkSectors(p.chunkBytes() / 512);
                out.add(".chunkSectors(" + p.chunkBytes() / 512 + ")");
            }
            return out;
        }
    }

    private static Gen<Knobs> knobs() {
        Gen<Long> hw = optional(0.08, Gen.powerOfTwo(8, 65536, 256));
        Gen<Long> segs = optional(0.08, Gen.logScale(2, 2048));
        Gen<Long> segSize = optional(0.06, Gen.powerOfTwo(4096, MIB, 65536));
        Gen<Long> kb = optional(0.08, Gen.elements(128L, 4L, 8L, 64L, 512L, 1024L));
        Gen<Long> align = optional(0.05, Gen.choose(1, 7));
        return s -> {
            long a = s.draw(align);
            long h = s.draw(hw);
            long g = s.draw(segs);
            long z = s.draw(segSize);
            long k = s.draw(kb);
            boolean chunk = s.bool(0.2);
            return new Knobs(a, h, g, z, k, chunk);
        };
    }

    /** {@code gen}'s value with probability {@code p}, else 0 (the shrink target): one span. */
    private static Gen<Long> optional(double p, Gen<Long> gen) {
        return s -> s.bool(p) ? s.draw(gen) : 0L;
    }

    // ---- partitions

    /**
     * A partition table for {@code disk}: msdos (when the disk is small enough) or GPT, 1–4 partitions of at
     * least 64 MiB (fewer on small disks), the first at sector 2048, at sector 63 (msdos on 512-byte sectors:
     * the legacy DOS start) or placed by parted's optimal or minimal alignment, the later ones placed by
     * parted, the last one to the end of the disk or not. Shrinks to one msdos partition at 2048 to the end.
     */
    public static Gen<StackPlan.PartitionTable> partitionTables(StackPlan.Disk disk) {
        long lbs = disk.logicalBlockSize();
        long diskBytes = disk.sizeBytes();
        boolean msdosFits = diskBytes / lbs <= 0xFFFF_FFFFL;
        QueueLimits l = disk.spec().limits();
        // the most an aligned start can move a partition: a grain, rounded up to whole MiB
        long grain = ceilDiv(Math.max(Math.max(MIB, l.ioOpt()), l.alignmentGranularity()), MIB)
                * MIB;
        int maxCount = 1;
        for (int n = 2; n <= 4; n++) {
            if (cap(diskBytes, n, grain) >= MIN_PARTITION) {
                maxCount = n;
            }
        }
        int maxParts = maxCount;
        return s -> {
            PartitionTableType type = msdosFits
                    ? s.draw(Gen.elements(PartitionTableType.MSDOS, PartitionTableType.GPT)) : PartitionTableType.GPT;
            int n = (int) s.choice(maxParts - 1) + 1;
            long cap = cap(diskBytes, n, grain);
            boolean legacy = type == PartitionTableType.MSDOS && lbs == 512;
            List<PartitionSpec> specs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                boolean last = i == n - 1;
                Optional<Sectors> size = Optional.empty();
                if (!last || s.bool(0.25)) {
                    size = Optional.of(Bytes.of(s.draw(roundSizes(MIN_PARTITION, Math.max(MIN_PARTITION, cap), MIB)))
                            .toSectors());
                }
                if (i == 0) {
                    // 0: sector 2048, 1: optimal, 2: minimal, 3: sector 63
                    int kind = (int) s.choice(legacy ? 3 : 2);
                    if (kind == 0 || kind == 3) {
                        Sectors start = Sectors.of(kind == 0 ? 2048 : 63);
                        specs.add(size.isPresent() ? PartitionSpec.at(start, size.get())
                                : PartitionSpec.atToEnd(start));
                    } else {
                        specs.add(kind == 1 ? PartitionSpec.optimal(size) : PartitionSpec.minimal(size));
                    }
                } else {
                    specs.add(s.bool(0.25) ? PartitionSpec.minimal(size) : PartitionSpec.optimal(size));
                }
            }
            return new StackPlan.PartitionTable(disk.name(), type, specs);
        };
    }

    /** The largest partition size (whole MiB) such that {@code n} of them fit with their alignment gaps. */
    private static long cap(long diskBytes, int n, long grain) {
        long room = diskBytes - (n + 1) * grain - 2 * MIB;
        return room <= 0 ? 0 : room / n / MIB * MIB;
    }

    // ---- stacks

    /** Stacks of 1–3 disks under Linux 6.12 (see {@link #stacks(KernelProfile, int)}). */
    public static Gen<StackPlan> stacks() {
        return stacks(KernelProfile.LINUX_6_12, 3);
    }

    /** Stacks of 1–3 disks under {@code profile} (see {@link #stacks(KernelProfile, int)}). */
    public static Gen<StackPlan> stacks(KernelProfile profile) {
        return stacks(profile, 3);
    }

    /**
     * Whole stacks for {@code profile}: 1 to {@code maxDisks} disks ({@link #disks()}), some partitioned
     * ({@link #partitionTables}); usually LVM on top: every whole disk or partition with the first one's
     * logical block size as a PV, one VG {@code vg0} (extents 1–64 MiB, 4 MiB preferred), 1–3 linear or striped
     * LVs ({@code lv0}...: 2–4 stripes of 4 KiB – 1 MiB on distinct PVs), and — when the kernel has dm-thin and
     * there is room — a thin pool {@code pool0} (block sizes from {@link #thinBlockSizes(long)}, zeroing on or
     * off) with 1–3 thin volumes. Sizes fit: every generated plan builds under {@code profile}.
     * Shrinks towards one disk with no partition table, no LVM.
     */
    public static Gen<StackPlan> stacks(KernelProfile profile, int maxDisks) {
        // a safety net: the sizes are computed to fit; a plan the model refuses is drawn again
        return unfilteredStacks(profile, maxDisks).filter(DmGens::builds, 20);
    }

    /**
     * {@link #stacks(KernelProfile)} with dm devices on top, with probability 1/2, one of:
     * <ul>
     *   <li>a dm-crypt device {@code c0} over the last LV (or the first disk or partition without LVM) past a data
     *       offset (none, 4 KiB, 1 MiB or LUKS2's 16 MiB), with 512- or 4096-byte crypt sectors (4096 over a 4 KiB
     *       device), with or without {@code allow_discards}; the key is the {@code -} of a keyless table;</li>
     *   <li>when there are two LVs: a classic snapshot of {@code lv0} with its exceptions on {@code lv1}, as
     *       {@code dmsetup} makes it: {@code so} ({@code snapshot-origin}) and {@code sn} ({@code snapshot ... P
     *       CHUNK}, 4 KiB – 512 KiB chunks that fit {@code lv1} at least four times);</li>
     *   <li>without LVM and with two or more disks: a multipath device {@code mp} over the first two whole disks
     *       when they have one logical block size, round-robin, request-based or {@code queue_mode bio};</li>
     *   <li>when there are two LVs: dm-writecache {@code wcached} over {@code lv0} caching on {@code lv1} (kernels
     *       from 4.18, where it exists), or with three, dm-cache {@code cached} (writethrough, smq, 32 – 256 KiB
     *       blocks) with {@code lv2} as metadata.</li>
     * </ul>
     * A layer whose constructor refuses its devices (a cache too small for its metadata) is drawn as crypt instead.
     * Shrinks towards no layer, then as {@link #stacks(KernelProfile)} does.
     */
    public static Gen<StackPlan> targetStacks(KernelProfile profile) {
        java.util.Objects.requireNonNull(profile, "profile");
        return stacks(profile).flatMap(plan -> s -> {
            if (!s.bool(0.5)) {
                return plan;
            }
            Layout layout = plan.build();
            // crypt always fits; a snapshot needs two LVs, multipath two devices LVM does not use
            List<Integer> kinds = new ArrayList<>(List.of(0));
            if (plan.logicalVolumes().size() >= 2) {
                kinds.add(1);
            }
            if (plan.volumeGroup().isEmpty() && plan.disks().size() >= 2) {
                kinds.add(2);
            }
            if (plan.logicalVolumes().size() >= 2) {
                kinds.add(3);
            }
            int kind = kinds.get((int) s.choice(kinds.size() - 1));
            List<StackPlan.DmLayer> layers = kind == 1 ? snapshotLayers(plan, layout, s)
                    : kind == 2 ? multipathLayer(plan, layout, s) : kind == 3 ? cacheLayer(plan, layout, s)
                    : List.of();
            StackPlan with = new StackPlan(plan.profile(), plan.disks(), plan.partitionTables(),
                    plan.physicalVolumes(), plan.volumeGroup(), plan.logicalVolumes(), plan.thinPools(),
                    plan.thinVolumes(), layers);
            if (layers.isEmpty() || !builds(with)) {
                // a layer whose constructor refuses its devices (a cache device too small for its metadata): crypt
                with = new StackPlan(plan.profile(), plan.disks(), plan.partitionTables(), plan.physicalVolumes(),
                        plan.volumeGroup(), plan.logicalVolumes(), plan.thinPools(), plan.thinVolumes(),
                        cryptLayer(plan, layout, s));
            }
            return with;
        });
    }

    /** The md levels {@link #mdStacks} draws, most common first. */
    static final List<dev.dmmodel.device.MdLevel> MD_LEVELS = List.of(dev.dmmodel.device.MdLevel.RAID1,
            dev.dmmodel.device.MdLevel.RAID0, dev.dmmodel.device.MdLevel.RAID5, dev.dmmodel.device.MdLevel.RAID10,
            dev.dmmodel.device.MdLevel.RAID6, dev.dmmodel.device.MdLevel.RAID4);

    /**
     * Stacks with an md array {@code md0} for {@code profile}: two to five disks of 64 – 512 MiB (shrinking to two
     * small ones), all of them members (slots in disk order) with a data offset of 1 or 2 MiB (mdadm's metadata 1.2
     * on small disks) and the smallest disk's room as every member's data size; a level the disk count allows
     * ({@link #MD_LEVELS}: raid1, raid0, raid5, raid10 with near, far or offset copies, raid6, raid4; raid5/6 with
     * one of the four left/right (a)symmetric layouts), chunks of 4 – 128 KiB; on top,
     * now and then, LVM ({@code pvcreate md0}, {@code vg0}, one linear LV {@code lv0}). Every plan builds.
     */
    public static Gen<StackPlan> mdStacks(KernelProfile profile) {
        java.util.Objects.requireNonNull(profile, "profile");
        return diskLists(2, 5, 64 * MIB, 512 * MIB).flatMap(disks -> s -> {
            List<dev.dmmodel.device.MdLevel> levels = new ArrayList<>();
            for (dev.dmmodel.device.MdLevel l : MD_LEVELS) {
                int min = l == dev.dmmodel.device.MdLevel.RAID6 ? 4 : l.hasParity() ? 3 : 2;
                if (disks.size() >= min) {
                    levels.add(l);
                }
            }
            dev.dmmodel.device.MdLevel level = levels.get((int) s.choice(levels.size() - 1));
            long lbs = disks.stream().mapToLong(StackPlan.Disk::logicalBlockSize).max().orElse(512) / 512;
            long chunk = level.hasChunk() ? Math.max(8, lbs) << s.choice(5) : 0;
            long offset = s.bool(0.5) ? 2048 : 4096;
            long smallest = disks.stream().mapToLong(d -> d.spec().size().count()).min().orElseThrow();
            long grain = Math.max(chunk, Math.max(lbs, 128));
            long data = (smallest - offset) / grain * grain;
            int layout = switch (level) {
                case RAID0 -> -1;
                case RAID1 -> 0;
                case RAID10 -> new int[] {0x102, 0x201, 0x10201}[(int) s.choice(2)];
                default -> (int) s.choice(3);
            };
            List<dev.dmmodel.device.MdMember> members = new ArrayList<>();
            for (int i = 0; i < disks.size(); i++) {
                members.add(new dev.dmmodel.device.MdMember(disks.get(i).name(), i, Sectors.of(offset),
                        Sectors.of(data)));
            }
            StackPlan.MdArray md = new StackPlan.MdArray("md0", new dev.dmmodel.device.MdArraySpec(level, disks.size(),
                    Sectors.of(chunk), layout, "1.2", members));
            StackPlan bare = new StackPlan(profile, disks, List.of(), List.of(), Optional.empty(), List.of(),
                    List.of(), List.of(), List.of(), List.of(md));
            if (!s.bool(0.5)) {
                return bare;
            }
            Layout layout0 = bare.build();
            long mdSize = layout0.device("md0").size().count();
            long extent = 8192;
            long peRoom = (mdSize - 8192) / extent;
            if (peRoom < 2) {
                return bare;
            }
            long extents = 1 + s.biasedChoice(peRoom - 2);
            StackPlan.VolumeGroup vg = new StackPlan.VolumeGroup("vg0", extent, List.of("md0"));
            return new StackPlan(profile, disks, List.of(), List.of("md0"), Optional.of(vg),
                    List.of(new StackPlan.Lv("lv0", extents, 1, 0, List.of("md0"))), List.of(), List.of(), List.of(),
                    List.of(md));
        }).filter(DmGens::builds, 20);
    }

    private static List<StackPlan.DmLayer> cryptLayer(StackPlan plan, Layout layout, Source s) {
        String under = !plan.lvPaths().isEmpty() ? plan.lvPaths().get(plan.lvPaths().size() - 1)
                : plan.partitionNames().isEmpty() ? plan.disks().get(0).name() : plan.partitionNames().get(0);
        BlockDevice d = layout.device(under);
        long size = d.size().count();
        long lbs = d.limits().logicalBlockSize() / 512;
        int sectorSize = lbs >= 8 || s.bool(0.5) ? 4096 : 512;
        long unit = Math.max(lbs, sectorSize / 512);
        long offset = new long[] {0, 8, 2048, 32768}[(int) s.choice(3)];
        if (size - offset < 64 * unit) {
            offset = 0;
        }
        long length = (size - offset) / unit * unit;
        if (length < unit) {
            return List.of();
        }
        boolean discards = s.bool(0.5);
        dev.dmmodel.dm.CryptTarget c = new dev.dmmodel.dm.CryptTarget(Sectors.ZERO, Sectors.of(length),
                "aes-xts-plain64", "-", Sectors.ZERO, d.name(), Sectors.of(offset), sectorSize, discards, false,
                List.of());
        String java = ".add(new CryptTarget(Sectors.ZERO, Sectors.of(" + length + "), \"aes-xts-plain64\", \"-\","
                + " Sectors.ZERO, \"" + d.name() + "\", Sectors.of(" + offset + "), " + sectorSize + ", " + discards
                + ", false, List.of()))";
        return List.of(new StackPlan.DmLayer("c0", dev.dmmodel.dm.DmTable.builder().add(c).build(), java));
    }

    private static List<StackPlan.DmLayer> snapshotLayers(StackPlan plan, Layout layout, Source s) {
        if (plan.logicalVolumes().size() < 2) {
            return List.of();
        }
        BlockDevice origin = layout.device(plan.lvPaths().get(0));
        BlockDevice cow = layout.device(plan.lvPaths().get(1));
        long lbs = Math.max(origin.limits().logicalBlockSize(), cow.limits().logicalBlockSize()) / 512;
        long chunk = Math.max(8, lbs) << s.choice(7);
        if (chunk > 1024 || cow.size().count() < 4 * chunk) {
            chunk = Math.max(8, lbs);
        }
        if (cow.size().count() < 4 * chunk) {
            return List.of();
        }
        Sectors len = origin.size();
        dev.dmmodel.dm.SnapshotOriginTarget so = new dev.dmmodel.dm.SnapshotOriginTarget(Sectors.ZERO, len,
                origin.name());
        dev.dmmodel.dm.SnapshotTarget sn = new dev.dmmodel.dm.SnapshotTarget(Sectors.ZERO, len, origin.name(),
                cow.name(), dev.dmmodel.dm.SnapshotTarget.Store.PERSISTENT, chunk, false, false);
        return List.of(
                new StackPlan.DmLayer("so", dev.dmmodel.dm.DmTable.builder().add(so).build(),
                        ".add(new SnapshotOriginTarget(Sectors.ZERO, Sectors.of(" + len.count() + "), \""
                                + origin.name() + "\"))"),
                new StackPlan.DmLayer("sn", dev.dmmodel.dm.DmTable.builder().add(sn).build(),
                        ".add(new SnapshotTarget(Sectors.ZERO, Sectors.of(" + len.count() + "), \"" + origin.name()
                                + "\", \"" + cow.name() + "\", SnapshotTarget.Store.PERSISTENT, " + chunk
                                + ", false, false))"));
    }

    // dm-cache (writethrough, smq) over lv0 with lv1 as its cache and lv2 as its metadata, or dm-writecache (SSD)
    // over lv0 with lv1 as its cache volume
    private static List<StackPlan.DmLayer> cacheLayer(StackPlan plan, Layout layout, Source s) {
        BlockDevice origin = layout.device(plan.lvPaths().get(0));
        BlockDevice fast = layout.device(plan.lvPaths().get(1));
        Sectors len = origin.size();
        // dm-writecache came with 4.18 (drivers/md/dm-writecache.c); before, the cache layer is dm-cache (3.9)
        boolean writecache = plan.profile().major() > 4 || (plan.profile().major() == 4 && plan.profile().minor() >= 18);
        if (plan.logicalVolumes().size() >= 3 && (!writecache || s.bool(0.5))) {
            BlockDevice meta = layout.device(plan.lvPaths().get(2));
            long block = 64L << s.choice(4);
            dev.dmmodel.dm.CacheTarget c = new dev.dmmodel.dm.CacheTarget(Sectors.ZERO, len, meta.name(), fast.name(),
                    origin.name(), block, List.of("writethrough"), "smq", List.of());
            return List.of(new StackPlan.DmLayer("cached", dev.dmmodel.dm.DmTable.builder().add(c).build(),
                    ".add(new CacheTarget(Sectors.ZERO, Sectors.of(" + len.count() + "), \"" + meta.name() + "\", \""
                            + fast.name() + "\", \"" + origin.name() + "\", " + block
                            + ", List.of(\"writethrough\"), \"smq\", List.of()))"));
        }
        if (!writecache) {
            return List.of();
        }
        long blockSize = Math.max(4096, Math.max(origin.limits().logicalBlockSize(), fast.limits().logicalBlockSize()));
        dev.dmmodel.dm.WritecacheTarget w = new dev.dmmodel.dm.WritecacheTarget(Sectors.ZERO, len, false,
                origin.name(), fast.name(), blockSize, dev.dmmodel.dm.WritecacheTarget.Options.NONE);
        return List.of(new StackPlan.DmLayer("wcached", dev.dmmodel.dm.DmTable.builder().add(w).build(),
                ".add(new WritecacheTarget(Sectors.ZERO, Sectors.of(" + len.count() + "), false, \"" + origin.name()
                        + "\", \"" + fast.name() + "\", " + blockSize + ", WritecacheTarget.Options.NONE))"));
    }

    private static List<StackPlan.DmLayer> multipathLayer(StackPlan plan, Layout layout, Source s) {
        if (plan.volumeGroup().isPresent() || plan.disks().size() < 2) {
            return List.of();
        }
        // the first two whole disks, as two paths to one LUN (the model clones requests onto whole disks only)
        BlockDevice a = layout.device(plan.disks().get(0).name());
        BlockDevice b = layout.device(plan.disks().get(1).name());
        if (a.limits().logicalBlockSize() != b.limits().logicalBlockSize()) {
            return List.of();
        }
        long unit = a.limits().logicalBlockSize() / 512;
        long len = Math.min(a.size().count(), b.size().count()) / unit * unit;
        boolean bio = s.bool(0.5);
        dev.dmmodel.dm.MultipathTarget.QueueMode mode = bio ? dev.dmmodel.dm.MultipathTarget.QueueMode.BIO_BASED
                : dev.dmmodel.dm.MultipathTarget.QueueMode.REQUEST_BASED;
        dev.dmmodel.dm.DmTable t = dev.dmmodel.dm.DmTable.builder().add(new dev.dmmodel.dm.MultipathTarget(
                Sectors.ZERO, Sectors.of(len), mode, false, bio, 0, java.util.OptionalInt.empty(), Optional.empty(),
                List.of(), 1, List.of(new dev.dmmodel.dm.MultipathTarget.PriorityGroup("round-robin", List.of(
                        new dev.dmmodel.dm.MultipathTarget.Path(a.name(), List.of("1")),
                        new dev.dmmodel.dm.MultipathTarget.Path(b.name(), List.of("1"))))))).build();
        return List.of(new StackPlan.DmLayer("mp", t, ".add(new MultipathTarget(Sectors.ZERO,"
                + " Sectors.of(" + len + "), MultipathTarget.QueueMode." + mode + ", false, " + bio + ", 0,"
                + " OptionalInt.empty(), Optional.empty(), List.of(), 1, List.of(new MultipathTarget.PriorityGroup("
                + "\"round-robin\", List.of(new MultipathTarget.Path(\"" + a.name() + "\", List.of(\"1\")),"
                + " new MultipathTarget.Path(\"" + b.name() + "\", List.of(\"1\"))))))"));
    }

    /** {@link #stacks(KernelProfile, int)} without the safety net (for testing that it is not needed). */
    static Gen<StackPlan> unfilteredStacks(KernelProfile profile, int maxDisks) {
        if (maxDisks < 1) {
            throw new IllegalArgumentException("maxDisks (" + maxDisks + ") must be at least 1");
        }
        // a disk and its partition table are drawn together, so that deleting a disk deletes its table too
        Gen<Gen.Pair<StackPlan.Disk, Optional<StackPlan.PartitionTable>>> diskAndTable = disks().flatMap(d -> src ->
                new Gen.Pair<>(d, src.bool(0.4) ? Optional.of(src.draw(partitionTables(d))) : Optional.empty()));
        Gen<List<Gen.Pair<StackPlan.Disk, Optional<StackPlan.PartitionTable>>>> diskLists =
                diskAndTable.listOf(1, maxDisks);
        boolean thin = profile.thinPoolIoHints() != KernelProfile.ThinPoolIoHints.NONE;
        return s -> {
            var drawn = s.draw(diskLists);
            List<StackPlan.Disk> disks = new ArrayList<>();
            for (var p : drawn) {
                disks.add(p.first());
            }
            disks = rename(disks);
            List<StackPlan.PartitionTable> tables = new ArrayList<>();
            List<String> bases = new ArrayList<>();
            List<Long> baseLbs = new ArrayList<>();
            for (int i = 0; i < disks.size(); i++) {
                StackPlan.Disk d = disks.get(i);
                Optional<StackPlan.PartitionTable> t = drawn.get(i).second()
                        .map(x -> new StackPlan.PartitionTable(d.name(), x.type(), x.partitions()));
                if (t.isPresent()) {
                    tables.add(t.get());
                    for (String p : t.get().partitionNames()) {
                        bases.add(p);
                        baseLbs.add(d.logicalBlockSize());
                    }
                } else {
                    bases.add(d.name());
                    baseLbs.add(d.logicalBlockSize());
                }
            }
            StackPlan noLvm = new StackPlan(profile, disks, tables, List.of(), Optional.empty(), List.of(), List.of(),
                    List.of());
            if (!s.bool(0.85)) {
                return noLvm;
            }
            // LVM 2.03 keeps one logical block size per VG: the first device's
            List<String> pvs = new ArrayList<>();
            for (int i = 0; i < bases.size(); i++) {
                if (baseLbs.get(i).equals(baseLbs.get(0))) {
                    pvs.add(bases.get(i));
                }
            }
            StackPlan withPvs = new StackPlan(profile, disks, tables, pvs, Optional.empty(), List.of(), List.of(),
                    List.of());
            Layout layout = withPvs.build();
            long[] usable = new long[pvs.size()];
            long smallest = Long.MAX_VALUE;
            for (int i = 0; i < pvs.size(); i++) {
                PhysicalVolume pv = layout.physicalVolume(pvs.get(i)).orElseThrow();
                usable[i] = pv.devSize().count() - pv.peStart().count() - pv.mda1Size().count();
                smallest = Math.min(smallest, usable[i]);
            }
            long maxExtent = Math.max(2048, Math.min(131072, floorPow2(Math.max(1, smallest / 8))));
            long extent = s.draw(Gen.powerOfTwo(2048, maxExtent, Math.min(8192, maxExtent)));
            long[] free = new long[pvs.size()];
            for (int i = 0; i < pvs.size(); i++) {
                free[i] = usable[i] / extent;
            }
            StackPlan.VolumeGroup vg = new StackPlan.VolumeGroup("vg0", extent, pvs);
            List<StackPlan.Lv> lvs = new ArrayList<>();
            long lbs = baseLbs.get(0);
            for (int i = 0; i < 3; i++) {
                Optional<StackPlan.Lv> lv = i == 0 ? Optional.of(s.draw(lv("lv0", pvs, free, extent, lbs)))
                        : s.draw(optionalLv("lv" + i, pvs, free, extent, lbs));
                if (lv.isEmpty()) {
                    break;
                }
                take(lv.get(), pvs, free);
                lvs.add(lv.get());
            }
            List<StackPlan.ThinPool> pools = new ArrayList<>();
            List<StackPlan.ThinVolume> thins = new ArrayList<>();
            if (thin) {
                // data, metadata and its spare on the PV with most room (LVM keeps the metadata off the PVs the
                // data spans when it can, and refuses when the data spans them all)
                long most = 0;
                for (long f : free) {
                    most = Math.max(most, f);
                }
                long meta = ceilDiv(4096, extent);
                long maxData = (most - 3 - 2 * meta) * 1024 / 1026;
                if (maxData >= 1 && s.bool(0.4)) {
                    pools.add(s.draw(pool(maxData, extent)));
                    thins.addAll(s.draw(thinVolumes(pools.get(0))));
                }
            }
            return new StackPlan(profile, disks, tables, pvs, Optional.of(vg), lvs, pools, thins);
        };
    }

    private static boolean builds(StackPlan plan) {
        try {
            plan.build();
            return true;
        } catch (dev.dmmodel.layout.LayoutException e) {
            return false;
        }
    }

    private static List<StackPlan.Disk> rename(List<StackPlan.Disk> disks) {
        List<StackPlan.Disk> out = new ArrayList<>();
        int[] counters = new int[DiskDriver.values().length];
        for (StackPlan.Disk d : disks) {
            int index = counters[d.spec().driver().ordinal()]++;
            out.add(d.named(diskName(d.spec().driver(), index)));
        }
        return List.copyOf(out);
    }

    private static Gen<Optional<StackPlan.Lv>> optionalLv(String name, List<String> pvs, long[] free, long extent,
                                                          long lbs) {
        return s -> {
            boolean room = false;
            for (long f : free) {
                room |= f > 0;
            }
            return room && s.bool(0.5) ? Optional.of(s.draw(lv(name, pvs, free, extent, lbs))) : Optional.empty();
        };
    }

    /** One LV on PVs with free extents (the caller knows there is at least one extent free). */
    private static Gen<StackPlan.Lv> lv(String name, List<String> pvs, long[] free, long extent, long lbs) {
        return s -> {
            List<Integer> withFree = new ArrayList<>();
            for (int i = 0; i < free.length; i++) {
                if (free[i] > 0) {
                    withFree.add(i);
                }
            }
            if (withFree.isEmpty()) {
                throw Source.discard("no free extents for " + name);
            }
            if (withFree.size() >= 2 && s.bool(0.3)) {
                int stripes = 2 + (int) s.choice(Math.min(4, withFree.size()) - 2);
                List<String> on = new ArrayList<>();
                long minFree = Long.MAX_VALUE;
                for (int k = 0; k < stripes; k++) {
                    on.add(pvs.get(withFree.get(k)));
                    minFree = Math.min(minFree, free[withFree.get(k)]);
                }
                long perStripe = 1 + s.biasedChoice(minFree - 1);
                long maxStripe = Math.min(MIB, extent * 512);
                long minStripe = Math.max(4 * KIB, lbs);
                long stripeSize = s.draw(Gen.powerOfTwo(minStripe, maxStripe,
                        Math.max(minStripe, Math.min(64 * KIB, maxStripe))));
                return new StackPlan.Lv(name, perStripe * stripes, stripes, stripeSize, on);
            }
            int pv = withFree.get((int) s.choice(withFree.size() - 1));
            long extents = 1 + s.biasedChoice(free[pv] - 1);
            return new StackPlan.Lv(name, extents, 1, 0, List.of(pvs.get(pv)));
        };
    }

    private static void take(StackPlan.Lv lv, List<String> pvs, long[] free) {
        long each = lv.extents() / lv.stripes();
        for (String pv : lv.physicalVolumes()) {
            free[pvs.indexOf(pv)] -= each;
        }
    }

    private static Gen<StackPlan.ThinPool> pool(long maxDataExtents, long extent) {
        return s -> {
            long data = 1 + s.biasedChoice(maxDataExtents - 1);
            long chunk = s.draw(thinBlockSizes(data * extent * 512));
            boolean zeroOff = s.bool(0.3);
            return new StackPlan.ThinPool("pool0", data, chunk, !zeroOff);
        };
    }

    private static Gen<List<StackPlan.ThinVolume>> thinVolumes(StackPlan.ThinPool pool) {
        Gen<Long> sizes = roundSizes(MIB, 4 * TIB, MIB);
        return Gen.list(sizes, 1, 3).map(list -> {
            List<StackPlan.ThinVolume> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                out.add(new StackPlan.ThinVolume("thin" + i, list.get(i), pool.name()));
            }
            return out;
        });
    }

    // ---- thin pools

    /** Thin device ids of {@link #thinPools()}'s snapshots that have no device (as LVM leaves a snapshot inactive). */
    public static final long FIRST_HIDDEN_THIN_ID = 100;
    /** At most this many snapshots without a device exist at once in a {@link #thinScripts(Layout)} workload. */
    public static final int MAX_HIDDEN_SNAPSHOTS = 2;

    /**
     * Thin-heavy stacks made with {@code dmsetup}: one 1 GiB qemu AHCI disk {@code sda}, a metadata device
     * {@code tmeta} (4 MiB), a data device {@code tdata}, the pool {@code pool} (block size 64 KiB to 1 MiB, block
     * zeroing on or {@code skip_block_zeroing}) and 1–4 thin devices {@code thin0}… with device ids 0, 1, … of
     * 1–32 blocks each. The pool has room for every thin device and {@link #MAX_HIDDEN_SNAPSHOTS} snapshots
     * without a device to map all their blocks, so that {@link #thinScripts(Layout)} never runs it out of space.
     * Shrinks to one thin device of one 64 KiB block in a zeroing pool.
     */
    public static Gen<Layout> thinPools() {
        return s -> {
            long blockSectors = s.draw(thinBlockSizes(MIB)) / Sectors.SECTOR_SIZE;
            boolean skipZeroing = s.bool(0.25);
            long blocksPerThin = s.draw(Gen.logScale(1, 32));
            int thins = 1;
            while (thins < 4 && s.bool(0.6)) {
                thins++;
            }
            long metaSectors = 8192;
            long dataSectors = Math.multiplyExact((thins + MAX_HIDDEN_SNAPSHOTS) * blocksPerThin + 4, blockSectors);
            LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                    .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(metaSectors), "sda", Sectors.ZERO))
                    .dmsetupCreate("tdata", t -> t.linear(Sectors.of(dataSectors), "sda", Sectors.of(metaSectors)))
                    .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(dataSectors), "tmeta", "tdata", blockSectors,
                            0, skipZeroing ? new ThinPoolFeature[] {
                                ThinPoolFeature.SKIP_BLOCK_ZEROING}
                                    : new ThinPoolFeature[0]));
            for (int i = 0; i < thins; i++) {
                long id = i;
                b = b.dmsetupCreate("thin" + i, t -> t.thin(Sectors.of(blocksPerThin * blockSectors), "pool", id));
            }
            return b.build();
        };
    }

    /**
     * Workloads for a {@link #thinPools()} stack that exercise dm-thin's block sharing: up to 40 operations (each one span that shrinking deletes), each a
     * direct {@code dd} write or read of any sectors or of whole blocks of a thin device, a {@code blkdiscard}
     * of one, a snapshot ({@code dmsetup message /dev/mapper/pool 0 "create_snap NEW ORIGIN"}) into a thin
     * device not used yet or into an id without a device (from {@link #FIRST_HIDDEN_THIN_ID}), or the
     * {@code delete} of such a hidden snapshot; then a read of every thin device whole. Writes, reads and
     * discards go to thin0 until something is written, then to a device that was written or snapshotted; a
     * snapshot's origin is such a device or a hidden snapshot. Shrinks to fewer operations, writes, whole blocks
     * and sector 0: the simplest workload only reads.
     *
     * @throws IllegalArgumentException if {@code layout} has no thin pool with a thin device
     */
    public static Gen<Script> thinScripts(Layout layout) {
        ThinPlan plan = ThinPlan.of(layout);
        return s -> {
            List<Command> out = new ArrayList<>();
            ThinState st = new ThinState(plan.thins().size());
            while (out.size() < 40) {
                Command next = s.draw(src -> src.bool(0.95) ? src.draw(thinOperation(plan, st)) : null);
                if (next == null) {
                    break;
                }
                out.add(next);
            }
            for (String thin : plan.thins()) {
                out.add(Command.parse(ddRead(thin, 0, plan.virtualSectors())));
            }
            return new Script(out);
        };
    }

    /** The pool and thin devices of a layout, by path, in device id order. */
    private record ThinPlan(String pool, List<String> thins, long blockSectors, long virtualSectors) {
        static ThinPlan of(Layout layout) {
            for (DmDevice pool : layout.dmDevices()) {
                if (!(pool.table().targets().get(0) instanceof ThinPoolTarget pt)) {
                    continue;
                }
                List<DmDevice> thins = new ArrayList<>();
                for (DmDevice d : layout.dmDevices()) {
                    if (d.table().targets().size() == 1
                            && d.table().targets().get(0) instanceof ThinTarget t
                            && t.poolDevice().equals(pool.name())) {
                        thins.add(d);
                    }
                }
                if (thins.isEmpty()) {
                    continue;
                }
                thins.sort(Comparator.comparingLong(
                        d -> ((ThinTarget) d.table().targets().get(0)).deviceId()));
                long virtual = thins.stream().mapToLong(d -> d.size().count()).min().orElseThrow();
                List<String> paths = new ArrayList<>();
                for (int i = 0; i < thins.size(); i++) {
                    long id = ((ThinTarget) thins.get(i).table().targets().get(0)).deviceId();
                    if (id != i) {
                        throw new IllegalArgumentException("thin devices of " + pool.path()
                                + " must have device ids 0, 1, ...; " + thins.get(i).path() + " has " + id);
                    }
                    paths.add(thins.get(i).path());
                }
                return new ThinPlan(pool.path(), List.copyOf(paths), pt.blockSectors(), virtual);
            }
            throw new IllegalArgumentException("the layout has no thin pool with a thin device");
        }
    }

    /** What a thin workload did so far: which devices hold data, which hidden snapshots exist. */
    private static final class ThinState {
        final BitSet used = new BitSet();
        final BitSet hidden = new BitSet();
        final int thins;

        ThinState(int thins) {
            this.thins = thins;
        }
    }

    private static Gen<Command> thinOperation(ThinPlan plan, ThinState st) {
        return s -> {
            int kind = (int) s.choice(9);
            int dev = pickUsed(s, st);
            String thin = plan.thins().get(dev);
            if (kind < 5) {
                long[] r = thinRange(s, plan);
                st.used.set(dev);
                return Command.parse("dd if=/dev/zero of=" + thin + " bs=" + r[1] * 512 + " count=1 seek="
                        + r[0] * 512 + " oflag=direct,seek_bytes");
            }
            if (kind < 7) {
                long[] r = thinRange(s, plan);
                return Command.parse(ddRead(thin, r[0], r[1]));
            }
            if (kind < 8) {
                long[] r = thinRange(s, plan);
                return Command.parse("blkdiscard -o " + r[0] * 512 + " -l " + r[1] * 512 + " " + thin);
            }
            int free = st.used.nextClearBit(0);
            if (kind < 9 && free < st.thins && !(st.used.isEmpty() && st.hidden.isEmpty())) {
                // into a device not used yet, from a used device or a hidden snapshot
                long origin = pickOrigin(s, st);
                st.used.set(free);
                return snapshotMessage(plan, free, origin);
            }
            int slot = (int) s.choice(MAX_HIDDEN_SNAPSHOTS - 1);
            long id = FIRST_HIDDEN_THIN_ID + slot;
            if (st.hidden.get(slot)) {
                st.hidden.clear(slot);
                return Command.parse("dmsetup message " + plan.pool() + " 0 \"delete " + id + "\"");
            }
            if (st.used.isEmpty()) {
                // nothing to snapshot yet: write instead
                long[] r = thinRange(s, plan);
                st.used.set(dev);
                return Command.parse("dd if=/dev/zero of=" + thin + " bs=" + r[1] * 512 + " count=1 seek="
                        + r[0] * 512 + " oflag=direct,seek_bytes");
            }
            long origin = st.used.stream().skip(s.choice(st.used.cardinality() - 1)).findFirst().orElseThrow();
            st.hidden.set(slot);
            return snapshotMessage(plan, id, origin);
        };
    }

    private static Command snapshotMessage(ThinPlan plan, long id, long origin) {
        return Command.parse("dmsetup message " + plan.pool() + " 0 \"create_snap " + id + " " + origin + "\"");
    }

    /** A used device (thin0 while none is used). */
    private static int pickUsed(Source s, ThinState st) {
        if (st.used.isEmpty()) {
            return 0;
        }
        return st.used.stream().skip(s.choice(st.used.cardinality() - 1)).findFirst().orElseThrow();
    }

    /** A used device's id or an existing hidden snapshot's. */
    private static long pickOrigin(Source s, ThinState st) {
        List<Long> ids = new ArrayList<>();
        st.used.stream().forEach(i -> ids.add((long) i));
        st.hidden.stream().forEach(i -> ids.add(FIRST_HIDDEN_THIN_ID + i));
        return ids.get((int) s.choice(ids.size() - 1));
    }

    /** A start and length in sectors: whole blocks (the simplest) or any sectors up to three blocks. */
    private static long[] thinRange(Source s, ThinPlan plan) {
        long bs = plan.blockSectors();
        long virtual = plan.virtualSectors();
        if (!s.bool(0.67)) {
            long blocks = 1 + s.choice(Math.min(3, virtual / bs) - 1);
            long start = s.choice(virtual / bs - blocks) * bs;
            return new long[] {start, blocks * bs};
        }
        long len = 1 + s.biasedChoice(Math.min(3 * bs, virtual) - 1);
        long start = s.biasedChoice(virtual - len);
        return new long[] {start, len};
    }

    private static String ddRead(String device, long start, long len) {
        return "dd if=" + device + " of=/dev/null bs=" + len * 512 + " count=1 skip=" + start * 512
                + " iflag=direct,skip_bytes";
    }

    // ---- workloads

    /**
     * {@code dd} commands on {@code device} of {@code deviceBytes} bytes and {@code logicalBlockSize}-byte
     * sectors: direct or buffered writes or reads of 1–16 blocks of one logical block to 8 MiB at aligned
     * offsets inside the device, parsed from the command line a user would type. Shrinks to one direct
     * 4 KiB write at offset 0.
     */
    public static Gen<Command.Dd> dd(String device, long deviceBytes, long logicalBlockSize) {
        if (deviceBytes < Math.max(4096, logicalBlockSize)) {
            throw new IllegalArgumentException(device + " (" + deviceBytes + " bytes) is too small for dd");
        }
        return s -> {
            int kind = (int) s.choice(3); // direct write, direct read, buffered write, buffered read
            boolean direct = kind < 2;
            boolean write = kind % 2 == 0;
            long unit = direct ? logicalBlockSize : Math.max(4096, logicalBlockSize);
            long maxBs = Math.max(unit, Math.min(8 * MIB, floorPow2(deviceBytes)));
            long bs = s.draw(Gen.frequency(
                    Gen.weighted(3, Gen.powerOfTwo(unit, floorPow2(maxBs), Math.max(unit, Math.min(4096, maxBs)))),
                    Gen.weighted(1, Gen.choose(1, maxBs / unit).map(k -> k * unit))));
            long count = 1 + s.choice(Math.min(15, deviceBytes / bs - 1));
            long offset = s.biasedChoice((deviceBytes - bs * count) / unit) * unit;
            String line = write
                    ? "dd if=/dev/zero of=" + device + " bs=" + bs + " count=" + count + " seek=" + offset
                    + " oflag=" + (direct ? "direct," : "") + "seek_bytes"
                    : "dd if=" + device + " of=/dev/null bs=" + bs + " count=" + count + " skip=" + offset
                    + " iflag=" + (direct ? "direct," : "") + "skip_bytes";
            return (Command.Dd) Command.parse(line);
        };
    }

    /** {@link #dd(String, long, long)} for a device of {@code layout}. */
    public static Gen<Command.Dd> dd(Layout layout, String device) {
        BlockDevice d = layout.device(device);
        return dd(device, d.size().count() * Sectors.SECTOR_SIZE, d.limits().logicalBlockSize());
    }

    /**
     * fio-style jobs on {@code device}: sequential or random (any seed), write, read or mixed (direct only),
     * direct or buffered, 1–64 operations of one logical block (4 KiB buffered) to 1 MiB inside the device.
     * Shrinks to a buffered sequential 4 KiB write at offset 0.
     */
    public static Gen<IoJob> ioJobs(String device, long deviceBytes, long logicalBlockSize) {
        if (deviceBytes < Math.max(4096, logicalBlockSize)) {
            throw new IllegalArgumentException(device + " (" + deviceBytes + " bytes) is too small for a job");
        }
        return s -> {
            boolean direct = s.bool(0.6);
            long unit = direct ? logicalBlockSize : Math.max(4096, logicalBlockSize);
            int op = (int) s.choice(direct ? 2 : 1);
            boolean random = s.bool(0.5);
            long seed = random ? s.choice(-1L) : 0;
            long maxBs = Math.max(unit, Math.min(MIB, floorPow2(deviceBytes)));
            long bs = s.draw(Gen.powerOfTwo(unit, maxBs, Math.max(unit, Math.min(4096, maxBs))));
            long ops = 1 + s.choice(Math.min(63, deviceBytes / bs - 1));
            long size = bs * ops;
            long offset = s.biasedChoice((deviceBytes - size) / unit) * unit;
            IoJob.Builder b = IoJob.builder().target(device).blockSize(bs).size(size).offset(offset).direct(direct);
            if (random) {
                b.random(seed);
            }
            if (op == 0) {
                b.write();
            } else if (op == 1) {
                b.read();
            } else {
                b.mixed((int) (long) s.draw(Gen.choose(0, 100, 50)));
            }
            return b.build();
        };
    }

    /** {@link #ioJobs(String, long, long)} for a device of {@code layout}. */
    public static Gen<IoJob> ioJobs(Layout layout, String device) {
        BlockDevice d = layout.device(device);
        return ioJobs(device, d.size().count() * Sectors.SECTOR_SIZE, d.limits().logicalBlockSize());
    }

    /** Scripts of 1–5 {@link #dd(Layout, String)} commands on {@code device}, then {@code sync}. */
    public static Gen<Script> scripts(Layout layout, String device) {
        return dd(layout, device).listOf(1, 5).map(cmds -> {
            List<Command> all = new ArrayList<>(cmds);
            all.add(Command.parse("sync"));
            return new Script(all);
        });
    }

    // ---- arithmetic

    static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    static long floorPow2(long v) {
        return v <= 0 ? 0 : Long.highestOneBit(v);
    }

    static long ceilPow2(long v) {
        if (v <= 1) {
            return 1;
        }
        long h = Long.highestOneBit(v - 1) << 1;
        return h <= 0 ? -1 : h;
    }
}
