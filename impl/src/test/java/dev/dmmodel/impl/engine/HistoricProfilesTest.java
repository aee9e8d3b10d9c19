package dev.dmmodel.impl.engine;

import static dev.dmmodel.impl.engine.EngineTestSupport.bufferedRead;
import static dev.dmmodel.impl.engine.EngineTestSupport.bufferedWrite;
import static dev.dmmodel.impl.engine.EngineTestSupport.directWrite;
import static dev.dmmodel.impl.engine.EngineTestSupport.of;
import static dev.dmmodel.impl.engine.EngineTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Command;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seeds' numbers under the kernels they happened on. */
class HistoricProfilesTest {

    /** Seed 004: a thin pool with 1 MiB blocks whose data device is an AHCI disk, a thin volume on it. */
    static Layout seed004(KernelProfile p) {
        return Layout.builder(p)
                .disk("sdg", DiskPresets.ahciSata().withSize(Bytes.parse("3TB")))
                .disk("sdh", DiskPresets.ahciSataSsd().withSize(Bytes.parse("128GB")))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.parse("2TiB"), "sdh", "sdg", 2048, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.parse("100GiB"), "pool", 0))
                .build();
    }

    @Test
    void seed004On310WithMaxSectorsRaisedGives1344Plus704AtTheThinDevice() {
        Simulation sim = Simulation.of(seed004(KernelProfile.LINUX_3_10));
        // thin's queue: max_sectors 1024 (BLK_DEF_MAX_SECTORS), max_segments 168 (AHCI), 32767 KiB hardware limit
        assertThat(sim.layout().limits("thin").maxSectorsKb()).isEqualTo(512);
        assertThat(sim.layout().limits("thin").maxSegments()).isEqualTo(168);
        List<TraceEvent> ev = run(sim, new Command.SysfsWrite("echo 2048 > /sys/block/dm-1/queue/max_sectors_kb",
                "/sys/block/dm-1/queue/max_sectors_kb", "2048"), directWrite("/dev/mapper/thin", 1 << 20, 2, 0));
        // bio_get_nr_vecs = min(168, 4096/8 + 1, 256) = 168 pages = 1344 sectors; the rest of the block 704
        assertThat(of(ev, "dm-1", EventType.BIO_QUEUE)).containsExactly("0+1344", "1344+704", "2048+1344",
                "3392+704");
        // neither covers the 2048-sector block, so each new block is zeroed first: two 1024-sector kcopyd writes
        assertThat(of(ev, "dm-0", EventType.BIO_QUEUE)).filteredOn(s -> s.endsWith("+1024")).hasSize(4);
    }

    /**
     * Found by the testkit's engine invariants and shrunk to this: before 4.3 dm-io builds kcopyd's bios page by
     * page for the destination queue ({@code do_region}: {@code bio_get_nr_vecs}, {@code bio_add_page}), so
     * zeroing a 256 KiB block on a 3ware disk with max_sectors 256 goes out as two 256-sector bios, and no request
     * exceeds max_sectors.
     */
    @Test
    void kcopydBiosAreBuiltForTheQueueBefore43() {
        Layout l = Layout.builder(KernelProfile.LINUX_3_10)
                .disk("sda", DiskPresets.threeWare(2).withSize(Bytes.mib(256)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sda", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(4096), "sda", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(4096), "tmeta", "tdata", 512, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.of(4096), "pool", 0))
                .build();
        assertThat(l.limits("sda").maxSectors()).isEqualTo(256);
        List<TraceEvent> ev = run(l, directWrite("/dev/mapper/thin", 4096, 1, 0));
        // the 512-sector block is zeroed by two bios built to max_sectors, then the 8-sector write
        assertThat(of(ev, "dm-2", EventType.BIO_QUEUE)).containsExactly("0+256", "256+256", "0+8");
        assertThat(of(ev, "sda", EventType.RQ_ISSUE)).allMatch(r -> Long.parseLong(r.substring(r.indexOf('+') + 1)) <= 256);
        // since 4.3 the one 512-sector bio is split on entry to the disk's queue instead
        List<TraceEvent> now = run(Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.threeWare(2).withSize(Bytes.mib(256)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sda", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(4096), "sda", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(4096), "tmeta", "tdata", 512, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.of(4096), "pool", 0))
                .build(), directWrite("/dev/mapper/thin", 4096, 1, 0));
        assertThat(of(now, "dm-2", EventType.BIO_QUEUE)).containsExactly("0+512", "0+8");
        assertThat(of(now, "sda", EventType.SPLIT)).hasSize(1);
    }

    @Test
    void seed004On310WithTheStockCapGives1024Plus1024() {
        List<TraceEvent> ev = run(seed004(KernelProfile.LINUX_3_10), directWrite("/dev/mapper/thin", 1 << 20, 1, 0));
        // nr_vecs = min(168, 1024/8 + 1, 256) = 129, but max_sectors stops the bio at 128 pages
        assertThat(of(ev, "dm-1", EventType.BIO_QUEUE)).containsExactly("0+1024", "1024+1024");
    }

    @Test
    void seed004On61TheThinDeviceSeesWholeMiBsAndTheDiskSplits() {
        List<TraceEvent> ev = run(seed004(KernelProfile.LINUX_6_1), directWrite("/dev/mapper/thin", 1 << 20, 1, 0));
        assertThat(of(ev, "dm-1", EventType.BIO_QUEUE)).containsExactly("0+2048");
        // no zeroing: the bio overwrites the whole block
        assertThat(of(ev, "dm-0", EventType.BIO_QUEUE)).containsExactly("0+2048");
        assertThat(of(ev, "sdg", EventType.RQ_ISSUE)).containsExactly("0+1344", "1344+704");
    }

    /** Seed 001: an LV on a RAID 10 (PERC 6/i) partition, read raw with dd bs=8192 on 2.6.32. */
    static Layout seed001() {
        return Layout.builder(KernelProfile.LINUX_2_6_32)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID10, 6, Bytes.kib(256)).withSize(Bytes.gib(1024)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.optimal(java.util.Optional.empty()))
                .pvcreate("sda1")
                .vgcreate("my-vg", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.parse("32MiB")), "sda1")
                .lvcreate("my-vg", LvCreateRequest.builder("my-lv").extents(1000).build())
                .build();
    }

    @Test
    void seed001ReadaheadMakesOneBioPerBufferBefore318() {
        Simulation sim = Simulation.of(seed001());
        List<TraceEvent> before = run(sim, bufferedRead("/dev/my-vg/my-lv", 8192, 8));
        // soft block size 4096 (the LV is whole extents): one 8-sector bio per page
        assertThat(of(before, "dm-0", EventType.BIO_QUEUE)).allMatch(s -> s.endsWith("+8")).startsWith("0+8", "8+8");
        List<TraceEvent> mounted = run(sim, new Command.Mkfs("mkfs.xfs /dev/my-vg/my-lv", "xfs", 512,
                "/dev/my-vg/my-lv"), new Command.Mount("mount /dev/my-vg/my-lv /mnt", "xfs", "/dev/my-vg/my-lv",
                "/mnt"), new Command.DropCaches("echo 3 > /proc/sys/vm/drop_caches", 3),
                bufferedRead("/dev/my-vg/my-lv", 8192, 8));
        // XFS with 512-byte sectors set the soft block size to 512: eight 1-sector bios per page
        List<String> bios = of(mounted, "dm-0", EventType.BIO_QUEUE);
        assertThat(bios).allMatch(s -> s.endsWith("+1")).startsWith("0+1", "1+1", "2+1", "3+1", "4+1", "5+1", "6+1",
                "7+1", "8+1");
        assertThat(bios.size()).isEqualTo(8 * of(before, "dm-0", EventType.BIO_QUEUE).size());
    }

    /**
     * Seed 000: 3ware RAID 5 on 2.6.0, a partition at 63 ending on cylinder 170205 (16065 x 170205 - 63 =
     * 2734343262 sectors, = 2 mod 4, so its soft block size is 1 KiB), LVM2 2.00 on it.
     */
    static Layout seed000() {
        return Layout.builder(KernelProfile.LINUX_2_6_0)
                .disk("sda", DiskPresets.threeWare(8).withSize(Bytes.parse("1400GB")))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.at(Sectors.of(63),
                        Sectors.of(16065L * 170205 - 63)))
                .pvcreate("sda1", PvCreateOptions.LEGACY_2_00)
                .vgcreate("vg0", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.parse("1GiB")), "sda1")
                .lvcreate("vg0", LvCreateRequest.builder("test").size("100G").build())
                .build();
    }

    @Test
    void seed000PartitionRequestsStopAt62SegmentsOfTwoSectorsAndLvRequestsAtMaxSectors() {
        List<TraceEvent> part = run(seed000(), bufferedWrite("/dev/sda1", 4096, 1000));
        assertThat(of(part, "sda", EventType.BIO_QUEUE)).allMatch(s -> s.endsWith("+2"));
        // each 2-sector bio is its own hardware segment: 62 x 2 = 124 sectors (the seed's "124")
        assertThat(of(part, "sda", EventType.RQ_ISSUE)).startsWith("63+124", "187+124");
        List<TraceEvent> lv = run(seed000(), bufferedWrite("/dev/vg0/test", 4096, 1000));
        assertThat(of(lv, "dm-0", EventType.BIO_QUEUE)).allMatch(s -> s.endsWith("+8"));
        // 8-sector bios fill the 3ware's max_sectors first: 256-sector requests (the seed's "256")
        // LV sector 0 = sda1 sector 384 = disk sector 447
        assertThat(of(lv, "sda", EventType.RQ_ISSUE)).startsWith("447+256", "703+256");
    }
}
