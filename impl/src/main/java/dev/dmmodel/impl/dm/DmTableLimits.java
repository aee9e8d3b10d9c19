package dev.dmmodel.impl.dm;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.impl.dm.thin.ThinModel;
import dev.dmmodel.impl.block.BlockLimits;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.LimitsObserver;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limits of a dm device as the kernel sets them when a table is loaded and resumed: stack every
 * target's devices, apply each target's hints, combine the targets, then clear what not every target
 * can pass down and commit ({@code drivers/md/dm-table.c}).
 */
public final class DmTableLimits {
    private static final Logger LOG = LoggerFactory.getLogger(DmTableLimits.class);

    private DmTableLimits() {
    }

    /**
     * The limits of dm device {@code name} with {@code table}.
     *
     * @throws LayoutException for a table the kernel would refuse (unknown device, area beyond a device,
     *     start or boundary not aligned to the logical block size, thin target without a pool)
     */
    // drivers/md/dm-table.c: dm_calculate_queue_limits + dm_table_set_restrictions
    public static Limits compute(String name, DmTable table, DeviceView view, KernelProfile p) {
        return compute(name, table, view, p, LimitsObserver.NONE);
    }

    /** {@link #compute(String, DmTable, DeviceView, KernelProfile)}, each step shown to {@code obs}. */
    public static Limits compute(String name, DmTable table, DeviceView view, KernelProfile p, LimitsObserver obs) {
        boolean watch = obs != LimitsObserver.NONE;
        Limits limits = BlockLimits.stackingDefaults(p);
        if (watch) {
            obs.defaults(limits.copy());
        }
        List<TargetModel> models = new ArrayList<>();
        int line = 0;
        for (DmTarget target : table.targets()) {
            line++;
            TargetModel model = model(name, line, target, view);
            models.add(model);
            Limits ti = BlockLimits.stackingDefaults(p);
            for (TargetModel.DeviceArea area : model.iterateDevices()) {
                checkArea(name, line, area, view);
                // dm-table.c: dm_set_device_limits — stack the device's queue at its start on the whole disk
                long start = view.startSector(area.device()) + area.start();
                if (!BlockLimits.stack(ti, view.queueLimits(area.device()), start, p)) {
                    LOG.debug("{}: device {} has different alignment from the other devices of table line {}",
                            name, area.device(), line);
                }
                if (watch) {
                    obs.stacked(line, area.device(), start, ti.copy());
                }
            }
            Limits beforeHints = watch ? ti.copy() : null;
            model.ioHints(ti, d -> view.exists(d) ? view.queueLimits(d) : null, p);
            if (watch) {
                obs.hinted(line, target.type(), beforeHints, ti.copy());
            }
            for (TargetModel.DeviceArea area : model.iterateDevices()) {
                checkAreaAlignment(name, line, area, ti);
            }
            if (!BlockLimits.stack(limits, ti, 0, p)) {
                LOG.debug("{}: adding target device (start sect {} len {}) caused an alignment inconsistency",
                        name, target.start().count(), target.length().count());
            }
            if (watch) {
                obs.combined(line, limits.copy());
            }
        }
        checkLogicalBlockAlignment(name, table, limits);
        Limits before = watch ? limits.copy() : null;
        setRestrictions(limits, models, table, view, p);
        if (watch) {
            obs.restricted(before, limits.copy());
            before = limits.copy();
        }
        BlockLimits.validateOnCommit(limits, p, obs);
        if (watch) {
            obs.committed(before, limits.copy());
            before = limits.copy();
        }
        BlockLimits.updateReadAhead(limits, p, obs);
        if (watch) {
            obs.readAhead(before, limits.copy());
        }
        // a target the model does not implement has unknown io_hints: the limits the kernel reported stand
        for (DmTarget target : table.targets()) {
            if (target instanceof dev.dmmodel.dm.OpaqueTarget o && o.limits().isPresent()) {
                return Limits.of(o.limits().get());
            }
        }
        return limits;
    }

