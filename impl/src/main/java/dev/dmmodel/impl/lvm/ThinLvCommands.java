package dev.dmmodel.impl.lvm;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What LVM's thin commands do to a running host, with the messages LVM prints: {@code lvcreate -V -T} and
 * {@code lvcreate -s} of a thin LV, and {@code lvremove} of thin LVs ({@code tools/lvcreate.c},
 * {@code tools/lvremove.c}, {@code lib/metadata/thin_manip.c}). The new metadata comes from {@link ThinPools};
 * the kernel side (pool messages, dm devices) from the {@link Host} the engine gives.
 */
public final class ThinLvCommands {

    /** LVM's exit code for a failed command ({@code ECMD_FAILED}). */
    static final int ECMD_FAILED = 5;

    /** What LVM asks of the host it runs on. */
    public interface Host {
        /** The volume group as its metadata says now. */
        Optional<VolumeGroup> volumeGroup(String name);

        /** Commits a volume group's new metadata ({@code vg_write}, {@code vg_commit}). */
        void commit(VolumeGroup vg);

        /** The kernel name of the dm device {@code /dev/mapper/<dmName>}, if it exists. */
        Optional<String> dmDevice(String dmName);

        /** Whether the dm device (a kernel name) exists now. */
        boolean active(String device);

        /** Whether the device's table holds a {@code thin-pool} target. */
        boolean holdsThinPool(String device);

        /** The pool's transaction id ({@code dmsetup status}'s first field). */
        long transactionId(String pool);

        /**
         * {@code dmsetup message <pool> 0 <args>}.
         *
         * @throws IllegalArgumentException or {@link IllegalStateException} when the pool refuses it
         */
        void poolMessage(String pool, List<String> args);

        /** Loads and resumes a new dm device at the lowest free minor ({@code dm.c: next_free_minor}). */
        DmDevice activate(String dmName, String uuid, DmTable table);

        /**
         * Deactivates an LV's device ({@code DM_DEV_REMOVE} after its last close has written back its cache), or
         * says why it cannot be: LVM's message when it holds a mounted filesystem or another device uses it.
         */
        Optional<String> removeDevice(String device, String vgLv);
    }

    private ThinLvCommands() {
    }

    /*
     * lib/metadata/thin_manip.c: a thin snapshot is the pool message "create_snap NEW ORIGIN" and a transaction id
     * step; the snapshot LV is flagged ACTIVATION_SKIP, so no device appears.
     */
    /** {@code lvcreate -s VG/THIN -n NAME}. */
    public static CommandResult lvcreateSnapshot(Host host, Command.LvcreateSnapshot s) {
        Objects.requireNonNull(host, "host");
        String vgName = s.origin().substring(0, s.origin().indexOf('/'));
        String lvName = s.origin().substring(s.origin().indexOf('/') + 1);
        VolumeGroup vg = host.volumeGroup(vgName).orElse(null);
        if (vg == null) {
            return failed(s, "", "Volume group \"" + vgName + "\" not found");
        }
        VolumeGroup updated;
        try {
            updated = ThinPools.lvcreateSnapshot(vg, new ThinSnapshotRequest(lvName, s.name()));
        } catch (LayoutException e) {
            return failed(s, "", e.getMessage());
        }
        LogicalVolume snap = updated.logicalVolumes().get(updated.logicalVolumes().size() - 1);
        SegmentType.Thin thin = snap.thin().orElseThrow();
        long originId = vg.logicalVolume(lvName).orElseThrow().thin().orElseThrow().deviceId();
        String pool = poolDevice(host, vgName, thin.pool()).orElse(null);
        if (pool == null) {
            return failed(s, "", "Thin pool " + vgName + "/" + thin.pool() + " is not active in the model: the"
                    + " snapshot needs its pool's metadata");
        }
        Optional<String> refused = poolMessage(host, pool, "create_snap", Long.toString(thin.deviceId()),
                Long.toString(originId));
        if (refused.isPresent()) {
            return failed(s, "", refused.get());
        }
        host.commit(updated);
        return new CommandResult(s, 0, "  Logical volume \"" + snap.name() + "\" created.", 0);
    }

    /*
     * tools/lvcreate.c (-V -T): LVM queues "create_thin ID" with the transaction id step, then activates the LV: a
     * new dm device "vg-lv" with the table "thin <tpool> ID" (libdm: _thin_emit_segment_line).
     */
    /** {@code lvcreate -V SIZE -T VG/POOL -n NAME}. */
    public static CommandResult lvcreateThin(Host host, Command.LvcreateThin c) {
        Objects.requireNonNull(host, "host");
        VolumeGroup vg = host.volumeGroup(c.volumeGroup()).orElse(null);
        if (vg == null) {
            return failed(c, "", "Volume group \"" + c.volumeGroup() + "\" not found");
        }
        VolumeGroup updated;
        try {
            updated = ThinPools.lvcreateThin(vg, new ThinLvRequest(c.name(), c.virtualSize(), c.pool()));
        } catch (LayoutException e) {
            return failed(c, "", e.getMessage());
        }
        LogicalVolume lv = updated.logicalVolumes().get(updated.logicalVolumes().size() - 1);
        String tpoolName = LogicalVolume.dmName(vg.name(), c.pool(), "tpool");
        String tpool = host.dmDevice(tpoolName).orElse(null);
        if (tpool == null) {
            // lib/activate/dev_manager.c: the first thin LV of a fresh pool relayers it as vg-pool-tpool
            throw new UnsupportedOperationException("the engine does not model relayering thin pool " + vg.name()
                    + "/" + c.pool() + " (no " + tpoolName + " device) for '" + c.line() + "' yet");
        }
        Optional<String> refused = poolMessage(host, tpool, "create_thin",
                Long.toString(lv.thin().orElseThrow().deviceId()));
        if (refused.isPresent()) {
            return failed(c, "", refused.get());
        }
        DmDevice dm = host.activate(lv.dmName(), LvTables.dmUuid(vg.name(), lv.name()),
                ThinPools.thinTable(updated, lv, tpool));
        List<LogicalVolume> lvs = new ArrayList<>(updated.logicalVolumes());
        lvs.set(lvs.size() - 1, lv.withDmDevice(dm.name()));
        host.commit(new VolumeGroup(updated.name(), updated.extentSize(), updated.physicalVolumes(), lvs,
                updated.allocationPolicy()));
        return new CommandResult(c, 0, "  Logical volume \"" + lv.name() + "\" created.", 0);
    }

