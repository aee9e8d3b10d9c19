package dev.dmmodel.testkit.property.docs;

import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

// docs/property-testing.md, "A planner": a user's provisioning code, tested in ThinStoragePlannerTest.
/**
 * A provisioning planner as a user of dmmodel might write it: it turns a host's drives into thin-provisioned
 * storage. One GPT partition per drive placed as {@code parted -a optimal} places it, a PV on each, one VG,
 * a thin pool over most of it and {@code volumes} thin volumes. The pool's block size is the largest
 * multiple of 64 KiB (of the full stripe, on RAID) that one bio can still carry to the thin devices, so
 * that first writes overwrite whole blocks and dm-thin need not zero them.
 */
public final class ThinStoragePlanner {

    /** The kernel the planner plans for. */
    public static final KernelProfile KERNEL = KernelProfile.LINUX_6_12;
    private static final long KIB64 = 64 * 1024;

    private ThinStoragePlanner() {
    }

    /**
     * A drive of the host.
     *
     * @param name its kernel name
     * @param spec what it is
     */
    public record Drive(String name, DiskSpec spec) {
    }

    /**
     * Plans thin storage on the drives (those with the first drive's logical block size; LVM keeps one
     * per VG).
     *
     * @return the layout's builder, or empty if no pool block fits in the largest I/O these drives take
     *     (so no block size could be overwritten whole)
     */
    public static Optional<LayoutBuilder> plan(List<Drive> drives, int volumes) {
        long lbs = drives.get(0).spec().limits().logicalBlockSize();
        LayoutBuilder b = Layout.builder(KERNEL);
        List<String> pvs = new ArrayList<>();
        for (Drive d : drives) {
            b.disk(d.name(), d.spec());
            if (d.spec().limits().logicalBlockSize() != lbs) {
                continue;
            }
            b.partitionTable(d.name(), PartitionTableType.GPT, PartitionSpec.optimal(Optional.empty()));
            String partition = d.name() + (Character.isDigit(d.name().charAt(d.name().length() - 1)) ? "p1" : "1");
            b.pvcreate(partition);
            pvs.add(partition);
        }
        b.vgcreate("tank", pvs.toArray(new String[0]));
        // what the kernel will say about the PVs: the largest bio is a page vector of 1 MiB or max_sectors
        Layout probe = b.build();
        long maxIo = 1L << 20;
        long stripe = 0;
        for (String pv : pvs) {
            QueueLimits l = probe.limits(pv);
            maxIo = Math.min(maxIo, l.maxSectors() * 512);
            stripe = Math.max(stripe, l.ioOpt());
        }
        long unit = stripe > 0 && stripe % KIB64 == 0 && stripe <= maxIo ? stripe : KIB64;
        long block = maxIo / unit * unit;
        if (block < KIB64) {
            return Optional.empty();
        }
        // the pool leaves room for its metadata and the spare: a tenth, at least 64 MiB
        VolumeGroup vg = probe.volumeGroup("tank").orElseThrow();
        long free = vg.extentTable().freeCount();
        long reserve = Math.max(free / 10, (64L << 20) / (vg.extentSize().count() * 512) + 2);
        if (free - reserve < 1) {
            return Optional.empty();
        }
        b.lvcreateThinPool("tank", ThinPoolRequest.builder("pool").extents(free - reserve)
                .chunkSize(Bytes.of(block)).build());
        for (int i = 0; i < volumes; i++) {
            b.lvcreateThin("tank", new ThinLvRequest("vol" + i, Bytes.gib(10), "pool"));
        }
        return Optional.of(b);
    }
}