    private static TargetModel model(String name, int line, DmTarget target, DeviceView view) {
        for (String d : target.devices()) {
            if (!view.exists(d)) {
                throw new LayoutException(name, "table line " + line, d, name + ": table line " + line + " ("
                        + target.type() + "): device " + d + " not found");
            }
        }
        TargetModel model = TargetModel.of(target, view::size);
        try {
            model.checkDevices(view::size, view::queueLimits);
        } catch (IllegalArgumentException e) {
            throw new LayoutException(name, "table line " + line, target.type(), name + ": table line " + line
                    + " (" + target.type() + "): " + e.getMessage());
        }
        if (target instanceof ThinTarget thin) {
            // dm-thin.c: thin_ctr — the pool device must be an active thin-pool
            ThinPoolTarget pool = view.poolTarget(thin.poolDevice()).orElseThrow(() -> new LayoutException(name,
                    "table line " + line, thin.poolDevice(), name + ": table line " + line + " (thin): "
                    + thin.poolDevice() + " is not a thin-pool device (Couldn't get pool mapped device)"));
            ((ThinModel) model).bindPool(pool.blockSectors(), pool.discardEnabled());
        }
        return model;
    }

    // dm-table.c: device_area_is_invalid — the area must lie inside the device
    private static void checkArea(String name, int line, TargetModel.DeviceArea a, DeviceView view) {
        long size = view.size(a.device());
        if (a.start() + a.length() > size || a.start() + a.length() < a.start()) {
            throw new LayoutException(name, "table line " + line, a.device(), name + ": " + a.device()
                    + " too small for target: start=" + a.start() + ", len=" + a.length() + ", dev_size=" + size);
        }
    }

    // dm-table.c: device_area_is_invalid — start and length in whole logical blocks of the device
    private static void checkAreaAlignment(String name, int line, TargetModel.DeviceArea a, Limits ti) {
        long lbs = ti.logicalBlockSize / 512;
        if (a.start() % lbs != 0) {
            throw new LayoutException(name, "table line " + line, Long.toString(a.start()), name + ": start="
                    + a.start() + " not aligned to h/w logical block size " + ti.logicalBlockSize + " of " + a.device());
        }
        if (a.length() % lbs != 0) {
            throw new LayoutException(name, "table line " + line, Long.toString(a.length()), name + ": len="
                    + a.length() + " not aligned to h/w logical block size " + ti.logicalBlockSize + " of " + a.device());
        }
    }

    // dm-table.c: validate_hardware_logical_block_alignment — every target boundary on a logical block
    private static void checkLogicalBlockAlignment(String name, DmTable table, Limits limits) {
        long lbs = limits.logicalBlockSize / 512;
        int line = 0;
        for (DmTarget t : table.targets()) {
            line++;
            if (t.start().count() % lbs != 0 || t.length().count() % lbs != 0) {
                throw new LayoutException(name, "table line " + line, t.start().count() + " " + t.length().count(),
                        name + ": table line " + line + " (start sect " + t.start().count() + " len "
                        + t.length().count() + ") not aligned to h/w logical block size " + limits.logicalBlockSize);
            }
        }
    }

    // dm-table.c: dm_table_set_restrictions — discard and write-zeroes only if every target passes them
    private static void setRestrictions(Limits limits, List<TargetModel> models, DmTable table, DeviceView view,
                                        KernelProfile p) {
        if (!supportsDiscards(models, view)) {
            limits.maxDiscardSectors = 0;
            limits.maxHwDiscardSectors = 0;
            limits.discardGranularity = 0;
            limits.discardAlignment = 0;
        }
        if (!supportsWriteZeroes(models, view)) {
            limits.maxWriteZeroesSectors = 0;
        }
    }

    // dm-table.c: dm_table_supports_discards
    private static boolean supportsDiscards(List<TargetModel> models, DeviceView view) {
        for (TargetModel m : models) {
            if (m.numDiscardBios() == 0) {
                return false;
            }
            if (!m.discardsSupported()) {
                for (TargetModel.DeviceArea a : m.iterateDevices()) {
                    if (view.queueLimits(a.device()).maxDiscardSectors == 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    // dm-table.c: dm_table_supports_write_zeroes
    private static boolean supportsWriteZeroes(List<TargetModel> models, DeviceView view) {
        for (TargetModel m : models) {
            if (m.numWriteZeroesBios() == 0) {
                return false;
            }
            for (TargetModel.DeviceArea a : m.iterateDevices()) {
                if (view.queueLimits(a.device()).maxWriteZeroesSectors == 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether the table's target is a thin-pool (for {@link DeviceView#poolTarget}). */
    public static Optional<ThinPoolTarget> poolTarget(DmTable table) {
        if (table.targets().size() == 1 && table.targets().get(0) instanceof ThinPoolTarget t) {
            return Optional.of(t);
        }
        return Optional.empty();
    }
}
