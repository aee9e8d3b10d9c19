package dev.dmmodel.examples;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Script;
import java.io.PrintStream;

/**
 * Seed 002 (linux-kernel, 2.6.31): iostat shows avgrq-sz 8.00 on the dm device, however the load changes,
 * and "ridiculous" write rates. The model's diskstats accounting shows why.
 */
public final class Seed002IostatOnDm {
    private Seed002IostatOnDm() {
    }

    /** An Areca hardware RAID with LVM2 on it; the LV is written through the page cache in 4 KiB blocks. */
    static Layout layout() {
        return Layout.builder(KernelProfile.LINUX_2_6_32)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID6, 8, Bytes.kib(64)).withSize(Bytes.gib(2048)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreate("vg", LvCreateRequest.builder("data").size("500G").build())
                .build();
    }

    /** Runs the example. */
    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        Report r = new Report(out);
        r.title("Seed 002: avgrq-sz 8.00 on dm-0 under 4 KiB writeback (Linux 2.6.31/2.6.32)");
        Layout layout = layout();
        r.layout(layout);
        Simulation sim = Simulation.of(layout);
        TraceSummary summary = new TraceSummary();
        sim.run(Script.parse("dd if=/dev/zero of=/dev/vg/data bs=4k count=12800\nsync"), summary);
        summary.print(out, sim, 5.0);
        DeviceStats dm = sim.stats().stream().filter(s -> s.device().equals("dm-0")).findFirst().orElseThrow();
        DeviceStats disk = sim.stats().stream().filter(s -> s.device().equals("sda")).findFirst().orElseThrow();
        r.paragraph("");
        r.paragraph(String.format(java.util.Locale.ROOT, "dm-0 is bio-based: /proc/diskstats counts every bio that"
                + " enters it, and page-cache writeback sends one bio per 4 KiB buffer, so avgrq-sz is %.2f sectors"
                + " and wrqm/s is 0. sda is request-based: the same %d bios are merged into %d requests (avgrq-sz"
                + " %.2f, %d merges). Both rows are right; they count different things.", dm.averageRequestSectors(),
                dm.writeIos(), disk.writeIos(), disk.averageRequestSectors(), disk.writeMerges()));
    }
}
