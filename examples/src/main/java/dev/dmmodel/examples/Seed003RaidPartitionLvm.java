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

    /** One 200 GB SATA disk of the software array, in sectors (200e9 / 512). */
    static final Sectors MEMBER_SIZE = Bytes.parse("200GB").toSectors();
    /**
     * The software-RAID half of the thread: md raid5 over eight such disks, 64 KiB chunks (left-symmetric), on Linux
     * 6.12, as the whole array ({@code md0}), with an msdos partition at sector 2048 as fdisk places it today
     * ({@code md0p1}), or with LVM on that partition ({@code /dev/vg0/test}).
     */
    static Layout softwareRaid(boolean partition, boolean lvm) {
        dev.dmmodel.layout.LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_12);
        String[] members = new String[8];
        for (int i = 0; i < 8; i++) {
            members[i] = "sd" + (char) ('a' + i);
            b.disk(members[i], DiskPresets.ahciSata().withSize(MEMBER_SIZE));
        }
        // mdadm --create /dev/md0 --level=5 --raid-devices=8 --chunk=64 /dev/sd[a-h]
        b.mdadmCreate(dev.dmmodel.device.MdadmCreateRequest.of("md0", dev.dmmodel.device.MdLevel.RAID5, members)
                .withChunk(CHUNK));
        if (partition) {
            b.partitionTable("md0", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(2048)));
        }
        if (lvm) {
            b.pvcreate(partition ? "md0p1" : "md0").vgcreate("vg0", partition ? "md0p1" : "md0")
                    .lvcreate("vg0", LvCreateRequest.builder("test").size("100G").build());
        }
        return b.build();
    }

    /** Pages read and written at the members for {@code mib} MiB written to the array. */
    record MemberIo(long pagesRead, long pagesWritten, double mib) {
        double readsPerMib() {
            return pagesRead / mib;
        }

        double writesPerMib() {
            return pagesWritten / mib;
        }
    }

    /** The thread's write scaled to 16 MiB: {@code dd bs=4k count=4096} through the page cache, then {@code sync}. */
    static MemberIo write16MiB(Layout layout, String device) {
        return members(layout, 16, "dd if=/dev/zero of=" + device + " bs=4k count=4096", "sync");
    }

    /** Eight full-stripe-sized direct writes: {@code dd bs=448k count=8 oflag=direct} (3.5 MiB). */
    static MemberIo directStripes(Layout layout, String device) {
        return members(layout, 3.5, "dd if=/dev/zero of=" + device + " bs=448k count=8 oflag=direct");
    }

    private static MemberIo members(Layout layout, double mib, String... lines) {
        long[] counts = new long[2];
        dev.dmmodel.engine.Simulation sim = dev.dmmodel.engine.Simulation.of(layout);
        dev.dmmodel.trace.TraceListener count = e -> {
            if (e.type() == dev.dmmodel.trace.EventType.BIO_REMAP && e.device().startsWith("sd")
                    && e.extra().startsWith("from=md0:")) {
                counts[e.rwbs().startsWith("R") ? 0 : 1] += e.nrSectors() / 8;
            }
        };
        for (String line : lines) {
            dev.dmmodel.engine.CommandResult r = sim.execute(dev.dmmodel.workload.Command.parse(line), count);
            if (!r.ok()) {
                throw new IllegalStateException(line + ": " + r.message());
            }
        }
        return new MemberIo(counts[0], counts[1], mib);
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

        r.title("Software RAID 5 (md, 8 disks, 64 KiB chunk) on Linux 6.12: md0, md0p1 at sector 2048, LVM on md0p1");
        r.paragraph("md tells the layers above its chunk (io_min 64 KiB) and data stripe (io_opt 448 KiB), and its"
                + " stripe cache gathers a sequential write into whole stripes wherever it starts: only the first and"
                + " last row of a run are partial. dd bs=4k count=4096 (16 MiB) through the page cache, then sync:");
        String[][] stacks = {{"md0", "/dev/md0"}, {"md0p1 (partition at 2048)", "/dev/md0p1"},
            {"LV on md0p1", "/dev/vg0/test"}};
        Layout[] layouts = {softwareRaid(false, false), softwareRaid(true, false), softwareRaid(true, true)};
        for (int i = 0; i < stacks.length; i++) {
            MemberIo io = write16MiB(layouts[i], stacks[i][1]);
            r.paragraph(String.format(java.util.Locale.ROOT,
                    "  %-26s member pages read %4d, written %4d: %.2f reads and %.2f writes per MiB", stacks[i][0],
                    io.pagesRead(), io.pagesWritten(), io.readsPerMib(), io.writesPerMib()));
        }
        r.paragraph("The same numbers whatever the stack: 'with SW RAID5 it doesn't matter if I use the whole disk, a"
                + " partition, or a logical volume'. Direct full-stripe writes (dd bs=448k count=8 oflag=direct) are"
                + " another matter: they are whole stripes only where the stack starts on one.");
        for (int i = 0; i < stacks.length; i++) {
            MemberIo io = directStripes(layouts[i], stacks[i][1]);
            r.paragraph(String.format(java.util.Locale.ROOT,
                    "  %-26s member pages read %4d, written %4d: %.2f reads and %.2f writes per MiB", stacks[i][0],
                    io.pagesRead(), io.pagesWritten(), io.readsPerMib(), io.writesPerMib()));
        }
        r.findings(layouts[2].findings());
    }
}
