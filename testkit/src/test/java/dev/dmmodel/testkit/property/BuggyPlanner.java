package dev.dmmodel.testkit.property;

import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A provisioning planner as a user might write one, with a planted bug, for the shrinking demonstration
 * ({@link PlantedBugTest}). It gives every disk one partition (msdos below 2 TiB, GPT above), makes each
 * partition a PV of one VG {@code data}, and creates the requested linear LVs.
 *
 * <p>The bug: to keep old boot loaders happy it starts the partition at the DOS-compatible sector 63 on
 * "classic" disks, which it recognises as rotational disks with 512-byte logical sectors. It never looks
 * at the physical block size or the minimum I/O size, so a 512e SAS disk (4 KiB physical blocks) or a
 * hardware RAID volume (io_min = its chunk) gets a misaligned partition. On a plain 512-byte SATA disk,
 * an SSD, NVMe or any disk of 2 TiB or more, nothing shows.
 */
final class BuggyPlanner {

    private BuggyPlanner() {
    }

    /**
     * What the planner is asked for: disks and the sizes of the LVs to carve from them.
     *
     * @param disks the disks, named sda, sdb, ...
     * @param lvSizes the LV sizes in bytes, whole extents (4 MiB)
     */
    record Request(List<StackPlan.Disk> disks, List<Long> lvSizes) {
        Request {
            disks = List.copyOf(disks);
            lvSizes = List.copyOf(lvSizes);
        }

        /** Compact, builder-like: one line per disk and per LV. */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("BuggyPlanner.Request");
            for (StackPlan.Disk d : disks) {
                sb.append("\n    ").append(d);
            }
            for (long size : lvSizes) {
                sb.append("\n    .lv(").append(StackPlan.bytesJava(size)).append(')');
            }
            return sb.toString();
        }
    }

    /** The planner: the layout for a request. */
    static Layout plan(Request request) {
        return plan(request, false);
    }

    /** The planner, with the bug or fixed (partitions placed as {@code parted -a optimal} places them). */
    static Layout plan(Request request, boolean fixed) {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12);
        List<String> pvs = new ArrayList<>();
        for (StackPlan.Disk d : request.disks()) {
            b.disk(d.name(), d.spec());
            boolean large = d.sizeBytes() >= (2L << 40);
            PartitionTableType type = large ? PartitionTableType.GPT : PartitionTableType.MSDOS;
            PartitionSpec partition = fixed ? PartitionSpec.optimal(Optional.empty())
                    : PartitionSpec.atToEnd(Sectors.of(firstSector(d, type)));
            b.partitionTable(d.name(), type, partition);
            // the kernel's partition name: sda1, but nvme0n1p1
            String pv = d.name() + (Character.isDigit(d.name().charAt(d.name().length() - 1)) ? "p1" : "1");
            b.pvcreate(pv);
            pvs.add(pv);
        }
        b.vgcreate("data", pvs.toArray(new String[0]));
        for (int i = 0; i < request.lvSizes().size(); i++) {
            b.lvcreate("data", LvCreateRequest.builder("lv" + i).size(Bytes.of(request.lvSizes().get(i))).build());
        }
        return b.build();
    }

    /** Where the partition starts. */
    static long firstSector(StackPlan.Disk disk, PartitionTableType type) {
        QueueLimits l = disk.spec().limits();
        // BUG (planted): "classic" is decided from the logical block size alone; physical_block_size and
        // minimum_io_size are ignored
        boolean classic = l.rotational() && l.logicalBlockSize() == 512;
        return type == PartitionTableType.MSDOS && classic ? 63 : 2048;
    }

    /**
     * Requests the planner can be given: 1–4 disks of 1 GiB to 4 TiB with 512-byte sectors, and 1–4 LVs that
     * fit in them together (each at most a quarter of what the disks surely hold).
     */
    static Gen<Request> requests() {
        return DmGens.diskLists(1, 4, 1L << 30, 4L << 40)
                .filter(disks -> disks.stream().allMatch(d -> d.logicalBlockSize() == 512))
                .flatMap(disks -> {
                    long capacity = 0;
                    for (StackPlan.Disk d : disks) {
                        QueueLimits l = d.spec().limits();
                        // partition start, pe_start (aligned up to io_opt) and metadata: a generous allowance
                        long overhead = 2 * Math.max(1L << 20, Math.max(l.ioOpt(), l.ioMin())) + (4L << 20);
                        capacity += d.sizeBytes() - overhead;
                    }
                    long each = capacity / 4 / (4L << 20) * (4L << 20);
                    return DmGens.roundSizes(4L << 20, each, 4L << 20).listOf(1, 4)
                            .map(sizes -> new Request(disks, sizes));
                });
    }
}
