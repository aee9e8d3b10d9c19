package dev.dmmodel.impl.sfdisk;

import dev.dmmodel.device.Disk;
import dev.dmmodel.device.Partition;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the three partitioning tools (sfdisk, sgdisk, parted) share: the disk as a tool sees it (in its logical
 * sectors, with the topology libblkid reports) and how the table a tool writes becomes layout steps. The tools'
 * own placement rules are in their packages.
 */
public final class PartitionWrite {

    private PartitionWrite() {
    }

    /**
     * A partition in the tool's units: logical sectors of the disk.
     *
     * @param number the partition number
     * @param start the first logical sector
     * @param size logical sectors
     */
    public record Part(int number, long start, long size) {
        /** The last sector. */
        public long end() {
            return start + size - 1;
        }
    }

    /**
     * A disk as a partitioning tool opens it.
     *
     * @param disk the disk
     * @param sectorSize the logical sector size in bytes
     * @param sectors the size in logical sectors
     * @param physicalSize the physical block size in bytes
     * @param ioMin {@code minimum_io_size} in bytes
     * @param ioOpt {@code optimal_io_size} in bytes (0: none)
     * @param alignmentOffset {@code alignment_offset} in bytes (0 when the kernel reports -1)
     * @param partitions the partitions on it now, by number
     * @param label the label type the plan's steps wrote, if known
     */
    public record DiskView(Disk disk, long sectorSize, long sectors, long physicalSize, long ioMin, long ioOpt,
                           long alignmentOffset, List<Part> partitions, Optional<PartitionTableType> label) {
        /** The kernel name. */
        public String name() {
            return disk.name();
        }

        /** The partition with a number, if any. */
        public Optional<Part> partition(int number) {
            return partitions.stream().filter(p -> p.number() == number).findFirst();
        }
    }

    /** The disk a tool opens, as it sees it. */
    public static DiskView view(PlanState state, Disk disk) {
        var l = disk.limits();
        long factor = l.logicalBlockSize() / Sectors.SECTOR_SIZE;
        List<Part> parts = new ArrayList<>();
        for (Partition p : state.partitions(disk.name())) {
            parts.add(new Part(p.number(), p.start().count() / factor, p.size().count() / factor));
        }
        // libblkid reads sysfs: alignment_offset -1 (misaligned stacking) is no offset it can use
        long offset = l.misaligned() ? 0 : l.alignmentOffset();
        return new DiskView(disk, l.logicalBlockSize(), disk.size().count() / factor, l.physicalBlockSize(),
                Math.max(l.ioMin(), l.logicalBlockSize()), l.ioOpt(), offset, List.copyOf(parts),
                state.label(disk.name()));
    }

    /**
     * Writes a disk's new table: when the label is new or a partition went or moved, the disk's partitions are
     * removed (refused when the disk is in use) and the table is written again; otherwise the added partitions
     * are added. Nothing changes if the model refuses the result.
     *
     * @param relabel whether the tool wrote a new label
     * @param after every partition of the disk afterwards
     */
    public static void write(PlanState state, String tool, DiskView before, PartitionTableType type, boolean relabel,
                             List<Part> after) {
        long factor = before.sectorSize() / Sectors.SECTOR_SIZE;
        boolean changed = relabel || before.label().isEmpty() && before.partitions().isEmpty();
        for (Part p : before.partitions()) {
            if (!after.contains(p)) {
                changed = true;
            }
        }
        List<Part> sorted = new ArrayList<>(after);
        sorted.sort(Comparator.comparingInt(Part::number));
        List<LayoutStep> saved = state.steps();
        try {
            List<LayoutStep> steps = new ArrayList<>();
            if (changed) {
                if (!before.partitions().isEmpty() || before.label().isPresent()) {
                    state.removePartitions(before.name(), tool);
                }
                List<PartitionSpec> prefix = new ArrayList<>();
                int next = 1;
                for (Part p : sorted) {
                    if (p.number() == next && prefix.size() == next - 1) {
                        prefix.add(PartitionSpec.at(Sectors.of(Math.multiplyExact(p.start(), factor)),
                                Sectors.of(Math.multiplyExact(p.size(), factor))));
                        next++;
                    } else {
                        steps.add(add(before.name(), p, factor));
                    }
                }
                steps.add(0, new LayoutStep.CreatePartitionTable(before.name(), type, prefix));
            } else {
                for (Part p : sorted) {
                    if (!before.partitions().contains(p)) {
                        steps.add(add(before.name(), p, factor));
                    }
                }
            }
            state.add(steps);
        } catch (RuntimeException e) {
            state.replace(saved);
            throw e;
        }
    }

    private static LayoutStep add(String disk, Part p, long factor) {
        return new LayoutStep.AddPartition(disk, p.number(), Sectors.of(Math.multiplyExact(p.start(), factor)),
                Sectors.of(Math.multiplyExact(p.size(), factor)), Optional.empty(), Optional.empty());
    }

    /** A read command: its origin, its tool and what it does on the host. */
    public static PlanOp op(Origin origin, String tool, Function<PlanState, List<String>> run) {
        return PlanOp.of(origin, tool, run);
    }

    /**
     * How a partition's start sits on the disk's I/O boundaries, for a result: empty when it is on all of them,
     * else {@code start not aligned to the 64KiB minimum I/O: offset 31.5KiB}.
     */
    public static String alignment(DiskView d, long startSector) {
        return d.disk().limits().misalignmentAt(Math.multiplyExact(startSector, d.sectorSize()))
                .map(m -> " (start not aligned to the " + bytes(m.grainBytes()) + " " + switch (m.grain()) {
                    case PHYSICAL_BLOCK -> "physical block";
                    case IO_MIN -> "minimum I/O";
                    case IO_OPT -> "optimal I/O";
                } + ": offset " + bytes(m.offsetBytes()) + ")").orElse("");
    }

    /** A byte count as a tool's message shows it: {@code 448KiB}, {@code 1MiB}, {@code 3584B}. */
    public static String bytes(long b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int i = 0;
        long v = b;
        while (i < units.length - 1 && v != 0 && v % 1024 == 0) {
            v /= 1024;
            i++;
        }
        if (i == 0 && v >= 1024 && v % 512 == 0) {
            return (v / 1024) + ".5KiB";
        }
        return v + units[i];
    }
}
