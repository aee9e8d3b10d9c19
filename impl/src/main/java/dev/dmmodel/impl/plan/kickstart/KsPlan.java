package dev.dmmodel.impl.plan.kickstart;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.Partition;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.Align;
import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.DiskGeom;
import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.PartitioningError;
import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.Placed;
import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.Request;
import dev.dmmodel.impl.plan.kickstart.BlivetPartitioning.Type;
import dev.dmmodel.impl.plan.kickstart.KsRequests.ClearMode;
import dev.dmmodel.impl.plan.kickstart.KsRequests.ClearPart;
import dev.dmmodel.impl.plan.kickstart.KsRequests.IgnoreDisk;
import dev.dmmodel.impl.plan.kickstart.KsRequests.LogVol;
import dev.dmmodel.impl.plan.kickstart.KsRequests.Part;
import dev.dmmodel.impl.plan.kickstart.KsRequests.Role;
import dev.dmmodel.impl.plan.kickstart.KsRequests.VolGroup;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.ShellPlanReader;
import dev.dmmodel.impl.plan.shell.Word;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * A kickstart file's storage requests and the commands they become, in anaconda's order. Partitions are placed
 * once, for every {@code part} line together, when the first of them runs; a volume group's LVs are sized when
 * its {@code volgroup} line runs. Those decisions are kept per host run (never in the commands themselves, which
 * may run on many hosts).
 */
final class KsPlan {

    private static final long MIB = 1L << 20;

    private final String source;
    private final IgnoreDisk ignore;
    private final ClearPart clear;
    private final boolean zerombr;
    private final List<Part> parts;
    private final List<VolGroup> vgs;
    private final List<LogVol> lvs;
    private final Map<PlanState, Run> runs = Collections.synchronizedMap(new WeakHashMap<>());

    KsPlan(String source, IgnoreDisk ignore, ClearPart clear, boolean zerombr, List<Part> parts, List<VolGroup> vgs,
           List<LogVol> lvs) {
        this.source = source;
        this.ignore = ignore;
        this.clear = clear;
        this.zerombr = zerombr;
        this.parts = List.copyOf(parts);
        this.vgs = List.copyOf(vgs);
        this.lvs = List.copyOf(lvs);
    }

    /** What one host run decided: each part's partition, each VG's sizes. */
    private static final class Run {
        final Map<Part, String> device = new IdentityHashMap<>();
        final Map<Part, String> placedText = new IdentityHashMap<>();
        final List<String> summary = new ArrayList<>();
        final Map<String, BlivetLvm.VgSizes> vgs = new java.util.HashMap<>();
    }

    private Run run(PlanState state) {
        return runs.computeIfAbsent(state, s -> new Run());
    }

    // custom_partitioning.py: CustomPartitioningTask._configure_partitioning — the order anaconda runs them
    List<PlanOp> ops(List<KsLine> zerombrLines) {
        List<PlanOp> out = new ArrayList<>();
        if (ignore != null) {
            out.add(op(ignore.line(), state -> List.of("disks used: " + String.join(", ",
                    names(usable(state))))));
        }
        for (KsLine z : zerombrLines) {
            out.add(op(z, state -> List.of("disks without a valid label get a new one")));
        }
        if (clear != null) {
            out.add(op(clear.line(), this::clearpart));
        }
        List<KsLine> partLines = new ArrayList<>();
        for (Part p : parts) {
            if (!partLines.contains(p.line())) {
                partLines.add(p.line());
            }
        }
        for (KsLine l : partLines) {
            out.add(op(l, state -> part(state, l)));
        }
        for (VolGroup g : vgs) {
            out.add(op(g.line(), state -> volgroup(state, g)));
        }
        for (LogVol v : lvs) {
            out.add(op(v.line(), state -> logvol(state, v)));
        }
        return List.copyOf(out);
    }

    private PlanOp op(KsLine line, java.util.function.Function<PlanState, List<String>> run) {
        return PlanOp.of(line.origin(), line.command().equals("partition") ? "part" : line.command(), run);
    }

    // ---- disks

