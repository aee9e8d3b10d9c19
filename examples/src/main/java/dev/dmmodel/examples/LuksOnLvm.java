package dev.dmmodel.examples;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.io.PrintStream;
import java.util.List;

/**
 * A LUKS2 volume on an LVM logical volume, as a laptop or server installer makes it ({@code cryptsetup
 * luksFormat /dev/vg/root}): what dm-crypt does to a 1 MiB direct write, and what a 512-byte encryption sector
 * costs on a disk with 4 KiB physical blocks. The key is never part of the model: the table holds the keyring
 * reference {@code dmsetup table} prints.
 */
public final class LuksOnLvm {
    private LuksOnLvm() {
    }

    /** LUKS2's default data offset: a 16 MiB header = 32768 sectors. */
    static final long LUKS2_DATA_OFFSET = 32768;

    /**
     * A 64 GiB 512e SATA SSD (512-byte logical, 4096-byte physical blocks) → PV → VG {@code vg} → 8 GiB LV
     * {@code root} (dm-0) → LUKS2 {@code cryptroot} (dm-1) with the given crypt sector size.
     */
    static Layout layout(int cryptSectorSize, boolean allowDiscards) {
        long lvSectors = Bytes.gib(8).toSectors().count();
        CryptTarget luks = new CryptTarget(Sectors.ZERO, Sectors.of(lvSectors - LUKS2_DATA_OFFSET), "aes-xts-plain64",
                ":64:logon:cryptsetup:5d3b5b9c-0000-4000-8000-000000000000-d0", Sectors.ZERO, "dm-0",
                Sectors.of(LUKS2_DATA_OFFSET), cryptSectorSize, allowDiscards, false, List.of());
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.ahciSataSsd().toBuilder().physicalBlockSize(4096).build()
                        .withSize(Bytes.gib(64)))
                .pvcreate("sda").vgcreate("vg", "sda")
                .lvcreate("vg", LvCreateRequest.builder("root").size("8G").build())
                .dmsetupCreate("cryptroot", DmTable.builder().add(luks).build())
                .build();
    }

    /** Runs the example. */
    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        Report r = new Report(out);
        r.title("LUKS2 on an LVM LV: dm-crypt's 128 KiB pieces and the crypt sector size (Linux 6.12)");
        Layout layout = layout(512, false);
        r.layout(layout);
        r.limits(layout);
        r.findings(layout.findings());
        Simulation sim = Simulation.of(layout);
        TraceSummary summary = new TraceSummary();
        sim.run(Script.parse("dd if=/dev/zero of=/dev/mapper/cryptroot bs=1M count=1 oflag=direct"), summary);
        out.println();
        out.println("dd if=/dev/zero of=/dev/mapper/cryptroot bs=1M count=1 oflag=direct:");
        summary.print(out, sim, 1.0);
        r.paragraph("");
        r.paragraph("dm-crypt cuts every bio into pieces of at most 128 KiB (256 sectors) from its own start"
                + " (crypt_map's get_max_request_size and dm_accept_partial_bio), so the 1 MiB write leaves dm-1 as"
                + " 8 bios of 256 sectors, each remapped past the 16 MiB LUKS2 header (+32768) onto the LV and then by"
                + " the LV's pe_start (+2048) onto the disk, where adjacent pieces may merge again into requests.");
        Layout fixed = layout(4096, true);
        long left = fixed.findings().stream().filter(f -> f.type() == FindingType.CRYPT_SECTOR_BELOW_PHYSICAL_BLOCK
                || f.type() == FindingType.CRYPT_DISCARDS_DROPPED).count();
        r.paragraph("With cryptsetup luksFormat --sector-size 4096 and --allow-discards the crypt device reports"
                + " logical_block_size " + fixed.limits("dm-1").logicalBlockSize() + " and discard_max_bytes "
                + fixed.limits("dm-1").maxDiscardSectors() * 512 + "; crypt findings left: " + left + ".");
    }
}
