package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.IoJob;
import dev.dmmodel.workload.Script;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The domain generators: valid by construction, reaching what they promise, shrinking where they should. */
class DmGensTest {

    Gen<StackPlan> stacks() {
        return DmGens.stacks();
    }

    Gen<StackPlan> unfilteredStacksOfEveryKernel() {
        return DmGens.kernelProfiles().flatMap(p -> DmGens.unfilteredStacks(p, 3));
    }

    Gen<Gen.Pair<StackPlan.Disk, StackPlan.PartitionTable>> partitionedDisks() {
        return DmGens.disks().flatMap(d -> DmGens.partitionTables(d).map(t -> new Gen.Pair<>(d, t)));
    }

    static <T> T shrunk(Gen<T> gen, long seed, Property.Check<T> check) {
        return GenTest.shrunk(gen, seed, check);
    }

    // ---- valid by construction

    @PropertyTest(tries = 1000)
    void everyStackBuildsUnderEveryKernelWithoutTheSafetyNet(@ForAll("unfilteredStacksOfEveryKernel") StackPlan plan) {
        Layout layout = plan.build();
        assertThat(layout.disks()).hasSameSizeAs(plan.disks());
        assertThat(layout.partitions()).hasSameSizeAs(plan.partitionNames());
        for (String lv : plan.lvPaths()) {
            assertThat(layout.find(lv)).as(lv).isPresent();
        }
        if (plan.profile().thinPoolIoHints() == KernelProfile.ThinPoolIoHints.NONE) {
            assertThat(plan.thinPools()).isEmpty();
        }
    }

    @PropertyTest(tries = 1000)
    void stacksAreWellFormed(@ForAll("stacks") StackPlan plan) {
        assertThat(plan.disks()).hasSizeBetween(1, 3);
        assertThat(plan.disks().stream().map(StackPlan.Disk::name).distinct()).hasSameSizeAs(plan.disks());
        for (StackPlan.Disk d : plan.disks()) {
            assertThat(d.sizeBytes()).isBetween(256L << 20, 4L << 40);
        }
        for (StackPlan.Lv lv : plan.logicalVolumes()) {
            assertThat(lv.extents()).isPositive();
            assertThat(lv.physicalVolumes()).hasSize(lv.stripes()).doesNotHaveDuplicates();
            assertThat(lv.extents() % lv.stripes()).isZero();
        }
        for (StackPlan.ThinPool p : plan.thinPools()) {
            assertThat(p.chunkBytes() % 65536).isZero();
            assertThat(p.chunkBytes()).isBetween(65536L, 1L << 30)
                    .isLessThanOrEqualTo(p.extents() * plan.volumeGroup().orElseThrow().extentBytes());
        }
        assertThat(plan.toString()).startsWith("Layout.builder(KernelProfile.LINUX_6_12)").endsWith(".build()");
    }

