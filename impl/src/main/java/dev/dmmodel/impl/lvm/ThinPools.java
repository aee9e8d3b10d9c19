package dev.dmmodel.impl.lvm;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.impl.lvm.ExtentAllocator.FreeSpace;
import dev.dmmodel.impl.lvm.ExtentAllocator.Pass;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LVM thin provisioning: {@code lvcreate --type thin-pool} (chunk and metadata size selection, the pool
 * metadata spare, data and metadata placement), {@code lvcreate -V --thinpool} and {@code lvcreate -s} of a
 * thin LV (device ids and transaction ids), and the device-mapper tables LVM loads for pools and thin LVs.
 */
public final class ThinPools {

    private static final Logger LOG = LoggerFactory.getLogger(ThinPools.class);

    /** {@code DM_THIN_MIN_DATA_BLOCK_SIZE}: 64 KiB. */
    static final long MIN_CHUNK = SegmentType.ThinPool.MIN_CHUNK_SECTORS;
    /** {@code DM_THIN_MAX_DATA_BLOCK_SIZE}: 1 GiB. */
    static final long MAX_CHUNK = SegmentType.ThinPool.MAX_CHUNK_SECTORS;
    /** {@code DEFAULT_THIN_POOL_CHUNK_SIZE} (policy generic): 64 KiB. */
    static final long GENERIC_CHUNK = 128;
    /** {@code DEFAULT_THIN_POOL_CHUNK_SIZE_PERFORMANCE}: 512 KiB; also where zeroing starts to cost. */
    static final long PERFORMANCE_CHUNK = 1024;
    /** {@code DEFAULT_THIN_POOL_CHUNK_SIZE_ALIGNED}: 1 MiB, the rounding of large estimated chunks. */
    static final long ALIGNED_CHUNK = 2048;
    /** {@code DEFAULT_THIN_POOL_OPTIMAL_METADATA_SIZE}: 128 MiB. */
    static final long OPTIMAL_METADATA = 262_144;
    /** {@code DEFAULT_THIN_POOL_MIN_METADATA_SIZE}: 2 MiB. */
    static final long MIN_METADATA = 4096;
    /**
     * Largest usable metadata with {@code allocation/thin_pool_crop_metadata=0} (the default since 2.03.12):
     * 255 x (16384 - 64) x 4 KiB = 33,292,800 sectors, about 15.88 GiB.
     */
    static final long MAX_METADATA = 33_292_800;
    /** Largest spare: 16 GiB ({@code handle_pool_metadata_spare}). */
    static final long MAX_SPARE = 33_554_432;
    /** {@code activation/thin_pool_autoextend_threshold} default: 100, autoextend off. */
    static final int AUTOEXTEND_THRESHOLD = 100;

    private static final Pattern LVOL = Pattern.compile("lvol([+-]?\\d{1,9})");

    private ThinPools() {
    }

    /**
     * What {@code update_thin_pool_params} settled on.
     *
     * @param chunkSectors the chunk size
     * @param metadataExtents the metadata LV's extents
     * @param chunkFromPolicy whether the chunk size came from the chunk size policy, so that the data PVs'
     *     I/O hints may still raise it ({@code recalculate_pool_chunk_size_with_dev_hints})
     */
    public record PoolParams(long chunkSectors, long metadataExtents, boolean chunkFromPolicy) {
    }

    /**
     * Chunk and metadata size for a pool of {@code dataExtents} data extents, as
     * {@code update_thin_pool_params} chooses and checks them.
     *
     * @param where the pool ({@code vg/pool}), for messages
     * @param chunkSectors {@code --chunksize}, or 0 to select one
     * @param metadataExtents {@code --poolmetadatasize} in extents, or 0 to estimate
     * @param policy the chunk size policy
     * @param zero whether the pool zeroes new blocks (only for the warning)
     * @throws LayoutException with LVM's message when lvcreate would refuse
     */
    // lib/metadata/thin_manip.c: update_thin_pool_params
    public static PoolParams poolParams(String where, long dataExtents, long extentSize, long chunkSectors,
                                        long metadataExtents, ThinPoolRequest.ChunkPolicy policy, boolean zero) {
        long data = Math.multiplyExact(dataExtents, extentSize);
        long chunk = chunkSectors;
        boolean fromPolicy = false;
        long metadata;
        if (metadataExtents == 0) {
            if (chunk == 0) {
                fromPolicy = true;
                chunk = policy == ThinPoolRequest.ChunkPolicy.GENERIC ? GENERIC_CHUNK : PERFORMANCE_CHUNK;
                metadata = estimateMetadata(data, chunk);
                // a bigger chunk while the estimate exceeds the optimal metadata size
                while (metadata > OPTIMAL_METADATA && chunk < MAX_CHUNK) {
                    chunk <<= 1;
                    metadata >>= 1;
                }
                LOG.debug("Setting chunk size to {}.", DisplaySize.sectors(chunk));
            } else {
                metadata = estimateMetadata(data, chunk);
                if (metadata > MAX_METADATA) {
                    LOG.debug("WARNING: Chunk size is too small for pool, suggested minimum is {}.",
                            DisplaySize.sectors(estimateChunk(data, MAX_METADATA)));
                }
            }
            metadata = roundUp(metadata, extentSize); // silently, to whole extents
        } else {
            metadata = Math.multiplyExact(metadataExtents, extentSize);
            long estimated = estimateChunk(data, metadata);
            if (chunk == 0) {
                chunk = estimated;
                LOG.debug("Setting chunk size {}.", DisplaySize.sectors(chunk));
            } else if (chunk < estimated) {
                LOG.debug("WARNING: Chunk size is smaller then suggested minimum size {}.",
                        DisplaySize.sectors(estimated));
            }
        }
        BigInteger maxData = estimateMaxData(MAX_METADATA, chunk);
        long extents = clampMetadata(metadata, extentSize, metadataExtents != 0);
        // lib/metadata/thin_manip.c: update_thin_pool_params (what the chunk size can address)
        if (maxData.divide(BigInteger.valueOf(extentSize)).compareTo(BigInteger.valueOf(dataExtents)) < 0) {
            throw new LayoutException(where, "chunksize", DisplaySize.sectors(chunk), "Selected chunk size "
                    + DisplaySize.sectors(chunk) + " cannot address more than " + DisplaySize.sectors(maxData)
                    + " of thin pool data space.");
        }
        LOG.debug("Thin pool volume with chunk size {} can address at most {} of data.", DisplaySize.sectors(chunk),
                DisplaySize.sectors(maxData));
        checkChunk(where, chunk);
        if (chunk > data) {
            throw new LayoutException(where, "chunksize", DisplaySize.sectors(chunk),
                    "Size of thin-pool data volume cannot be smaller than chunk size " + DisplaySize.sectors(chunk)
                    + ".");
        }
        if (zero && chunk >= PERFORMANCE_CHUNK) {
            LOG.debug("WARNING: Pool zeroing and {} large chunk size slows down thin provisioning.",
                    DisplaySize.sectors(chunk));
            LOG.debug("WARNING: Consider disabling zeroing (-Zn) or using smaller chunk size (<{}).",
                    DisplaySize.sectors(PERFORMANCE_CHUNK));
        }
        return new PoolParams(chunk, extents, fromPolicy);
    }