    // ignoredisk: --only-use keeps only those disks, --drives drops them
    private List<Disk> usable(PlanState state) {
        List<Disk> out = new ArrayList<>();
        if (ignore != null) {
            for (String d : ignore.onlyUse()) {
                if (state.layout().find(d).filter(x -> x instanceof Disk).isEmpty()) {
                    throw new PlanOpFailure("Disk \"" + d + "\" given in ignoredisk command does not exist.");
                }
            }
        }
        for (Disk d : state.layout().disks()) {
            if (ignore != null && !ignore.onlyUse().isEmpty() && !ignore.onlyUse().contains(d.name())) {
                continue;
            }
            if (ignore != null && ignore.ignored().contains(d.name())) {
                continue;
            }
            out.add(d);
        }
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    private static List<String> names(List<Disk> disks) {
        return disks.stream().map(Disk::name).toList();
    }

    // blivet clear_partitions: clearpart --all clears every used disk (or --drives), --linux the ones whose
    // partitions all hold Linux data; a cleared disk gets a new label (--disklabel, else gpt)
    private List<String> clearpart(PlanState state) {
        List<Disk> used = usable(state);
        List<String> out = new ArrayList<>();
        List<String> drives = clear.drives();
        for (String d : drives) {
            if (used.stream().noneMatch(x -> x.name().equals(d))) {
                throw new PlanOpFailure("Disk \"" + d + "\" given in clearpart command does not exist.");
            }
        }
        if (clear.mode() == ClearMode.NONE && !clear.initLabel()) {
            return List.of("nothing cleared (--none)");
        }
        for (Disk d : used) {
            if (!drives.isEmpty() && !drives.contains(d.name())) {
                continue;
            }
            List<Partition> existing = state.partitions(d.name());
            if (clear.mode() == ClearMode.LINUX) {
                List<String> other = new ArrayList<>();
                for (Partition p : existing) {
                    boolean linux = state.layout().physicalVolume(p.name()).isPresent()
                            || state.filesystem(p.name()).isPresent() || state.holder(p.name()).isPresent();
                    if (!linux) {
                        other.add(p.name());
                    }
                }
                if (!other.isEmpty()) {
                    out.add(d.name() + ": kept (" + String.join(", ", other) + " hold data the model does not know "
                            + "as Linux)");
                    continue;
                }
            } else if (clear.mode() == ClearMode.NONE && !existing.isEmpty()) {
                out.add(d.name() + ": kept (--none; --initlabel applies to disks without partitions)");
                continue;
            }
            PartitionTableType type = clear.label().orElse(PartitionTableType.GPT);
            state.removePartitions(d.name(), "clearpart");
            state.add(new LayoutStep.CreatePartitionTable(d.name(), type, List.of()));
            out.add(d.name() + ": " + existing.size() + " partition" + (existing.size() == 1 ? "" : "s")
                    + " removed, new " + type.name().toLowerCase(java.util.Locale.ROOT) + " label");
        }
        return out;
    }

    // libparted arch/linux.c: linux_get_optimum_alignment and linux_get_minimum_alignment, in the disk's
    // logical sectors (1 MiB when io_opt and io_min divide it, else io_opt, else io_min)
    static DiskGeom geometry(Disk d, PartitionTableType label, List<long[]> existing) {
        QueueLimits l = d.limits();
        long lbs = l.logicalBlockSize();
        long length = Math.multiplyExact(d.size().count(), 512) / lbs;
        long offset = l.alignmentOffset() / lbs;
        Align minimal = new Align(offset, Math.max(1, l.ioMin() / lbs));
        long opt = l.ioOpt();
        long min = l.ioMin();
        Align optimal;
        if ((opt == 0 || MIB % opt == 0) && (min == 0 || MIB % min == 0)) {
            optimal = new Align(offset, MIB / lbs);
        } else if (opt == 0) {
            optimal = minimal;
        } else {
            optimal = new Align(offset, Math.max(1, opt / lbs));
        }
        return new DiskGeom(d.name(), length, lbs, optimal, minimal, label, existing);
    }

    // ---- part: every partition placed together (blivet do_partitioning), then this line's formats

    private List<String> part(PlanState state, KsLine line) {
        Run run = run(state);
        List<String> out = new ArrayList<>();
        if (run.device.isEmpty()) {
            out.addAll(allocate(state, run));
        }
        for (Part p : parts) {
            if (p.line() != line) {
                continue;
            }
            String dev = run.device.get(p);
            if (dev == null) {
                continue;
            }
            out.add(run.placedText.get(p));
            out.addAll(format(state, p, dev, line.origin()));
        }
        return out;
    }

    private List<String> allocate(PlanState state, Run run) {
        List<Disk> used = usable(state);
        List<DiskGeom> geoms = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Disk d : used) {
            List<long[]> existing = new ArrayList<>();
            long lbs512 = d.limits().logicalBlockSize() / 512;
            for (Partition p : state.partitions(d.name())) {
                long s = p.start().count() / lbs512;
                existing.add(new long[] {p.number(), s, s + p.size().count() / lbs512 - 1});
            }
            Optional<PartitionTableType> label = state.label(d.name());
            if (label.isEmpty() && !existing.isEmpty()) {
                notes.add(d.name() + ": label type not known (partitions from the host): read as gpt");
            }
            geoms.add(geometry(d, label.orElse(clear != null ? clear.label().orElse(PartitionTableType.GPT)
                    : PartitionTableType.GPT), existing));
        }
        // --onpart requests use an existing device; the rest are new partitions
        List<Request> requests = new ArrayList<>();
        Map<Integer, Part> byId = new java.util.HashMap<>();
        boolean hasBoot = parts.stream().anyMatch(p -> p.mount().equals("/boot"));
        for (Part p : parts) {
            if (p.onPart().isPresent()) {
                String ref = p.onPart().get();
                BlockDevice d = state.layout().find(ref).orElseThrow(() -> new PlanOpFailure("Partition \"" + ref
                        + "\" given in part command does not exist."));
                run.device.put(p, d.name());
                run.placedText.put(p, p.mount() + " on " + d.name() + " (--onpart, " + d.size().count()
                        + " sectors)");
                continue;
            }
            for (String disk : p.disks()) {
                if (state.layout().find(disk).filter(x -> x instanceof Disk).isEmpty()) {
                    throw new PlanOpFailure("Disk \"" + disk + "\" given in part command does not exist.");
                }
                if (used.stream().noneMatch(x -> x.name().equals(disk))) {
                    throw new PlanOpFailure("Disk \"" + disk + "\" given in part command is ignored (ignoredisk).");
                }
            }
            int id = requests.size();
            // do_partitioning(boot_disk=...): /boot, or / without one, is the bootable partition
            boolean bootable = p.mount().equals("/boot") || (!hasBoot && p.mount().equals("/"));
            requests.add(new Request(id, p.mount(), Math.multiplyExact(p.sizeMiB(), MIB), p.grow(),
                    Math.multiplyExact(p.maxMiB(), MIB), p.disks(), p.primary(), p.weight(), bootable,
                    p.role() == Role.FILESYSTEM || p.role() == Role.EFI || p.role() == Role.NONE
                            ? (p.role() == Role.NONE ? "" : p.mount()) : null));
            byId.put(id, p);
        }
        if (requests.isEmpty()) {
            return notes;
        }
        BlivetPartitioning.Result r;
        try {
            r = BlivetPartitioning.place(geoms, requests);
        } catch (PartitioningError e) {
            throw new PlanOpFailure(e.getMessage());
        }
        for (DiskGeom g : geoms) {
            List<Placed> mine = new ArrayList<>();
            for (Placed p : r.partitions()) {
                if (p.disk().equals(g.name())) {
                    mine.add(p);
                }
            }
            for (Placed e : r.extended()) {
                if (e.disk().equals(g.name())) {
                    mine.add(e);
                }
            }
            if (mine.isEmpty()) {
                continue;
            }
            mine.sort((a, b) -> Integer.compare(a.number(), b.number()));
            write(state, g, mine);
            long grain = g.optimal().grain() * g.sectorBytes();
            notes.add(g.name() + ": " + g.label().name().toLowerCase(java.util.Locale.ROOT) + ", " + mine.size()
                    + " new partition" + (mine.size() == 1 ? "" : "s") + ", aligned to " + BlivetLvm.mib(grain)
                    .replace(" B", " bytes") + " (libparted's optimal alignment)");
        }
        for (Placed p : r.partitions()) {
            Part part = byId.get(p.request().id());
            DiskGeom g = geoms.stream().filter(x -> x.name().equals(p.disk())).findFirst().orElseThrow();
            long f = g.sectorBytes() / 512;
            String name = state.layout().partitions().stream().filter(x -> x.disk().equals(p.disk())
                    && x.number() == p.number()).findFirst().map(Partition::name).orElse(p.disk() + p.number());
            run.device.put(part, name);
            long bytes = p.length() * g.sectorBytes();
            run.placedText.put(part, part.mount() + " on " + name + ": sectors " + (p.start() * f) + "-"
                    + ((p.end() + 1) * f - 1) + " (" + BlivetLvm.mib(bytes) + ")"
                    + (p.type() == Type.LOGICAL ? ", logical" : ""));
        }
        return notes;
    }

