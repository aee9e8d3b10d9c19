package dev.dmmodel.impl.finding;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sectors that two users write: two partitions of one disk, or two dm table areas (or a table area and a
 * partition in use) on one device. The kernel refuses neither, and both lose data.
 */
final class OverlapFindings {

    /**
     * Sectors {@code [start, end)} of {@code device} that {@code owner} uses.
     *
     * @param owner the kernel name of the partition or dm device
     * @param where {@code table line 2}, {@code table line 1, stripe 2} or {@code partition 1}
     */
    private record Claim(String owner, String where, String device, long start, long end) {
        String sectors() {
            return start + "-" + (end - 1);
        }
    }

    private OverlapFindings() {
    }

    static void check(Layout layout, List<Finding> out) {
        Map<String, Integer> order = new HashMap<>();
        for (BlockDevice d : layout.devices()) {
            order.put(d.name(), order.size());
        }
        partitions(layout, out);
        tables(layout, order, out);
    }

    // block/partitions/core.c: blk_add_partition — partitions read from a label are not checked for overlaps
    // (only BLKPG_ADD_PARTITION is); a filesystem on one destroys the other
    private static void partitions(Layout layout, List<Finding> out) {
        Map<String, List<Partition>> byDisk = new LinkedHashMap<>();
        for (Partition p : layout.partitions()) {
            byDisk.computeIfAbsent(p.disk(), k -> new ArrayList<>()).add(p);
        }
        for (List<Partition> parts : byDisk.values()) {
            List<Partition> sorted = new ArrayList<>(parts);
            sorted.sort(Comparator.comparingLong((Partition p) -> p.start().count()).thenComparingInt(Partition::number));
            for (int i = 0; i < sorted.size(); i++) {
                Partition a = sorted.get(i);
                long aEnd = a.start().count() + a.size().count();
                for (int j = i + 1; j < sorted.size() && sorted.get(j).start().count() < aEnd; j++) {
                    Partition b = sorted.get(j);
                    long bEnd = b.start().count() + b.size().count();
                    long from = b.start().count();
                    long to = Math.min(aEnd, bEnd) - 1;
                    out.add(new Finding(FindingType.PARTITION_OVERLAP, FindingType.PARTITION_OVERLAP.defaultSeverity(),
                            b.name(), b.name() + " (sectors " + b.start().count() + "-" + (bEnd - 1) + " of " + b.disk()
                                    + ") overlaps " + a.name() + " (sectors " + a.start().count() + "-" + (aEnd - 1)
                                    + ") in sectors " + from + "-" + to + " (" + (to - from + 1) + " sectors): what is"
                                    + " written to one overwrites the other",
                            "fix the partition table of " + b.disk() + " (fdisk -l shows it): end " + a.name()
                                    + " before sector " + from + " or start " + b.name() + " at sector " + aEnd
                                    + " or later"));
                }
            }
        }
    }