    // lib/metadata/thin_manip.c: _estimate_metadata_size (64 bytes of metadata per data chunk)
    static long estimateMetadata(long dataSectors, long chunk) {
        return dataSectors / (chunk * (Sectors.SECTOR_SIZE / 64));
    }

    // lib/metadata/thin_manip.c: _estimate_max_data_size (the data a metadata size can map)
    static BigInteger estimateMaxData(long maxMetadata, long chunk) {
        return BigInteger.valueOf(maxMetadata).multiply(BigInteger.valueOf(chunk))
                .multiply(BigInteger.valueOf(Sectors.SECTOR_SIZE)).divide(BigInteger.valueOf(64));
    }

    // lib/metadata/thin_manip.c: _estimate_chunk_size (beyond 1 MiB a multiple of 1 MiB, else a power of 2)
    static long estimateChunk(long dataSectors, long metadata) {
        long chunk = dataSectors / (metadata * (Sectors.SECTOR_SIZE / 64));
        if (chunk > ALIGNED_CHUNK - 1) {
            chunk = roundUp(chunk, ALIGNED_CHUNK);
        } else if (chunk > 1) {
            chunk = Long.highestOneBit(chunk - 1) << 1;
        }
        return Math.min(Math.max(chunk, MIN_CHUNK), MAX_CHUNK);
    }

    // lib/metadata/pool_manip.c: update_pool_metadata_min_max (both limits rounded up to extents)
    static long clampMetadata(long metadata, long extentSize, boolean given) {
        long max = roundUp(MAX_METADATA, extentSize);
        long min = roundUp(MIN_METADATA, extentSize);
        long size = metadata;
        if (size > max) {
            if (given) {
                LOG.debug("Reducing pool metadata size {} to maximum usable size {}.", DisplaySize.sectors(size),
                        DisplaySize.sectors(max));
            }
            size = max;
        } else if (size < min) {
            if (given) {
                LOG.debug("Extending pool metadata size {} to required minimal size {}.", DisplaySize.sectors(size),
                        DisplaySize.sectors(min));
            }
            size = min;
        }
        return (size + extentSize - 1) / extentSize;
    }

    // lib/metadata/thin_manip.c: validate_thin_pool_chunk_size
    static void checkChunk(String where, long chunk) {
        if (chunk < MIN_CHUNK || chunk > MAX_CHUNK) {
            throw new LayoutException(where, "chunksize", DisplaySize.sectors(chunk), "Thin pool chunk size "
                    + DisplaySize.sectors(chunk) + " is not in the range " + DisplaySize.sectors(MIN_CHUNK) + " to "
                    + DisplaySize.sectors(MAX_CHUNK) + ".");
        }
        if (chunk % MIN_CHUNK != 0) {
            throw new LayoutException(where, "chunksize", DisplaySize.sectors(chunk), "Thin pool chunk size "
                    + DisplaySize.sectors(chunk) + " must be a multiple of " + DisplaySize.sectors(MIN_CHUNK) + ".");
        }
    }

    private static long roundUp(long value, long multiple) {
        return Math.multiplyExact((value + multiple - 1) / multiple, multiple);
    }

    // ---- lvcreate --type thin-pool