    // the partitions as the kernel reads the new table: primaries 1..n in the table, an extended partition as
    // the kernel's 2-sector (one logical block on 4Kn) stub, logical partitions from 5
    private static void write(PlanState state, DiskGeom g, List<Placed> mine) {
        long f = g.sectorBytes() / 512;
        boolean fresh = g.existing().isEmpty();
        List<LayoutStep> steps = new ArrayList<>();
        List<PartitionSpec> primaries = new ArrayList<>();
        List<Placed> rest = new ArrayList<>();
        int expect = 1;
        for (Placed p : mine) {
            if (fresh && p.type() == Type.NORMAL && p.number() == expect) {
                primaries.add(PartitionSpec.at(Sectors.of(p.start() * f), Sectors.of(p.length() * f)));
                expect++;
            } else {
                rest.add(p);
            }
        }
        if (fresh) {
            state.removePartitions(g.name(), "anaconda");
            steps.add(new LayoutStep.CreatePartitionTable(g.name(), g.label(), primaries));
        }
        for (Placed p : rest) {
            long size = p.type() == Type.EXTENDED ? Math.min(p.length() * f, Math.max(f, 2)) : p.length() * f;
            steps.add(new LayoutStep.AddPartition(g.name(), p.number(), Sectors.of(p.start() * f), Sectors.of(size),
                    Optional.empty(), Optional.empty()));
        }
        state.add(steps);
    }