    // drivers/md/dm-table.c: dm_get_device claims a device with one holder shared by every dm device, so two
    // tables (or two lines of one) may map the same sectors, and a table may map a disk under a partition in use
    private static void tables(Layout layout, Map<String, Integer> order, List<Finding> out) {
        List<Claim> claims = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (DmDevice dm : layout.dmDevices()) {
            int line = 0;
            for (DmTarget t : dm.table().targets()) {
                line++;
                String where = "table line " + line;
                if (t instanceof LinearTarget x) {
                    add(claims, dm.name(), where, x.device(), x.offset().count(), x.length().count());
                } else if (t instanceof StripedTarget x) {
                    List<StripedTarget.Stripe> stripes = x.stripes();
                    for (int i = 0; i < stripes.size(); i++) {
                        add(claims, dm.name(), stripes.size() == 1 ? where : where + ", stripe " + (i + 1),
                                stripes.get(i).device(), stripes.get(i).offset().count(), x.stripeWidth());
                    }
                } else if (t instanceof ThinPoolTarget x) {
                    // dm-thin.c: pool_ctr opens both devices; the metadata device is used whole
                    add(claims, dm.name(), where + ", metadata", x.metadataDevice(), 0,
                            layout.device(x.metadataDevice()).size().count());
                    add(claims, dm.name(), where + ", data", x.dataDevice(), 0, x.length().count());
                }
                // thin targets share their pool by design; zero and error use no device
            }
        }
        for (Claim c : claims) {
            used.add(c.device());
        }
        for (Partition p : layout.partitions()) {
            if (used.contains(p.name()) || layout.physicalVolume(p.name()).isPresent()) {
                add(claims, p.name(), "partition " + p.number(), p.disk(), p.start().count(), p.size().count());
            }
        }
        Map<String, List<Claim>> byDevice = new LinkedHashMap<>();
        for (Claim c : claims) {
            byDevice.computeIfAbsent(c.device(), k -> new ArrayList<>()).add(c);
        }
        Set<String> reported = new HashSet<>();
        for (List<Claim> list : byDevice.values()) {
            list.sort(Comparator.comparingLong(Claim::start).thenComparingLong(Claim::end));
            for (int i = 0; i < list.size(); i++) {
                Claim a = list.get(i);
                for (int j = i + 1; j < list.size() && list.get(j).start() < a.end(); j++) {
                    Claim b = list.get(j);
                    if (a.owner().equals(b.owner()) && a.where().equals(b.where())
                            || isPartition(layout, a.owner()) && isPartition(layout, b.owner())) {
                        continue; // one area; or two partitions, which partition.overlap reports
                    }
                    // the finding belongs to the dm device that comes later; a partition is never the culprit
                    boolean bLater = isPartition(layout, a.owner()) || !isPartition(layout, b.owner())
                            && order.getOrDefault(b.owner(), 0) >= order.getOrDefault(a.owner(), 0);
                    Claim later = bLater ? b : a;
                    Claim earlier = bLater ? a : b;
                    if (reported.add(later.owner() + "\0" + earlier.owner() + "\0" + a.device())) {
                        out.add(overlap(layout, later, earlier, Math.max(a.start(), b.start()),
                                Math.min(a.end(), b.end())));
                    }
                }
            }
        }
    }

    private static void add(List<Claim> claims, String owner, String where, String device, long start, long length) {
        if (length > 0) {
            claims.add(new Claim(owner, where, device, start, start + length));
        }
    }

    private static boolean isPartition(Layout layout, String name) {
        return layout.device(name) instanceof Partition;
    }

    private static String label(Layout layout, String name) {
        BlockDevice d = layout.device(name);
        return d instanceof DmDevice dm ? name + " (" + dm.dmName() + ")" : "partition " + name;
    }

    private static Finding overlap(Layout layout, Claim later, Claim earlier, long from, long to) {
        String both = from + "-" + (to - 1) + " (" + (to - from) + " sectors)";
        String message;
        String fix;
        if (later.owner().equals(earlier.owner())) {
            message = label(layout, later.owner()) + " maps sectors " + both + " of " + later.device() + " twice ("
                    + earlier.where() + " and " + later.where() + "): a write to one part of " + later.owner()
                    + " changes another";
            fix = "reload the table of " + later.owner() + " with areas of " + later.device()
                    + " that do not overlap (dmsetup reload)";
        } else if (isPartition(layout, earlier.owner())) {
            message = label(layout, later.owner()) + " maps sectors " + later.sectors() + " of " + later.device() + " ("
                    + later.where() + "), and " + earlier.owner() + ", which is in use, lies on sectors "
                    + earlier.sectors() + " of it: writes through either overwrite the other in sectors " + both;
            fix = "map " + earlier.owner() + " itself, or only sectors of " + later.device() + " outside it";
        } else {
            message = label(layout, later.owner()) + " maps sectors " + later.sectors() + " of " + later.device() + " ("
                    + later.where() + "), and " + label(layout, earlier.owner()) + " maps sectors "
                    + earlier.sectors() + " (" + earlier.where() + "): writes through either overwrite the other"
                    + " in sectors " + both;
            fix = "give each its own sectors of " + later.device() + " (dmsetup reload one table), or remove the one"
                    + " that should not exist (dmsetup remove)";
        }
        return new Finding(FindingType.DM_TABLE_OVERLAP, FindingType.DM_TABLE_OVERLAP.defaultSeverity(),
                later.owner(), message, fix);
    }
}