    @PropertyTest(tries = 1000)
    void partitionTablesFitTheirDisks(
            @ForAll("partitionedDisks") Gen.Pair<StackPlan.Disk, StackPlan.PartitionTable> p) {
        StackPlan.Disk disk = p.first();
        StackPlan.PartitionTable table = p.second();
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12).disk(disk.name(), disk.spec())
                .partitionTable(disk.name(), table.type(), table.partitions().toArray(new PartitionSpec[0])).build();
        assertThat(layout.partitions()).hasSize(table.partitions().size()).hasSizeBetween(1, 4);
        PartitionSpec first = table.partitions().get(0);
        if (first.start().map(s -> s.count() == 63).orElse(false)) {
            assertThat(table.type()).isEqualTo(PartitionTableType.MSDOS);
            assertThat(disk.logicalBlockSize()).isEqualTo(512);
        }
        for (var part : layout.partitions()) {
            assertThat(part.size().count()).isGreaterThanOrEqualTo((64L << 20) / 512);
        }
    }

    @Test
    void theGeneratorsReachWhatTheyPromise() {
        AtomicInteger legacy = new AtomicInteger();
        AtomicInteger gpt = new AtomicInteger();
        AtomicInteger striped = new AtomicInteger();
        AtomicInteger thin = new AtomicInteger();
        AtomicInteger zeroOff = new AtomicInteger();
        AtomicInteger overridden = new AtomicInteger();
        AtomicInteger raid = new AtomicInteger();
        AtomicInteger fourKn = new AtomicInteger();
        AtomicInteger noLvm = new AtomicInteger();
        Property.forAll(DmGens.stacks()).seed(1).tries(1000).check(plan -> {
            for (StackPlan.PartitionTable t : plan.partitionTables()) {
                legacy.addAndGet(t.partitions().get(0).start().map(s -> s.count() == 63 ? 1 : 0).orElse(0));
                gpt.addAndGet(t.type() == PartitionTableType.GPT ? 1 : 0);
            }
            striped.addAndGet((int) plan.logicalVolumes().stream().filter(StackPlan.Lv::striped).count());
            thin.addAndGet(plan.thinPools().size());
            zeroOff.addAndGet((int) plan.thinPools().stream().filter(p -> !p.zero()).count());
            for (StackPlan.Disk d : plan.disks()) {
                overridden.addAndGet(d.hasLimitOverrides() ? 1 : 0);
                raid.addAndGet(d.preset().startsWith("DiskPresets.hardwareRaid") ? 1 : 0);
                fourKn.addAndGet(d.logicalBlockSize() == 4096 ? 1 : 0);
            }
            noLvm.addAndGet(plan.volumeGroup().isEmpty() ? 1 : 0);
        });
        for (AtomicInteger n : List.of(legacy, gpt, striped, thin, zeroOff, overridden, raid, fourKn, noLvm)) {
            assertThat(n.get()).isGreaterThan(20);
        }
    }

    @Test
    void targetStacksReachEveryLayerAndBuild() {
        // every layer kind of targetStacks occurs and every plan builds: crypt over an LV or a disk, a snapshot pair
        // over two LVs, multipath over two disks (the rarest: no LVM, two unpartitioned disks of one block size)
        java.util.Map<String, Integer> seen = new java.util.TreeMap<>();
        Property.forAll(DmGens.targetStacks(KernelProfile.LINUX_6_12)).seed(1).tries(1000).check(plan -> {
            Layout layout = plan.build();
            for (StackPlan.DmLayer l : plan.dmLayers()) {
                seen.merge(l.table().targets().get(0).type(), 1, Integer::sum);
                assertThat(layout.find("/dev/mapper/" + l.name())).as(l.name()).isPresent();
            }
        });
        assertThat(seen).containsKeys("crypt", "snapshot-origin", "snapshot", "multipath", "writecache");
        assertThat(seen.get("crypt")).isGreaterThan(50);
        assertThat(seen.get("snapshot")).isGreaterThan(10);
    }

    @PropertyTest(tries = 1000)
    void thinBlockSizesAreWhatDmThinAccepts(@ForAll("thinBlocks") long bytes) {
        assertThat(bytes % 65536).isZero();
        assertThat(bytes).isBetween(65536L, 1L << 30);
    }

    Gen<Long> thinBlocks() {
        return DmGens.thinBlockSizes();
    }

    // ---- workloads

    Gen<Gen.Pair<Layout, Command.Dd>> ddOnStacks() {
        return DmGens.stacks().flatMap(plan -> {
            Layout layout = plan.build();
            String device = plan.lvPaths().isEmpty() ? "/dev/" + plan.disks().get(0).name() : plan.lvPaths().get(0);
            return DmGens.dd(layout, device).map(dd -> new Gen.Pair<>(layout, dd));
        });
    }

    Gen<Gen.Pair<Layout, IoJob>> jobsOnStacks() {
        return DmGens.stacks().flatMap(plan -> {
            Layout layout = plan.build();
            String device = plan.lvPaths().isEmpty() ? "/dev/" + plan.disks().get(0).name()
                    : plan.lvPaths().get(plan.lvPaths().size() - 1);
            return DmGens.ioJobs(layout, device).map(job -> new Gen.Pair<>(layout, job));
        });
    }

    @PropertyTest(tries = 1000)
    void ddCommandsStayInsideTheirDeviceAndRun(@ForAll("ddOnStacks") Gen.Pair<Layout, Command.Dd> p) {
        Command.Dd dd = p.second();
        boolean write = dd.input().equals("/dev/zero");
        BlockDevice device = p.first().device(write ? dd.output() : dd.input());
        long offset = write ? dd.seekBytes() : dd.skipBytes();
        assertThat(offset + dd.count().orElseThrow()).isLessThanOrEqualTo(device.size().count() * 512);
        CommandResult r = Simulation.of(p.first()).execute(dd, e -> { });
        assertThat(r.ok()).as("%s: %s", dd.line(), r.message()).isTrue();
        assertThat(r.bytes()).isEqualTo(dd.count().orElseThrow());
    }

    @PropertyTest(tries = 1000)
    void ioJobsStayInsideTheirDeviceAndRun(@ForAll("jobsOnStacks") Gen.Pair<Layout, IoJob> p) {
        IoJob job = p.second();
        BlockDevice device = p.first().device(job.target());
        assertThat(job.offset() + job.size()).isLessThanOrEqualTo(device.size().count() * 512);
        java.util.List<dev.dmmodel.trace.TraceEvent> events = new java.util.ArrayList<>();
        JobResult r = Simulation.of(p.first()).run(job, events::add);
        // the generator makes size = bs x ops, every op aligned to the logical block (O_DIRECT) or the page and
        // inside the device: every op is submitted, and each that does not fail moves bs bytes
        assertThat(r.job()).isSameAs(job);
        assertThat(r.operations()).isEqualTo(job.size() / job.blockSize());
        assertThat(r.bytes()).isEqualTo((r.operations() - r.errors()) * job.blockSize());
        assertThat(r.firstError().isEmpty()).as("no first error <=> no error: '%s'", r.firstError())
                .isEqualTo(r.errors() == 0);
        OptionalLong poolBlocks = poolBlocks(p.first(), device);
        if (poolBlocks.isEmpty()) {
            assertThat(r.errors()).as("errors on a stack without thin provisioning; first: %s", r.firstError()).isZero();
        } else {
            // a thin device may be larger than its pool: a job fails only when the pool blocks its bytes touch
            // (from offset / block to the end of the job rounded up), all unprovisioned in a fresh pool, are
            // more than the pool has, and then only with dm-thin's out-of-space error
            long block = poolBlockBytes(p.first(), device);
            long touched = ceilDiv(job.offset() + job.size(), block) - job.offset() / block;
            if (touched <= poolBlocks.getAsLong() || job.operation() == IoJob.Operation.READ) {
                assertThat(r.errors()).as("errors; first: %s", r.firstError()).isZero();
            } else if (r.errors() > 0) {
                assertThat(r.firstError()).contains("out of data space");
            }
        }
        if (job.direct()) {
            // O_DIRECT bypasses the page cache: the bios the job submits to its device are exactly its bytes
            long queued = events.stream().filter(e -> e.type() == dev.dmmodel.trace.EventType.BIO_QUEUE
                    && e.device().equals(device.name())).mapToLong(dev.dmmodel.trace.TraceEvent::nrSectors).sum();
            assertThat(queued * 512).as("bytes queued at %s", device.name()).isEqualTo(job.size());
        }
    }

    /** Data blocks of the pool under a thin device, or empty for any other device. */
    private static OptionalLong poolBlocks(Layout layout, BlockDevice device) {
        if (device instanceof DmDevice dm && dm.table().targets().get(0) instanceof ThinTarget t) {
            DmDevice pool = (DmDevice) layout.device(t.poolDevice());
            ThinPoolTarget pt = (ThinPoolTarget) pool.table().targets().get(0);
            return OptionalLong.of(pt.length().count() / pt.blockSectors());
        }
        return OptionalLong.empty();
    }

    private static long poolBlockBytes(Layout layout, BlockDevice device) {
        ThinTarget t = (ThinTarget) ((DmDevice) device).table().targets().get(0);
        DmDevice pool = (DmDevice) layout.device(t.poolDevice());
        return ((ThinPoolTarget) pool.table().targets().get(0)).blockSectors() * 512;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    Gen<Gen.Pair<Layout, Script>> thinWorkloads() {
        return DmGens.thinPools().flatMap(l -> DmGens.thinScripts(l).map(s -> new Gen.Pair<>(l, s)));
    }

    @PropertyTest(tries = 300)
    void thinPoolsAreWhatTheyPromiseAndTheirScriptsRun(@ForAll("thinWorkloads") Gen.Pair<Layout, Script> p) {
        Layout layout = p.first();
        DmDevice pool = (DmDevice) layout.device("/dev/mapper/pool");
        ThinPoolTarget pt = (ThinPoolTarget) pool.table().targets().get(0);
        assertThat(pt.blockSectors()).isBetween(128L, 2048L);
        assertThat(pt.blockSectors() % 128).isZero();
        long thins = layout.dmDevices().stream().filter(d -> d.table().targets().get(0) instanceof ThinTarget).count();
        assertThat(thins).isBetween(1L, 4L);
        // room for every thin device and the hidden snapshots to map all their blocks
        long thinSectors = layout.device("/dev/mapper/thin0").size().count();
        assertThat(pt.length().count())
                .isGreaterThanOrEqualTo((thins + DmGens.MAX_HIDDEN_SNAPSHOTS) * thinSectors);
        Simulation sim = Simulation.of(layout);
        for (CommandResult r : sim.run(p.second(), e -> { })) {
            assertThat(r.ok()).as("%s: %s", r.command().line(), r.message()).isTrue();
        }
        // it ends reading every thin device whole
        List<Command> cmds = p.second().commands();
        assertThat(cmds.get(cmds.size() - 1).line()).startsWith("dd if=/dev/mapper/thin" + (thins - 1) + " ");
    }

    // ---- shrinking

    @Test
    void aThinWorkloadShrinksToOneDiscardOfOneBlock() {
        Gen.Pair<Layout, Script> p = shrunk(thinWorkloads(), 9, w -> assertThat(w.second().commands())
                .noneMatch(c -> c instanceof Command.Blkdiscard));
        assertThat(p.first().dmsetupTable()).isEqualTo("""
                pool: 0 896 thin-pool 253:0 253:1 128 0 0\s
                tdata: 0 896 linear 8:0 8192
                thin0: 0 128 thin 253:2 0
                tmeta: 0 8192 linear 8:0 0
                """);
        assertThat(p.second().commands()).extracting(Command::line).containsExactly(
                "blkdiscard -o 0 -l 65536 /dev/mapper/thin0",
                "dd if=/dev/mapper/thin0 of=/dev/null bs=65536 count=1 skip=0 iflag=direct,skip_bytes");
    }

    @Test
    void aStripedLvShrinksToOneDiskInTwoPartitionsAndTwoExtents() {
        // two PVs are needed: the fewest choices make them two partitions of one disk
        StackPlan plan = shrunk(DmGens.stacks(), 1,
                s -> assertThat(s.logicalVolumes()).noneMatch(StackPlan.Lv::striped));
        assertThat(plan.toString()).isEqualTo("""
                Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("sda", DiskPresets.ahciSata().withSize(Bytes.mib(256)))
                    .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.at(Sectors.of(2048), \
                Bytes.mib(64).toSectors()), PartitionSpec.optimal(Optional.empty()))
                    .pvcreate("sda1")
                    .pvcreate("sda2")
                    .vgcreate("vg0", "sda1", "sda2")
                    .lvcreate("vg0", LvCreateRequest.builder("lv0").extents(2).stripes(2).stripeSize(Bytes.kib(64))\
                .onPvs("sda1", "sda2").build())
                    .build()""");
    }

    @Test
    void aCryptLayerShrinksToOneOverTheSmallestStack() {
        // the property "no dm layer" fails as soon as a crypt layer is drawn; the shrinker keeps the layer and
        // removes everything else: one 256 MiB disk (524288 sectors) without LVM, the crypt device over all of
        // it with the simplest of each choice: 512-byte sectors (the 512-byte disk, bool false), no offset, no
        // allow_discards
        StackPlan plan = shrunk(DmGens.targetStacks(KernelProfile.LINUX_6_12), 3,
                s -> assertThat(s.dmLayers()).isEmpty());
        assertThat(plan.toString()).isEqualTo("""
                Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("sda", DiskPresets.ahciSata().withSize(Bytes.mib(256)))
                    .dmsetupCreate("c0", DmTable.builder().add(new CryptTarget(Sectors.ZERO, Sectors.of(524288), \
                "aes-xts-plain64", "-", Sectors.ZERO, "sda", Sectors.of(0), 512, false, false, List.of())).build())
                    .build()""");
        assertThat(plan.build().device("/dev/mapper/c0").limits().logicalBlockSize()).isEqualTo(512);
    }

    @Test
    void aThinPoolShrinksToTheSmallestPool() {
        StackPlan plan = shrunk(DmGens.stacks(), 2, s -> assertThat(s.thinPools()).isEmpty());
        assertThat(plan.toString()).isEqualTo("""
                Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("sda", DiskPresets.ahciSata().withSize(Bytes.mib(256)))
                    .pvcreate("sda")
                    .vgcreate("vg0", "sda")
                    .lvcreate("vg0", LvCreateRequest.builder("lv0").extents(1).onPvs("sda").build())
                    .lvcreateThinPool("vg0", ThinPoolRequest.builder("pool0").extents(1).chunkSize(Bytes.kib(64))\
                .build())
                    .lvcreateThin("vg0", new ThinLvRequest("thin0", Bytes.mib(1), "pool0"))
                    .build()""");
    }

    @Test
    void aLegacyPartitionShrinksToOneDiskWithOnePartitionAt63() {
        StackPlan plan = shrunk(DmGens.stacks(), 3, s -> assertThat(s.partitionTables())
                .noneMatch(t -> t.partitions().get(0).start().map(x -> x.count() == 63).orElse(false)));
        assertThat(plan.toString()).isEqualTo("""
                Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("sda", DiskPresets.ahciSata().withSize(Bytes.mib(256)))
                    .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                    .build()""");
    }

    @Test
    void limitsShrinkBackToThePresets() {
        StackPlan.Disk disk = shrunk(DmGens.disks(), 4, d -> assertThat(d.hasLimitOverrides()).isFalse());
        assertThat(disk.preset()).isEqualTo("DiskPresets.ahciSata()");
        assertThat(disk.overrides()).hasSize(1);
        assertThat(disk.sizeBytes()).isEqualTo(256L << 20);
    }

    @Test
    void sizesShrinkToRoundNumbers() {
        assertThat(shrunk(DmGens.roundSizes(100L << 20, 1L << 40, 512), 5, v -> assertThat(v).isLessThan(0)))
                .isEqualTo(128L << 20);
        // above 3 GiB: the first power of two is 4 GiB
        assertThat(shrunk(DmGens.roundSizes(1L << 20, 1L << 40, 512), 6, v -> assertThat(v).isLessThan(3L << 30)))
                .isEqualTo(4L << 30);
        assertThat(shrunk(DmGens.thinBlockSizes(), 7, v -> assertThat(v).isLessThan(100_000))).isEqualTo(128L << 10);
    }

    @Test
    void ddShrinksToOneSmallDirectWriteAtZero() {
        Command.Dd dd = shrunk(DmGens.dd("/dev/sda", 1L << 30, 512), 8, c -> assertThat(c).isNull());
        assertThat(dd.line()).isEqualTo("dd if=/dev/zero of=/dev/sda bs=4096 count=1 seek=0 oflag=direct,seek_bytes");
    }

    @Test
    void stackPlansPrintPasteableJava() {
        StackPlan plan = DmGens.stacks().sample(11);
        assertThat(plan.javaLines()).allMatch(l -> l.startsWith("."));
        assertThat(plan.toString().lines().count()).isEqualTo(plan.javaLines().size() + 2L);
        assertThat(StackPlan.sizeJava(2048)).isEqualTo("Bytes.mib(1)");
        assertThat(StackPlan.sizeJava(4097)).isEqualTo("Sectors.of(4097)");
        assertThat(StackPlan.bytesJava(3L << 40)).isEqualTo("Bytes.tib(3)");
        assertThat(StackPlan.sectorsJava(4096)).isEqualTo("Bytes.mib(2).toSectors()");
    }
}
