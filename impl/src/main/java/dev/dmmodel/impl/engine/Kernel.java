package dev.dmmodel.impl.engine;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.block.Accounting;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Events;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.DmCore;
import dev.dmmodel.impl.dm.thin.ThinIo;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel of one simulated host: its block layer ({@link BlockLayer}), device-mapper ({@link DmCore}) with
 * dm-thin ({@link ThinIo}), and the devices that exist now. The engine's commands reach the kernel through
 * this.
 */
final class Kernel {
    final KernelProfile profile;
    final BlockLayer block;
    final Events events;
    final Accounting accounting;
    final DmCore dm;
    final ThinIo thin;
    final dev.dmmodel.impl.dm.snapshot.SnapshotIo snapshots;
    private final Map<String, BlockDevice> devices = new HashMap<>();
    private final List<dev.dmmodel.dm.ThinTarget> thinTargets = new ArrayList<>();
    /** The md arrays, by kernel name, in layout order. */
    final Map<String, dev.dmmodel.impl.md.MdArray> mdArrays = new java.util.LinkedHashMap<>();

    Kernel(Layout layout) {
        this.profile = layout.profile();
        this.block = new BlockLayer(profile);
        this.events = block.events;
        this.accounting = block.accounting;
        this.dm = new DmCore(block);
        // LVM keeps the kernel pool's transaction id in step with its metadata (lib/thin/thin.c: transaction_id)
        Map<String, Long> lvmTransactionIds = new HashMap<>();
        this.thin = new ThinIo(block, devices::get, lvmTransactionIds);
        dm.thinMapper(thin);
        this.snapshots = new dev.dmmodel.impl.dm.snapshot.SnapshotIo(block, devices::get, devices::values);
        dm.snapshotMapper(snapshots);
        for (BlockDevice d : layout.devices()) {
            devices.put(d.name(), d);
            if (d instanceof Disk disk) {
                block.addDisk(d.name(), Limits.of(disk.limits()), disk.driver());
            } else if (d instanceof Partition p) {
                block.addPartition(p);
            } else if (d instanceof dev.dmmodel.device.MdDevice md) {
                dev.dmmodel.impl.md.MdArray array = new dev.dmmodel.impl.md.MdArray(block, md.name(), md.spec());
                mdArrays.put(md.name(), array);
                block.addBioBased(md.name(), Limits.of(md.limits()), array);
            } else if (d instanceof DmDevice dmDevice) {
                dm.add(dmDevice, Limits.of(dmDevice.limits()), n -> layout.device(n).size().count());
                for (DmTarget t : dmDevice.table().targets()) {
                    if (t instanceof dev.dmmodel.dm.ThinTarget tt) {
                        thinTargets.add(tt);
                    }
                }
            }
        }
        for (dev.dmmodel.lvm.VolumeGroup vg : layout.volumeGroups()) {
            for (dev.dmmodel.lvm.LogicalVolume lv : vg.logicalVolumes()) {
                lv.thinPool().ifPresent(tp -> {
                    for (String dmName : List.of(dev.dmmodel.lvm.LogicalVolume.dmName(vg.name(), lv.name(), "tpool"),
                            dev.dmmodel.lvm.LogicalVolume.dmName(vg.name(), lv.name()))) {
                        layout.find("/dev/mapper/" + dmName).filter(x -> x instanceof DmDevice y && y.table()
                                .targets().stream().anyMatch(t -> t instanceof dev.dmmodel.dm.ThinPoolTarget))
                                .ifPresent(x -> lvmTransactionIds.putIfAbsent(x.name(), tp.transactionId()));
                    }
                });
            }
        }
    }

    /** Registers the thin devices the tables name (after construction, when pools can be looked up). */
    void registerThinDevices() {
        for (dev.dmmodel.dm.ThinTarget t : thinTargets) {
            thin.registerFromTable(t);
        }
    }

    /** An md array {@code mdadm --create} starts while the workload runs. */
    void addMd(dev.dmmodel.device.MdDevice md, Limits limits) {
        dev.dmmodel.impl.md.MdArray array = new dev.dmmodel.impl.md.MdArray(block, md.name(), md.spec());
        mdArrays.put(md.name(), array);
        block.addBioBased(md.name(), limits, array);
        devices.put(md.name(), md);
    }

    /** A dm device LVM activates while the workload runs. */
    void addDm(DmDevice device, Limits limits) {
        dm.add(device, limits, n -> devices.get(n).size().count());
        devices.put(device.name(), device);
    }

    /** A dm device's table reloaded while the workload runs (a classic snapshot's origin). */
    void reloadDm(DmDevice device, Limits limits) {
        dm.reload(device, limits, n -> devices.get(n).size().count());
        devices.put(device.name(), device);
    }

    /** A dm device LVM removes while the workload runs. */
    void removeDm(String name) {
        dm.remove(name);
        devices.remove(name);
    }

    BlockDevice device(String name) {
        return devices.get(name);
    }

    void startPlug() {
        block.startPlug();
    }

    void finishPlug() {
        block.finishPlug();
    }

    void submitBioNoacct(Bio bio) {
        block.submitBioNoacct(bio);
    }

    boolean atBuild() {
        return block.atBuild();
    }

    List<long[]> buildPieces(String device, long start, long sectors) {
        return block.buildPieces(device, start, sectors);
    }

    String buildWhy(String device, long[] piece) {
        return block.buildWhy(device, piece);
    }

    Limits queueLimits(String device) {
        return block.queueLimits(device);
    }

    String takeIoError() {
        return block.takeIoError();
    }

    boolean supportsDiscard(String device, long sectors) {
        return block.supportsDiscard(device, sectors);
    }

    /** Zero pages for a kernel-internal bio of {@code sectors}. */
    dev.dmmodel.impl.block.Bvecs pages(long sectors) {
        return block.pages(sectors);
    }

    void completeAll() {
        block.completeAll();
    }

    long raPages(BlockDevice d) {
        return block.raPages(d.name());
    }

    long ioPages(String device) {
        return block.ioPages(device);
    }

    boolean storeMaxSectorsKb(String device, long kb) {
        return block.storeMaxSectorsKb(device, kb);
    }

    void storeReadAheadKb(String device, long kb) {
        block.storeReadAheadKb(device, kb);
    }
}
