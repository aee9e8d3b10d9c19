package dev.dmmodel.impl.md;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * md arrays built from their configuration, with the numbers of the recordings in
 * {@code kernel-traces-6.12-stacks/md-*} (four 1 GiB virtio disks, metadata 1.2: data offset 4096 sectors, data size
 * 1046528 KiB = 2093056 sectors per member, queue-size=1024: max_segments 1022).
 */
class MdArrayTest {

    private static final long OFFSET = 4096;
    /** The recordings' virtio disks: queue-size=1024, so max_segments 1022 and no 1 MiB bio needs a segment split. */
    private static final dev.dmmodel.device.DiskSpec DISK = DiskPresets.virtioBlk().toBuilder().maxSegments(1022)
            .size(Bytes.gib(1)).build();
    private static final long DATA = 2_093_056;

    private static Layout array(MdLevel level, int disks, long chunk, int layout) {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12);
        List<MdMember> members = new ArrayList<>();
        for (int i = 0; i < disks; i++) {
            String name = "vd" + (char) ('a' + i);
            b.disk(name, DISK);
            members.add(new MdMember(name, i, Sectors.of(OFFSET), Sectors.of(DATA)));
        }
        return b.mdArray("md0", new MdArraySpec(level, disks, Sectors.of(chunk), layout, "1.2", members)).build();
    }

    private static List<TraceEvent> dd(Layout layout, String line) {
        List<TraceEvent> events = new ArrayList<>();
        CommandResult r = Simulation.of(layout).execute(Command.parse(line), events::add);
        assertThat(r.ok()).as(r.message()).isTrue();
        return events;
    }

    private static List<String> at(List<TraceEvent> events, String device, EventType type) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == type)
                .map(e -> e.rwbs() + " " + e.sector() + "+" + e.nrSectors()).toList();
    }

    @Nested
    class Raid0 {
        // 4 x 64 KiB (128 sectors): raid0_set_limits max_hw_sectors = chunk = 128 -> max_sectors_kb 64; io_min 64 KiB,
        // io_opt 4 x 64 KiB; write zeroes the chunk (65536 bytes); read-ahead 2 x io_opt = 512 KiB; size 4 x 2093056
        @Test
        void limitsAndSizeAsRecorded() {
            MdDevice md = array(MdLevel.RAID0, 4, 128, -1).mdDevices().get(0);
            QueueLimits l = md.limits();
            assertThat(md.devNumber().toString()).isEqualTo("9:0");
            assertThat(md.size().count()).isEqualTo(4 * DATA); // 8372224, recorded
            assertThat(l.maxSectors()).isEqualTo(128);
            assertThat(l.maxHwSectors()).isEqualTo(128);
            assertThat(l.ioMin()).isEqualTo(65_536);
            assertThat(l.ioOpt()).isEqualTo(262_144);
            assertThat(l.maxWriteZeroesSectors()).isEqualTo(128);
            assertThat(l.chunkSectors()).isZero();
            assertThat(l.readAheadKb()).isEqualTo(512);
        }

        // md-raid0-4x64k-w4k-at62k: 4 KiB at array sector 124 crosses the chunk boundary at 128: split there, the rest
        // (chunk 1) on vdb at 4096 + 0, the first 4 sectors (chunk 0) on vda at 4096 + 124
        @Test
        void aWriteAcrossAChunkIsSplitThere() {
            List<TraceEvent> e = dd(array(MdLevel.RAID0, 4, 128, -1),
                    "dd if=/dev/zero of=/dev/md0 bs=4k count=1 seek=63488 oflag=direct,seek_bytes");
            assertThat(at(e, "md0", EventType.SPLIT)).containsExactly("WS 124+-1");
            assertThat(at(e, "vda", EventType.BIO_REMAP)).containsExactly("WS 4220+4");
            assertThat(at(e, "vdb", EventType.BIO_REMAP)).containsExactly("WS 4096+4");
        }

        // md-raid0-4x64k-w1M-at0: split at max_sectors 128 into 16 chunks, chunk c on member c % 4 at row c / 4
        @Test
        void aMegabyteIsSixteenChunks() {
            List<TraceEvent> e = dd(array(MdLevel.RAID0, 4, 128, -1),
                    "dd if=/dev/zero of=/dev/md0 bs=1M count=1 seek=0 oflag=direct,seek_bytes");
            assertThat(at(e, "md0", EventType.SPLIT)).hasSize(15);
            for (String m : List.of("vda", "vdb", "vdc", "vdd")) {
                assertThat(at(e, m, EventType.BIO_REMAP)).containsExactlyInAnyOrder("WS 4096+128", "WS 4224+128",
                        "WS 4352+128", "WS 4480+128");
            }
        }

        // members of 1000 and 3000 chunks of 8 sectors: zone 0 over both up to 1000 chunks (2000 chunks of the array),
        // zone 1 on the larger alone; with ALT_MULTIZONE (layout 2) array chunk 2000 is the larger's chunk 1000
        @Test
        void membersOfDifferentSizesMakeTwoZones() {
            LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("vda", DISK)
                    .disk("vdb", DISK);
            List<MdMember> m = List.of(new MdMember("vda", 0, Sectors.of(OFFSET), Sectors.of(8000)),
                    new MdMember("vdb", 1, Sectors.of(OFFSET), Sectors.of(24000)));
            Layout l = b.mdArray("md0", new MdArraySpec(MdLevel.RAID0, 2, Sectors.of(8), 2, "1.2", m)).build();
            assertThat(l.mdDevices().get(0).size().count()).isEqualTo(32000);
            List<TraceEvent> e = dd(l, "dd if=/dev/zero of=/dev/md0 bs=4k count=1 seek=8192000 oflag=direct,seek_bytes");
            // array sector 16000 = zone 1 offset 0 -> vdb at dev_start 8000 + data offset 4096
            assertThat(at(e, "vdb", EventType.BIO_REMAP)).containsExactly("WS 12096+8");
            Layout noLayout = Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("vda", DISK)
                    .disk("vdb", DISK)
                    .disk("vdc", DISK).build();
            // three members 8000 / 24000 / 24000: zone 1 has two members, so md/layout must say how to map it
            LayoutBuilder b3 = Layout.builder(KernelProfile.LINUX_6_12);
            for (String d : List.of("vda", "vdb", "vdc")) {
                b3.disk(d, DISK);
            }
            List<MdMember> m3 = List.of(new MdMember("vda", 0, Sectors.of(OFFSET), Sectors.of(8000)),
                    new MdMember("vdb", 1, Sectors.of(OFFSET), Sectors.of(24000)),
                    new MdMember("vdc", 2, Sectors.of(OFFSET), Sectors.of(24000)));
            assertThat(noLayout.disks()).hasSize(3);
            assertThatThrownBy(() -> b3.mdArray("md0", new MdArraySpec(MdLevel.RAID0, 3, Sectors.of(8), -1, "1.2", m3))
                    .build()).isInstanceOf(LayoutException.class)
                    .hasMessageContaining("cannot assemble multi-zone RAID0");
        }
    }

    @Nested
    class Raid1 {
        // raid1_set_limits: only write zeroes off; io_min 512, io_opt 0, max_sectors the members' 1280 KiB
        @Test
        void limitsAndSizeAsRecorded() {
            MdDevice md = array(MdLevel.RAID1, 2, 0, 0).mdDevices().get(0);
            assertThat(md.size().count()).isEqualTo(DATA);
            assertThat(md.limits().ioMin()).isEqualTo(512);
            assertThat(md.limits().ioOpt()).isZero();
            assertThat(md.limits().maxWriteZeroesSectors()).isZero();
            assertThat(md.limits().maxSectors()).isEqualTo(2560);
            assertThat(md.limits().readAheadKb()).isEqualTo(128);
        }

        // md-raid1-2-w1M-at0 / r1M-at2M: a write cloned whole to both mirrors, a read whole to the first
        @Test
        void writesGoToBothReadsToOne() {
            Layout l = array(MdLevel.RAID1, 2, 0, 0);
            List<TraceEvent> w = dd(l, "dd if=/dev/zero of=/dev/md0 bs=1M count=1 seek=0 oflag=direct,seek_bytes");
            assertThat(at(w, "vda", EventType.BIO_REMAP)).containsExactly("WS 4096+2048");
            assertThat(at(w, "vdb", EventType.BIO_REMAP)).containsExactly("WS 4096+2048");
            List<TraceEvent> r = dd(l, "dd if=/dev/md0 of=/dev/null bs=1M count=1 skip=2097152 iflag=direct,skip_bytes");
            assertThat(at(r, "vda", EventType.BIO_REMAP)).containsExactly("RS 8192+2048");
            assertThat(at(r, "vdb", EventType.BIO_REMAP)).isEmpty();
        }

        // a 1 MiB write across the barrier unit boundary at 64 MiB (sector 131072) is split there
        @Test
        void aBarrierUnitBoundarySplits() {
            List<TraceEvent> e = dd(array(MdLevel.RAID1, 2, 0, 0),
                    "dd if=/dev/zero of=/dev/md0 bs=1M count=1 seek=66584576 oflag=direct,seek_bytes");
            // 66584576 bytes = sector 130048; 1024 sectors before 131072, 1024 after
            assertThat(at(e, "md0", EventType.SPLIT)).containsExactly("WS 130048+-1");
            assertThat(at(e, "vda", EventType.BIO_REMAP)).containsExactlyInAnyOrder("WS 134144+1024",
                    "WS 135168+1024");
        }
    }

    @Nested
    class Raid10 {
        // near=2 (layout 258) over 4 disks: io_min 64 KiB, io_opt 2 x 64 KiB, chunk_sectors 128 (6.12 stable, mainline 6.17), size half
        // the members: 16352 chunks per member / 1 far copy x 4 disks / 2 near copies = 32704 chunks = 4186112
        @Test
        void limitsAndSizeAsRecorded() {
            MdDevice md = array(MdLevel.RAID10, 4, 128, 258).mdDevices().get(0);
            assertThat(md.size().count()).isEqualTo(4_186_112);
            assertThat(md.limits().ioMin()).isEqualTo(65_536);
            assertThat(md.limits().ioOpt()).isEqualTo(131_072);
            assertThat(md.limits().chunkSectors()).isEqualTo(128);
            assertThat(md.limits().maxWriteZeroesSectors()).isZero();
            assertThat(md.limits().readAheadKb()).isEqualTo(256);
        }

        // md-raid10-4x64k-w1M-at0: chunk c's copies on members 2c % 4 and 2c % 4 + 1 at row c / 2
        @Test
        void eachChunkGoesToItsTwoNearCopies() {
            List<TraceEvent> e = dd(array(MdLevel.RAID10, 4, 128, 258),
                    "dd if=/dev/zero of=/dev/md0 bs=1M count=1 seek=0 oflag=direct,seek_bytes");
            List<String> rows = IntStream.range(0, 8).mapToObj(r -> "WS " + (4096 + 128 * r) + "+128").toList();
            for (String m : List.of("vda", "vdb", "vdc", "vdd")) {
                assertThat(at(e, m, EventType.BIO_REMAP)).containsExactlyInAnyOrderElementsOf(rows);
            }
        }

        // far=2 (layout 0x201) over 2 disks: the far copy of chunk c sits `stride` = half the member's chunks later on
        // the other disk: 2093056 / 128 = 16352 chunks, far copies: 8176 chunks per copy -> stride 1046528 sectors
        @Test
        void farCopiesSitAStrideLater() {
            List<TraceEvent> e = dd(array(MdLevel.RAID10, 2, 128, 0x201),
                    "dd if=/dev/zero of=/dev/md0 bs=4k count=1 seek=0 oflag=direct,seek_bytes");
            assertThat(at(e, "vda", EventType.BIO_REMAP)).containsExactly("WS 4096+8");
            assertThat(at(e, "vdb", EventType.BIO_REMAP)).containsExactly("WS " + (4096 + 1_046_528) + "+8");
        }

        @Test
        void copiesMustFitTheDisks() {
            assertThatThrownBy(() -> array(MdLevel.RAID10, 2, 128, 0x103))
                    .isInstanceOf(LayoutException.class).hasMessageContaining("3 copies (near 3 x far 1)");
        }
    }

    @Nested
    class Building {
        @Test
        void aMemberMustHoldItsDataArea() {
            LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("vda", DISK);
            MdArraySpec spec = new MdArraySpec(MdLevel.RAID1, 2, Sectors.of(0), 0, "1.2",
                    List.of(new MdMember("vda", 0, Sectors.of(OFFSET), Sectors.of(2_097_152))));
            assertThatThrownBy(() -> b.mdArray("md0", spec).build()).isInstanceOf(LayoutException.class)
                    .hasMessageContaining("md0: member vda (slot 0) has 2097152 sectors, fewer than its data offset "
                            + "4096 + data size 2097152 = 2101248");
        }

        @Test
        void aMemberBelongsToOneArray() {
            LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12)
                    .disk("vda", DISK);
            MdArraySpec spec = new MdArraySpec(MdLevel.RAID1, 2, Sectors.of(0), 0, "1.2",
                    List.of(new MdMember("vda", 0, Sectors.of(OFFSET), Sectors.of(DATA))));
            assertThatThrownBy(() -> b.mdArray("md0", spec).mdArray("md1", spec).build())
                    .isInstanceOf(LayoutException.class).hasMessageContaining("vda is in use by md0");
        }

        // seed 003's software-RAID half: a partition on the array, numbered in the extended range (259:N)
        @Test
        void anArrayTakesAPartitionTable() {
            LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12);
            List<MdMember> members = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String name = "vd" + (char) ('a' + i);
                b.disk(name, DISK);
                members.add(new MdMember(name, i, Sectors.of(OFFSET), Sectors.of(DATA)));
            }
            Layout l = b.mdArray("md0", new MdArraySpec(MdLevel.RAID0, 4, Sectors.of(128), -1, "1.2", members))
                    .partitionTable("md0", PartitionTableType.GPT, PartitionSpec.atToEnd(Sectors.of(2048)))
                    .build();
            assertThat(l.device("md0p1").devNumber().major()).isEqualTo(259);
            assertThat(l.device("md0p1").limits().ioOpt()).isEqualTo(262_144);
        }
    }
}
