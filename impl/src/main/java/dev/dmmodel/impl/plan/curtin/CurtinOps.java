package dev.dmmodel.impl.plan.curtin;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.yaml.Synthesized;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** The commands of curtin's entries, run against the host: what each handler of block_meta does. */
final class CurtinOps {

    private CurtinOps() {
    }

    /** The device an earlier entry made (its path), or curtin's failure for a missing one. */
    static String device(PlanState state, String id) {
        return state.named("curtin:" + id).orElseThrow(() -> new PlanOpFailure("ValueError: storage volume '" + id
                + "' was not created (its entry did not run)"));
    }

    static void name(PlanState state, String id, String path) {
        state.name("curtin:" + id, path);
    }

    /** A partition's kernel name: a disk name ending in a digit takes "p". */
    // curtin/block/__init__.py: partition_kname (the kernel's check_partition naming)
    static String partitionName(String disk, int number) {
        return Character.isDigit(disk.charAt(disk.length() - 1)) ? disk + "p" + number : disk + number;
    }

    // ---- disk

    /** A disk entry: the label written (unless preserved), the id bound to the host's disk. */
    // curtin/commands/block_meta.py: disk_handler
    static List<String> disk(PlanState state, String id, String path, Optional<PartitionTableType> ptable,
                             Optional<String> wipe, boolean preserve, int version,
                             List<CurtinPlanReader.PartEntry> v2Parts) {
        Disk d = state.disk(path, "curtin");
        List<String> out = new ArrayList<>();
        name(state, id, "/dev/" + d.name());
        if (preserve) {
            if (ptable.isPresent() && state.label(d.name()).isEmpty() && state.partitions(d.name()).isEmpty()) {
                throw new PlanOpFailure("ValueError: disk '" + id + "' does not have correct partition table or cannot "
                        + "be read, but preserve is set to true (or wipe is not set).  cannot continue installation.");
            }
            out.add(d.path() + ": preserved, partition table kept (" + state.partitions(d.name()).size()
                    + " partitions)");
            return out;
        }
        if (wipe.isPresent() || ptable.isPresent()) {
            int n = state.partitions(d.name()).size();
            if (n > 0 || state.label(d.name()).isPresent()) {
                state.removePartitions(d.name(), "curtin");
            }
            wipe.ifPresent(w -> out.add(d.path() + ": wiped (wipe: " + w + ")" + (n > 0 ? ", its " + n
                    + " partition" + (n == 1 ? "" : "s") + " gone" : "")));
        }
        if (ptable.isPresent()) {
            if (version == 2) {
                out.addAll(v2Table(state, d, ptable.get(), v2Parts));
            } else {
                state.add(new LayoutStep.CreatePartitionTable(d.name(), ptable.get(), List.of()));
                out.add(d.path() + ": " + (ptable.get() == PartitionTableType.GPT
                        ? "gpt label (curtin wipes the disk's ends; sgdisk writes the table with the first partition)"
                        : "msdos label (parted " + d.path() + " --script mklabel msdos)"));
            }
        }
        return out;
    }

    // curtin/commands/block_meta_v2.py: disk_handler_v2 — the whole table in one sfdisk script
    private static List<String> v2Table(PlanState state, Disk d, PartitionTableType type,
                                        List<CurtinPlanReader.PartEntry> parts) {
        long lbs = d.limits().logicalBlockSize();
        long f = lbs / 512;
        List<CurtinPartitions.Blocks> placed = new ArrayList<>();
        List<PartitionSpec> specs = new ArrayList<>();
        List<String> out = new ArrayList<>();
        if ((1L << 20) % lbs != 0) {
            throw new PlanOpFailure("Exception: sector_bytes " + lbs + " does not divide 1MiB, cannot continue!");
        }
        CurtinPartitions.Blocks previous = null;
        for (CurtinPlanReader.PartEntry p : parts) {
            int number = p.explicitNumber().orElse(placed.size() + 1);
            long start = CurtinPartitions.v2Start(p.offset().orElse(null), previous, lbs);
            long count = p.size().value() / lbs;
            CurtinPartitions.Blocks b = new CurtinPartitions.Blocks(number, start, count);
            if (number != placed.size() + 1) {
                throw new PlanOpFailure("sfdisk: partition " + number + " of " + d.path() + " after "
                        + placed.size() + " others: partitions numbered out of order are not modelled yet");
            }
            placed.add(b);
            specs.add(PartitionSpec.at(Sectors.of(Math.multiplyExact(start, f)), Sectors.of(Math.multiplyExact(count,
                    f))));
            previous = b;
        }
        state.add(new LayoutStep.CreatePartitionTable(d.name(), type, specs));
        out.add(d.path() + ": " + (type == PartitionTableType.GPT ? "gpt" : "dos") + " table of " + placed.size()
                + " partition" + (placed.size() == 1 ? "" : "s") + " (sfdisk --no-reread --no-tell-kernel "
                + d.path() + ")");
        for (int i = 0; i < placed.size(); i++) {
            CurtinPartitions.Blocks b = placed.get(i);
            name(state, parts.get(i).id(), "/dev/" + partitionName(d.name(), b.number()));
            out.add(describe(partitionName(d.name(), b.number()), b.start() * f, b.count() * f, d.limits()));
        }
        return out;
    }

