package dev.dmmodel.impl.dm.multipath;

import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * dm-multipath's model ({@code drivers/md/dm-mpath.c}): which path each I/O takes and what {@code dmsetup status}
 * shows. Every path is always usable (the model has no path failures, so no {@code fail_path}, pg_init or
 * queueing): {@code choose_pgpath} keeps the current group and asks its selector for every I/O, since with no
 * hardware handler the first {@code __switch_pg} clears {@code MPATHF_QUEUE_IO}; the first I/O after the table is
 * loaded switches to the initial group. The selectors' state (the order of their path lists, the in-flight sizes)
 * lives as long as the table, so it carries over from one command to the next as in the kernel.
 */
final class MultipathModel implements TargetModel {

    private final MultipathTarget target;
    private final List<PathSelector.State> selectors = new ArrayList<>();
    /** {@code m->current_pg}: index of the current group, -1 for none. */
    private int currentPg = -1;
    /** {@code m->next_pg}: index of the group to switch to, -1 for none. */
    private int nextPg;
    /** {@code MPATHF_QUEUE_IO}: set by {@code alloc_multipath_stage2}, cleared by the first switch. */
    private boolean queueIo = true;

    MultipathModel(MultipathTarget target) {
        this.target = target;
        for (MultipathTarget.PriorityGroup g : target.groups()) {
            selectors.add(PathSelector.named(g.selector())
                    .newState(g.paths().stream().map(MultipathTarget.Path::selectorArgs).toList()));
        }
        nextPg = target.initialGroup() - 1;
    }

    /** A chosen path: group and path index, and its device. */
    record Choice(int group, int path, String device) {
    }

    /** The model's target. */
    MultipathTarget target() {
        return target;
    }

    // dm-mpath.c: choose_pgpath — the current group's selector first, else the next group, else the groups in order
    Choice choose(long nrBytes) {
        if (target.groups().isEmpty()) {
            return null;
        }
        if (currentPg >= 0) {
            Choice c = inGroup(currentPg, nrBytes);
            if (c != null) {
                return c;
            }
        }
        if (nextPg >= 0) {
            int pg = nextPg;
            nextPg = -1;
            Choice c = inGroup(pg, nrBytes);
            if (c != null) {
                return c;
            }
        }
        for (int pg = 0; pg < selectors.size(); pg++) {
            Choice c = inGroup(pg, nrBytes);
            if (c != null) {
                return c;
            }
        }
        currentPg = -1;
        return null;
    }

    // dm-mpath.c: choose_path_in_pg — the selector's path; a new group is switched to (__switch_pg)
    private Choice inGroup(int pg, long nrBytes) {
        int p = selectors.get(pg).select(nrBytes);
        if (p < 0) {
            return null;
        }
        if (currentPg != pg) {
            currentPg = pg;
            // __switch_pg: QUEUE_IO and PG_INIT_REQUIRED stay set only with a hardware handler; pg_init (the
            // handler's activation) is not modelled, so the path is used at once either way
            queueIo = false;
        }
        return new Choice(pg, p, target.groups().get(pg).paths().get(p).device());
    }

    /** {@code start_io} on the chosen path's selector. */
    void startIo(Choice c, long nrBytes) {
        selectors.get(c.group()).startIo(c.path(), nrBytes);
    }

    /** {@code end_io} on the chosen path's selector ({@code multipath_end_io}, {@code multipath_end_io_bio}). */
    void endIo(Choice c, long nrBytes) {
        selectors.get(c.group()).endIo(c.path(), nrBytes);
    }

    // dm-mpath.c: multipath_iterate_devices — every path of every group, over the target's own range
    @Override
    public List<DeviceArea> iterateDevices() {
        return target.devices().stream()
                .map(d -> new DeviceArea(d, target.start().count(), target.length().count())).toList();
    }

    // dm-mpath.c has no io_hints: the limits are the paths' stacked ones
    @Override
    public void ioHints(Limits limits, Function<String, Limits> deviceLimits, KernelProfile profile) {
    }

    // dm-mpath.c: multipath_ctr — num_discard_bios = num_write_zeroes_bios = 1
    @Override
    public int numDiscardBios() {
        return 1;
    }

    @Override
    public boolean discardsSupported() {
        return false;
    }

    @Override
    public int numWriteZeroesBios() {
        return 1;
    }

    @Override
    public boolean requestBased() {
        return target.queueMode() == MultipathTarget.QueueMode.REQUEST_BASED;
    }

    // dm-mpath.c: multipath_map_bio (queue_mode bio) — the bio goes whole to the chosen path at the same sector
    // (bio_set_dev); end_io is run when the original bio completes
    @Override
    public MapResult map(MapContext ctx, Bio bio, Bio clone, long offset) {
        long bytes = clone.sectors * 512;
        Choice c = choose(bytes);
        if (c == null) {
            ctx.block().fail(clone, ctx.device() + ": no usable path for I/O at sector " + clone.sector
                    + " (multipath_map_bio: DM_MAPIO_KILL)");
            return MapResult.SUBMITTED;
        }
        startIo(c, bytes);
        clone.device = c.device();
        Runnable before = bio.endIo;
        bio.endIo = () -> {
            endIo(c, bytes);
            if (before != null) {
                before.run();
            }
        };
        return MapResult.REMAPPED;
    }

    // dm-mpath.c: __send_empty_flush gives multipath one flush clone (num_flush_bios = 1), which multipath_map_bio
    // sends to the path it chooses
    @Override
    public List<DeviceArea> flushAreas() {
        Choice c = choose(0);
        return c == null ? List.of() : List.of(new DeviceArea(c.device(), target.start().count(),
                target.length().count()));
    }

    // dm-mpath.c: multipath_clone_and_map — the chosen path for the request's bytes; start_io; multipath_end_io
    // runs end_io when the clone completes
    @Override
    public RqMapping cloneAndMapRq(MapContext ctx, long sector, long bytes) {
        Choice c = choose(bytes);
        if (c == null) {
            return null;
        }
        startIo(c, bytes);
        return new RqMapping(c.device(), () -> endIo(c, bytes));
    }

    // dm-mpath.c: multipath_status (STATUSTYPE_INFO) with rr_status / st_status / ql_status
    @Override
    public String status(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder();
        sb.append("2 ").append(queueIo ? 1 : 0).append(" 0 0 ").append(target.groups().size()).append(' ');
        int pgNum = currentPg >= 0 ? currentPg + 1 : nextPg >= 0 ? nextPg + 1 : target.groups().isEmpty() ? 0 : 1;
        sb.append(pgNum);
        for (int g = 0; g < target.groups().size(); g++) {
            MultipathTarget.PriorityGroup pg = target.groups().get(g);
            PathSelector.State s = selectors.get(g);
            sb.append(' ').append(g == currentPg ? 'A' : 'E').append(" 0 ").append(pg.paths().size()).append(' ')
                    .append(s.type.infoArgs);
            for (int p = 0; p < pg.paths().size(); p++) {
                sb.append(' ').append(fmt.apply(pg.paths().get(p).device())).append(" A 0").append(s.info(p));
            }
        }
        return sb.toString();
    }
}
