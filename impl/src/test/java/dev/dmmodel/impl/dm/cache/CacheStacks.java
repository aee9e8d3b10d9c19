package dev.dmmodel.impl.dm.cache;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;

/**
 * The recorded cache stacks (kernel-traces-6.12-stacks, 15-dm-cache) built in code: a 1 GiB virtio disk vda (queue
 * size 1024: 1022 segments) and a 1 GiB NVMe namespace nvme0n1 (512 KiB MDTS, 128 segments, 4 KiB virt boundary),
 * with the LVM tables the snapshots show.
 */
public final class CacheStacks {
    private CacheStacks() {
    }

    /** The two disks as recorded. */
    static LayoutSpec disks() {
        return new LayoutSpec(KernelProfile.LINUX_6_12, Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .disk("nvme0n1", DiskPresets.nvmeSsd().toBuilder().maxHwSectors(1024).maxSegments(128)
                        .size(Bytes.gib(1)).build())
                .steps());
    }

    /** cache-wt's tables: the cached LV vgk-origin over vgk-origin_corig, cached on the cache pool's cdata. */
    static Layout cache(String features) {
        return Layout.of(DmTables.addTo(disks(), """
                vgk-cpool_cpool_cmeta: 0 16384 linear /dev/nvme0n1 18432
                vgk-cpool_cpool_cdata: 0 131072 linear /dev/nvme0n1 34816
                vgk-origin_corig: 0 524288 linear /dev/vda 2048
                vgk-origin: 0 524288 cache /dev/mapper/vgk-cpool_cpool_cmeta /dev/mapper/vgk-cpool_cpool_cdata \
                /dev/mapper/vgk-origin_corig 128 FEATURES smq 0
                """.replace("FEATURES", features), "cache-wt.txt"));
    }

    /** writecache's tables: vgk-origin2 over vgk-origin2_wcorig, cached on vgk-wcvol_cvol. */
    static Layout writecache(String options) {
        return Layout.of(DmTables.addTo(disks(), """
                vgk-origin2_wcorig: 0 524288 linear /dev/vda 526336
                vgk-wcvol_cvol: 0 131072 linear /dev/nvme0n1 165888
                vgk-origin2: 0 524288 writecache s /dev/mapper/vgk-origin2_wcorig /dev/mapper/vgk-wcvol_cvol 4096 OPTS
                """.replace("OPTS", options), "writecache.txt"));
    }

    /** The kernel name of /dev/mapper/{@code name}. */
    static String dm(Layout layout, String name) {
        return layout.device("/dev/mapper/" + name).name();
    }

    /** Runs a script, failing on a command the model refuses, and returns its events. */
    static List<TraceEvent> run(Simulation sim, String script) {
        List<TraceEvent> events = new ArrayList<>();
        for (CommandResult r : sim.run(Script.parse(script), events::add)) {
            if (!r.ok()) {
                throw new AssertionError(r.command().line() + " failed: " + r.message());
            }
        }
        return events;
    }

    /** "rwbs sector+size" of the events of a type on a device, in order. */
    static List<String> of(List<TraceEvent> events, String device, EventType type) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == type)
                .map(e -> e.rwbs() + " " + e.sector() + "+" + e.nrSectors()).toList();
    }
}
