package dev.dmmodel.testkit.assertions;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;

/** Real layouts and traces the assertion tests check. */
final class Fixtures {

    /** The partition start of {@link #raid5AtSector63()}. */
    static final long PARTITION_START = 63;
    /** The dd of {@link #ddTrace(Layout)}: bs and count. */
    static final long DD_BS = 1L << 20;
    static final long DD_COUNT = 4;

    private Fixtures() {
    }

    /** The README's stack: RAID 5 of 8 with 64 KiB chunks, a partition at sector 63, PV, VG, a 1 GiB LV. */
    static Layout raid5AtSector63() {
        return Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(PARTITION_START)))
                .pvcreate("/dev/sda1").vgcreate("vg", "/dev/sda1")
                .lvcreate("vg", LvCreateRequest.builder("lv").size("1G").build())
                .build();
    }

    /** A SAS disk used whole as a PV with one LV: nothing to find. */
    static Layout plainSas() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(4)))
                .pvcreate("sda").vgcreate("vg0", "sda")
                .lvcreate("vg0", LvCreateRequest.builder("lv0").size("1G").build())
                .build();
    }

    /** An AHCI disk with a thin pool of {@code chunk} blocks (zeroing new blocks or not) and one thin volume. */
    static Layout thin(Bytes chunk, boolean zero) {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.ahciSata().withSize(Bytes.gib(4)))
                .pvcreate("sda").vgcreate("vg0", "sda")
                .lvcreateThinPool("vg0", ThinPoolRequest.builder("pool0").extents(200).chunkSize(chunk).zero(zero)
                        .build())
                .lvcreateThin("vg0", new ThinLvRequest("thin0", Bytes.gib(1), "pool0"))
                .build();
    }

    /** {@code dd if=/dev/zero of=/dev/vg/lv bs=1M count=4 oflag=direct} on the layout. */
    static List<TraceEvent> ddTrace(Layout layout) {
        return run(layout, "dd if=/dev/zero of=/dev/vg/lv bs=" + DD_BS + " count=" + DD_COUNT + " oflag=direct");
    }

    static List<TraceEvent> run(Layout layout, String script) {
        List<TraceEvent> events = new ArrayList<>();
        Simulation.of(layout).run(Script.parse(script), events::add);
        return events;
    }
}
