package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.Source;
import dev.dmmodel.workload.IoJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Generates random but valid cases from the choices of a {@link Source}: 1–3 disks from the presets (scsi_debug with 512 or 4096-byte
 * logical blocks, qemu AHCI, NVMe, hardware RAID 5 of 3–8 disks), 64 MiB – 16 GiB; optional msdos
 * partitions (at 63, at 2048 or placed by parted's optimal alignment); then either LVM (pvcreate, vgcreate,
 * one or two linear or striped LVs of 1–3 stripes with power-of-two stripe sizes 4 KiB – 1 MiB) or tables
 * written by hand (linear and striped targets, possibly a second level of dm devices on the first), and now and
 * then a dm-crypt device on top (512- or 4096-byte crypt sectors, a data offset); kernel
 * 6.12 or 6.1. The workload is a few dd-like direct writes and reads and buffered writes (and now and then
 * a buffered read) at random aligned offsets, some near table boundaries and the end of the device, with
 * sizes from one logical block to several MiB (so that dm splits and disk splits happen), or an fio-style
 * job, then {@code sync}. The direct-I/O buffer is scattered pages, 2 MiB huge pages, or runs in between
 * ({@code EngineOptions}).
 */
final class CaseGen {
    static final long MIB = 1 << 20;

    private final Choices r;
    private final KernelProfile profile;
    private LayoutBuilder builder;
    private final List<String> script = new ArrayList<>();
    /** Next free sector per device, for hand-made tables (areas never overlap). */
    private final Map<String, Long> cursor = new HashMap<>();
    private int sdIndex;
    private int nvmeIndex;

    private CaseGen(Choices r, List<KernelProfile> profiles) {
        this.r = r;
        this.profile = profiles.isEmpty() ? (r.nextBoolean() ? KernelProfile.LINUX_6_12 : KernelProfile.LINUX_6_1)
                : profiles.get(r.nextInt(profiles.size()));
        this.builder = Layout.builder(profile);
        script.add("Layout.builder(KernelProfile." + profile.name().toUpperCase(java.util.Locale.ROOT)
                .replace('-', '_').replace('.', '_') + ")");
    }

    /** The cases, as a generator with integrated shrinking: kernel 6.12 or 6.1. */
    static Gen<Case> cases() {
        return CaseGen::generate;
    }

    /**
     * The cases under the given kernel profiles (one of them per case, shrinking towards the first), e.g.
     * {@link KernelProfile#presets()}; the stacks and workloads are those of {@link #cases()}.
     */
    static Gen<Case> cases(List<KernelProfile> profiles) {
        if (profiles.isEmpty()) {
            throw new IllegalArgumentException("no kernel profiles");
        }
        List<KernelProfile> copy = List.copyOf(profiles);
        return s -> generate(s, copy);
    }

    /** The case the choices of {@code source} make. */
    static Case generate(Source source) {
        return generate(source, List.of());
    }

    private static Case generate(Source source, List<KernelProfile> profiles) {
        CaseGen g = new CaseGen(new Choices(source), profiles);
        String target;
        Layout layout;
        try {
            target = g.stack();
            layout = g.builder.build();
        } catch (Source.Discard e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalStateException("the stack so far:\n    " + String.join("\n    ", g.script), e);
        }
        List<Case.Op> ops = new Workload(g.r, layout, target).generate();
        List<String> script = new ArrayList<>(g.script);
        script.add(".build();");
        int buffer = g.r.nextInt(10);
        EngineOptions options = buffer < 7 ? EngineOptions.DEFAULTS
                : buffer < 9 ? EngineOptions.HUGE_PAGES : new EngineOptions(4096L << (1 + g.r.nextInt(8)));
        return new Case(script, layout, options, target, ops);
    }

    // ---- the stack