    // ---- partition (storage version 1)

    // curtin/commands/block_meta.py: partition_handler
    static List<String> partitionV1(PlanState state, CurtinPlanReader.PartEntry p, long bytesIfKnown) {
        String diskPath = device(state, p.disk());
        Disk d = state.disk(diskPath, "curtin");
        QueueLimits l = d.limits();
        long lbs = l.logicalBlockSize();
        long f = lbs / 512;
        long diskBlocks = d.size().count() / f;
        List<CurtinPartitions.Blocks> existing = new ArrayList<>();
        for (Partition q : state.partitions(d.name())) {
            existing.add(new CurtinPartitions.Blocks(q.number(), q.start().count() / f, q.size().count() / f));
        }
        String kname = partitionName(d.name(), p.number());
        if (p.preserve()) {
            Partition q = state.partitions(d.name()).stream().filter(x -> x.number() == p.number()).findFirst()
                    .orElseThrow(() -> new PlanOpFailure("RuntimeError: Did not find partition /dev/" + kname
                            + " in the partition table of " + diskPath));
            long found = q.size().count() * 512;
            if (p.size().kind() == CurtinSize.Kind.BYTES && found != bytesIfKnown) {
                throw new PlanOpFailure("RuntimeError: Verifying /dev/" + kname + " size, expecting " + bytesIfKnown
                        + " bytes, found " + found + " bytes");
            }
            name(state, p.id(), "/dev/" + q.name());
            return List.of("/dev/" + q.name() + ": preserved");
        }
        long bytes = bytesIfKnown;
        if (bytes == 0) {
            throw new PlanOpFailure("ValueError: size must be specified for partition to be created");
        }
        CurtinPartitions.Blocks previous = null;
        if (p.number() > 1) {
            if (p.previous().isEmpty()) {
                throw new PlanOpFailure("RuntimeError: Cannot find previous partition on disk " + diskPath);
            }
            int pn = p.previous().get();
            previous = existing.stream().filter(b -> b.number() == pn).findFirst().orElseThrow(() ->
                    new PlanOpFailure("RuntimeError: Failed to determine partition " + partitionName(d.name(), pn)
                            + " info"));
        }
        PartitionTableType label = state.label(d.name()).orElse(p.ptable());
        long offset = CurtinPartitions.v1Offset(p.number(), previous, lbs);
        long end = CurtinPartitions.v1End(offset, bytes, lbs);
        CurtinPartitions.Placed placed = label == PartitionTableType.GPT
                ? CurtinPartitions.sgdiskNew(diskPath, p.number(), offset, end, existing, diskBlocks, lbs)
                : CurtinPartitions.partedMkpart(diskPath, p.number(), offset, end, existing, diskBlocks, p.flag());
        long start512 = Math.multiplyExact(placed.start(), f);
        long size512 = Math.multiplyExact(placed.end() - placed.start() + 1, f);
        addPartition(state, d.name(), p.number(), start512, size512);
        name(state, p.id(), "/dev/" + kname);
        List<String> out = new ArrayList<>();
        out.add(placed.command());
        out.addAll(placed.notes());
        out.add(describe(kname, start512, size512, l));
        return out;
    }

