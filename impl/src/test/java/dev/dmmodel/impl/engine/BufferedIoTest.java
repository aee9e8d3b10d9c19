package dev.dmmodel.impl.engine;

import static dev.dmmodel.impl.engine.EngineTestSupport.bufferedRead;
import static dev.dmmodel.impl.engine.EngineTestSupport.bufferedWrite;
import static dev.dmmodel.impl.engine.EngineTestSupport.of;
import static dev.dmmodel.impl.engine.EngineTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

class BufferedIoTest {

    private static Layout lvOnPartition63() {
        // the recorded lp-* disk (4 GiB, io_min 64 KiB, io_opt 448 KiB, 254 segments), partition at 63 to the end
        return Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(dev.dmmodel.device.RaidLevel.RAID5, 8, Bytes.kib(64))
                        .toBuilder().size(Bytes.gib(4)).maxSegments(254).build())
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .pvcreate("sda1").vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
    }

    @Test
    void anOddSizedPartitionHasA512ByteSoftBlockSoWritebackSendsOneSectorBios() {
        Simulation sim = Simulation.of(lvOnPartition63());
        // 8388545 sectors is odd: set_init_blocksize stops at 512 (recorded: 200,000 one-sector bios for 25,000 pages)
        List<TraceEvent> ev = run(sim, bufferedWrite("/dev/sda1", 4096, 100));
        List<String> queued = of(ev, "sda", EventType.BIO_QUEUE);
        assertThat(queued).hasSize(800).allMatch(s -> s.endsWith("+1"));
        assertThat(queued.get(0)).isEqualTo("63+1");
        assertThat(ev).filteredOn(e -> e.type() == EventType.BIO_QUEUE).extracting(TraceEvent::rwbs).containsOnly("WS");
        // each bio is one segment: requests stop at max_segments 254 (recorded: 254-sector requests)
        assertThat(of(ev, "sda", EventType.RQ_ISSUE)).startsWith("63+254", "317+254", "571+254");
    }

    @Test
    void theLvSees8SectorBiosWhileTheDiskMergesThem() {
        Simulation sim = Simulation.of(lvOnPartition63());
        List<TraceEvent> ev = run(sim, bufferedWrite("/dev/vg/lv", 4096, 1000));
        assertThat(of(ev, "dm-0", EventType.BIO_QUEUE)).hasSize(1000).allMatch(s -> s.endsWith("+8"));
        DeviceStats dm = sim.stats().stream().filter(s -> s.device().equals("dm-0")).findFirst().orElseThrow();
        DeviceStats disk = sim.stats().stream().filter(s -> s.device().equals("sda")).findFirst().orElseThrow();
        // seed 002: avgrq-sz 8.00 on dm while the disk shows merged requests (6.1: max_sectors = io_opt = 896)
        assertThat(dm.averageRequestSectors()).isEqualTo(8.0);
        assertThat(dm.writeMerges()).isZero();
        assertThat(disk.writeSectors()).isEqualTo(8000);
        assertThat(disk.writeIos()).isEqualTo(9); // 8 x 896 + 832
        assertThat(disk.writeMerges()).isEqualTo(1000 - 9);
        assertThat(dm.iostatLine(1.0)).startsWith("dm-0         0.00     0.00     0.00  1000.00");
    }

    @Test
    void nvmeDoesNotMergeAcrossAVirtBoundaryGap() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("nvme0n1", DiskPresets.nvmeSsd().withSize(Bytes.gib(1)))
                .dmsetupCreate("odd", t -> t.linear(Sectors.of(100001), "nvme0n1", Sectors.ZERO))
                .build();
        // an odd size: 512-byte soft blocks, one 1-sector bio per buffer, each one segment. A request fills at
        // max_segments 127; the next starts at sector 127, 3584 bytes into a page, and a request whose first bio
        // starts off the 4 KiB virt boundary takes no more bios (bio_will_gap): 127, 1, 127, 1 ...
        List<TraceEvent> ev = run(layout, bufferedWrite("/dev/mapper/odd", 4096, 64));
        List<String> issued = of(ev, "nvme0n1", EventType.RQ_ISSUE);
        assertThat(issued).allMatch(s -> Long.parseLong(s.substring(s.indexOf('+') + 1)) <= 127);
        assertThat(issued).startsWith("0+127", "127+1");
    }

    @Test
    void readaheadRampsUpFrom16KiBTo128KiB() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.virtioBlk().withSize(Bytes.gib(2)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
        List<TraceEvent> ev = run(layout, bufferedRead("/dev/vg/lv", 8192, 64));
        // recorded (mr-raw-before-mkfs): 32, 64, 128, then 256-sector readahead bios
        assertThat(of(ev, "dm-0", EventType.BIO_QUEUE)).startsWith("0+32", "32+64", "96+128", "224+256");
        assertThat(ev).filteredOn(e -> e.type() == EventType.BIO_QUEUE).extracting(TraceEvent::rwbs).containsOnly("RA");
    }
}