    /** Builds the stack; returns the path the workload targets. */
    private String stack() {
        // one disk, then another with probability 1/2, at most three: each disk one span, so that shrinking
        // deletes disks
        List<String> diskNames = new ArrayList<>();
        diskNames.add(r.span(this::disk));
        while (diskNames.size() < 3) {
            String more = r.maybe(0.5, this::disk);
            if (more == null) {
                break;
            }
            diskNames.add(more);
        }
        Layout l = builder.build();
        List<String> bases = new ArrayList<>();
        for (String d : diskNames) {
            if (r.nextInt(5) >= 3) {
                partition(d, l);
                Layout withParts = builder.build();
                for (var p : withParts.partitions()) {
                    if (p.disk().equals(d)) {
                        bases.add(p.name());
                    }
                }
            } else {
                bases.add(d);
            }
        }
        String top = r.nextBoolean() ? lvm(bases) : handMade(bases);
        // dm-crypt on top with probability 1/4, one span: shrinking drops it
        String crypt = r.maybe(0.25, () -> crypt(top));
        return crypt != null ? crypt : top;
    }

    /**
     * A dm-crypt device {@code c0} over the whole of {@code under} past a data offset (none, 4 KiB, 1 MiB or
     * LUKS2's 16 MiB), with 512- or 4096-byte crypt sectors (4096 over a 4 KiB-sector device), with or without
     * {@code allow_discards}.
     */
    private String crypt(String under) {
        Layout l = builder.build();
        dev.dmmodel.device.BlockDevice d = l.device(under);
        long size = d.size().count();
        long lbs = d.limits().logicalBlockSize() / 512;
        int sectorSize = lbs >= 8 || r.nextBoolean() ? 4096 : 512;
        long unit = Math.max(lbs, sectorSize / 512);
        long offset = new long[] {0, 8, 2048, 32768}[r.nextInt(4)];
        if (size - offset < 64 * unit) {
            offset = 0;
        }
        long length = roundDown(size - offset, unit);
        if (length < unit) {
            return null;
        }
        boolean discards = r.nextBoolean();
        builder.dmsetupCreate("c0", DmTable.builder().add(new dev.dmmodel.dm.CryptTarget(Sectors.ZERO,
                Sectors.of(length), "aes-xts-plain64", "-", Sectors.ZERO, d.name(), Sectors.of(offset), sectorSize,
                discards, false, List.of())).build());
        script.add(".dmsetupCreate(\"c0\", DmTable.builder().add(new CryptTarget(Sectors.ZERO, Sectors.of(" + length
                + "), \"aes-xts-plain64\", \"-\", Sectors.ZERO, \"" + d.name() + "\", Sectors.of(" + offset + "), "
                + sectorSize + ", " + discards + ", false, List.of())).build())");
        return "/dev/mapper/c0";
    }

    private String disk() {
        DiskSpec spec;
        String java;
        long lbs = 1;
        long optBlocks = r.nextBoolean() ? 0 : 1024;
        switch (r.nextInt(5)) {
            case 0: {
                long pbs = r.nextBoolean() ? 512 : 4096;
                spec = DiskPresets.scsiDebug(512, pbs, optBlocks);
                java = "DiskPresets.scsiDebug(512, " + pbs + ", " + optBlocks + ")";
                break;
            }
            case 1:
                spec = DiskPresets.scsiDebug(4096, 4096, optBlocks);
                java = "DiskPresets.scsiDebug(4096, 4096, " + optBlocks + ")";
                lbs = 8;
                break;
            case 2:
                spec = DiskPresets.qemuAhci();
                java = "DiskPresets.qemuAhci()";
                break;
            case 3:
                spec = DiskPresets.nvmeSsd();
                java = "DiskPresets.nvmeSsd()";
                break;
            default: {
                int n = 3 + r.nextInt(6);
                long chunkKib = 32L << r.nextInt(5);
                spec = DiskPresets.hardwareRaid(RaidLevel.RAID5, n, Bytes.kib(chunkKib));
                java = "DiskPresets.hardwareRaid(RaidLevel.RAID5, " + n + ", Bytes.kib(" + chunkKib + "))";
                if (r.nextInt(4) == 3) {
                    // a controller that exports its chunk as chunk_sectors (as md and some drivers do)
                    spec = spec.toBuilder().chunkSectors(chunkKib * 2).build();
                    java += ".toBuilder().chunkSectors(" + chunkKib * 2 + ").build()";
                }
                break;
            }
        }
        long sectors = logUniform(64, 16384) * 2048;
        if (r.nextInt(4) == 3) {
            sectors += lbs * r.nextLong(2048 / lbs);
        }
        DiskSpec built = spec.withSize(Sectors.of(sectors));
        String name = built.driver() == DiskDriver.NVME ? "nvme" + nvmeIndex++ + "n1" : "sd" + (char) ('a' + sdIndex++);
        builder.disk(name, built);
        script.add(".disk(\"" + name + "\", " + java + ".withSize(Sectors.of(" + sectors + ")))");
        if (r.nextInt(6) == 5) {
            // echo KB > /sys/block/NAME/queue/max_sectors_kb, from a page up (every preset allows 512 KiB)
            long kb = new long[] {4, 8, 12, 20, 64, 128, 252, 512}[r.nextInt(8)];
            if (kb * 2 >= lbs) {
                builder.maxSectorsKb(name, kb);
                script.add(".maxSectorsKb(\"" + name + "\", " + kb + ")");
            }
        }
        return name;
    }