    /**
     * Creates thin pool {@code req.name()}: the pool metadata spare first (unless refused), then the data
     * LV {@code <pool>_tdata} with the metadata LV {@code <pool>_tmeta} as the allocator's log area, then
     * the pool (transaction id 0). No LV is active yet: dm device names are empty.
     *
     * @param vg the volume group
     * @param req the request; its PVs must be kernel names
     * @param topology each PV device's topology, for the chunk size hints
     *     ({@code recalculate_pool_chunk_size_with_dev_hints})
     * @return the VG with the spare (if new), the pool, its metadata and data LVs appended in that order
     * @throws LayoutException with LVM's message when lvcreate would refuse
     */
    public static VolumeGroup lvcreateThinPool(VolumeGroup vg, ThinPoolRequest req,
                                               Function<String, PvTopology> topology) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(req, "req");
        Objects.requireNonNull(topology, "topology");
        String name = req.name();
        String where = vg.name() + "/" + name;
        checkPoolName(vg, name, where);
        long extentSize = vg.extentSize().count();
        // tools/toollib.c: get_pool_params (options read before anything is sized)
        long chunk = 0;
        if (req.chunkSize() != null) {
            if (req.chunkSize().count() == 0) {
                throw new LayoutException(where, "chunksize", "0", "--chunksize may not be zero.");
            }
            chunk = sectorsOf(where, "chunksize", req.chunkSize());
            checkChunk(where, chunk);
        }
        long metadataExtents = 0;
        if (req.poolMetadataSize() != null && req.poolMetadataSize().count() != 0) {
            metadataExtents = LvAllocator.extents(where, dataRequest(req, req.poolMetadataSize(), 0), extentSize);
        }
        LvCreateRequest data = dataRequest(req, req.size(), req.extents());
        long dataExtents = LvAllocator.extents(where, data, extentSize);
        long stripeSize = LvAllocator.stripeSize(where, data, extentSize);
        // tools/lvcreate.c: _update_extents_params
        PoolParams params = poolParams(where, dataExtents, extentSize, chunk, metadataExtents, req.chunkPolicy(),
                req.zeroOrDefault());
        int stripes = req.stripes();
        // lib/metadata/lv_manip.c: _lv_create_an_lv (striped length rounded up to whole rows)
        if (dataExtents % stripes != 0) {
            long rounded = Math.multiplyExact((dataExtents + stripes - 1) / stripes, stripes);
            LOG.debug("Rounding size {} ({} extents) up to stripe boundary size {} ({} extents).",
                    DisplaySize.sectors(Math.multiplyExact(dataExtents, extentSize)), dataExtents,
                    DisplaySize.sectors(Math.multiplyExact(rounded, extentSize)), rounded);
            dataExtents = rounded;
        }
        // tools/lvcreate.c: _lvcreate_single (the spare comes before the pool)
        VolumeGroup withSpare = vg;
        if (req.poolMetadataSpare()) {
            withSpare = metadataSpare(vg, params.metadataExtents(), req.pvs());
        } else {
            LOG.debug("WARNING: Recovery of pools without pool metadata spare LV is not automated.");
        }
        AllocationPolicy policy = req.policy() == AllocationPolicy.INHERIT ? withSpare.allocationPolicy()
                : req.policy();
        List<FreeSpace> space = LvAllocator.freeSpace(withSpare, data);
        // tools/lvcreate.c: _lvcreate_params (parallel stripes need distinct PVs)
        if (stripes > space.size() && policy != AllocationPolicy.ANYWHERE) {
            throw new LayoutException(where, "stripes", Integer.toString(stripes), "Number of stripes (" + stripes
                    + ") must not exceed number of physical volumes (" + space.size() + ")");
        }
        // lib/metadata/lv_manip.c: _lv_create_an_lv (VG free space, data only)
        long free = withSpare.freeCount();
        if (free < dataExtents) {
            throw new LayoutException(where, "extents", Long.toString(dataExtents), "Volume group \"" + vg.name()
                    + "\" has insufficient free space (" + free + " extents): " + dataExtents + " required.");
        }
        ExtentAllocator.Result placed = ExtentAllocator.allocateWithLog(name, space, stripes, dataExtents,
                params.metadataExtents(), policy);
        List<LvSegment> dataSegments = LvAllocator.segments(placed.data(), stripeSize);
        List<LvSegment> metaSegments = List.of(new LvSegment(0, params.metadataExtents(), Sectors.ZERO,
                List.of(placed.metadata())));
        chunk = params.chunkFromPolicy()
                ? withDeviceHints(where, params.chunkSectors(), dataSegments, req.chunkPolicy(), topology)
                : params.chunkSectors();

