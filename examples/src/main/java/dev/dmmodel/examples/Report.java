package dev.dmmodel.examples;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VolumeGroup;
import java.io.PrintStream;
import java.util.List;

/** Prints a layout, its per-device limits and its findings as plain text. */
final class Report {
    private final PrintStream out;

    Report(PrintStream out) {
        this.out = out;
    }

    void title(String text) {
        out.println();
        out.println(text);
        out.println("=".repeat(text.length()));
    }

    void paragraph(String text) {
        out.println(text);
    }

    void layout(Layout layout) {
        out.println("Kernel profile: " + layout.profile());
        out.println();
        out.println("Devices:");
        for (BlockDevice d : layout.devices()) {
            String what;
            if (d instanceof Disk disk) {
                what = "disk (" + disk.driver() + ")";
            } else if (d instanceof Partition p) {
                what = "partition " + p.number() + " of " + p.disk() + " at sector " + p.start().count();
            } else if (d instanceof dev.dmmodel.device.MdDevice md) {
                what = "md " + md.spec().level().sysfsName() + " over " + md.spec().members().stream()
                        .map(dev.dmmodel.device.MdMember::device).toList() + ", chunk " + md.spec().chunk().count()
                        + " sectors";
            } else {
                DmDevice dm = (DmDevice) d;
                what = "dm " + dm.dmName() + ": " + dm.table().format(n -> n).strip().replace("\n", " | ");
            }
            out.printf("  %-8s %-6s %12d sectors  %s%n", d.name(), d.devNumber(), d.size().count(), what);
        }
        for (VolumeGroup vg : layout.volumeGroups()) {
            out.println();
            out.printf("Volume group %s: extent size %d sectors, %d extents, %d free%n", vg.name(),
                    vg.extentSize().count(), vg.extentCount(), vg.freeCount());
            for (PhysicalVolume pv : vg.physicalVolumes()) {
                out.printf("  PV %-8s pe_start %d, pe_count %d%n", pv.device(), pv.peStart().count(), pv.peCount());
            }
            for (LogicalVolume lv : vg.logicalVolumes()) {
                out.printf("  LV %-8s %d extents as %s (%s)%n", lv.name(), lv.extentCount(), lv.dmDevice(), lv.path());
                for (LvSegment seg : lv.segments()) {
                    StringBuilder areas = new StringBuilder();
                    for (StripeArea a : seg.areas()) {
                        areas.append(' ').append(a.pv()).append(':').append(a.startPe()).append('-')
                                .append(a.startPe() + seg.areaLength() - 1);
                    }
                    out.printf("     LE %d-%d %s%s%n", seg.startExtent(), seg.endExtent() - 1, seg.segType(), areas);
                }
            }
        }
    }

    void limits(Layout layout) {
        out.println();
        out.println("Queue limits as sysfs shows them:");
        out.printf("  %-8s %6s %6s %8s %8s %8s %9s %8s %6s%n", "device", "lbs", "pbs", "io_min", "io_opt",
                "align", "max_kb", "hw_kb", "segs");
        for (BlockDevice d : layout.devices()) {
            QueueLimits l = d.limits();
            out.printf("  %-8s %6d %6d %8d %8d %8d %9d %8d %6d%n", d.name(), l.logicalBlockSize(),
                    l.physicalBlockSize(), l.ioMin(), l.ioOpt(), l.sysfsAlignmentOffset(), l.maxSectorsKb(),
                    l.maxHwSectorsKb(), l.maxSegments());
        }
    }

    void findings(List<Finding> findings) {
        out.println();
        if (findings.isEmpty()) {
            out.println("Findings: none");
            return;
        }
        out.println("Findings:");
        for (Finding f : findings) {
            out.println("  " + f.severity() + " " + f.id() + " [" + f.device() + "]");
            out.println("    " + f.message());
            out.println("    fix: " + f.fix());
        }
    }
}
