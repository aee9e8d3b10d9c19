package dev.dmmodel.impl.lvm;

import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.CowSnapshotRequest;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code lvcreate -s -L} writes to a volume group's metadata for a classic (copy-on-write) snapshot
 * ({@code tools/lvcreate.c}, {@code lib/metadata/snapshot_manip.c}): the COW store, allocated like a linear LV of the
 * requested size (no larger than a copy of the whole origin needs), and the hidden {@code snapshotN} LV whose one
 * {@code snapshot} segment ties the origin to it. Activation is the caller's ({@code dev.dmmodel.impl.LvmSteps}).
 */
public final class CowSnapshots {
    private static final Logger LOG = LoggerFactory.getLogger(CowSnapshots.class);
    private static final Pattern SNAPSHOT_N = Pattern.compile("snapshot(\\d{1,9})");

    private CowSnapshots() {
    }

    /**
     * The VG with the snapshot's COW store (named as the snapshot, role {@link LvRole#SNAPSHOT_COW}) and its
     * {@code snapshotN} LV appended, in that order.
     *
     * @param pvs the PVs the COW store may use, as kernel names
     * @param ranges the PE ranges the COW store may use, PVs as kernel names
     * @throws LayoutException with LVM's message when lvcreate would refuse
     */
    public static VolumeGroup lvcreate(VolumeGroup vg, CowSnapshotRequest request, List<String> pvs,
                                       List<dev.dmmodel.lvm.ExtentRange> ranges) {
        Objects.requireNonNull(vg, "vg");
        Objects.requireNonNull(request, "request");
        String originName = request.origin();
        String where = vg.name() + "/" + originName;
        LogicalVolume origin = vg.logicalVolume(originName).orElseThrow(() -> new LayoutException(where, "origin",
                originName, "Couldn't find origin volume '" + where + "'."));
        // tools/lvcreate.c: _lvcreate_params / lib/metadata/lv_manip.c: lv_create_single (what may be an origin)
        if (origin.role() == LvRole.SNAPSHOT_COW || origin.role() == LvRole.SNAPSHOT) {
            throw new LayoutException(where, "origin", originName, "Snapshots of snapshots are not supported.");
        }
        if (origin.role() != LvRole.PUBLIC) {
            throw new LayoutException(where, "origin", originName, "Snapshots of " + origin.role() + " LVs ("
                    + origin.segments().get(0).type().typeName() + ") are not modelled: only of linear and striped"
                    + " LVs (and thin snapshots of thin LVs)");
        }
        String name = request.name().isEmpty() ? ThinPools.generateLvName(vg) : request.name();
        long extentSize = vg.extentSize().count();
        long originSectors = Math.multiplyExact(origin.extentCount(), extentSize);
        long chunk = request.chunkSize().count();
        long wanted = ceilDiv(ceilDiv(request.size().count(), 512), extentSize);
        long max = ceilDiv(cowMaxSectors(originSectors, chunk), extentSize);
        if (wanted > max) {
            // lib/metadata/snapshot_manip.c: cow_max_extents — LVM reduces the COW store and warns
            LOG.debug("Reducing COW size {} down to maximum usable size {}.",
                    DisplaySize.sectors(Math.multiplyExact(wanted, extentSize)),
                    DisplaySize.sectors(Math.multiplyExact(max, extentSize)));
            wanted = max;
        }
        LvCreateRequest cow = LvCreateRequest.builder(name).extents(wanted).onPvs(pvs.toArray(String[]::new))
                .onRanges(ranges).build();
        VolumeGroup withCow = LvAllocator.lvcreate(vg, cow, "");
        List<LogicalVolume> lvs = new ArrayList<>();
        for (LogicalVolume lv : withCow.logicalVolumes()) {
            lvs.add(lv.name().equals(name) ? new LogicalVolume(vg.name(), name, lv.segments(), "",
                    LvRole.SNAPSHOT_COW, Set.of()) : lv);
        }
        LvSegment seg = new LvSegment(0, origin.extentCount(), Sectors.ZERO, List.of(),
                new SegmentType.Snapshot(originName, name, request.chunkSize()));
        lvs.add(new LogicalVolume(vg.name(), snapshotLvName(vg), List.of(seg), "", LvRole.SNAPSHOT, Set.of()));
        return new VolumeGroup(vg.name(), vg.extentSize(), vg.physicalVolumes(), lvs, vg.allocationPolicy());
    }

