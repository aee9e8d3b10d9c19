package dev.dmmodel.impl.dm.raid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.RaidLvRequest;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * dm-raid's I/O through the md personalities, on the recordings' stack (kernel-traces-6.12-stacks/lvmraid-*): three
 * 1 GiB virtio PVs, {@code lvcreate --type raid1 -m1 --nosync -L 64M -n r1} on vda, vdb and {@code --type raid5 -i2
 * -I64k --nosync -L 64M -n r5} on all three. LVM activates rmeta_0, rimage_0, rmeta_1, rimage_1 (dm-0..dm-3) and r1
 * (dm-4), then r5's six sub-LVs (dm-5..dm-10) and r5 (dm-11).
 */
class RaidIoTest {

    private static Layout layout() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .disk("vdb", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .disk("vdc", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .pvcreate("vda").pvcreate("vdb").pvcreate("vdc").vgcreate("vgr", "vda", "vdb", "vdc")
                .lvcreateRaid("vgr", RaidLvRequest.raid1("r1", Bytes.mib(64), 1).withNosync().onPvs("vda", "vdb"))
                .lvcreateRaid("vgr", RaidLvRequest.striped("r5", "raid5", Bytes.mib(64), 2, Bytes.kib(64))
                        .withNosync().onPvs("vda", "vdb", "vdc"))
                .build();
    }

    private static List<TraceEvent> run(String... lines) {
        List<TraceEvent> events = new ArrayList<>();
        Simulation sim = Simulation.of(layout());
        for (String l : lines) {
            CommandResult r = sim.execute(Command.parse(l), events::add);
            assertThat(r.ok()).as(r.message()).isTrue();
        }
        return events;
    }

    private static List<String> queued(List<TraceEvent> events, String device) {
        return events.stream().filter(e -> e.type() == EventType.BIO_QUEUE && e.device().equals(device))
                .map(e -> e.rwbs() + " " + e.sector() + "+" + e.nrSectors()).toList();
    }

    // lvmraid-r1-w1M-at0: the write cloned whole to both rimages (dm-1, dm-3), no remap traced from dm-4 (dm-raid's
    // mddev has no gendisk); each rmeta (dm-0, dm-2) gets the bitmap superblock (8), the superblock marked active (0)
    // and the bitmap bits (8) before the data, 0.2 s later bitmap + superblock (clean), the daemon's bitmap writes at
    // 5 s and 15 s: seven one-block FWFSM writes within the 16 s sleep
    @Test
    void aRaid1WriteGoesToBothImagesAndUpdatesTheMetadataSevenTimes() {
        List<TraceEvent> e = run("dd if=/dev/zero of=/dev/vgr/r1 bs=1M count=1 seek=0 oflag=direct,seek_bytes",
                "sleep 16", "sync");
        assertThat(queued(e, "dm-1")).containsExactly("WS 0+2048");
        assertThat(queued(e, "dm-3")).containsExactly("WS 0+2048");
        assertThat(e).noneMatch(x -> x.type() == EventType.BIO_REMAP && x.extra().startsWith("from=dm-4:"));
        for (String rmeta : List.of("dm-0", "dm-2")) {
            assertThat(queued(e, rmeta)).containsExactly("FWFSM 8+1", "FWFSM 0+1", "FWFSM 8+1", "FWFSM 8+1",
                    "FWFSM 0+1", "FWFSM 8+1", "FWFSM 8+1");
        }
    }

    // lvmraid-r1-r1M-at2M: a read goes whole to rimage_0 and writes no metadata
    @Test
    void aRaid1ReadGoesToTheFirstImage() {
        List<TraceEvent> e = run("dd if=/dev/vgr/r1 of=/dev/null bs=1M count=1 skip=2097152 iflag=direct,skip_bytes",
                "sleep 16");
        assertThat(queued(e, "dm-1")).containsExactly("RS 4096+2048");
        assertThat(queued(e, "dm-3")).isEmpty();
        assertThat(queued(e, "dm-0")).isEmpty();
    }

    // lvmraid-r5-w4k-at1M: LV sector 2048 = chunk 16 = row 8 of 2 data chunks; raid5_ls on 3 devices puts row 8's
    // parity on device (3 - 1) - 8 % 3 = 0 (rimage_0, dm-6) and its first data chunk on device 1 (dm-8), at member
    // sector 8 x 128 = 1024: a reconstruct-write reads the other data page (dm-10 R 1024+8), writes data and parity
    @Test
    void aRaid5PartialWriteReadsTheOtherDataPage() {
        List<TraceEvent> e = run("dd if=/dev/zero of=/dev/vgr/r5 bs=4k count=1 seek=1048576 oflag=direct,seek_bytes");
        assertThat(queued(e, "dm-10")).containsExactly("R 1024+8");
        assertThat(queued(e, "dm-8")).containsExactly("WS 1024+8");
        assertThat(queued(e, "dm-6")).containsExactly("WS 1024+8");
    }
}
