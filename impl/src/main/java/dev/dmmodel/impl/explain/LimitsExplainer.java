package dev.dmmodel.impl.explain;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.OpaqueTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.impl.block.BlockLimits;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.DeviceView;
import dev.dmmodel.impl.dm.DmTableLimits;
import dev.dmmodel.impl.md.MdLimits;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.Derivation.Source;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.LimitField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The derivation of one queue limit of one device of a layout ({@link Layout#explain}): the device's limits are
 * computed again by the same rules that built the layout (a disk's from its spec, a partition's from its disk, an md
 * array's and a dm device's by stacking the devices below as the layout has them), with a {@link Recorder}
 * watching; the steps that set the field become the tree. A value the layout reports that the rules do not give
 * (a sysfs write after creation, libdm's read-ahead, a recorded value of a target the model does not implement) is
 * said to be so, with the rules' value below it.
 */
public final class LimitsExplainer {
    private final Layout layout;
    private final KernelProfile p;
    private final Map<String, Derivation> memo = new HashMap<>();
    private final Map<String, Recorder> recorders = new HashMap<>();
    private final View view = new View();

    private LimitsExplainer(Layout layout) {
        this.layout = layout;
        this.p = layout.profile();
    }

    /** How {@code field} of device {@code name} (a kernel name of the layout) got its value. */
    public static Derivation explain(Layout layout, String name, LimitField field) {
        return new LimitsExplainer(layout).of(layout.device(name).name(), field);
    }

    Derivation of(String name, LimitField f) {
        String key = name + "\u0000" + f;
        Derivation d = memo.get(key);
        if (d == null) {
            d = settle(layout.device(name), f);
            memo.put(key, d);
        }
        return d;
    }

    /** The rules' derivation, and what set the value afterwards where the layout reports another. */
    private Derivation settle(BlockDevice d, LimitField f) {
        long actual = f.valueOf(d.limits());
        Derivation computed;
        try {
            computed = derive(d, f);
        } catch (IllegalArgumentException | ArithmeticException e) {
            return Derivation.leaf(d.name(), f, actual, Source.RECORDED, "as the layout reports it",
                    "the rules could not be re-run here: " + e.getMessage());
        }
        if (computed.value() == actual) {
            return computed;
        }
        if (f == LimitField.MAX_SECTORS_KB) {
            Optional<LayoutStep.SetMaxSectorsKb> w = lastWrite(d.name());
            if (w.isPresent() && w.get().kb() == actual) {
                return new Derivation(d.name(), f, actual, Source.SYSFS_WRITE, "block/blk-sysfs.c: queue_max_sectors_store",
                        "echo " + actual + " > /sys/block/" + d.name() + "/queue/max_sectors_kb (replacing "
                                + computed.value() + ")", List.of(computed));
            }
        }
        if (f == LimitField.READ_AHEAD_KB && d instanceof DmDevice && actual > computed.value()) {
            return new Derivation(d.name(), f, actual, Source.SYSFS_WRITE, "libdm/libdm-deptree.c: _set_dev_node_read_ahead",
                    "raised to " + actual + " KiB by LVM on activation (the LV's read_ahead, at least the stripe's)",
                    List.of(computed));
        }
        return new Derivation(d.name(), f, actual, Source.RECORDED, "as the layout reports it",
                "set after the device was created; the rules give " + computed.value(), List.of(computed));
    }

    private Derivation derive(BlockDevice d, LimitField f) {
        if (d instanceof Disk disk) {
            return disk(disk, f);
        }
        if (d instanceof Partition part) {
            return partition(part, f);
        }
        if (d instanceof MdDevice md) {
            Recorder rec = recorder(md.name(), () -> MdLimits.compute(md.name(), md.spec(), view, p, recorderFor(md.name())));
            return committed(md.name(), f, rec, field -> mdStacked(md, field, rec));
        }
        if (d instanceof DmDevice dm) {
            for (DmTarget t : dm.table().targets()) {
                if (t instanceof OpaqueTarget o && o.limits().isPresent()) {
                    return Derivation.leaf(dm.name(), f, f.valueOf(o.limits().get()), Source.RECORDED,
                            "as the kernel reported it", "target type " + t.type() + " is not modelled: the limits the "
                                    + "kernel reported for " + dm.dmName() + " stand");
                }
            }
            Recorder rec = recorder(dm.name(), () -> DmTableLimits.compute(dm.dmName(), dm.table(), view, p,
                    recorderFor(dm.name())));
            return committed(dm.name(), f, rec, field -> dmStacked(dm, field, rec));
        }
        return Derivation.leaf(d.name(), f, f.valueOf(d.limits()), Source.RECORDED, "as the layout reports it",
                "a device kind the explainer does not know");
    }

    // ---- disks and partitions

    private Derivation disk(Disk disk, LimitField f) {
        Optional<LayoutStep.AddDisk> step = addDisk(disk.name());
        if (step.isEmpty()) {
            return Derivation.leaf(disk.name(), f, f.valueOf(disk.limits()), Source.RECORDED, "as the layout reports it",
                    "the layout has no steps to derive it from");
        }
        Recorder rec = recorders.computeIfAbsent(disk.name(), n -> {
            Recorder r = new Recorder();
            BlockLimits.disk(n, step.get().spec(), p, r);
            return r;
        });
        long hardware = f.valueOf(Limits.of(step.get().spec().limits()).toQueueLimits());
        String desc = step.get().spec().description().isBlank() ? "" : " (" + step.get().spec().description() + ")";
        Derivation node = Derivation.leaf(disk.name(), f, hardware, Source.HARDWARE, driverRule(disk.driver()),
                "as the " + driverName(disk.driver()) + " device reports it" + desc);
        List<Recorder.Note> notes = rec.notes(f);
        for (int i = 0; i < notes.size(); i++) {
            Recorder.Note n = notes.get(i);
            List<Derivation> inputs = new ArrayList<>();
            if (i > 0) {
                inputs.add(node);
            } else if (f == LimitField.MAX_SECTORS_KB && n.source() != Source.RECORDED) {
                inputs.add(of(disk.name(), LimitField.MAX_HW_SECTORS_KB));
                if (n.detail().contains("optimal transfer") || n.detail().contains(", io_opt ")) {
                    inputs.add(of(disk.name(), LimitField.OPTIMAL_IO_SIZE));
                }
            } else if (f == LimitField.READ_AHEAD_KB && n.source() != Source.RECORDED) {
                inputs.addAll(readAheadInputs(disk.name(), n));
            } else if (n.source() != Source.RECORDED) {
                inputs.add(node);
            }
            node = new Derivation(disk.name(), f, n.value(), n.source(), n.rule(), n.detail(), inputs);
        }
        return node;
    }

    private Derivation partition(Partition part, LimitField f) {
        if (f != LimitField.ALIGNMENT_OFFSET) {
            return new Derivation(part.name(), f, f.valueOf(part.limits()), Source.STACKED,
                    "block/partitions/core.c: add_partition", "its disk's queue (" + part.disk() + ")",
                    List.of(of(part.disk(), f)));
        }
        return alignmentAt(part.name(), part.disk(), part.start().count(), f.valueOf(part.limits()),
                "block/blk-settings.c: bdev_alignment_offset", "at its start");
    }

    /** The alignment of {@code owner}'s queue at {@code start}, as bdev_alignment_offset and blk_stack_limits see it. */
    private Derivation alignmentAt(String device, String owner, long start, long value, String rule, String where) {
        BlockDevice o = layout.device(owner);
        long g = o.limits().alignmentGranularity();
        String detail = where + ", sector " + start + " of " + owner + ": (granularity " + g + " + " + owner
                + "'s alignment_offset " + o.limits().alignmentOffset() + " − " + start + " × 512 mod " + g + ") mod " + g
                + (o.limits().misaligned() ? "; " + owner + " is misaligned already (-1)" : "");
        return new Derivation(device, LimitField.ALIGNMENT_OFFSET, value, Source.STACKED, rule, detail,
                List.of(of(owner, LimitField.PHYSICAL_BLOCK_SIZE), of(owner, LimitField.MINIMUM_IO_SIZE),
                        of(owner, LimitField.ALIGNMENT_OFFSET)));
    }

    // ---- stacked devices

    private Recorder recorder(String name, Runnable compute) {
        Recorder r = recorders.get(name);
        if (r == null) {
            recorders.put(name, new Recorder());
            compute.run();
            r = recorders.get(name);
        }
        return r;
    }

    private Recorder recorderFor(String name) {
        return recorders.get(name);
    }

    /** A lower device's contribution to a stack at {@code start} of the queue its I/O goes to. */
    private Derivation input(String device, long start, LimitField f) {
        if (f != LimitField.ALIGNMENT_OFFSET) {
            return of(device, f);
        }
        BlockDevice d = layout.device(device);
        String owner = d instanceof Partition part ? part.disk() : device;
        Limits q = Limits.of(layout.device(owner).limits());
        long value = q.misaligned ? -1 : BlockLimits.alignmentOffsetAt(q, start);
        return alignmentAt(device, owner, start, value, "block/blk-settings.c: queue_limit_alignment_offset",
                "where the stack starts on it");
    }

    /** A field the stacking does not combine under this profile: the stacking default stands. */
    private Optional<Derivation> notStacked(String name, LimitField f, Recorder rec, String op) {
        if (op.equals("not stacked") || op.equals("stacking default")) {
            return Optional.of(Derivation.leaf(name, f, Recorder.value(f, rec.defaults), Source.PROFILE_DEFAULT,
                    "block/blk-settings.c: blk_set_stacking_limits", f.sysfsName() + " is not stacked under " + p.name()
                            + ": the stacking default"));
        }
        return Optional.empty();
    }

    private Derivation dmStacked(DmDevice dm, LimitField f, Recorder rec) {
        String op = BlockLimits.stackingOperator(f, p);
        Optional<Derivation> none = notStacked(dm.name(), f, rec, op);
        if (none.isPresent() && rec.hints.values().stream().allMatch(h -> Recorder.value(f, h.before())
                == Recorder.value(f, h.after()))) {
            return none.get();
        }
        List<DmTarget> targets = dm.table().targets();
        List<Derivation> lines = new ArrayList<>();
        for (int i = 1; i <= targets.size(); i++) {
            DmTarget t = targets.get(i - 1);
            String label = "line " + i + " " + t.type() + (t.devices().isEmpty() ? "" : " → " + String.join(", ",
                    t.devices()));
            List<Recorder.Stacked> areas = rec.line(i);
            Derivation node;
            if (areas.isEmpty()) {
                node = Derivation.leaf(dm.name(), f, Recorder.value(f, rec.defaults), Source.PROFILE_DEFAULT,
                        "block/blk-settings.c: blk_set_stacking_limits", label + ": no device below, the stacking default");
            } else {
                List<Derivation> ins = new ArrayList<>();
                for (Recorder.Stacked a : areas) {
                    ins.add(input(a.device(), a.start(), f));
                }
                node = new Derivation(dm.name(), f, Recorder.value(f, areas.get(areas.size() - 1).after()),
                        Source.STACKED, "drivers/md/dm-table.c: dm_set_device_limits", op + " over " + label, ins);
            }
            Recorder.Change h = rec.hints.get(i);
            if (h != null && Recorder.value(f, h.before()) != Recorder.value(f, h.after())) {
                node = new Derivation(dm.name(), f, Recorder.value(f, h.after()), Source.TARGET_HINTS,
                        hintsRule(t.type()), "io_hints of " + t.type() + ": " + Recorder.value(f, h.before()) + " → "
                                + Recorder.value(f, h.after()), List.of(node));
            }
            lines.add(node);
        }
        long combined = Recorder.value(f, targets.isEmpty() ? rec.defaults : rec.combined.get(targets.size()));
        if (lines.size() == 1 && lines.get(0).value() == combined) {
            Derivation only = lines.get(0);
            if (only.source() == Source.STACKED) {
                return new Derivation(dm.name(), f, combined, Source.STACKED,
                        "drivers/md/dm-table.c: dm_calculate_queue_limits", op + " over its table ("
                                + only.detail().substring(op.length() + " over ".length()) + ")", only.inputs());
            }
            return only;
        }
        return new Derivation(dm.name(), f, combined, Source.STACKED, "drivers/md/dm-table.c: dm_calculate_queue_limits",
                op + " over its table's " + lines.size() + " targets", lines);
    }

    private Derivation mdStacked(MdDevice md, LimitField f, Recorder rec) {
        String op = BlockLimits.stackingOperator(f, p);
        Optional<Derivation> none = notStacked(md.name(), f, rec, op);
        if (none.isPresent() && Recorder.value(f, rec.personality) == Recorder.value(f, rec.defaults)) {
            return none.get();
        }
        List<Derivation> ins = new ArrayList<>();
        long personality = Recorder.value(f, rec.personality);
        String persRule = "drivers/md/" + persFile(md) + ": " + persFile(md).replace(".c", "") + "_set_limits";
        if (personality != Recorder.value(f, rec.defaults)) {
            ins.add(Derivation.leaf(md.name(), f, personality, Source.PERSONALITY, persRule,
                    md.spec().level().toString().toLowerCase(Locale.ROOT) + "'s own setting"));
        }
        for (Recorder.Stacked s : rec.stacked) {
            ins.add(input(s.device(), s.start(), f));
        }
        long stacked = Recorder.value(f, rec.stacked.isEmpty() ? rec.personality
                : rec.stacked.get(rec.stacked.size() - 1).after());
        Derivation node = new Derivation(md.name(), f, stacked, Source.STACKED,
                "drivers/md/md.c: mddev_stack_rdev_limits", op + " over its members at their data offsets", ins);
        Recorder.Change after = rec.afterStacking;
        if (after != null && Recorder.value(f, after.before()) != Recorder.value(f, after.after())) {
            node = new Derivation(md.name(), f, Recorder.value(f, after.after()), Source.PERSONALITY, persRule,
                    "the personality's override after stacking: " + Recorder.value(f, after.before()) + " → "
                            + Recorder.value(f, after.after()), List.of(node));
        }
        return node;
    }

    /** The stacked value, then what the table restrictions, the commit and the read-ahead update did to it. */
    private Derivation committed(String name, LimitField f, Recorder rec, Function<LimitField, Derivation> stacked) {
        Derivation node = stacked.apply(f);
        Recorder.Change r = rec.restricted;
        if (r != null && Recorder.value(f, r.before()) != Recorder.value(f, r.after())) {
            node = new Derivation(name, f, Recorder.value(f, r.after()), Source.COMMIT,
                    "drivers/md/dm-table.c: dm_table_set_restrictions", f == LimitField.WRITE_ZEROES_MAX_BYTES
                            ? "cleared: not every target passes write zeroes down"
                            : "cleared: not every target passes discards down", List.of(node));
        }
        Recorder.Change c = rec.committed;
        List<Recorder.Note> notes = rec.notes(f);
        if (f == LimitField.MAX_SECTORS_KB && p.validateLimitsOnCommit() && !notes.isEmpty()) {
            Recorder.Note n = notes.get(notes.size() - 1);
            List<Derivation> ins = new ArrayList<>();
            ins.add(committed(name, LimitField.MAX_HW_SECTORS_KB, rec, stacked));
            if (n.detail().contains(", io_opt ")) {
                ins.add(committed(name, LimitField.OPTIMAL_IO_SIZE, rec, stacked));
            } else if (n.detail().contains(", io_min ")) {
                ins.add(committed(name, LimitField.MINIMUM_IO_SIZE, rec, stacked));
            }
            node = new Derivation(name, f, n.value(), n.source(), n.rule(), n.detail(), ins);
        } else if (f == LimitField.DISCARD_MAX_BYTES && p.validateLimitsOnCommit() && c != null
                && Recorder.value(f, c.before()) != Recorder.value(f, c.after())) {
            node = new Derivation(name, f, Recorder.value(f, c.after()), Source.COMMIT,
                    "block/blk-settings.c: blk_validate_limits", "max_discard_sectors = min(max_hw_discard_sectors, "
                            + "max_user_discard_sectors) on commit",
                    List.of(committed(name, LimitField.DISCARD_MAX_HW_BYTES, rec, stacked)));
        } else if (c != null && Recorder.value(f, c.before()) != Recorder.value(f, c.after())) {
            node = new Derivation(name, f, Recorder.value(f, c.after()), Source.COMMIT,
                    "block/blk-settings.c: blk_validate_limits", Recorder.value(f, c.before()) + " → "
                            + Recorder.value(f, c.after()) + " on commit", List.of(node));
        }
        if (f == LimitField.READ_AHEAD_KB && !notes.isEmpty()) {
            Recorder.Note n = notes.get(notes.size() - 1);
            List<Derivation> ins = new ArrayList<>();
            if (n.detail().contains("optimal_io_size")) {
                ins.add(committed(name, LimitField.OPTIMAL_IO_SIZE, rec, stacked));
            } else if (n.detail().contains("max_sectors_kb")) {
                ins.add(committed(name, LimitField.MAX_SECTORS_KB, rec, stacked));
            }
            node = new Derivation(name, f, n.value(), n.source(), n.rule(), n.detail(), ins);
        }
        return node;
    }

    private List<Derivation> readAheadInputs(String name, Recorder.Note n) {
        if (n.detail().contains("optimal_io_size")) {
            return List.of(of(name, LimitField.OPTIMAL_IO_SIZE));
        }
        if (n.detail().contains("max_sectors_kb")) {
            return List.of(of(name, LimitField.MAX_SECTORS_KB));
        }
        return List.of();
    }

    // ---- names

    private Optional<LayoutStep.AddDisk> addDisk(String name) {
        if (layout.spec().isEmpty()) {
            return Optional.empty();
        }
        Optional<LayoutStep.AddDisk> found = Optional.empty();
        for (LayoutStep s : layout.spec().get().steps()) {
            if (s instanceof LayoutStep.AddDisk a && (a.name().equals(name)
                    || layout.find(a.name()).map(BlockDevice::name).filter(name::equals).isPresent())) {
                found = Optional.of(a);
            }
        }
        return found;
    }

    private Optional<LayoutStep.SetMaxSectorsKb> lastWrite(String name) {
        Optional<LayoutStep.SetMaxSectorsKb> found = Optional.empty();
        if (layout.spec().isPresent()) {
            for (LayoutStep s : layout.spec().get().steps()) {
                if (s instanceof LayoutStep.SetMaxSectorsKb w
                        && layout.find(w.device()).map(BlockDevice::name).filter(name::equals).isPresent()) {
                    found = Optional.of(w);
                }
            }
        }
        return found;
    }

    private static String driverRule(DiskDriver driver) {
        switch (driver) {
            case SD:
                return "drivers/scsi/sd.c: sd_revalidate_disk";
            case NVME:
                return "drivers/nvme/host/core.c: nvme_update_disk_info";
            case VIRTIO_BLK:
                return "drivers/block/virtio_blk.c: virtblk_probe";
            case LOOP:
                return "drivers/block/loop.c: loop_reconfigure_limits";
            case NULL_BLK:
                return "drivers/block/null_blk/main.c: null_add_dev";
            default:
                return "the device's driver";
        }
    }

    private static String driverName(DiskDriver driver) {
        return driver == DiskDriver.VIRTIO_BLK ? "virtio_blk" : driver.name().toLowerCase(Locale.ROOT);
    }

    private static String hintsRule(String type) {
        switch (type) {
            case "thin-pool":
                return "drivers/md/dm-thin.c: pool_io_hints";
            case "thin":
                return "drivers/md/dm-thin.c: thin_io_hints";
            case "striped":
                return "drivers/md/dm-stripe.c: stripe_io_hints";
            case "crypt":
                return "drivers/md/dm-crypt.c: crypt_io_hints";
            case "cache":
                return "drivers/md/dm-cache-target.c: cache_io_hints";
            case "writecache":
                return "drivers/md/dm-writecache.c: writecache_io_hints";
            case "raid":
                return "drivers/md/dm-raid.c: raid_io_hints";
            case "snapshot":
                return "drivers/md/dm-snap.c: snapshot_io_hints";
            case "multipath":
                return "drivers/md/dm-mpath.c: multipath_io_hints";
            default:
                return "drivers/md/dm-" + type + ".c: io_hints";
        }
    }

    private static String persFile(MdDevice md) {
        switch (md.spec().level()) {
            case RAID0:
                return "raid0.c";
            case RAID1:
                return "raid1.c";
            case RAID10:
                return "raid10.c";
            default:
                return "raid5.c";
        }
    }

    /** The devices below a stack as the layout has them. */
    private final class View implements DeviceView {
        @Override
        public boolean exists(String device) {
            return layout.find(device).isPresent();
        }

        @Override
        public Limits queueLimits(String device) {
            BlockDevice d = layout.device(device);
            return Limits.of(d instanceof Partition part ? layout.device(part.disk()).limits() : d.limits());
        }

        @Override
        public long startSector(String device) {
            return layout.device(device) instanceof Partition part ? part.start().count() : 0;
        }

        @Override
        public long size(String device) {
            return layout.device(device).size().count();
        }

        @Override
        public Optional<ThinPoolTarget> poolTarget(String device) {
            return layout.device(device) instanceof DmDevice dm ? DmTableLimits.poolTarget(dm.table()) : Optional.empty();
        }
    }
}