    /** What activating a snapshot asks of the host: new dm devices and a reloaded one. */
    public interface Activation {
        /** Creates and resumes dm device {@code dmName} at the lowest free minor. */
        dev.dmmodel.device.DmDevice create(String dmName, String uuid, dev.dmmodel.dm.DmTable table);

        /** {@code dmsetup reload} + {@code resume} of an existing device (kernel name). */
        void reload(String device, dev.dmmodel.dm.DmTable table);
    }

    /**
     * Activates the snapshot {@link #lvcreate} just added to {@code vg} (the VG it returned), as LVM does: the
     * origin's table moves to {@code vg-origin-real} (the first snapshot of that origin only), then
     * {@code vg-snap-cow} and {@code vg-snap} ({@code snapshot <real> <cow> P <chunk>}) are created in that order,
     * and {@code vg-origin} is reloaded as {@code snapshot-origin <real>}.
     *
     * @param originDm the origin LV's active device
     * @return the snapshot's device, which {@code /dev/vg/snap} names
     */
    // lib/activate/dev_manager.c: _add_new_lv_to_dtree for an origin with snapshots (the -real and -cow layers)
    public static dev.dmmodel.device.DmDevice activate(VolumeGroup vg, dev.dmmodel.device.DmDevice originDm,
                                                       Activation host) {
        List<LogicalVolume> lvs = vg.logicalVolumes();
        LogicalVolume cow = lvs.get(lvs.size() - 2);
        SegmentType.Snapshot seg = (SegmentType.Snapshot) lvs.get(lvs.size() - 1).segments().get(0).type();
        String real;
        if (originDm.table().targets().size() == 1
                && originDm.table().targets().get(0) instanceof dev.dmmodel.dm.SnapshotOriginTarget o) {
            real = o.device();
        } else {
            real = host.create(LogicalVolume.dmName(vg.name(), seg.origin(), "real"),
                    LvTables.dmUuid(vg.name(), seg.origin()) + "-real", originDm.table()).name();
        }
        dev.dmmodel.device.DmDevice cowDm = host.create(LogicalVolume.dmName(vg.name(), cow.name(), "cow"),
                LvTables.dmUuid(vg.name(), cow.name()) + "-cow", LvTables.table(vg, cow));
        Sectors length = originDm.size();
        dev.dmmodel.device.DmDevice snapDm = host.create(LogicalVolume.dmName(vg.name(), cow.name()),
                LvTables.dmUuid(vg.name(), cow.name()), new dev.dmmodel.dm.DmTable(List.of(
                        new dev.dmmodel.dm.SnapshotTarget(Sectors.ZERO, length, real, cowDm.name(),
                                dev.dmmodel.dm.SnapshotTarget.Store.PERSISTENT, seg.chunkSize().count(), false,
                                false))));
        host.reload(originDm.name(), new dev.dmmodel.dm.DmTable(List.of(
                new dev.dmmodel.dm.SnapshotOriginTarget(Sectors.ZERO, length, real))));
        return snapDm;
    }

    /**
     * The COW store a copy of every chunk of an origin of {@code originSectors} needs: the header chunk, one
     * metadata chunk per {@code chunk bytes / 16} exceptions, and the data chunks.
     */
    // lib/metadata/snapshot_manip.c: _cow_max_size
    static long cowMaxSectors(long originSectors, long chunkSectors) {
        long originChunks = ceilDiv(originSectors, chunkSectors);
        long perArea = chunkSectors * 512 / 16;
        long metadataChunks = ceilDiv(originChunks, perArea);
        return Math.multiplyExact(Math.addExact(Math.addExact(1, metadataChunks), originChunks), chunkSectors);
    }

    /** The next free {@code snapshotN} name: N = 1 + the highest N in use, from 0. */
    // lib/metadata/lv_manip.c: generate_lv_name with "snapshot%d" (lib/metadata/snapshot_manip.c: vg_add_snapshot)
    static String snapshotLvName(VolumeGroup vg) {
        long high = -1;
        for (LogicalVolume lv : vg.logicalVolumes()) {
            Matcher m = SNAPSHOT_N.matcher(lv.name());
            if (m.matches()) {
                high = Math.max(high, Long.parseLong(m.group(1)));
            }
        }
        return "snapshot" + (high + 1);
    }

    private static long ceilDiv(long a, long b) {
        return Math.addExact(a, b - 1) / b;
    }
}