    /*
     * tools/lvremove.c: an active LV is deactivated (its dm device removed) after the question LVM asks unless -y
     * or -f is given; a thin LV's removal queues "delete ID" with the transaction id step.
     */
    /** {@code lvremove [-y] VG/LV...} of thin LVs, one after the other as LVM processes them. */
    public static CommandResult lvremove(Host host, Command.Lvremove r) {
        Objects.requireNonNull(host, "host");
        StringBuilder out = new StringBuilder();
        for (String vgLv : r.logicalVolumes()) {
            String vgName = vgLv.substring(0, vgLv.indexOf('/'));
            String lvName = vgLv.substring(vgLv.indexOf('/') + 1);
            VolumeGroup vg = host.volumeGroup(vgName).orElse(null);
            if (vg == null) {
                return failed(r, out, "Volume group \"" + vgName + "\" not found");
            }
            LogicalVolume lv = vg.logicalVolume(lvName).orElse(null);
            if (lv == null) {
                return failed(r, out, "Failed to find logical volume \"" + vgLv + "\"");
            }
            if (lv.thin().isEmpty()) {
                throw new UnsupportedOperationException("the engine does not model removing " + vgLv + " ("
                        + lv.role() + ") in '" + r.line() + "' yet: only thin volumes");
            }
            String device = lv.dmDevice().isEmpty() || !host.active(lv.dmDevice()) ? null : lv.dmDevice();
            if (device != null && !r.assumeYes()) {
                // lib/misc/lvm-wrappers.c: yes_no_prompt reads end of file as "no"
                return new CommandResult(r, ECMD_FAILED, out + "Do you really want to remove active logical volume "
                        + vgLv + "? [y/n]: \n  Logical volume " + lvName + " not removed.", 0);
            }
            VolumeGroup updated;
            try {
                updated = ThinPools.lvremoveThin(vg, lvName);
            } catch (LayoutException e) {
                return failed(r, out, e.getMessage());
            }
            String pool = poolDevice(host, vgName, lv.thin().get().pool()).orElse(null);
            if (pool == null) {
                return failed(r, out, "Thin pool " + vgName + "/" + lv.thin().get().pool() + " is not active in the"
                        + " model: the removal needs its pool's metadata");
            }
            if (device != null) {
                Optional<String> busy = host.removeDevice(device, vgLv);
                if (busy.isPresent()) {
                    return failed(r, out, busy.get());
                }
            }
            Optional<String> refused = poolMessage(host, pool, "delete",
                    Long.toString(lv.thin().get().deviceId()));
            if (refused.isPresent()) {
                return failed(r, out, refused.get());
            }
            host.commit(updated);
            out.append("  Logical volume \"").append(lvName).append("\" successfully removed.\n");
        }
        return new CommandResult(r, 0, out.toString().stripTrailing(), 0);
    }

    /** The kernel name of the device holding a pool LV's thin-pool target (vg-pool-tpool, or vg-pool). */
    private static Optional<String> poolDevice(Host host, String vgName, String poolName) {
        for (String dmName : List.of(LogicalVolume.dmName(vgName, poolName, "tpool"),
                LogicalVolume.dmName(vgName, poolName))) {
            Optional<String> d = host.dmDevice(dmName).filter(host::holdsThinPool);
            if (d.isPresent()) {
                return d;
            }
        }
        return Optional.empty();
    }

    // lib/metadata/thin_manip.c: attach_pool_message + update_pool_lv — each change is one pool message and a
    // transaction id step ("set_transaction_id OLD OLD+1"); what the pool refuses is LVM's ioctl failure
    private static Optional<String> poolMessage(Host host, String pool, String... message) {
        try {
            long tid = host.transactionId(pool);
            host.poolMessage(pool, List.of(message));
            host.poolMessage(pool, List.of("set_transaction_id", Long.toString(tid), Long.toString(tid + 1)));
            return Optional.empty();
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Optional.of("device-mapper: message ioctl on " + pool + " failed: " + e.getMessage());
        }
    }

    private static CommandResult failed(Command c, CharSequence before, String message) {
        return new CommandResult(c, ECMD_FAILED, before + "  " + message, 0);
    }
}