    private void partition(String disk, Layout l) {
        BlockDevice d = l.device(disk);
        long lbs = d.limits().logicalBlockSize() / 512;
        long sectors = d.size().count();
        int parts = 1 + r.nextInt(2);
        int startKind = r.nextInt(3);
        if (startKind == 0 && lbs != 1) {
            startKind = 1;
        }
        Long size1 = null;
        if (parts == 2 || r.nextInt(3) == 2) {
            size1 = roundDown(sectors / 2 - r.nextLong(sectors / 8), lbs);
        }
        List<PartitionSpec> specs = new ArrayList<>();
        List<String> java = new ArrayList<>();
        if (startKind == 2) {
            specs.add(PartitionSpec.optimal(Optional.ofNullable(size1).map(Sectors::of)));
            java.add("PartitionSpec.optimal(" + (size1 == null ? "Optional.empty()"
                    : "Optional.of(Sectors.of(" + size1 + "))") + ")");
        } else {
            long start = startKind == 0 ? 63 : 2048;
            if (size1 == null) {
                specs.add(PartitionSpec.atToEnd(Sectors.of(start)));
                java.add("PartitionSpec.atToEnd(Sectors.of(" + start + "))");
            } else {
                specs.add(PartitionSpec.at(Sectors.of(start), Sectors.of(size1)));
                java.add("PartitionSpec.at(Sectors.of(" + start + "), Sectors.of(" + size1 + "))");
            }
        }
        if (parts == 2) {
            specs.add(PartitionSpec.optimal(Optional.empty()));
            java.add("PartitionSpec.optimal(Optional.empty())");
        }
        builder.partitionTable(disk, PartitionTableType.MSDOS, specs.toArray(new PartitionSpec[0]));
        script.add(".partitionTable(\"" + disk + "\", PartitionTableType.MSDOS, " + String.join(", ", java) + ")");
    }

