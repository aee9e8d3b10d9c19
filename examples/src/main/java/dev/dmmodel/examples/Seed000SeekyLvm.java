package dev.dmmodel.examples;

import dev.dmmodel.analysis.Sequentiality;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 (linux-kernel, 2.6.0-mm2): {@code dd bs=4096} to {@code /dev/sda1} reaches the 3ware controller
 * as 124-sector requests, the same to an LV on it as 256-sector requests. The model shows where both
 * numbers come from.
 */
public final class Seed000SeekyLvm {
    private Seed000SeekyLvm() {
    }

    /**
     * The 3ware 8506 RAID 5 (7+1 x 200 GB) with one msdos partition at 63 ending on cylinder 170205
     * (16065 x 170205 - 63 sectors: the report does not give the size; this one is 2 mod 4, the case that
     * yields 124), LVM2 2.00 on it with 1 GiB extents.
     */
    static Layout layout() {
        return Layout.builder(KernelProfile.LINUX_2_6_0)
                .disk("sda", DiskPresets.threeWare(8).withSize(Bytes.parse("1400GB")))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.at(Sectors.of(63),
                        Sectors.of(16065L * 170205 - 63)))
                .pvcreate("sda1", PvCreateOptions.LEGACY_2_00)
                .vgcreate("vg0", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.parse("1GiB")), "sda1")
                .lvcreate("vg0", LvCreateRequest.builder("test").size("100G").build())
                .build();
    }

    /** Runs the example. */
    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        Report r = new Report(out);
        r.title("Seed 000: dd bs=4096 to a partition and to an LV on it (Linux 2.6.0, 3ware RAID 5)");
        Layout layout = layout();
        r.layout(layout);
        r.limits(layout);
        for (String target : new String[] {"/dev/sda1", "/dev/vg0/test"}) {
            Simulation sim = Simulation.of(layout);
            TraceSummary summary = new TraceSummary();
            List<TraceEvent> events = new ArrayList<>();
            sim.run(Script.parse("dd if=/dev/zero of=" + target + " bs=4096 count=25000\nsync"), e -> {
                summary.onEvent(e);
                events.add(e);
            });
            out.println();
            out.println("dd if=/dev/zero of=" + target + " bs=4096 count=25000; sync");
            summary.print(out, sim, 1.0);
            Sequentiality seq = Sequentiality.ofIssuedRequests("sda", events);
            out.printf("  sda: %d requests in %d back-to-back runs%n", seq.totalTransactions(), seq.extents().size());
        }
        r.paragraph("");
        r.paragraph("Why 124 and 256: the partition's size is 2 mod 4 sectors, so its soft block size is 1 KiB"
                + " (bd_set_size doubles 512 while it divides the size) and page-cache writeback sends one 2-sector"
                + " bio per buffer; 2.6.0 counts each bio as one hardware segment and the 3ware takes 62"
                + " (TW_MAX_SGL_LENGTH): 62 x 2 = 124. The LV is whole extents, so its blocks are 4 KiB: 8-sector"
                + " bios, and a request fills the driver's 256-sector max_sectors with 32 of them, half as many"
                + " requests. The seekiness in the report came from several writeback threads submitting pages out"
                + " of order, which the model does not simulate (its writeback is one ascending pass).");
    }
}
