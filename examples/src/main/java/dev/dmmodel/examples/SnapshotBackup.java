package dev.dmmodel.examples;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.SnapshotStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.CowSnapshotRequest;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.io.PrintStream;
import java.util.List;

/**
 * A snapshot-backed backup: {@code lvcreate -s -L} of a database LV, the application writing on while the backup
 * reads the snapshot, then {@code lvremove}. What copy-on-write costs the application's writes for two chunk sizes,
 * and what happens when the COW store is too small for the writes of the backup window.
 */
public final class SnapshotBackup {
    private SnapshotBackup() {
    }

    /** A 16 GiB virtio disk → VG {@code vg} → 4 GiB LV {@code db} → a snapshot {@code backup} of it. */
    static Layout layout(long chunkSectors, Bytes cow) {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().withSize(Bytes.gib(16)))
                .pvcreate("vda").vgcreate("vg", "vda")
                .lvcreate("vg", LvCreateRequest.builder("db").size("4G").build())
                .lvcreateCowSnapshot("vg", new CowSnapshotRequest("db", "backup", cow, Sectors.of(chunkSectors),
                        List.of()))
                .build();
    }

    /** The application's writes during the backup window: 64 MiB in 1 MiB direct writes. */
    static final String APP = "dd if=/dev/zero of=/dev/vg/db bs=1M count=64 oflag=direct";
    /** The backup reading the first 64 MiB of the snapshot. */
    static final String BACKUP = "dd if=/dev/vg/backup of=/dev/null bs=1M count=64 iflag=direct";

    /** Runs the example. */
    public static void main(String[] args) {
        run(System.out);
    }

    private static Simulation scenario(PrintStream out, long chunkSectors, Bytes cow) {
        Simulation sim = Simulation.of(layout(chunkSectors, cow));
        TraceSummary summary = new TraceSummary();
        sim.run(Script.parse(APP + "\n" + BACKUP), summary);
        out.println();
        out.println("chunk " + Bytes.of(chunkSectors * 512) + ", COW store " + cow + ": " + APP + "; " + BACKUP);
        summary.print(out, sim, 1.0);
        for (SnapshotStats s : sim.snapshotStats()) {
            out.printf("  %s: %d chunks copied, %d commits, status %s%n", s.snapshotDevice(), s.chunksCopied(),
                    s.commits(), s.dmsetupStatus());
        }
        for (Finding f : sim.findings()) {
            out.println("  " + f.severity() + " " + f.id() + ": " + f.message());
        }
        return sim;
    }

    static void run(PrintStream out) {
        Report r = new Report(out);
        r.title("A snapshot-backed backup: copy-on-write under the application's writes (Linux 6.12)");
        Layout layout = layout(8, Bytes.gib(1));
        r.layout(layout);
        scenario(out, 8, Bytes.gib(1));
        scenario(out, 128, Bytes.gib(1));
        scenario(out, 128, Bytes.mib(32));
        r.paragraph("");
        r.paragraph("Every first write to a chunk of the origin waits for kcopyd to read the chunk from vg-db-real and"
                + " write it to the COW store, and for the exception store's commit (a chunk-sized flush+FUA write),"
                + " before the application's data goes down. With LVM's default 4 KiB chunks the 1 MiB writes are cut"
                + " into 256 pieces each, every piece copied: 16384 copies for 64 MiB. 64 KiB chunks copy 1024"
                + " chunks of the same data, in 16 pieces per write. A COW store smaller than the backup window's"
                + " writes fills: the snapshot is invalidated (its reads fail with EIO) and the backup is lost.");
    }
}