    private String lvm(List<String> bases) {
        // LVM 2.03 (allow_mixed_block_sizes = 0) puts only PVs of one logical block size in a VG
        Layout l0 = builder.build();
        long lbs = l0.device(bases.get(r.nextInt(bases.size()))).limits().logicalBlockSize();
        List<String> pvs = new ArrayList<>();
        for (String b : bases) {
            if (l0.device(b).limits().logicalBlockSize() == lbs && r.nextInt(4) != 0) {
                pvs.add(b);
            }
        }
        if (pvs.isEmpty()) {
            bases.stream().filter(b -> l0.device(b).limits().logicalBlockSize() == lbs).findFirst().ifPresent(pvs::add);
        }
        for (String pv : pvs) {
            builder.pvcreate(pv);
            script.add(".pvcreate(\"" + pv + "\")");
        }
        builder.vgcreate("vg", pvs.toArray(new String[0]));
        script.add(".vgcreate(\"vg\", \"" + String.join("\", \"", pvs) + "\")");
        int lvs = 1 + r.nextInt(2);
        List<String> created = new ArrayList<>();
        for (int i = 0; i < lvs; i++) {
            Layout l = builder.build();
            VolumeGroup vg = l.volumeGroup("vg").orElseThrow();
            List<String> withFree = new ArrayList<>();
            Map<String, Long> free = new HashMap<>();
            for (String pv : pvs) {
                long f = vg.extentTable().freeRanges(pv).stream().mapToLong(ExtentRange::count).sum();
                free.put(pv, f);
                if (f > 0) {
                    withFree.add(pv);
                }
            }
            if (withFree.isEmpty()) {
                break;
            }
            shuffle(withFree);
            String name = "lv" + i;
            LvCreateRequest.Builder req = LvCreateRequest.builder(name);
            String java;
            int stripes = 1 + r.nextInt(Math.min(3, withFree.size()));
            if (stripes == 1) {
                List<String> on = withFree.subList(0, withFree.size() > 1 && r.nextInt(3) == 2 ? 2 : 1);
                long max = on.stream().mapToLong(free::get).sum();
                long extents = logUniform(1, max);
                req.extents(extents).onPvs(on.toArray(new String[0]));
                java = "LvCreateRequest.builder(\"" + name + "\").extents(" + extents + ").onPvs(\""
                        + String.join("\", \"", on) + "\").build()";
            } else {
                List<String> on = withFree.subList(0, stripes);
                long perStripe = logUniform(1, on.stream().mapToLong(free::get).min().orElseThrow());
                long stripeKib = 4L << r.nextInt(9);
                req.extents(perStripe * stripes).stripes(stripes).stripeSize(Bytes.kib(stripeKib))
                        .onPvs(on.toArray(new String[0]));
                java = "LvCreateRequest.builder(\"" + name + "\").extents(" + perStripe * stripes + ").stripes("
                        + stripes + ").stripeSize(Bytes.kib(" + stripeKib + ")).onPvs(\"" + String.join("\", \"", on)
                        + "\").build()";
            }
            List<LayoutStep> before = builder.steps();
            builder.lvcreate("vg", req.build());
            try {
                builder.build();
            } catch (LayoutException e) {
                // lvcreate refused an allocation the generator thought fits: drop it, note it in the case
                builder = Layout.builder(profile);
                before.forEach(builder::step);
                script.add("// refused: .lvcreate(\"vg\", " + java + "): " + e.getMessage());
                if (created.isEmpty()) {
                    throw e;
                }
                break;
            }
            script.add(".lvcreate(\"vg\", " + java + ")");
            created.add("/dev/vg/" + name);
        }
        return created.get(r.nextInt(created.size()));
    }