    // blivet's formats: lvmpv by pvcreate (libblockdev bd_lvm_pvcreate: pvcreate DEVICE -y), filesystems by mkfs
    private List<String> format(PlanState state, Part p, String dev, Origin at) {
        if (!p.format()) {
            return mount(state, dev, p.mount(), p.fstype(), at, "(--noformat)");
        }
        switch (p.role()) {
            case PV -> {
                state.name(p.mount(), dev);
                return run(state, at, "pvcreate", "/dev/" + dev, "-y");
            }
            case SWAP -> {
                return List.of("/dev/" + dev + ": swap (mkswap; no block-layer effect)");
            }
            case BIOSBOOT -> {
                return List.of("/dev/" + dev + ": BIOS boot partition (no filesystem)");
            }
            case EFI -> {
                return List.of("/dev/" + dev + ": EFI system partition (vfat, not made by the model)");
            }
            default -> {
                return mkfsAndMount(state, dev, p.mount(), p.fstype(), at);
            }
        }
    }

    private List<String> mkfsAndMount(PlanState state, String dev, String mount, String fstype, Origin at) {
        List<String> out = new ArrayList<>();
        String path = dev.startsWith("/") ? dev : "/dev/" + dev;
        if (fstype.equals("xfs") || fstype.equals("ext4")) {
            out.addAll(run(state, at, "mkfs." + fstype, path));
            if (!mount.isEmpty() && !mount.equals("None")) {
                out.addAll(run(state, at, "mount", path, mount));
            }
        } else {
            out.add(path + ": " + fstype + " (not made by the model)");
        }
        return out;
    }

    private List<String> mount(PlanState state, String dev, String mount, String fstype, Origin at, String why) {
        if (mount.startsWith("/")) {
            return run(state, at, "mount", "/dev/" + dev, mount);
        }
        return List.of("/dev/" + dev + ": used as it is " + why);
    }

    /** Runs the command anaconda's tool runs, read by the shell reader, with this line's origin. */
    private static List<String> run(PlanState state, Origin at, String... words) {
        List<Word> w = new ArrayList<>();
        for (String s : words) {
            w.add(new Word(s, at.line(), at.column()));
        }
        ShellCommand c = new ShellCommand(at, w, Optional.empty(), 0);
        List<String> out = new ArrayList<>();
        for (String r : ShellPlanReader.command(c).apply(state)) {
            out.add(String.join(" ", words) + ": " + r);
        }
        if (out.isEmpty()) {
            out.add(String.join(" ", words));
        }
        return out;
    }