        String tmeta = name + "_tmeta";
        String tdata = name + "_tdata";
        SegmentType.ThinPool pool = new SegmentType.ThinPool(tmeta, tdata, 0, Sectors.of(chunk),
                req.discardsOrDefault(), req.zeroOrDefault());
        Set<LvFlag> flags = req.errorWhenFull() ? EnumSet.of(LvFlag.ERROR_WHEN_FULL) : Set.of();
        List<LogicalVolume> lvs = new ArrayList<>(withSpare.logicalVolumes());
        // lib/metadata/pool_manip.c: create_pool (the pool LV, then _tmeta, then the _tdata layer)
        lvs.add(new LogicalVolume(vg.name(), name, List.of(LvSegment.thinPool(dataExtents, pool)), "",
                LvRole.THIN_POOL, flags));
        lvs.add(new LogicalVolume(vg.name(), tmeta, metaSegments, "", LvRole.THIN_POOL_METADATA, Set.of()));
        lvs.add(new LogicalVolume(vg.name(), tdata, dataSegments, "", LvRole.THIN_POOL_DATA, Set.of()));
        LOG.debug("Logical volume \"{}\" created.", name);
        return replaceLvs(withSpare, lvs);
    }

    // ---- lvconvert --type thin-pool

    /**
     * Converts two existing linear or striped LVs into a thin pool: the data LV {@code req.dataLv()} becomes
     * the pool of that name over {@code <pool>_tdata}, the metadata LV becomes {@code <pool>_tmeta}, the
     * VG's pool metadata spare is created or grown to the metadata LV's size (unless refused) from the PVs or
     * ranges of the request, and the pool starts at transaction id 0. No LV of the result is active.
     *
     * @param vg the volume group
     * @param req the request; its PVs and ranges must name kernel names
     * @param topology each PV device's topology, for the chunk size hints when no chunk size is given
     * @return the VG without the two LVs and with the spare (if new), the pool, its metadata and data LVs
     *     appended in that order
     * @throws LayoutException with LVM's message when lvconvert would refuse
     */
    // tools/lvconvert.c: _lvconvert_to_pool
    public static VolumeGroup lvconvertThinPool(VolumeGroup vg, ThinPoolConvertRequest req,
                                                Function<String, PvTopology> topology) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(req, "req");
        Objects.requireNonNull(topology, "topology");
        String name = req.dataLv();
        String where = vg.name() + "/" + name;
        LogicalVolume data = convertible(vg, name, "data");
        LogicalVolume meta = convertible(vg, req.metadataLv(), "metadata");
        if (data.name().equals(meta.name())) {
            throw new LayoutException(where, "poolmetadata", meta.name(), "Can't use same LV " + where
                    + " for thin pool data and metadata LV.");
        }
        if ((name + "_tmeta").length() > LvmNames.MAX_NAME_CHARS) {
            throw new LayoutException(where, "lv_name", name, "Name of logical volume " + where
                    + " is too long to be a pool name.");
        }
        long extentSize = vg.extentSize().count();
        long metaSectors = Math.multiplyExact(meta.extentCount(), extentSize);
        // lib/metadata/pool_manip.c: update_pool_metadata_min_max (a metadata LV below 2 MiB is refused)
        if (metaSectors < MIN_METADATA) {
            throw new LayoutException(where, "poolmetadata", meta.name(), "Logical volume " + vg.name() + "/"
                    + meta.name() + " is too small (" + DisplaySize.sectors(metaSectors) + ") for metadata. Minimum is "
                    + DisplaySize.sectors(MIN_METADATA) + ".");
        }
        long chunk = 0;
        if (req.chunkSize() != null) {
            if (req.chunkSize().count() == 0) {
                throw new LayoutException(where, "chunksize", "0", "--chunksize may not be zero.");
            }
            chunk = sectorsOf(where, "chunksize", req.chunkSize());
            checkChunk(where, chunk);
        }
        long dataExtents = data.extentCount();
        PoolParams params = poolParams(where, dataExtents, extentSize, chunk, meta.extentCount(), req.chunkPolicy(),
                req.zeroOrDefault());
        chunk = req.chunkSize() == null
                ? withDeviceHints(where, params.chunkSectors(), data.segments(), req.chunkPolicy(), topology)
                : params.chunkSectors();
        String tmeta = name + "_tmeta";
        String tdata = name + "_tdata";
        for (String sub : List.of(tmeta, tdata)) {
            if (vg.logicalVolume(sub).isPresent()) {
                throw new LayoutException(where, "lv_name", sub, "Logical volume \"" + sub
                        + "\" already exists in volume group \"" + vg.name() + "\"");
            }
        }
        // the two LVs leave the VG first: the spare may not take their extents, which stay theirs
        VolumeGroup withSpare = vg;
        if (req.poolMetadataSpare()) {
            withSpare = metadataSpare(vg, meta.extentCount(), req.pvs(), req.pvRanges());
        } else {
            LOG.debug("WARNING: Recovery of pools without pool metadata spare LV is not automated.");
        }
        List<LogicalVolume> lvs = new ArrayList<>(withSpare.logicalVolumes());
        lvs.remove(data);
        lvs.remove(meta);
        SegmentType.ThinPool pool = new SegmentType.ThinPool(tmeta, tdata, 0, Sectors.of(chunk),
                req.discardsOrDefault(), req.zeroOrDefault());
        Set<LvFlag> flags = req.errorWhenFull() ? EnumSet.of(LvFlag.ERROR_WHEN_FULL) : Set.of();
        lvs.add(new LogicalVolume(vg.name(), name, List.of(LvSegment.thinPool(dataExtents, pool)), "",
                LvRole.THIN_POOL, flags));
        lvs.add(new LogicalVolume(vg.name(), tmeta, meta.segments(), "", LvRole.THIN_POOL_METADATA, Set.of()));
        lvs.add(new LogicalVolume(vg.name(), tdata, data.segments(), "", LvRole.THIN_POOL_DATA, Set.of()));
        LOG.debug("Converted {} and {} to thin pool.", where, vg.name() + "/" + meta.name());
        return replaceLvs(withSpare, lvs);
    }

    // tools/lvconvert.c: _lvconvert_to_pool (only plain linear or striped LVs can become pool data/metadata)
    private static LogicalVolume convertible(VolumeGroup vg, String name, String what) {
        String where = vg.name() + "/" + name;
        LogicalVolume lv = vg.logicalVolume(name).orElseThrow(() -> new LayoutException(where, "lvconvert", name,
                "Failed to find logical volume \"" + where + "\""));
        if (lv.role() != LvRole.PUBLIC) {
            throw new LayoutException(where, "lvconvert", lv.role().toString(), "Pool " + what + " LV " + where
                    + " is of an unsupported type (" + lv.role() + ").");
        }
        return lv;
    }

    // tools/lvcreate.c: _check_pool_parameters, and lib/metadata/pool_manip.c: create_pool (sub-LV names)
    private static void checkPoolName(VolumeGroup vg, String name, String where) {
        checkNewName(name, where);
        if (vg.logicalVolume(name).isPresent()) {
            throw new LayoutException(where, "lv_name", name, "Logical volume " + name
                    + " already exists in Volume group " + vg.name() + ".");
        }
        if ((name + "_tmeta").length() > LvmNames.MAX_NAME_CHARS) {
            throw new LayoutException(where, "lv_name", name, "Name of logical volume " + where
                    + " is too long to be a pool name.");
        }
    }

    // tools/toollib.c: validate_lvname_param, with lib/misc/lvm-string.c: apply_lvname_restrictions
    private static void checkNewName(String name, String where) {
        if (LvmNames.invalidReason(name).isPresent()) {
            throw new LayoutException(where, "lv_name", name, "Logical volume name \"" + name + "\" is invalid.");
        }
        Optional<String> reserved = LvmNames.reservedLvName(name);
        if (reserved.isPresent()) {
            throw new LayoutException(where, "lv_name", name, reserved.get());
        }
    }

    // lib/metadata/lv_manip.c: _lv_create_an_lv (name taken)
    private static void checkNameFree(VolumeGroup vg, String name, String where) {
        if (vg.logicalVolume(name).isPresent()) {
            throw new LayoutException(where, "lv_name", name, "Logical Volume \"" + name
                    + "\" already exists in volume group \"" + vg.name() + "\"");
        }
    }

    // tools/lvmcmdline.c: _size_arg (sizes are whole sectors)
    private static long sectorsOf(String where, String option, Bytes size) {
        if (!size.isWholeSectors()) {
            long down = size.count() - size.count() % Sectors.SECTOR_SIZE;
            throw new LayoutException(where, option, size.count() + "B", "Size is not a multiple of 512. Try using "
                    + down + " or " + Math.addExact(down, Sectors.SECTOR_SIZE) + ".");
        }
        return size.count() / Sectors.SECTOR_SIZE;
    }

    // the data LV's size, stripes and PVs as an lvcreate of a striped LV would read them
    private static LvCreateRequest dataRequest(ThinPoolRequest req, Bytes size, long extents) {
        return new LvCreateRequest(req.name(), size, extents, req.stripes(), req.stripeSize(), req.policy(),
                req.pvs(), List.of());
    }

    // lib/metadata/pool_manip.c: recalculate_pool_chunk_size_with_dev_hints (first area of each data segment)
    static long withDeviceHints(String where, long chunk, List<LvSegment> dataSegments,
                                ThinPoolRequest.ChunkPolicy policy, Function<String, PvTopology> topology) {
        long previous = 0;
        long hint = 0;
        for (LvSegment seg : dataSegments) {
            String pv = seg.areas().get(0).pv();
            PvTopology t = topology.apply(pv);
            hint = ioHintSectors(policy == ThinPoolRequest.ChunkPolicy.PERFORMANCE ? t.ioOptBytes() : t.ioMinBytes());
            if (hint == 0) {
                continue;
            }
            if (previous != 0) {
                hint = lcm(previous, hint);
            }
            previous = hint;
        }
        if (hint == 0) {
            LOG.debug("No usable device hint found while recalculating pool chunk size for {}.", where);
        } else if (hint < MIN_CHUNK || hint > MAX_CHUNK) {
            LOG.debug("Calculated chunk size {} for pool {} is out of allowed range ({}-{}).",
                    DisplaySize.sectors(hint), where, DisplaySize.sectors(MIN_CHUNK), DisplaySize.sectors(MAX_CHUNK));
        } else if (hint > chunk) {
            LOG.debug("Updating chunk size {} for pool {} to {}.", DisplaySize.sectors(chunk), where,
                    DisplaySize.sectors(hint));
            return hint;
        }
        return chunk;
    }

    // lib/device/dev-type.c: _dev_topology_attribute (in sectors; not a multiple of 4 KiB becomes 4 KiB)
    private static long ioHintSectors(long bytes) {
        long sectors = bytes / Sectors.SECTOR_SIZE;
        return sectors > 1 && sectors % 8 != 0 ? 8 : sectors;
    }

    private static long lcm(long a, long b) {
        BigInteger x = BigInteger.valueOf(a);
        BigInteger y = BigInteger.valueOf(b);
        return x.divide(x.gcd(y)).multiply(y).longValueExact();
    }

    // lib/metadata/pool_manip.c: handle_pool_metadata_spare
    static VolumeGroup metadataSpare(VolumeGroup vg, long metadataExtents, List<String> pvs) {
        return metadataSpare(vg, metadataExtents, pvs, List.of());
    }

    // lib/metadata/pool_manip.c: handle_pool_metadata_spare, PVs and PE ranges as named on the command line
    static VolumeGroup metadataSpare(VolumeGroup vg, long metadataExtents, List<String> pvs,
                                     List<ExtentRange> ranges) {
        long extentSize = vg.extentSize().count();
        long max = (MAX_SPARE + extentSize - 1) / extentSize;
        long extents = Math.min(metadataExtents, max);
        Optional<LogicalVolume> spare = vg.logicalVolumes().stream()
                .filter(l -> l.role() == LvRole.POOL_METADATA_SPARE).findFirst();
        if (spare.isEmpty()) {
            // lib/metadata/pool_manip.c: _alloc_pool_metadata_spare (an lvolN, renamed lvolN_pmspare)
            String name = generateLvName(vg);
            LOG.debug("Adding new pool metadata spare {} extents.", extents);
            VolumeGroup created = LvAllocator.lvcreate(vg,
                    new LvCreateRequest(name, null, extents, 1, null, AllocationPolicy.INHERIT, pvs, ranges), "");
            List<LogicalVolume> lvs = new ArrayList<>(created.logicalVolumes());
            LogicalVolume lv = lvs.get(lvs.size() - 1);
            lvs.set(lvs.size() - 1, new LogicalVolume(vg.name(), name + "_pmspare", lv.segments(), "",
                    LvRole.POOL_METADATA_SPARE, Set.of()));
            return replaceLvs(created, lvs);
        }
        LogicalVolume lv = spare.get();
        if (lv.extentCount() >= extents) {
            return vg;
        }
        LOG.debug("Extending pool metadata spare from {} to {} extents.", lv.extentCount(), extents);
        List<LvSegment> grown = extendSpare(vg, lv, extents - lv.extentCount(), pvs, ranges);
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        lvs.set(lvs.indexOf(lv), lv.withSegments(grown));
        return replaceLvs(vg, lvs);
    }

    /*
     * lib/metadata/lv_manip.c: lv_extend of the spare, reduced to what matters for a one-stripe LV: the run
     * right after its last extent if it holds the whole extension (contiguous), else a new normal allocation
     * (the allocator here has no cling-to-previous-segment pass).
     */
    private static List<LvSegment> extendSpare(VolumeGroup vg, LogicalVolume lv, long extra, List<String> pvs,
                                               List<ExtentRange> ranges) {
        LvSegment last = lv.segments().get(lv.segments().size() - 1);
        StripeArea area = last.areas().get(0);
        long next = area.startPe() + last.areaLength();
        List<Pass> passes = null;
        for (ExtentRange r : vg.extentTable().freeRanges(area.pv())) {
            boolean named = pvs.isEmpty() && ranges.isEmpty() || pvs.contains(area.pv())
                    || ranges.stream().anyMatch(x -> x.pv().equals(area.pv()) && x.start() <= next
                            && next + extra <= x.end());
            if (r.start() == next && r.count() >= extra && named) {
                passes = List.of(new Pass(extra, List.of(new StripeArea(area.pv(), next))));
            }
        }
        if (passes == null) {
            LvCreateRequest req = new LvCreateRequest(lv.name(), null, extra, 1, null, AllocationPolicy.INHERIT, pvs,
                    ranges);
            passes = ExtentAllocator.allocate(lv.name(), LvAllocator.freeSpace(vg, req), 1, extra,
                    vg.allocationPolicy());
        }
        List<Pass> all = new ArrayList<>();
        for (LvSegment s : lv.segments()) {
            all.add(new Pass(s.areaLength(), s.areas()));
        }
        all.addAll(passes);
        return LvAllocator.segments(all, 0);
    }

    /** The next free {@code lvolN} name: N = 1 + the highest N any LV name starts {@code lvolN} with. */
    // lib/metadata/lv_manip.c: generate_lv_name (sscanf "lvol%d", so lvol0_pmspare counts as 0)
    static String generateLvName(VolumeGroup vg) {
        long high = -1;
        for (LogicalVolume lv : vg.logicalVolumes()) {
            Matcher m = LVOL.matcher(lv.name());
            if (m.lookingAt()) {
                high = Math.max(high, Long.parseLong(m.group(1)));
            }
        }
        return "lvol" + (high + 1);
    }

    private static VolumeGroup replaceLvs(VolumeGroup vg, List<LogicalVolume> lvs) {
        return new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(), lvs, vg.allocationPolicy());
    }

    // ---- lvcreate -V --thinpool and lvcreate -s

    /**
     * Creates a thin volume in an existing pool: the next free device id, the pool's current transaction
     * id, then the pool's transaction id incremented (the queued {@code create} message).
     *
     * @return the VG with the pool updated and the thin LV appended (inactive: empty dm device name)
     * @throws LayoutException with LVM's message when lvcreate would refuse
     */
    public static VolumeGroup lvcreateThin(VolumeGroup vg, ThinLvRequest req) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(req, "req");
        String name = req.name().isEmpty() ? generateLvName(vg) : req.name();
        String where = vg.name() + "/" + name;
        // tools/lvcreate.c: _lvcreate_name_params
        if (name.equals(req.pool())) {
            throw new LayoutException(where, "lv_name", name, "Logical volume name " + name
                    + " and pool name must be different.");
        }
        checkNewName(name, where);
        // tools/lvcreate.c: _read_size_params
        if (req.virtualSize().count() == 0) {
            throw new LayoutException(where, "virtualsize", "0", "--virtualsize may not be zero.");
        }
        LogicalVolume pool = existingPool(vg, req.pool(), where);
        checkNameFree(vg, name, where);
        long extentSize = vg.extentSize().count();
        long extents = LvAllocator.extents(where, new LvCreateRequest(name, req.virtualSize(), 0, 1, null,
                AllocationPolicy.INHERIT, List.of(), List.of()), extentSize);
        long chunk = pool.thinPool().orElseThrow().chunkSize().count();
        // lib/metadata/lv_manip.c: _lv_create_an_lv (a thin LV is a whole number of pool chunks)
        if (chunk > extentSize && Math.multiplyExact(extents, extentSize) % chunk != 0) {
            long rounded = roundUp(Math.multiplyExact(extents, extentSize), chunk) / extentSize;
            LOG.debug("Rounding size ({} extents) up to chunk boundary size ({} extents).", extents, rounded);
            extents = rounded;
        }
        return addThin(vg, pool, name, extents, Optional.empty(), Set.of());
    }

    /**
     * Creates a thin snapshot of a thin volume: a thin LV of the origin's size in the origin's pool, with
     * {@code origin} set and {@code ACTIVATION_SKIP} ({@code activation/auto_set_activation_skip=1}).
     *
     * @return the VG with the pool updated and the snapshot appended (inactive)
     * @throws LayoutException with LVM's message when lvcreate would refuse
     */
    // tools/lvcreate.c: _determine_snapshot_type (no size given: a thin snapshot of a thin origin)
    public static VolumeGroup lvcreateSnapshot(VolumeGroup vg, ThinSnapshotRequest req) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(req, "req");
        LogicalVolume origin = vg.logicalVolume(req.origin()).orElseThrow(() -> new LayoutException(
                vg.name() + "/" + req.origin(), "origin", req.origin(), "Snapshot origin LV " + req.origin()
                + " not found in Volume group " + vg.name() + "."));
        if (origin.thin().isEmpty()) {
            throw new LayoutException(vg.name() + "/" + origin.name(), "origin", origin.name(),
                    "Please specify either size or extents with snapshots.");
        }
        String name = req.name().isEmpty() ? generateLvName(vg) : req.name();
        String where = vg.name() + "/" + name;
        checkNewName(name, where);
        checkNameFree(vg, name, where);
        LogicalVolume pool = vg.logicalVolume(origin.thin().get().pool()).orElseThrow();
        return addThin(vg, pool, name, origin.extentCount(), Optional.of(origin.name()),
                EnumSet.of(LvFlag.ACTIVATION_SKIP));
    }

    /**
     * Removes a thin volume (or an inactive thin snapshot): the LV leaves the metadata and the pool's
     * transaction id is incremented (the queued {@code delete} message). Its origin's other snapshots are
     * untouched: thin snapshots do not depend on their origin.
     *
     * @return the VG without the LV
     * @throws LayoutException with LVM's message when lvremove would refuse
     */
    // tools/lvremove.c -> lib/metadata/lv_manip.c: lv_remove_single, with thin_manip.c: detach_pool_lv (delete)
    public static VolumeGroup lvremoveThin(VolumeGroup vg, String name) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(name, "name");
        String where = vg.name() + "/" + name;
        LogicalVolume lv = vg.logicalVolume(name).orElseThrow(() -> new LayoutException(where, "lv_name", name,
                "Failed to find logical volume \"" + where + "\""));
        SegmentType.Thin thin = lv.thin().orElseThrow(() -> new LayoutException(where, "segtype",
                lv.role().toString(), "lvremove of " + where + " (" + lv.role() + "): only thin volumes are"
                + " removed by the model"));
        LogicalVolume pool = vg.logicalVolume(thin.pool()).orElseThrow();
        SegmentType.ThinPool p = pool.thinPool().orElseThrow();
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        lvs.set(lvs.indexOf(pool), pool.withSegments(List.of(LvSegment.thinPool(pool.extentCount(),
                p.withTransactionId(p.transactionId() + 1)))));
        lvs.remove(lv);
        LOG.debug("Logical volume \"{}\" successfully removed.", name);
        return replaceLvs(vg, lvs);
    }

    private static LogicalVolume existingPool(VolumeGroup vg, String poolName, String where) {
        // tools/lvcreate.c: _check_pool_parameters
        LogicalVolume pool = vg.logicalVolume(poolName).orElseThrow(() -> new LayoutException(where, "thinpool",
                poolName, "Pool " + poolName + " not found in Volume group " + vg.name() + "."));
        if (pool.thinPool().isEmpty()) {
            throw new LayoutException(where, "thinpool", poolName, "Logical volume " + vg.name() + "/" + poolName
                    + " is not a thin pool.");
        }
        return pool;
    }

    // lib/metadata/thin_manip.c: get_free_thin_pool_device_id and attach_thin_pool_message (create)
    private static VolumeGroup addThin(VolumeGroup vg, LogicalVolume pool, String name, long extents,
                                       Optional<String> origin, Set<LvFlag> flags) {
        String where = vg.name() + "/" + name;
        long maxId = 0;
        long thinSectors = 0;
        for (LogicalVolume lv : vg.logicalVolumes()) {
            if (lv.thin().isPresent() && lv.thin().get().pool().equals(pool.name())) {
                maxId = Math.max(maxId, lv.thin().get().deviceId());
                thinSectors = Math.addExact(thinSectors, lv.size(vg.extentSize()).count());
            }
        }
        if (maxId + 1 > SegmentType.Thin.MAX_DEVICE_ID) {
            throw new LayoutException(where, "device_id", Long.toString(maxId + 1), "Cannot find free device_id.");
        }
        SegmentType.ThinPool p = pool.thinPool().orElseThrow();
        SegmentType.Thin thin = new SegmentType.Thin(pool.name(), p.transactionId(), maxId + 1, origin);
        LogicalVolume lv = new LogicalVolume(vg.name(), name, List.of(LvSegment.thin(extents, thin)), "",
                LvRole.THIN_VOLUME, flags);
        List<LogicalVolume> lvs = new ArrayList<>(vg.logicalVolumes());
        lvs.set(lvs.indexOf(pool), pool.withSegments(List.of(LvSegment.thinPool(pool.extentCount(),
                p.withTransactionId(p.transactionId() + 1)))));
        lvs.add(lv);
        warnOverprovisioning(vg, pool, Math.addExact(thinSectors, lv.size(vg.extentSize()).count()));
        LOG.debug("Logical volume \"{}\" created.", name);
        return replaceLvs(vg, lvs);
    }

    // lib/metadata/thin_manip.c: thin_pool_check_overprovisioning (autoextend off by default)
    private static void warnOverprovisioning(VolumeGroup vg, LogicalVolume pool, long thinSectors) {
        long poolSectors = pool.size(vg.extentSize()).count();
        if (thinSectors <= poolSectors) {
            return;
        }
        long vgSectors = Math.multiplyExact(vg.extentCount(), vg.extentSize().count());
        long freeSectors = Math.multiplyExact(vg.freeCount(), vg.extentSize().count());
        String against;
        if (thinSectors > vgSectors) {
            against = " and the size of whole volume group (" + DisplaySize.sectors(vgSectors) + ")";
        } else if (thinSectors > Math.addExact(freeSectors, poolSectors)) {
            against = " and the amount of free space in volume group (" + DisplaySize.sectors(freeSectors) + ")";
        } else {
            against = " (" + DisplaySize.sectors(poolSectors) + ")";
        }
        LOG.debug("WARNING: Sum of all thin volume sizes ({}) exceeds the size of thin pool {}/{}{}.",
                DisplaySize.sectors(thinSectors), vg.name(), pool.name(), against);
        LOG.debug("WARNING: You have not turned on protection against thin pools running out of space.");
        LOG.debug("WARNING: Set activation/thin_pool_autoextend_threshold below 100 to trigger automatic extension "
                + "of thin pools before they get full.");
    }

    // ---- device-mapper tables

    /**
     * The {@code thin-pool} table of a pool: metadata and data devices, chunk size, low water mark and
     * features in LVM's order.
     *
     * @param metadataDevice the {@code _tmeta} LV's device
     * @param dataDevice the {@code _tdata} LV's device
     */
    // libdm/libdm-deptree.c: _thin_pool_emit_segment_line, with lib/thin/thin.c: _thin_pool_add_target_line
    public static DmTable poolTable(VolumeGroup vg, LogicalVolume pool, String metadataDevice, String dataDevice) {
        SegmentType.ThinPool p = pool.thinPool().orElseThrow(() -> new IllegalArgumentException(
                "LV " + pool.name() + " is not a thin pool"));
        Sectors size = pool.size(vg.extentSize());
        long chunk = p.chunkSize().count();
        Set<ThinPoolFeature> features = EnumSet.noneOf(ThinPoolFeature.class);
        if (!p.zeroNewBlocks()) {
            features.add(ThinPoolFeature.SKIP_BLOCK_ZEROING);
        }
        if (p.discards() == ThinDiscards.IGNORE) {
            features.add(ThinPoolFeature.IGNORE_DISCARD);
        } else if (p.discards() == ThinDiscards.NOPASSDOWN) {
            features.add(ThinPoolFeature.NO_DISCARD_PASSDOWN);
        }
        if (pool.hasFlag(LvFlag.ERROR_WHEN_FULL)) {
            features.add(ThinPoolFeature.ERROR_IF_NO_SPACE);
        }
        return new DmTable(List.of(new ThinPoolTarget(Sectors.ZERO, size, metadataDevice, dataDevice, chunk,
                lowWaterMark(size.count(), chunk, AUTOEXTEND_THRESHOLD), features)));
    }

    /**
     * The low water mark in blocks: the blocks left free when usage reaches the autoextend threshold, 0
     * when autoextend is off (threshold 100); thresholds below 50 count as 50.
     */
    // lib/thin/thin.c: _thin_pool_add_target_line
    public static long lowWaterMark(long dataSectors, long chunk, int threshold) {
        if (threshold >= 100) {
            return 0;
        }
        int t = Math.max(threshold, 50);
        return dataSectors / chunk * (100 - t) / 100;
    }

    /** The read-only top device of a used pool: {@code 0 <size> linear <vg-pool-tpool> 0}. */
    // lib/activate/dev_manager.c: _add_layer_target_to_dtree
    public static DmTable poolLayerTable(VolumeGroup vg, LogicalVolume pool, String tpoolDevice) {
        return new DmTable(List.of(new LinearTarget(Sectors.ZERO, pool.size(vg.extentSize()), tpoolDevice,
                Sectors.ZERO)));
    }

    /** The {@code thin} table of a thin LV: {@code 0 <size> thin <tpool> <device_id>}. */
    // libdm/libdm-deptree.c: _thin_emit_segment_line
    public static DmTable thinTable(VolumeGroup vg, LogicalVolume thin, String tpoolDevice) {
        SegmentType.Thin t = thin.thin().orElseThrow(() -> new IllegalArgumentException(
                "LV " + thin.name() + " is not a thin volume"));
        return new DmTable(List.of(new ThinTarget(Sectors.ZERO, thin.size(vg.extentSize()), tpoolDevice,
                t.deviceId(), Optional.empty())));
    }
}
