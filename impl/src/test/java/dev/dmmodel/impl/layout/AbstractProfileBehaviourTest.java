package dev.dmmodel.impl.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.IoJob;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The block-layer behaviour of one kernel profile, run once per {@link KernelProfile} preset (one subclass
 * each), in the manner of Jimfs's per-configuration integration tests: the stacks and workloads are here,
 * and each subclass gives its kernel's own numbers where the kernels differ, with the working and its
 * source (the recordings' READMEs and the rules documented on the preset).
 *
 * <p>The limits stack is the recorded {@code limits-sd-512e-ioopt448k} configuration ({@code shared/
 * kernel-traces} for 6.1, {@code kernel-traces-6.12} for 6.12): scsi_debug disks of 64 MiB with 512-byte
 * logical and 4 KiB physical blocks ({@code physblk_exp=3}), io_min 64 KiB ({@code opt_xferlen_exp=7}) and
 * io_opt 448 KiB ({@code opt_blks=896}); {@code strdisks} is dm-striped with two 128-sector chunks over two
 * whole disks; {@code pool64k} and {@code pool1m} are thin pools with 128- and 2048-sector blocks on linear
 * pieces of a third disk, each with a thin device.
 */
abstract class AbstractProfileBehaviourTest {

    /** The profile under test. */
    abstract KernelProfile profile();

    /** max_sectors of a qemu AHCI disk ({@code max_hw_sectors} 65535, no io_opt). */
    abstract long ahciMaxSectors();

    /** max_sectors of the scsi_debug disk with io_opt 448 KiB. */
    abstract long ioOptDiskMaxSectors();

    /** minimum_io_size and optimal_io_size of that disk, in bytes. */
    abstract long[] ioOptDiskIoMinAndIoOpt();

    /** chunk_sectors and optimal_io_size (bytes) of {@code strdisks}. */
    abstract long[] stripedChunkSectorsAndIoOpt();

    /** max_sectors, minimum_io_size and optimal_io_size (bytes) of the 1 MiB-block pool. */
    abstract long[] pool1mMaxSectorsIoMinIoOpt();

    /** discard_granularity (bytes) and max_discard_sectors of the thin device on the 64 KiB-block pool. */
    abstract long[] thin64kDiscardGranularityAndMaxSectors();

    /**
     * The bios ({@code sector+sectors}) a 1 MiB {@code O_DIRECT} write makes at a dm-linear device over a
     * qemu AHCI disk: whole, or as built to fit the top queue.
     */
    abstract List<String> oneMibDirectWriteAtDm();

    /**
     * The readahead bios at a dm-linear device of a {@code dd bs=8192 count=4} read after an XFS with 512-byte
     * sectors was made and mounted on it (soft block size 512).
     */
    abstract List<String> readaheadBiosWith512ByteBuffers();

    /**
     * How many requests are issued back to back, in order, when a 1 MiB {@code O_DIRECT} write goes to a
     * 3ware disk (max_sectors 256, so eight 256-sector requests that cannot merge): the plug's thresholds.
     */
    abstract List<Integer> plugIssueBatches();

    /**
     * The sector at which an empty flush to a dm-linear device at offset 8192 reaches the disk, or empty if
     * the kernel had no empty flushes.
     */
    abstract OptionalLong emptyFlushSectorOnTheDisk();

    // ---- stacks

    private Layout ahciStack() {
        return Layout.builder(profile())
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(16)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(16)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .dmsetupCreate("lin", t -> t.linear(Sectors.of(1 << 20), "sdb", Sectors.of(8192)))
                .pvcreate("sda1")
                .vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
    }

    private Layout limitsStack() {
        // 64 MiB = 131072 sectors
        DiskSpec disk = DiskPresets.scsiDebug(512, 4096, 896).toBuilder().ioMin(65536).size(Sectors.of(131072))
                .build();
        return Layout.builder(profile())
                .disk("sda", disk).disk("sdb", disk).disk("sdc", disk)
                .dmsetupCreate("strdisks", t -> t.striped(Sectors.of(262144), 128, List.of(
                        new StripedTarget.Stripe("sda", Sectors.ZERO), new StripedTarget.Stripe("sdb", Sectors.ZERO))))
                .dmsetupCreate("tmeta64k", t -> t.linear(Sectors.of(8192), "sdc", Sectors.ZERO))
                .dmsetupCreate("tdata64k", t -> t.linear(Sectors.of(32768), "sdc", Sectors.of(8192)))
                .dmsetupCreate("pool64k", t -> t.thinPool(Sectors.of(32768), "tmeta64k", "tdata64k", 128, 0))
                .dmsetupCreate("thin64k", t -> t.thin(Sectors.of(65536), "pool64k", 0))
                .dmsetupCreate("tmeta1m", t -> t.linear(Sectors.of(8192), "sdc", Sectors.of(40960)))
                .dmsetupCreate("tdata1m", t -> t.linear(Sectors.of(32768), "sdc", Sectors.of(49152)))
                .dmsetupCreate("pool1m", t -> t.thinPool(Sectors.of(32768), "tmeta1m", "tdata1m", 2048, 0))
                .dmsetupCreate("thin1m", t -> t.thin(Sectors.of(65536), "pool1m", 0))
                .build();
    }

    private static List<TraceEvent> run(Layout layout, String script) {
        List<TraceEvent> events = new ArrayList<>();
        for (CommandResult r : Simulation.of(layout).run(Script.parse(script), events::add)) {
            assertThat(r.ok()).as(r.command().line() + ": " + r.message()).isTrue();
        }
        return events;
    }

    private static List<String> bios(List<TraceEvent> events, String device) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == EventType.BIO_QUEUE)
                .map(e -> e.sector() + "+" + e.nrSectors()).collect(Collectors.toList());
    }

    /** {@code n} one-sector bios from sector 0: one bio per 512-byte buffer. */
    static List<String> oneSectorBios(int n) {
        return IntStream.range(0, n).mapToObj(i -> i + "+1").collect(Collectors.toList());
    }

    // ---- behaviour every profile shares

    @Test
    void aPartitionSharesItsDisksLimitsExceptItsAlignment() {
        Layout l = ahciStack();
        QueueLimits disk = l.limits("sda");
        QueueLimits part = l.limits("sda1");
        assertThat(part.toBuilder().alignmentOffset(disk.alignmentOffset()).discardAlignment(disk.discardAlignment())
                .build()).isEqualTo(disk);
    }

    @Test
    void dmLinearOverAWholeAhciDiskTakesItsHardwareLimits() {
        QueueLimits dm = ahciStack().limits("lin");
        // AHCI_MAX_SG 168 segments of 64 KiB, ATA_MAX_SECTORS_LBA48 65535; blk_stack_limits takes the minimum
        // of the dm defaults and the disk's
        assertThat(dm.logicalBlockSize()).isEqualTo(512);
        assertThat(dm.maxSegments()).isEqualTo(168);
        assertThat(dm.maxSegmentSize()).isEqualTo(65536);
        assertThat(dm.maxHwSectors()).isEqualTo(65535);
        assertThat(dm.maxSectors()).isEqualTo(ahciMaxSectors());
        assertThat(dm.sysfsAlignmentOffset()).isZero();
    }

    @Test
    void everyQueueHasAPageAtLeastAndNoMoreThanItsHardwareLimit() {
        for (BlockDevice d : limitsStack().devices()) {
            assertThat(d.limits().maxSectors()).as(d.name()).isBetween(8L, d.limits().maxHwSectors());
        }
    }

    @Test
    void lvmTwoZeroThreePutsTheDataAreaAtOneMiBWithoutTopology() {
        // no io_min/io_opt on an AHCI disk: pe_start is LVM 2.03's default 1 MiB (2048 sectors)
        Layout l = ahciStack();
        assertThat(l.physicalVolume("sda1").orElseThrow().peStart()).isEqualTo(Sectors.of(2048));
        // 1G = 2097152 sectors; sda1 is 8:1; the LV starts at pe_start
        assertThat(l.dmsetupTable()).contains("vg-lv: 0 2097152 linear 8:1 2048");
    }

    @Test
    void buildingTwiceGivesEqualLayouts() {
        assertThat(limitsStack().devices()).isEqualTo(limitsStack().devices());
    }

    // ---- behaviour that differs between kernels

    @Test
    void anAhciDiskGetsTheProfilesMaxSectorsCap() {
        assertThat(ahciStack().limits("sda").maxSectors()).isEqualTo(ahciMaxSectors());
    }

    @Test
    void sdWithAnOptimalTransferLength() {
        QueueLimits disk = limitsStack().limits("sda");
        assertThat(disk.maxSectors()).isEqualTo(ioOptDiskMaxSectors());
        assertThat(new long[] {disk.ioMin(), disk.ioOpt()}).containsExactly(ioOptDiskIoMinAndIoOpt());
    }

    @Test
    void dmStripedChunkSectorsAndIoOpt() {
        QueueLimits striped = limitsStack().limits("strdisks");
        assertThat(new long[] {striped.chunkSectors(), striped.ioOpt()})
                .containsExactly(stripedChunkSectorsAndIoOpt());
    }

    @Test
    void thinPoolIoHints() {
        QueueLimits pool = limitsStack().limits("pool1m");
        assertThat(new long[] {pool.maxSectors(), pool.ioMin(), pool.ioOpt()})
                .containsExactly(pool1mMaxSectorsIoMinIoOpt());
    }

    @Test
    void thinDiscardLimits() {
        QueueLimits thin = limitsStack().limits("thin64k");
        assertThat(new long[] {thin.discardGranularity(), thin.maxDiscardSectors()})
                .containsExactly(thin64kDiscardGranularityAndMaxSectors());
    }

    @Test
    void bioSizeAtDmOfAOneMibDirectWrite() {
        List<TraceEvent> ev = run(ahciStack(), "dd if=/dev/zero of=/dev/mapper/lin bs=1M count=1 oflag=direct");
        assertThat(bios(ev, "dm-0")).isEqualTo(oneMibDirectWriteAtDm());
    }

    @Test
    void readaheadWithA512ByteSoftBlockSize() {
        List<TraceEvent> ev = run(ahciStack(), """
                mkfs.xfs -s size=512 /dev/mapper/lin
                mount /dev/mapper/lin /mnt
                echo 3 > /proc/sys/vm/drop_caches
                dd if=/dev/mapper/lin of=/dev/null bs=8192 count=4
                """);
        assertThat(bios(ev, "dm-0")).isEqualTo(readaheadBiosWith512ByteBuffers());
    }

    @Test
    void plugThresholds() {
        Layout l = Layout.builder(profile()).disk("sda", DiskPresets.threeWare(2).withSize(Bytes.gib(1))).build();
        List<TraceEvent> ev = run(l, "dd if=/dev/zero of=/dev/sda bs=1M count=1 oflag=direct");
        List<Integer> batches = new ArrayList<>();
        int run = 0;
        for (TraceEvent e : ev) {
            if (!e.device().equals("sda")) {
                continue;
            }
            if (e.type() == EventType.RQ_ISSUE) {
                run++;
            } else if (e.type() == EventType.GETRQ && run > 0) {
                batches.add(run);
                run = 0;
            }
        }
        batches.add(run);
        assertThat(batches).isEqualTo(plugIssueBatches());
    }

    @Test
    void emptyFlushRemapSector() {
        OptionalLong expected = emptyFlushSectorOnTheDisk();
        assumeTrue(expected.isPresent(), profile() + " has no empty flush bios");
        List<TraceEvent> ev = new ArrayList<>();
        Simulation.of(ahciStack()).run(IoJob.builder().target("/dev/mapper/lin").flush().blockSize(4096).size(4096)
                .build(), ev::add);
        assertThat(ev).filteredOn(e -> e.device().equals("sdb") && e.type() == EventType.BIO_REMAP)
                .extracting(TraceEvent::sector).containsExactly(expected.getAsLong());
    }
}
