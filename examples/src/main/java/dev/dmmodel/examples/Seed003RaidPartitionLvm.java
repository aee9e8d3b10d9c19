package dev.dmmodel.examples;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.io.PrintStream;

/**
 * Seed 003 (linux-kernel, December 2003): a 3ware RAID 5 of 7+1 disks, one msdos partition at sector 63,
 * LVM2 on the partition; {@code dd bs=4k} is slowest on the LV. The stack, each layer's limits, and what
 * the alignment rules say about it — first as Linux 2.6.0 and LVM2 2.00 built it (no topology at all),
 * then the same hardware reporting its geometry to Linux 6.12 with today's LVM.
 */
public final class Seed003RaidPartitionLvm {
    /** 7 data disks × 200 GB, in sectors. */
    static final Sectors ARRAY_SIZE = Bytes.parse("1400GB").toSectors();
    /** The 3ware default stripe unit. */
    static final Bytes CHUNK = Bytes.kib(64);

    private Seed003RaidPartitionLvm() {
    }

    /** The 2003 stack: Linux 2.6.0, LVM2 2.00 defaults. */
    static Layout as2003() {
        return Layout.builder(KernelProfile.LINUX_2_6_0)
                .disk("sda", DiskPresets.threeWare(8).withSize(ARRAY_SIZE))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .pvcreate("sda1", PvCreateOptions.LEGACY_2_00)
                .vgcreate("vg0", "sda1")
                .lvcreate("vg0", LvCreateRequest.builder("test").size("100G").build())
                .build();
    }

    /** The same disks and partition, the array reporting its geometry, on Linux 6.12 with LVM 2.03. */
    static Layout asToday() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, CHUNK).withSize(ARRAY_SIZE))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .pvcreate("sda1")
                .vgcreate("vg0", "sda1")
                .lvcreate("vg0", LvCreateRequest.builder("test").size("100G").build())
                .build();
    }

    /** Runs the example. */
    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        Report r = new Report(out);
        r.title("Seed 003: RAID 5 (7+1, 64 KiB chunk) -> sda1 at sector 63 -> LVM");
        Layout old = as2003();
        r.paragraph("As built in 2003 (Linux 2.6.0 had no I/O topology; LVM2 2.00 put pe_start at 384 sectors):");
        r.layout(old);
        r.limits(old);
        r.findings(old.findings());
        long lvStart = 63 + old.physicalVolume("sda1").orElseThrow().peStart().count();
        r.paragraph("");
        r.paragraph("The LV's first sector is disk sector " + lvStart + " (63 + " + (lvStart - 63) + "): "
                + (lvStart % 128) + " sectors into a 64 KiB chunk, " + (lvStart % 896)
                + " sectors into the 448 KiB full stripe. Nothing in 2.6.0 could say so.");

        Layout today = asToday();
        r.title("The same hardware on Linux 6.12 with LVM2 2.03 (io_min 64 KiB, io_opt 448 KiB)");
        r.layout(today);
        r.limits(today);
        r.findings(today.findings());
    }
}