    private String handMade(List<String> bases) {
        Layout l = builder.build();
        int level1 = 1 + r.nextInt(2);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < level1; i++) {
            String name = "t" + i;
            if (table(name, bases, l)) {
                names.add(name);
            }
        }
        if (names.isEmpty()) {
            throw new IllegalStateException("generator: no level-1 table fits on " + bases);
        }
        if (r.nextInt(5) >= 3) {
            Layout mid = builder.build();
            if (table("top", names, mid)) {
                return "/dev/mapper/top";
            }
        }
        return "/dev/mapper/" + names.get(r.nextInt(names.size()));
    }

    /** One table of 1–3 linear or striped targets on areas of {@code devices} not used before. */
    private boolean table(String name, List<String> devices, Layout l) {
        long g = 1;
        for (String d : devices) {
            g = Math.max(g, l.device(d).limits().logicalBlockSize() / 512);
        }
        if (g == 1) {
            g = new long[] {1, 1, 8, 2048}[r.nextInt(4)];
        }
        DmTable.Builder t = DmTable.builder();
        StringBuilder java = new StringBuilder("t -> t");
        int targets = 1 + r.nextInt(3);
        int added = 0;
        for (int i = 0; i < targets; i++) {
            boolean striped = r.nextBoolean();
            boolean ok = striped ? striped(t, java, devices, l, g) : linear(t, java, devices, l, g);
            if (!ok) {
                ok = striped ? linear(t, java, devices, l, g) : striped(t, java, devices, l, g);
            }
            if (ok) {
                added++;
            }
        }
        if (added == 0) {
            return false;
        }
        builder.dmsetupCreate(name, t.build());
        script.add(".dmsetupCreate(\"" + name + "\", " + java + ")");
        return true;
    }

    private long free(String dev, Layout l, long align) {
        long size = l.device(dev).size().count();
        return Math.max(0, size - roundUp(cursor.getOrDefault(dev, 0L), align));
    }

    /** Takes {@code len} sectors of {@code dev} after what earlier targets took, maybe after a gap. */
    private long alloc(String dev, Layout l, long len, long align, long reserve) {
        long size = l.device(dev).size().count() - reserve;
        long at = roundUp(cursor.getOrDefault(dev, 0L), align);
        long room = size - at - len;
        if (room < 0) {
            throw new IllegalStateException("generator: " + len + " sectors do not fit on " + dev);
        }
        if (room > 0 && r.nextInt(4) == 3) {
            // flush with the end of the device (or of the room left for later stripes)
            at = roundDown(size - len, align);
        } else if (room > 0 && r.nextBoolean()) {
            long gapped = roundUp(at + r.nextLong(Math.min(room, 1 << 21) + 1), align);
            if (gapped + len <= size) {
                at = gapped;
            }
        }
        cursor.put(dev, at + len);
        return at;
    }

    private long areaAlign(String dev, Layout l, long g) {
        return Math.max(g, l.device(dev).limits().logicalBlockSize() / 512);
    }

    private boolean linear(DmTable.Builder t, StringBuilder java, List<String> devices, Layout l, long g) {
        String dev = devices.get(r.nextInt(devices.size()));
        long align = areaAlign(dev, l, g);
        long max = Math.min(roundDown(free(dev, l, align), align), 8L << 20);
        long min = roundUp(256, align);
        if (max < min) {
            return false;
        }
        long len = Math.max(min, roundDown(logUniform(min, max), align));
        long off = alloc(dev, l, len, align, 0);
        t.linear(Sectors.of(len), dev, Sectors.of(off));
        java.append(".linear(Sectors.of(").append(len).append("), \"").append(dev).append("\", Sectors.of(")
                .append(off).append("))");
        return true;
    }

    private boolean striped(DmTable.Builder t, StringBuilder java, List<String> devices, Layout l, long g) {
        int k = 1 + r.nextInt(3);
        List<String> on = new ArrayList<>();
        Map<String, Integer> uses = new HashMap<>();
        for (int i = 0; i < k; i++) {
            String d = devices.get(r.nextInt(devices.size()));
            on.add(d);
            uses.merge(d, 1, Integer::sum);
        }
        long chunk = 8L << r.nextInt(9);
        long maxRows = (4L << 20) / chunk;
        for (Map.Entry<String, Integer> e : uses.entrySet()) {
            long align = areaAlign(e.getKey(), l, g);
            long usable = free(e.getKey(), l, align) - e.getValue() * (align + chunk);
            maxRows = Math.min(maxRows, usable / e.getValue() / chunk);
        }
        if (maxRows < 1) {
            return false;
        }
        long width = logUniform(1, maxRows) * chunk;
        List<StripedTarget.Stripe> stripes = new ArrayList<>();
        List<String> javaStripes = new ArrayList<>();
        for (String d : on) {
            // leave room for this device's later stripes of the same target
            int later = uses.merge(d, -1, Integer::sum);
            long off = alloc(d, l, width, areaAlign(d, l, g), later * (width + areaAlign(d, l, g)));
            stripes.add(new StripedTarget.Stripe(d, Sectors.of(off)));
            javaStripes.add("new StripedTarget.Stripe(\"" + d + "\", Sectors.of(" + off + "))");
        }
        t.striped(Sectors.of(width * k), chunk, stripes);
        java.append(".striped(Sectors.of(").append(width * k).append("), ").append(chunk).append(", List.of(")
                .append(String.join(", ", javaStripes)).append("))");
        return true;
    }

    // ---- the workload

    /** The workload on one target. */
    static final class Workload {
        private final Choices r;
        private final String target;
        private final long sizeBytes;
        private final long lbs;
        /** Byte offsets of the target worth crossing: target starts, stripe chunk boundaries. */
        private final List<Long> boundaries = new ArrayList<>();

        Workload(Choices r, Layout layout, String target) {
            this.r = r;
            this.target = target;
            BlockDevice t = layout.device(target);
            this.sizeBytes = t.size().count() * 512;
            this.lbs = t.limits().logicalBlockSize();
            if (t instanceof DmDevice dm) {
                for (DmTarget ti : dm.table().targets()) {
                    if (ti.start().count() > 0) {
                        boundaries.add(ti.start().count() * 512);
                    }
                    if (ti instanceof StripedTarget st) {
                        long chunks = ti.length().count() / st.chunkSectors();
                        boundaries.add((ti.start().count() + st.chunkSectors() * (1 + r.nextLong(chunks))) * 512);
                    }
                }
            }
        }

        List<Case.Op> generate() {
            List<Case.Op> ops = new ArrayList<>();
            // one operation, then another with probability 3/5, at most five: each one span, so that
            // shrinking deletes operations
            ops.add(r.span(this::operation));
            while (ops.size() < 5) {
                Case.Op more = r.maybe(0.6, this::operation);
                if (more == null) {
                    break;
                }
                ops.add(more);
            }
            ops.add(new Case.CommandOp(Case.Kind.SYNC, Commands.sync(), 0, 0, "Commands.sync()"));
            return ops;
        }

        private Case.Op operation() {
            int w = r.nextInt(100);
            if (w < 30) {
                return direct(true);
            } else if (w < 48) {
                return direct(false);
            } else if (w < 68) {
                return buffered(true);
            } else if (w < 73) {
                return buffered(false);
            }
            return job();
        }

        private Case.Op direct(boolean write) {
            long bs;
            switch (r.nextInt(4)) {
                case 0:
                    bs = lbs * (1 + r.nextInt(16));
                    break;
                case 1:
                    bs = MIB;
                    break;
                case 2:
                    bs = Math.max(lbs, 4096L << r.nextInt(9));
                    break;
                default:
                    bs = roundDown(logUniform(MIB + 1, 8 * MIB), lbs);
                    break;
            }
            long count = 1 + r.nextInt(bs >= MIB ? 2 : 4);
            if (bs * count > sizeBytes) {
                count = 1;
                bs = Math.max(lbs, roundDown(Math.min(bs, sizeBytes), lbs));
            }
            long off = offset(bs * count, lbs);
            String args = "(\"" + target + "\", " + bs + ", " + count + ", " + off + ")";
            return write
                    ? new Case.CommandOp(Case.Kind.DIRECT_WRITE, Commands.directWrite(target, bs, count, off), off,
                            bs * count, "Commands.directWrite" + args)
                    : new Case.CommandOp(Case.Kind.DIRECT_READ, Commands.directRead(target, bs, count, off), off,
                            bs * count, "Commands.directRead" + args);
        }

        private Case.Op buffered(boolean write) {
            long unit = Math.max(4096, lbs);
            long bs = Math.max(unit, 4096L << r.nextInt(9));
            long count = 1 + r.nextInt((int) Math.max(1, Math.min(4, 2 * MIB / bs)));
            long room = roundDown(sizeBytes, unit);
            if (bs * count > room) {
                count = 1;
                bs = Math.max(unit, roundDown(Math.min(bs, room), unit));
            }
            long off = Math.min(offset(bs * count, unit), roundDown(room - bs * count, unit));
            if (write) {
                int sync = r.nextInt(6);
                if (sync >= 2) {
                    return new Case.CommandOp(Case.Kind.BUFFERED_WRITE, Commands.bufferedWrite(target, bs, count, off),
                            off, bs * count, "Commands.bufferedWrite(\"" + target + "\", " + bs + ", " + count + ", "
                            + off + ")");
                }
                return new Case.CommandOp(Case.Kind.BUFFERED_WRITE, Commands.bufferedWriteSynced(target, bs, count,
                        off, sync == 1), off, bs * count, "Commands.bufferedWriteSynced(\"" + target + "\", " + bs
                        + ", " + count + ", " + off + ", " + (sync == 1) + ")");
            }
            return new Case.CommandOp(Case.Kind.BUFFERED_READ, Commands.bufferedRead(target, bs, count, off), off,
                            bs * count, "Commands.bufferedRead(\"" + target + "\", " + bs + ", " + count + ", " + off
                            + ")");
        }

        private Case.Op job() {
            boolean direct = r.nextInt(3) != 0;
            long unit = direct ? lbs : Math.max(4096, lbs);
            long bs = r.nextInt(3) == 0 ? unit * (1 + r.nextInt(8))
                    : Math.max(unit, 4096L << r.nextInt(direct ? 9 : 7));
            int maxOps = direct ? (bs >= MIB ? 4 : 32) : 8;
            long ops = 1 + r.nextInt(maxOps);
            long room = roundDown(sizeBytes, unit);
            while (ops > 1 && bs * ops > room) {
                ops /= 2;
            }
            if (bs * ops > room) {
                bs = Math.max(unit, roundDown(room, unit));
                ops = 1;
            }
            long size = bs * ops;
            long off = Math.min(offset(size, unit), roundDown(room - size, unit));
            IoJob.Builder b = IoJob.builder().target(target).blockSize(bs).size(size).offset(off).direct(direct);
            StringBuilder java = new StringBuilder("IoJob.builder().target(\"" + target + "\")");
            if (r.nextBoolean()) {
                long seed = r.nextLong();
                b.random(seed);
                java.append(".random(").append(seed).append("L)");
            } else {
                b.sequential();
                java.append(".sequential()");
            }
            int op = direct ? r.nextInt(3) : 1;
            if (op == 0) {
                b.read();
                java.append(".read()");
            } else if (op == 1) {
                b.write();
                java.append(".write()");
            } else {
                b.mixed(50);
                java.append(".mixed(50)");
            }
            java.append(".blockSize(").append(bs).append(").size(").append(size).append(").offset(").append(off)
                    .append(").direct(").append(direct).append(").build()");
            return new Case.JobOp(b.build(), java.toString());
        }

        /** An offset for {@code total} bytes in whole {@code unit}s: anywhere, across a boundary, or at the end. */
        private long offset(long total, long unit) {
            long maxOff = roundDown(sizeBytes - total, unit);
            long gran = Math.max(unit, new long[] {unit, 4096, 65536, MIB}[r.nextInt(4)]);
            int mode = r.nextInt(20);
            long off;
            if (mode < 10 || (mode < 15 && boundaries.isEmpty())) {
                off = roundDown(r.nextLong(maxOff + 1), gran);
            } else if (mode < 15) {
                long b = boundaries.get(r.nextInt(boundaries.size()));
                off = b - unit * (1 + r.nextLong(Math.max(1, total / unit)));
            } else {
                off = maxOff - unit * r.nextInt(4);
            }
            return roundDown(Math.max(0, Math.min(off, maxOff)), unit);
        }

        private long logUniform(long lo, long hi) {
            return r.logUniform(lo, hi);
        }
    }

    // ---- helpers

    private long logUniform(long lo, long hi) {
        return r.logUniform(lo, hi);
    }

    private void shuffle(List<String> list) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            String t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
    }

    static long roundDown(long v, long unit) {
        return v / unit * unit;
    }

    static long roundUp(long v, long unit) {
        return (v + unit - 1) / unit * unit;
    }
}