    // ---- volgroup: blivet's sizes for the VG and its LVs, then vgcreate (libblockdev bd_lvm_vgcreate:
    // vgcreate -s PESIZEK NAME PV...)

    private List<String> volgroup(PlanState state, VolGroup g) {
        Run run = run(state);
        List<String> devices = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        for (String pv : g.pvs()) {
            String dev = state.named(pv).orElseThrow(() -> new PlanOpFailure("Tried to use undefined partition \""
                    + pv + "\" in Volume Group specification"));
            devices.add("/dev/" + dev);
            sizes.add(Math.multiplyExact(state.device(dev, "vgcreate").size().count(), 512));
        }
        long pe = Math.multiplyExact(g.peKiB(), 1024);
        List<LogVol> mine = lvs.stream().filter(v -> v.vg().equals(g.name())).toList();
        BlivetLvm.VgSizes s;
        try {
            s = BlivetLvm.size(g.name(), sizes, pe, g.reservedMiB(), g.reservedPercent(), mine);
        } catch (BlivetLvm.LvmError e) {
            throw new PlanOpFailure(e.getMessage());
        }
        run.vgs.put(g.name(), s);
        List<String> words = new ArrayList<>(List.of("vgcreate", "-s", g.peKiB() + "K", g.name()));
        words.addAll(devices);
        List<String> out = new ArrayList<>();
        out.add("blivet: " + s.extents() + " extents of " + BlivetLvm.mib(pe) + " (each PV less its 1 MiB pe_start)");
        out.addAll(run(state, g.line().origin(), words.toArray(String[]::new)));
        return out;
    }

    // ---- logvol: libblockdev bd_lvm_lvcreate (lvcreate -n NAME -L SIZEK -y VG), bd_lvm_thpoolcreate
    // (lvcreate -T -L SIZEK --poolmetadatasize=MDK --chunksize=CK VG/POOL), bd_lvm_thlvcreate
    // (lvcreate -T VG/POOL -V SIZEK -n NAME)

    private List<String> logvol(PlanState state, LogVol v) {
        BlivetLvm.VgSizes s = run(state).vgs.get(v.vg());
        if (s == null) {
            throw new PlanOpFailure("No volume group exists with the name \"" + v.vg() + "\".");
        }
        BlivetLvm.Sized z = s.lvs().get(v);
        Origin at = v.line().origin();
        List<String> out = new ArrayList<>();
        out.add("blivet: " + BlivetLvm.mib(z.bytes()) + (v.thinPool() ? ", metadata " + BlivetLvm.mib(z.metadataBytes())
                + ", chunk " + (z.chunkBytes() / 1024) + " KiB" : ""));
        if (z.bytes() <= 0) {
            throw new PlanOpFailure("logical volume " + v.vg() + "/" + v.name() + " has no space left (size "
                    + z.bytes() + ")");
        }
        if (v.thinPool()) {
            out.addAll(run(state, at, "lvcreate", "-T", "-L", z.bytes() / 1024 + "K", "--poolmetadatasize="
                    + z.metadataBytes() / 1024 + "K", "--chunksize=" + z.chunkBytes() / 1024 + "K", v.vg() + "/"
                    + v.name()));
            return out;
        }
        if (v.thin()) {
            out.addAll(run(state, at, "lvcreate", "-T", v.vg() + "/" + v.pool(), "-V", z.bytes() / 1024 + "K", "-n",
                    v.name()));
        } else {
            out.addAll(run(state, at, "lvcreate", "-n", v.name(), "-L", z.bytes() / 1024 + "K", "-y", v.vg()));
        }
        String path = "/dev/" + v.vg() + "/" + v.name();
        if (v.swap()) {
            out.add(path + ": swap (mkswap; no block-layer effect)");
        } else {
            out.addAll(mkfsAndMount(state, path, v.mount(), v.fstype(), at));
        }
        return out;
    }

    String source() {
        return source;
    }

    boolean zerombr() {
        return zerombr;
    }
}
