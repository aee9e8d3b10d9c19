package dev.dmmodel.impl.plan.kickstart;

import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.Chunk;
import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.Grow;
import dev.dmmodel.impl.plan.kickstart.KsRequests.LogVol;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * blivet's sizes of a new volume group and its logical volumes (blivet/devices/lvm.py: LVMVolumeGroupDevice
 * size, free_space, reserved_space, pmspare_size; blivet/partitioning.py: grow_lvm, VGChunk, LVRequest). Pure: PV
 * sizes and requests in, sizes in bytes out, or blivet's error message.
 */
final class BlivetLvm {

    /** blivet/devicelibs/lvm.py: LVM_PE_START — the data start blivet assumes on every new PV. */
    static final long PE_START = 1L << 20;

    private static final long MIB = 1L << 20;
    private static final long KIB = 1L << 10;

    private BlivetLvm() {
    }

    /** An LV's sizes: data, and for a thin pool its metadata and chunk size. */
    record Sized(long bytes, long metadataBytes, long chunkBytes) {
    }

    /** What blivet decided for one VG. */
    record VgSizes(long sizeBytes, long extents, long peBytes, Map<LogVol, Sized> lvs) {
    }

    /** blivet's DeviceError or PartitioningError, with its message. */
    static final class LvmError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LvmError(String message) {
            super(message);
        }
    }

    // LVMVolumeGroupDevice.align: a multiple of the extent size, down unless asked up
    static long align(long bytes, long pe, boolean up) {
        long down = Math.floorDiv(bytes, pe) * pe;
        return up && down != bytes ? Math.addExact(down, pe) : down;
    }

    /** The mutable LV state while blivet sizes it. */
    private static final class Lv {
        final LogVol req;
        long size;
        long metadata;
        long chunk;

        Lv(LogVol req, long size) {
            this.req = req;
            this.size = size;
        }

        // LVMLogicalVolumeBase.vg_space_used: data rounded up to extents plus metadata; thin LVs use none
        long vgSpaceUsed(long pe) {
            if (req.thin()) {
                return 0;
            }
            return Math.addExact(align(size, pe, true), metadata);
        }
    }

    /**
     * Sizes a VG's LVs as anaconda's kickstart run does: each logvol added (refused when it does not fit), then
     * grow_lvm.
     *
     * @param pvBytes the sizes of the VG's PV devices
     * @param lvs the VG's logvol lines in file order
     * @throws LvmError with blivet's message
     */
    static VgSizes size(String vg, List<Long> pvBytes, long peBytes, long reservedMiB, long reservedPercent,
                        List<LogVol> lvs) {
        long size = 0;
        for (long pv : pvBytes) {
            // LVMVolumeGroupDevice._get_pv_usable_space: the device less pe_start, down to extents
            size = Math.addExact(size, Math.max(0, align(pv - PE_START, peBytes, false)));
        }
        long extents = size / peBytes;
        List<Lv> all = new ArrayList<>();
        for (LogVol r : lvs) {
            long bytes = r.percent() > 0 ? 0 : Math.multiplyExact(r.sizeMiB(), MIB);
            Lv lv = new Lv(r, r.thin() ? align(bytes, peBytes, false) : bytes);
            if (r.thinPool() && r.metadataMiB() > 0) {
                lv.metadata = align(Math.multiplyExact(r.metadataMiB(), MIB), peBytes, true);
            }
            if (r.thinPool() && r.chunkKiB() > 0) {
                lv.chunk = Math.multiplyExact(r.chunkKiB(), KIB);
            }
            // LVMVolumeGroupDevice._add_log_vol: a new LV must fit the free space (thin LVs are not checked)
            if (!r.thin()) {
                long free = free(size, peBytes, reservedMiB, reservedPercent, all);
                if (lv.size > free) {
                    throw new LvmError("new lv is too large to fit in free space: volume group " + vg + " has "
                            + mib(Math.max(free, 0)) + " free, logvol " + r.name() + " needs " + mib(lv.size));
                }
            }
            all.add(lv);
        }
        // grow_lvm
        long totalFree = free(size, peBytes, reservedMiB, reservedPercent, all);
        if (totalFree < 0) {
            throw new LvmError("not enough space for LVM requests");
        }
        List<Lv> fat = all.stream().filter(l -> !l.req.thin()).toList();
        if (totalFree > 0) {
            long freeExtents = totalFree / peBytes;
            long percentBase = 0;
            for (Lv l : fat) {
                if (l.req.percent() > 0) {
                    percentBase += align(l.size, peBytes, false) / peBytes;
                }
            }
            long basis = freeExtents + percentBase;
            for (Lv l : fat) {
                if (l.req.percent() > 0) {
                    // int(lv.req_percent * Decimal('0.01') * percentage_basis)
                    long e = new BigDecimal(l.req.percent()).multiply(new BigDecimal("0.01"))
                            .multiply(new BigDecimal(basis), BlivetPartitioning.PY_DECIMAL)
                            .setScale(0, RoundingMode.DOWN).longValueExact();
                    l.size = Math.multiplyExact(e, peBytes);
                }
            }
            // VGChunk: the VG's extents less the reserved space; LVRequest: base = size rounded up to extents
            long reserved = reserved(size, peBytes, reservedMiB, reservedPercent, all);
            Chunk chunk = new Chunk(extents - reserved / peBytes) {
                @Override
                void sort() {
                    List<Grow> s = BlivetPartitioning.pythonSort(requests, BlivetLvm::lvCompare);
                    requests.clear();
                    requests.addAll(s);
                }
            };
            for (Lv l : fat) {
                long base = align(l.size, peBytes, true) / peBytes;
                boolean limited = l.req.grow() && l.req.maxMiB() > 0;
                long maxGrowth = limited ? align(Math.multiplyExact(l.req.maxMiB(), MIB), peBytes, false) / peBytes
                        - base : 0;
                chunk.add(new Grow(l, base, l.req.grow(), limited, maxGrowth, 0, 0, false),
                        align(l.metadata, peBytes, true) / peBytes);
            }
            chunk.grow();
            for (Grow g : chunk.requests) {
                Lv l = (Lv) g.key;
                if (l.req.grow()) {
                    // _apply_chunk_growth, then the size setter rounds to extents (down for a growable LV)
                    l.size = Math.multiplyExact(g.base + g.growth, peBytes);
                }
            }
        }
        for (Lv pool : fat) {
            if (pool.req.thinPool() && pool.metadata == 0) {
                autosetMetadata(pool, all, peBytes);
            }
        }
        Map<LogVol, Sized> out = new LinkedHashMap<>();
        for (Lv l : all) {
            out.put(l.req, new Sized(l.size, l.metadata, l.chunk));
        }
        return new VgSizes(size, extents, peBytes, out);
    }

    // LVMThinPoolMixin.autoset_md_size: the recommended chunk size, libblockdev's metadata size rounded up to
    // extents, taken from the pool with the pmspare LV's growth
    private static void autosetMetadata(Lv pool, List<Lv> all, long pe) {
        if (pool.size <= 0) {
            return;
        }
        if (pool.chunk == 0) {
            // blivet/devicelibs/lvm.py: recommend_thpool_chunk_size — 64 KiB per 15.88 TiB, at most 1 GiB
            long steps = BlivetPartitioning.ceilDiv(pool.size, 17455015526400L);
            pool.chunk = Math.min(Math.multiplyExact(steps, 64 * KIB), 1L << 30);
        }
        long oldSpare = pmspare(all);
        // libblockdev lvm-common.c: bd_lvm_get_thpool_meta_size — 64 * size / chunk, within [4 MiB, the dm-thin
        // maximum (DM_THIN_MAX_METADATA_SIZE sectors)]
        long md = Math.multiplyExact(64, pool.size) / pool.chunk;
        long max = (255L * (1 << 14) * 8 - 256 * 1024) * 512;
        md = Math.max(4 * MIB, Math.min(md, max));
        md = align(md, pe, true);
        pool.metadata = md;
        long newSpare = pmspare(all);
        pool.size = align(pool.size - md - (newSpare - oldSpare), pe, false);
    }

    // LVMVolumeGroupDevice.pmspare_size: the largest metadata LV
    private static long pmspare(List<Lv> all) {
        long m = 0;
        for (Lv l : all) {
            m = Math.max(m, l.metadata);
        }
        return m;
    }

    // LVMVolumeGroupDevice.reserved_space: --reserved-percent of the VG or --reserved-space, plus the pmspare LV,
    // rounded up to extents
    private static long reserved(long size, long pe, long reservedMiB, long percent, List<Lv> all) {
        long r = 0;
        if (percent > 0) {
            r = new BigDecimal(percent).multiply(new BigDecimal("0.01")).multiply(new BigDecimal(size))
                    .setScale(0, RoundingMode.DOWN).longValueExact();
        } else if (reservedMiB > 0) {
            r = Math.multiplyExact(reservedMiB, MIB);
        }
        r = Math.addExact(r, pmspare(all));
        return align(r, pe, true);
    }

    // LVMVolumeGroupDevice.free_space
    private static long free(long size, long pe, long reservedMiB, long percent, List<Lv> all) {
        long used = 0;
        for (Lv l : all) {
            used = Math.addExact(used, l.vgSpaceUsed(pe));
        }
        return size - used - reserved(size, pe, reservedMiB, percent, all);
    }

    // blivet/partitioning.py: lv_compare (larger first, fixed before growable)
    private static int lvCompare(Grow a, Grow b) {
        Lv x = (Lv) a.key;
        Lv y = (Lv) b.key;
        int ret = 0;
        ret -= Long.compare(x.size, y.size) * 100;
        ret += Boolean.compare(x.req.grow(), y.req.grow()) * 50;
        if (x.req.grow() && y.req.grow()) {
            if (x.req.maxMiB() == 0 && y.req.maxMiB() != 0) {
                ret -= 25;
            } else if (x.req.maxMiB() != 0 && y.req.maxMiB() == 0) {
                ret += 25;
            } else {
                ret -= Long.compare(x.req.maxMiB(), y.req.maxMiB()) * 25;
            }
        }
        return Integer.signum(ret);
    }

    static String mib(long bytes) {
        return bytes % MIB == 0 ? (bytes / MIB) + " MiB" : bytes + " B";
    }
}
