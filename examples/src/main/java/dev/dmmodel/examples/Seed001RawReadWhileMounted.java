package dev.dmmodel.examples;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.io.PrintStream;
import java.util.Optional;

/**
 * Seed 001 (Scientific Linux 6.2, 2.6.32): {@code dd bs=8192} reading a raw LV is twice as slow and
 * CPU-bound while an XFS is mounted on it.
 */
public final class Seed001RawReadWhileMounted {
    private Seed001RawReadWhileMounted() {
    }

    /** 6 x 15k SAS in HW RAID 10 (256 KiB stripe) behind a PERC 6/i; the LV my-vg/my-lv with 32 MiB extents. */
    static Layout layout(KernelProfile profile) {
        return Layout.builder(profile)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID10, 6, Bytes.kib(256)).withSize(Bytes.gib(837)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.optimal(Optional.empty()))
                .pvcreate("sda1")
                .vgcreate("my-vg", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.parse("32MiB")), "sda1")
                .lvcreate("my-vg", LvCreateRequest.builder("my-lv").extents(15359).build())
                .build();
    }

    /** Runs the example. */
    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        Report r = new Report(out);
        r.title("Seed 001: reading a raw LV with dd bs=8192 before and while XFS is mounted (Linux 2.6.32)");
        Layout layout = layout(KernelProfile.LINUX_2_6_32);
        r.layout(layout);
        String read = "dd if=/dev/my-vg/my-lv of=/dev/null bs=8192 count=1024";
        Simulation sim = Simulation.of(layout);
        TraceSummary before = new TraceSummary();
        sim.run(Script.parse(read), before);
        out.println();
        out.println("Before mounting: " + read);
        before.print(out, sim, 1.0);
        Simulation mounted = Simulation.of(layout);
        mounted.run(Script.parse("mkfs.xfs -f -s size=512 /dev/my-vg/my-lv\nmount -t xfs /dev/my-vg/my-lv /mnt\n"
                + "echo 3 > /proc/sys/vm/drop_caches"), e -> { });
        TraceSummary after = new TraceSummary();
        mounted.run(Script.parse(read), after);
        out.println();
        out.println("With XFS (512-byte sectors) mounted: " + read);
        after.print(out, mounted, 1.0);
        r.paragraph("");
        r.paragraph(String.format("dm-0 receives %d bios instead of %d for the same 8 MiB: mounting XFS set the"
                + " LV's soft block size to its 512-byte sector size, and 2.6.32's block-device readahead reads"
                + " page by page through block_read_full_page, one bio per buffer: eight 1-sector bios per page,"
                + " each cloned and remapped by device-mapper. The disk below still sees large merged requests,"
                + " so the cost is CPU, not the array. From 3.18 readahead builds multi-page bios (mpage) and the"
                + " difference is gone, as the recorded 6.1 cases show:", after.bios("dm-0"), before.bios("dm-0")));
        Simulation modern = Simulation.of(layout(KernelProfile.LINUX_6_1));
        modern.run(Script.parse("mkfs.xfs -f -s size=512 /dev/my-vg/my-lv\nmount -t xfs /dev/my-vg/my-lv /mnt"),
                e -> { });
        TraceSummary now = new TraceSummary();
        modern.run(Script.parse(read), now);
        out.println();
        out.println("Linux 6.1, XFS mounted: " + read);
        now.print(out, modern, 1.0);
    }
}