    /**
     * Adds a partition: into the disk's partition-table step when it is the next number there (the model checks it
     * against the label), else as a partition of its own number.
     */
    private static void addPartition(PlanState state, String disk, int number, long start, long size) {
        List<LayoutStep> steps = new ArrayList<>(state.steps());
        int table = -1;
        boolean later = false;
        for (int i = 0; i < steps.size(); i++) {
            LayoutStep s = steps.get(i);
            if (s instanceof LayoutStep.CreatePartitionTable t && sameDisk(state, t.disk(), disk)) {
                table = i;
                later = false;
            } else if (s instanceof LayoutStep.AddPartition a && sameDisk(state, a.disk(), disk)) {
                later = true;
            }
        }
        if (table >= 0 && !later) {
            LayoutStep.CreatePartitionTable t = (LayoutStep.CreatePartitionTable) steps.get(table);
            if (t.partitions().size() == number - 1) {
                List<PartitionSpec> specs = new ArrayList<>(t.partitions());
                specs.add(PartitionSpec.at(Sectors.of(start), Sectors.of(size)));
                steps.set(table, new LayoutStep.CreatePartitionTable(t.disk(), t.type(), specs));
                state.replace(steps);
                return;
            }
        }
        state.add(new LayoutStep.AddPartition(disk, number, Sectors.of(start), Sectors.of(size), Optional.empty(),
                Optional.empty()));
    }

    private static boolean sameDisk(PlanState state, String reference, String disk) {
        return state.layout().find(reference).map(x -> x.name().equals(disk)).orElse(reference.equals(disk));
    }

    /** {@code sda2: start 2099200s size 4194304s (1GiB); start aligned|not aligned to optimal_io_size 448KiB}. */
    static String describe(String kname, long start512, long size512, QueueLimits l) {
        StringBuilder b = new StringBuilder(kname + ": start " + start512 + "s size " + size512 + "s (" + bytes(
                Math.multiplyExact(size512, 512L)) + ")");
        long startBytes = Math.multiplyExact(start512, 512L);
        if (l.ioOpt() > 0) {
            long rem = Math.floorMod(startBytes - l.alignmentOffset(), l.ioOpt());
            b.append(rem == 0 ? "; start aligned to optimal_io_size " + bytes(l.ioOpt())
                    : "; start not aligned to optimal_io_size " + bytes(l.ioOpt()) + " (" + startBytes + " mod "
                    + l.ioOpt() + " = " + rem + ")");
        } else {
            long rem = startBytes % l.physicalBlockSize();
            b.append(rem == 0 ? "; start aligned to the physical block " + l.physicalBlockSize() + "B (no optimal_io_size)"
                    : "; start not aligned to the physical block " + l.physicalBlockSize() + "B");
        }
        return b.toString();
    }

    static String bytes(long b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (u < units.length - 1 && b % 1024 == 0 && b != 0) {
            b /= 1024;
            u++;
        }
        return b + units[u];
    }

    // ---- LVM, filesystems, mounts, md: the commands curtin runs, read by the shell reader

    /** Runs words with the host's device paths put in for the entries' ids. */
    static List<String> run(PlanState state, Origin at, List<String> words, Map<Integer, String> idAt) {
        List<String> w = new ArrayList<>(words);
        for (Map.Entry<Integer, String> e : idAt.entrySet()) {
            w.set(e.getKey(), device(state, e.getValue()));
        }
        return Synthesized.run(at, w, state);
    }

    /** A new md array's path, found by comparing the arrays before and after. */
    static List<String> mdadm(PlanState state, Origin at, List<String> words, Map<Integer, String> idAt, String id) {
        Set<String> before = new HashSet<>();
        state.layout().mdDevices().forEach(x -> before.add(x.name()));
        List<String> out = run(state, at, words, idAt);
        for (MdDevice md : state.layout().mdDevices()) {
            if (!before.contains(md.name())) {
                name(state, id, "/dev/" + md.name());
            }
        }
        return out;
    }

    /** A device's logical block size (curtin's mkfs passes it when above 512). */
    static long logicalBlockSize(PlanState state, String id) {
        BlockDevice d = state.device(device(state, id), "mkfs");
        return d.limits().logicalBlockSize();
    }
}
