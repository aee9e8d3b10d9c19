package dev.dmmodel.impl.dm.snapshot;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.SnapshotStats;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;

/**
 * The recorded snapshot stack (kernel-traces-6.12-stacks/snap-*) on one 256 MiB scsi_debug disk sda: a 64 MiB
 * origin-real at sector 2048, a COW LV of {@code cowSectors} at 133120, the origin and the snapshot over them, in
 * LVM's creation order: origin-real dm-0, cow dm-1, origin dm-2, snap dm-3.
 */
final class SnapshotFixture {
    static final String REAL = "dm-0";
    static final String COW = "dm-1";
    static final String ORIGIN = "dm-2";
    static final String SNAP = "dm-3";
    static final String ORIGIN_NAME = "vgs-origin";
    static final String SNAP_NAME = "vgs-snap";
    /** The COW LV's first sector on sda. */
    static final long COW_START = 133120;

    final Layout layout;
    final Simulation sim;
    final List<TraceEvent> events = new ArrayList<>();

    SnapshotFixture(long chunkSectors, long cowSectors, String store) {
        this(tables(chunkSectors, cowSectors, store));
    }

    SnapshotFixture(String tables) {
        layout = Layout.of(DmTables.addTo(disk(), tables, "tables.txt"));
        sim = Simulation.of(layout);
    }

    static LayoutSpec disk() {
        return new LayoutSpec(KernelProfile.LINUX_6_12, Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.scsiDebug(512, 512, 0).withSize(Bytes.mib(256)))
                .steps());
    }

    static String tables(long chunkSectors, long cowSectors, String store) {
        return "vgs-origin-real: 0 131072 linear 8:0 2048\n"
                + "vgs-snap-cow: 0 " + cowSectors + " linear 8:0 " + COW_START + "\n"
                + "vgs-origin: 0 131072 snapshot-origin /dev/mapper/vgs-origin-real\n"
                + "vgs-snap: 0 131072 snapshot /dev/mapper/vgs-origin-real /dev/mapper/vgs-snap-cow " + store + " "
                + chunkSectors + "\n";
    }

    /** Runs one command, collecting its events (cleared first). */
    CommandResult run(String command) {
        events.clear();
        List<Command> cmds = Script.parse(command).commands();
        CommandResult last = null;
        for (Command c : cmds) {
            last = sim.execute(c, events::add);
        }
        return last;
    }

    static String write(String dev, String bs, long at) {
        return "dd if=/dev/zero of=/dev/mapper/" + dev + " bs=" + bs + " count=1 seek=" + at
                + " oflag=direct,seek_bytes";
    }

    static String read(String dev, String bs, long at) {
        return "dd if=/dev/mapper/" + dev + " of=/dev/null bs=" + bs + " count=1 skip=" + at
                + " iflag=direct,skip_bytes";
    }

    /** The events of one tracepoint on one device, as "RWBS sector+len". */
    List<String> on(String device, EventType type) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == type)
                .map(e -> e.rwbs() + " " + e.sector() + "+" + e.nrSectors()).toList();
    }

    /** The index in the run's events of the first one matching. */
    int indexOf(String device, EventType type, String rwbs, long sector) {
        for (int i = 0; i < events.size(); i++) {
            TraceEvent e = events.get(i);
            if (e.device().equals(device) && e.type() == type && e.rwbs().equals(rwbs) && e.sector() == sector) {
                return i;
            }
        }
        return -1;
    }

    SnapshotStats stats() {
        return sim.snapshotStats().get(0);
    }
}
