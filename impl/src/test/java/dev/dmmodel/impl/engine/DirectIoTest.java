package dev.dmmodel.impl.engine;

import static dev.dmmodel.impl.engine.EngineTestSupport.directWrite;
import static dev.dmmodel.impl.engine.EngineTestSupport.of;
import static dev.dmmodel.impl.engine.EngineTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

class DirectIoTest {

    /** The recorded ss-* stack: two scsi_debug disks, a 2 x 64 KiB striped LV on PE 0-7 of each. */
    static Layout striped(KernelProfile p) {
        return Layout.builder(p)
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .pvcreate("sda").pvcreate("sdb").vgcreate("vg", "sda", "sdb")
                .lvcreate("vg", LvCreateRequest.builder("striped").extents(16).stripes(2).stripeSize(Bytes.kib(64))
                        .onRanges(List.of(new ExtentRange("sda", 0, 8), new ExtentRange("sdb", 0, 8))).build())
                .build();
    }

    @Test
    void oneMiBAt32KiBIsCutAtEveryChunkAndMergedPerDiskOn61() {
        List<TraceEvent> ev = run(striped(KernelProfile.LINUX_6_1), directWrite("/dev/vg/striped", 1 << 20, 1, 32768));
        // LV sector 64: 64 sectors to the first chunk boundary, then 15 chunks of 128, then 64 (recorded: ss-str-1M-at32k)
        assertThat(of(ev, "dm-0", EventType.SPLIT)).hasSize(16);
        assertThat(of(ev, "sda", EventType.BIO_QUEUE)).startsWith("2112+64", "2176+128").endsWith("3072+64");
        // pe_start 2048: LV sector 64 is row 0 of stripe 0 -> sda 2048 + 64
        assertThat(of(ev, "sda", EventType.RQ_ISSUE)).containsExactly("2112+1024");
        assertThat(of(ev, "sdb", EventType.RQ_ISSUE)).containsExactly("2048+1024");
    }

    @Test
    void onLinux612ThePiecesAreNotMergedInThePlug() {
        List<TraceEvent> ev = run(striped(KernelProfile.LINUX_6_12), directWrite("/dev/vg/striped", 1 << 20, 1, 0));
        // recorded (6.12 ss-str-1M-at0): 8 requests of 128 sectors per disk instead of one of 1024
        assertThat(of(ev, "sda", EventType.RQ_ISSUE)).hasSize(8).allMatch(s -> s.endsWith("+128"));
        assertThat(of(ev, "sdb", EventType.RQ_ISSUE)).hasSize(8);
    }

    @Test
    void anAhciDiskSplitsAMiBOfScatteredPagesAfter168Segments() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("lin", t -> t.linear(Sectors.of(524288), "sdb", Sectors.of(8192)))
                .build();
        List<TraceEvent> ev = run(layout, directWrite("/dev/mapper/lin", 1 << 20, 1, 0));
        // dm passes 2048 whole; sdb: 168 pages x 8 sectors = 1344, then 704 (seed 004 on a modern kernel)
        assertThat(of(ev, "dm-0", EventType.BIO_QUEUE)).containsExactly("0+2048");
        assertThat(of(ev, "sdb", EventType.RQ_ISSUE)).containsExactly("8192+1344", "9536+704");
        assertThat(ev).filteredOn(e -> e.type() == EventType.SPLIT && e.device().equals("sdb"))
                .extracting(TraceEvent::extra).containsExactly("new_sector=9536");
    }

    @Test
    void aHugePageBufferReachesTheAhciDiskWhole() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .build();
        List<TraceEvent> ev = new java.util.ArrayList<>();
        Simulation.of(layout, dev.dmmodel.engine.EngineOptions.HUGE_PAGES)
                .execute(directWrite("/dev/sdb", 1 << 20, 1, 0), ev::add);
        // one 1 MiB bvec = 16 segments of 64 KiB, far below 168: no split (recorded: "2048 (unsplit)")
        assertThat(of(ev, "sdb", EventType.RQ_ISSUE)).containsExactly("0+2048");
        assertThat(ev).noneMatch(e -> e.type() == EventType.SPLIT);
    }

    @Test
    void aSubBlockDirectWriteOnA4knDeviceIsRefusedWithoutABio() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.mib(64)))
                .build();
        Simulation sim = Simulation.of(layout);
        List<TraceEvent> ev = new java.util.ArrayList<>();
        CommandResult r = sim.execute(directWrite("/dev/sda", 2048, 1, 0), ev::add);
        // recorded (s3-4kn-2k-at0): dd: error writing ...: Invalid argument, exit 1, no event
        assertThat(r.exitStatus()).isEqualTo(1);
        assertThat(r.message()).isEqualTo("dd: error writing '/dev/sda': Invalid argument");
        assertThat(ev).isEmpty();
    }

    @Test
    void writingPastTheEndIsNoSpaceLeftOnDevice() {
        Layout layout = Layout.builder()
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(1)))
                .build();
        CommandResult r = Simulation.of(layout).execute(directWrite("/dev/sda", 4096, 2, (1 << 20) - 4096),
                TraceListener.NONE);
        assertThat(r.exitStatus()).isEqualTo(1);
        assertThat(r.message()).isEqualTo("dd: error writing '/dev/sda': No space left on device");
        assertThat(r.bytes()).isEqualTo(4096);
    }

    @Test
    void aLinearLvOnAPartitionIsRemappedTwice() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(dev.dmmodel.device.RaidLevel.RAID5, 8, Bytes.kib(64))
                        .withSize(Bytes.gib(4)))
                .partitionTable("sda", dev.dmmodel.device.PartitionTableType.MSDOS,
                        dev.dmmodel.device.PartitionSpec.atToEnd(Sectors.of(63)))
                .pvcreate("sda1").vgcreate("vg", "sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
        List<TraceEvent> ev = run(layout, directWrite("/dev/vg/lv", 65536, 1, 0));
        // recorded (lp-raid-part63-4M-lv-direct64k): dm-0 -> sda1:2753 -> sda:2816
        assertThat(ev).extracting(e -> e.device() + " " + e.type().tracepoint() + " " + e.sector() + " " + e.extra())
                .startsWith("dm-0 block_bio_queue 0 ", "sda1 block_bio_remap 2753 from=dm-0:0",
                        "sda block_bio_remap 2816 from=sda1:2753", "sda block_bio_queue 2816 ");
    }
}
