package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.CowSnapshotRequest;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code lvcreate -s -L}: the recorded setup of kernel-traces-6.12-stacks/snap-c64k-* — a 1 GiB virtio disk, one PV
 * (pe_start 2048), VG vgs with 4 MiB extents, {@code lvcreate -L 64M -n origin vgs}, then {@code lvcreate -s -L 32M
 * -c 64k -n snap vgs/origin}.
 */
class CowSnapshotsTest {

    private static LayoutBuilder base() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .pvcreate("vda").vgcreate("vgs", "vda")
                .lvcreate("vgs", LvCreateRequest.builder("origin").size("64M").build());
    }

    private static Layout recorded() {
        return base().lvcreateCowSnapshot("vgs", new CowSnapshotRequest("origin", "snap", Bytes.mib(32),
                Sectors.of(128), List.of())).build();
    }

    @Test
    void theTablesAreTheRecordedOnes() {
        // snap-c64k-*/snapshot/dmsetup-table.txt: the origin (16 extents = 131072 sectors at PE 0 = sector 2048)
        // moves to vgs-origin-real; the COW store takes the next 8 extents (32 MiB = 65536 sectors at PE 16 =
        // 2048 + 16 * 8192 = 133120); chunk 64 KiB = 128 sectors; minors in creation order: real 1, cow 2, snap 3
        Layout l = recorded();
        assertThat(l.dmsetupTable()).isEqualTo("""
                vgs-origin: 0 131072 snapshot-origin 253:1
                vgs-origin-real: 0 131072 linear 254:0 2048
                vgs-snap: 0 131072 snapshot 253:1 253:2 P 128
                vgs-snap-cow: 0 65536 linear 254:0 133120
                """);
        assertThat(l.device("/dev/vgs/snap").name()).isEqualTo("dm-3");
        assertThat(l.device("/dev/vgs/origin").name()).isEqualTo("dm-0");
    }

    @Test
    void theMetadataIsTheRecordedOne() {
        // snap-c64k-*/snapshot/lvm/vgs.vg: origin, snap (the COW store, hidden), snapshot0 (snapshot segment of the
        // origin's 16 extents, chunk_size 128)
        VolumeGroup vg = recorded().volumeGroups().get(0);
        assertThat(vg.logicalVolumes()).extracting(lv -> lv.name() + ":" + lv.role()).containsExactly(
                "origin:PUBLIC", "snap:SNAPSHOT_COW", "snapshot0:SNAPSHOT");
        assertThat(vg.logicalVolume("snapshot0").orElseThrow().segments().get(0).type())
                .isEqualTo(new SegmentType.Snapshot("origin", "snap", Sectors.of(128)));
        assertThat(vg.logicalVolume("snap").orElseThrow().extentCount()).isEqualTo(8);
        // and LVM's text for it reads back the same
        String text = dev.dmmodel.impl.lvm.text.VgMetadataWriter.write(vg);
        assertThat(dev.dmmodel.impl.lvm.text.VgMetadataReader.read(text, "w.vg").logicalVolumes())
                .extracting(lv -> lv.name() + ":" + lv.role())
                .containsExactly("origin:PUBLIC", "snap:SNAPSHOT_COW", "snapshot0:SNAPSHOT");
    }

    @Test
    void aSecondSnapshotSharesTheOriginsRealDevice() {
        Layout l = base()
                .lvcreateCowSnapshot("vgs", new CowSnapshotRequest("origin", "s1", Bytes.mib(8)))
                .lvcreateCowSnapshot("vgs", new CowSnapshotRequest("origin", "s2", Bytes.mib(8)))
                .build();
        // default 4 KiB chunks (8 sectors); both snapshots over vgs-origin-real (253:1); s1-cow 253:2, s1 253:3,
        // s2-cow 253:4, s2 253:5; the origin's table is unchanged by the second
        assertThat(l.dmsetupTable()).contains("vgs-origin: 0 131072 snapshot-origin 253:1\n",
                "vgs-s1: 0 131072 snapshot 253:1 253:2 P 8\n", "vgs-s2: 0 131072 snapshot 253:1 253:4 P 8\n");
        assertThat(l.volumeGroups().get(0).logicalVolumes()).extracting(lv -> lv.name())
                .containsExactly("origin", "s1", "snapshot0", "s2", "snapshot1");
    }

    @Test
    void aCowStoreLargerThanTheWholeOriginNeedsIsReduced() {
        // _cow_max_size for 64 MiB = 131072 sectors in 4 KiB chunks: 16384 data chunks, 4096 / 16 = 256 exceptions
        // per metadata chunk → 64 metadata chunks, + 1 header: (1 + 64 + 16384) * 8 = 131592 sectors, which is
        // 16.06 extents of 8192: 17
        assertThat(CowSnapshots.cowMaxSectors(131072, 8)).isEqualTo(131592);
        Layout l = base().lvcreateCowSnapshot("vgs", new CowSnapshotRequest("origin", "big", Bytes.mib(200))).build();
        assertThat(l.volumeGroups().get(0).logicalVolume("big").orElseThrow().extentCount()).isEqualTo(17);
    }

    @Test
    void lvmRefusals() {
        assertThatThrownBy(() -> base().lvcreateCowSnapshot("vgs", new CowSnapshotRequest("nosuch", "s",
                Bytes.mib(8))).build()).isInstanceOf(LayoutException.class)
                .hasMessageContaining("Couldn't find origin volume 'vgs/nosuch'.");
        assertThatThrownBy(() -> base().lvcreateCowSnapshot("vgs", new CowSnapshotRequest("origin", "s", Bytes.mib(8)))
                .lvcreateCowSnapshot("vgs", new CowSnapshotRequest("s", "t", Bytes.mib(8))).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("Snapshots of snapshots are not supported.");
        assertThatThrownBy(() -> new CowSnapshotRequest("origin", "s", Bytes.mib(8), Sectors.of(2048), List.of()))
                .hasMessage("Chunk size 2048 sectors must be a power of 2 in the range 4K to 512K");
        assertThatThrownBy(() -> new CowSnapshotRequest("origin", "s", Bytes.of(0)))
                .hasMessageContaining("must be above zero");
    }

    @Test
    void aFirstWriteToTheOriginCopiesTheChunk() {
        // the recorded snap-c64k-origin-w4k-at0: 4 KiB at origin sector 0 → kcopyd reads chunk 0 (128 sectors)
        // from origin-real (dm-1) and writes it to COW chunk 2 (sector 256) of dm-2 before the write goes down
        Simulation sim = Simulation.of(recorded());
        List<TraceEvent> events = new ArrayList<>();
        sim.run(Script.parse("dd if=/dev/zero of=/dev/vgs/origin bs=4k count=1 oflag=direct"), events::add);
        assertThat(events).anyMatch(e -> e.type() == EventType.BIO_QUEUE && e.device().equals("dm-1")
                && e.rwbs().startsWith("R") && e.sector() == 0 && e.nrSectors() == 128);
        assertThat(events).anyMatch(e -> e.type() == EventType.BIO_QUEUE && e.device().equals("dm-2")
                && e.rwbs().startsWith("W") && e.sector() == 256 && e.nrSectors() == 128);
        assertThat(sim.snapshotStats()).singleElement().satisfies(st -> assertThat(st.chunksCopied()).isEqualTo(1));
    }

    @Test
    void inAWorkloadTheSnapshotIsCreatedAndTheOriginReloadedWhileTheHostRuns() {
        // the same lvcreate on the running host: the same four tables as a plan makes (and as recorded), then the
        // first 4 KiB write to the origin copies its 64 KiB chunk (128 sectors) through kcopyd
        Simulation sim = Simulation.of(base().build());
        List<TraceEvent> events = new ArrayList<>();
        List<dev.dmmodel.engine.CommandResult> results = sim.run(Script.parse(
                "lvcreate -s -L 32M -c 64k -n snap vgs/origin\n"
                        + "dd if=/dev/zero of=/dev/vgs/origin bs=4k count=1 oflag=direct"), events::add);
        assertThat(results).allMatch(dev.dmmodel.engine.CommandResult::ok);
        assertThat(results.get(0).message()).contains("Logical volume \"snap\" created.");
        assertThat(sim.layout().dmsetupTable()).isEqualTo(recorded().dmsetupTable());
        assertThat(events).anyMatch(e -> e.type() == EventType.BIO_QUEUE && e.device().equals("dm-1")
                && e.rwbs().startsWith("R") && e.sector() == 0 && e.nrSectors() == 128);
        assertThat(sim.snapshotStats()).singleElement().satisfies(st -> assertThat(st.chunksCopied()).isEqualTo(1));
        // and LVM's refusals are the command's failure, not an exception
        assertThat(sim.execute(Script.parse("lvcreate -s -L 8M -n s2 vgs/snap").commands().get(0),
                e -> { }).message()).contains("Snapshots of snapshots are not supported.");
    }
}
