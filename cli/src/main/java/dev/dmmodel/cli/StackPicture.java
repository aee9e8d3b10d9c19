package dev.dmmodel.cli;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stack as rows of boxes with their geometry, shared by the text and SVG pictures of {@code dmmodel show}.
 *
 * <p>Row 0 holds the disks (and dm devices that use no device, such as zero targets), each in an equal share
 * of the width. Every other device sits one row above the highest device it uses: partitions (and dm devices
 * on whole disks) in row 1, dm devices above. A device is drawn as one box per area it maps on a device
 * below, placed over that device's box in proportion to the area's sectors ({@code dm-0 linear sdg1 0} over
 * all of sdg1; a striped device once over each stripe; a thin device over its pool's data, the pool's width
 * shared among its thin devices). A box is at least {@code minWidth} wide. Boxes that would overlap in a row
 * are put in lanes, one above the other.
 *
 * <p>A box's left edge is a boundary on the disk below it (when it maps one disk sector range in order, i.e.
 * not above a striped or thin device): it is marked misaligned when it is not a multiple of the disk's
 * physical block, minimum_io_size or optimal_io_size from the disk's alignment offset, as the
 * {@code align.*} findings judge it; the mark names the findings of the device (and of the PV it lies on).
 */
final class StackPicture {

    /**
     * A misaligned left boundary.
     *
     * @param disk the disk it lies on
     * @param diskSector the sector of the disk it lies at
     * @param bytesPast bytes past the last boundary of {@code grainBytes}
     * @param grainBytes the granularity it misses (physical block, io_min or io_opt)
     * @param findingIds the {@code align.*} findings of the box's device and of the PV below it
     */
    record Mark(String disk, long diskSector, long bytesPast, long grainBytes, List<String> findingIds) {
    }

    /**
     * One box.
     *
     * @param device the kernel name
     * @param kind {@code disk}, {@code partition} or {@code dm}
     * @param label the name to show ({@code sdg1}, {@code dm-0 (lin63)})
     * @param row the row (0 = disks)
     * @param lane the lane within the row (0 = lowest)
     * @param x0 left edge, in the picture's units
     * @param x1 right edge (at least {@code x0 + minWidth})
     * @param below the device it is drawn on, or empty for row 0
     * @param startOnBelow its first sector on {@code below} (for a thin device, its first sector: 0)
     * @param sectors its size in sectors on {@code below} (a thin device: its virtual size)
     * @param mark its left boundary if that is misaligned, else null
     */
    record Box(String device, String kind, String label, int row, int lane, double x0, double x1, String below,
               long startOnBelow, long sectors, Mark mark) {
        boolean misaligned() {
            return mark != null;
        }
    }

    /**
     * A row.
     *
     * @param index 0 for the disks
     * @param title what it holds ({@code disks}, {@code partitions / dm}, {@code dm})
     * @param lanes how many lanes its boxes take
     * @param boxes its boxes, left to right, lane by lane
     */
    record Row(int index, String title, int lanes, List<Box> boxes) {
    }

    /** Where sectors {@code [devStart, devEnd)} of a device lie in the picture and on the disk. */
    private record Piece(long devStart, long devEnd, double x0, double x1, String disk, long diskStart,
                         boolean data) {
        /** {@code diskStart} is the disk sector of {@code devStart} and the sectors follow in order. */
        boolean contiguous() {
            return disk != null && diskStart >= 0;
        }
    }

    /** A box before lanes are assigned. */
    private record Draft(String device, String label, int row, double x0, double x1, String below, long startOnBelow,
                         long sectors, Mark mark) {
    }

    private final double width;
    private final List<Row> rows;

    private StackPicture(double width, List<Row> rows) {
        this.width = width;
        this.rows = List.copyOf(rows);
    }

    /** The picture's width in its units. */
    double width() {
        return width;
    }

    /** The rows, row 0 (the disks) first. */
    List<Row> rows() {
        return rows;
    }

    /** Every box, row by row. */
    List<Box> boxes() {
        return rows.stream().flatMap(r -> r.boxes().stream()).toList();
    }

    /** The boxes of a device. */
    List<Box> boxes(String device) {
        return boxes().stream().filter(b -> b.device().equals(device)).toList();
    }

    /**
     * Lays out a stack.
     *
     * @param width the picture's width (characters or pixels)
     * @param gap the space between two disks
     * @param minWidth the narrowest box
     */
    static StackPicture of(Layout layout, double width, double gap, double minWidth) {
        return new Builder(layout, width, gap, minWidth).build();
    }

    private static final class Builder {
        private final Layout layout;
        private final double width;
        private final double gap;
        private final double minWidth;
        private final Map<String, List<Piece>> pieces = new HashMap<>();
        private final Map<String, Integer> rowOf = new HashMap<>();
        private final List<Draft> drafts = new ArrayList<>();
        private final Map<String, List<String>> alignFindings = new HashMap<>();
        private final Set<String> lvDmNames = new java.util.HashSet<>();

        Builder(Layout layout, double width, double gap, double minWidth) {
            this.layout = layout;
            this.width = width;
            this.gap = gap;
            this.minWidth = minWidth;
            // the dm names LVM gives the LVs (LogicalVolume.dmName, dm_build_dm_name)
            for (dev.dmmodel.lvm.VolumeGroup vg : layout.volumeGroups()) {
                for (dev.dmmodel.lvm.LogicalVolume lv : vg.logicalVolumes()) {
                    lvDmNames.add(lv.dmName());
                }
            }
            for (Finding f : layout.findings()) {
                if (f.id().startsWith("align.")) {
                    alignFindings.computeIfAbsent(f.device(), k -> new ArrayList<>()).add(f.id());
                }
            }
        }

        StackPicture build() {
            List<BlockDevice> roots = new ArrayList<>(layout.disks());
            for (DmDevice dm : layout.dmDevices()) {
                if (dm.table().devices().isEmpty()) {
                    roots.add(dm);
                }
            }
            double slot = width / Math.max(1, roots.size());
            for (int i = 0; i < roots.size(); i++) {
                BlockDevice d = roots.get(i);
                double x0 = i * slot;
                double x1 = Math.max(x0 + minWidth, (i + 1) * slot - (i == roots.size() - 1 ? 0 : gap));
                long size = d.size().count();
                rowOf.put(d.name(), 0);
                pieces.put(d.name(), List.of(new Piece(0, size, x0, x1, d instanceof Disk ? d.name() : null,
                        d instanceof Disk ? 0 : -1, true)));
                drafts.add(new Draft(d.name(), label(d), 0, x0, x1, "", 0, size, null));
            }
            // partitions, md arrays and dm devices, each one row above the highest device it stands on
            List<BlockDevice> stacked = new ArrayList<>(layout.partitions());
            stacked.addAll(layout.mdDevices());
            for (DmDevice dm : layout.dmDevices()) {
                if (!dm.table().devices().isEmpty()) {
                    stacked.add(dm);
                }
            }
            Map<String, Integer> depth = new HashMap<>();
            for (BlockDevice d : stacked) {
                depth(d.name(), depth, new LinkedHashSet<>());
            }
            stacked.sort(Comparator.comparingInt(d -> depth.get(d.name())));
            for (BlockDevice d : stacked) {
                int row = depth.get(d.name());
                rowOf.put(d.name(), row);
                if (d instanceof Partition p) {
                    area(p.name(), row, p.disk(), p.start().count(), p.size().count(), 0, p.size().count(), true,
                            true);
                } else if (d instanceof MdDevice md) {
                    for (MdMember m : md.spec().members()) {
                        area(md.name(), row, m.device(), m.dataOffset().count(), m.dataSize().count(), 0,
                                md.size().count(), false, true);
                    }
                } else {
                    placeTable((DmDevice) d, row);
                }
            }
            return new StackPicture(width, rows());
        }

        // disks 0, partitions of disks 1, an md array, dm device or partition one above the highest device it uses
        private int depth(String name, Map<String, Integer> memo, Set<String> path) {
            Integer known = memo.get(name);
            if (known != null) {
                return known;
            }
            BlockDevice d = layout.device(name);
            int result;
            if (d instanceof Disk) {
                result = 0;
            } else if (!path.add(name)) {
                result = 1; // a cycle cannot be built; never loop
            } else {
                List<String> below = d instanceof Partition p ? List.of(p.disk())
                        : d instanceof MdDevice md ? md.spec().members().stream().map(MdMember::device).toList()
                        : d instanceof DmDevice dm ? dm.table().devices() : List.of();
                int max = -1;
                for (String b : below) {
                    max = Math.max(max, depth(layout.device(b).name(), memo, path));
                }
                path.remove(name);
                result = max + 1;
            }
            memo.put(name, result);
            return result;
        }

        private void placeTable(DmDevice dm, int row) {
            Map<String, Integer> thinIndex = new HashMap<>();
            for (DmTarget t : dm.table().targets()) {
                long start = t.start().count();
                long length = t.length().count();
                if (t instanceof LinearTarget x) {
                    area(dm.name(), row, x.device(), x.offset().count(), length, start, length, true, true);
                } else if (t instanceof StripedTarget x) {
                    for (StripedTarget.Stripe s : x.stripes()) {
                        area(dm.name(), row, s.device(), s.offset().count(), x.stripeWidth(), start, length, false,
                                true);
                    }
                } else if (t instanceof ThinPoolTarget x) {
                    long metaSize = layout.device(x.metadataDevice()).size().count();
                    area(dm.name(), row, x.metadataDevice(), 0, metaSize, start, length, false, false);
                    area(dm.name(), row, x.dataDevice(), 0, length, start, length, true, true);
                } else if (t instanceof ThinTarget x) {
                    thin(dm, row, x, thinIndex);
                }
            }
        }

        // a thin device over its pool's data: the pool's width shared among the pool's thin devices
        private void thin(DmDevice dm, int row, ThinTarget t, Map<String, Integer> thinIndex) {
            List<String> thins = new ArrayList<>();
            for (DmDevice d : layout.dmDevices()) {
                for (DmTarget x : d.table().targets()) {
                    if (x instanceof ThinTarget y && y.poolDevice().equals(t.poolDevice()) && !thins.contains(d.name())) {
                        thins.add(d.name());
                    }
                }
            }
            int k = thins.indexOf(dm.name());
            int n = thins.size();
            if (thinIndex.put(t.poolDevice(), k) != null) {
                return; // one box per pool, however many lines
            }
            for (Piece p : pieces.getOrDefault(t.poolDevice(), List.of())) {
                if (!p.data()) {
                    continue;
                }
                double w = (p.x1() - p.x0()) / n;
                double x0 = p.x0() + k * w;
                add(dm.name(), row, x0, x0 + w, t.poolDevice(), 0, dm.size().count(), null,
                        new Piece(0, dm.size().count(), x0, x0 + w, null, -1, true));
            }
        }

        /**
         * Sectors {@code [areaStart, areaStart + areaLength)} of {@code below}, which hold sectors
         * {@code [upStart, upStart + upLength)} of {@code device} (in order when {@code inOrder}).
         */
        private void area(String device, int row, String below, long areaStart, long areaLength, long upStart,
                          long upLength, boolean inOrder, boolean data) {
            String lower = layout.device(below).name();
            long areaEnd = areaStart + areaLength;
            for (Piece p : pieces.getOrDefault(lower, List.of())) {
                if (!p.data()) {
                    continue;
                }
                long s = Math.max(areaStart, p.devStart());
                long e = Math.min(areaEnd, p.devEnd());
                if (s >= e) {
                    continue;
                }
                double x0 = x(p, s);
                double x1 = x(p, e);
                long diskStart = p.contiguous() ? p.diskStart() + (s - p.devStart()) : -1;
                Mark mark = diskStart >= 0 ? mark(device, lower, p.disk(), diskStart) : null;
                long pieceUpStart;
                long pieceUpEnd;
                if (inOrder && upLength == areaLength) {
                    pieceUpStart = upStart + (s - areaStart);
                    pieceUpEnd = upStart + (e - areaStart);
                } else {
                    pieceUpStart = upStart + (long) ((double) (s - areaStart) / Math.max(1, areaLength) * upLength);
                    pieceUpEnd = upStart + (long) ((double) (e - areaStart) / Math.max(1, areaLength) * upLength);
                }
                boolean ordered = inOrder && upLength == areaLength && diskStart >= 0;
                add(device, row, x0, x1, lower, s, e - s, mark, new Piece(pieceUpStart, pieceUpEnd, x0, x1,
                        ordered ? p.disk() : null, ordered ? diskStart : -1, data));
            }
        }

        private static double x(Piece p, long sector) {
            long span = p.devEnd() - p.devStart();
            return span == 0 ? p.x0() : p.x0() + (double) (sector - p.devStart()) / span * (p.x1() - p.x0());
        }

        private void add(String device, int row, double x0, double x1, String below, long startOnBelow, long sectors,
                         Mark mark, Piece piece) {
            pieces.computeIfAbsent(device, k -> new ArrayList<>()).add(piece);
            drafts.add(new Draft(device, label(layout.device(device)), row, x0, Math.max(x1, x0 + minWidth), below,
                    startOnBelow, sectors, mark));
        }

        // the align.* findings' rule (QueueLimits.misalignmentAt): the start against physical block, io_min, io_opt
        private Mark mark(String device, String below, String disk, long diskSector) {
            QueueLimits.Misalignment m = layout.device(disk).limits().misalignmentAt(diskSector * 512).orElse(null);
            if (m == null) {
                return null;
            }
            // a partition's own align.partition.*; a dm device's align.device.*, and align.pv.* of the PV it is on
            boolean partition = layout.device(device) instanceof Partition;
            List<String> ids = new ArrayList<>();
            for (String id : alignFindings.getOrDefault(device, List.of())) {
                if (id.startsWith(partition ? "align.partition." : "align.device.")) {
                    ids.add(id);
                }
            }
            if (!partition && layout.physicalVolume(below).isPresent()) {
                for (String id : alignFindings.getOrDefault(below, List.of())) {
                    if (id.startsWith("align.pv.") && !ids.contains(id)) {
                        ids.add(id);
                    }
                }
            }
            return new Mark(disk, diskSector, m.offsetBytes(), m.grainBytes(), List.copyOf(ids));
        }

        private static String label(BlockDevice d) {
            return d instanceof DmDevice dm ? d.name() + " (" + dm.dmName() + ")" : d.name();
        }

        private List<Row> rows() {
            Map<Integer, List<Draft>> byRow = new LinkedHashMap<>();
            int top = drafts.stream().mapToInt(Draft::row).max().orElse(0);
            for (int r = 0; r <= top; r++) {
                byRow.put(r, new ArrayList<>());
            }
            for (Draft d : drafts) {
                byRow.get(d.row()).add(d);
            }
            List<Row> out = new ArrayList<>();
            for (Map.Entry<Integer, List<Draft>> e : byRow.entrySet()) {
                List<Draft> list = new ArrayList<>(e.getValue());
                list.sort(Comparator.comparingDouble(Draft::x0).thenComparing(Draft::device));
                List<Double> laneEnds = new ArrayList<>();
                List<Box> boxes = new ArrayList<>();
                for (Draft d : list) {
                    int lane = 0;
                    while (lane < laneEnds.size() && laneEnds.get(lane) > d.x0() + 1e-9) {
                        lane++;
                    }
                    if (lane == laneEnds.size()) {
                        laneEnds.add(d.x1());
                    } else {
                        laneEnds.set(lane, d.x1());
                    }
                    BlockDevice dev = layout.device(d.device());
                    boxes.add(new Box(d.device(), dev instanceof Disk ? "disk" : dev instanceof Partition ? "partition"
                            : "dm", d.label(), d.row(), lane, d.x0(), d.x1(), d.below(),
                            d.startOnBelow(), d.sectors(), d.mark()));
                }
                boxes.sort(Comparator.comparingInt(Box::lane).thenComparingDouble(Box::x0));
                out.add(new Row(e.getKey(), title(boxes, e.getKey()), Math.max(1, laneEnds.size()), boxes));
            }
            return out;
        }

        // an LV, or one of LVM's layer devices (-tpool, -real, ...: lib/activate/dev_manager.c, _add_lv_to_dtree)
        private boolean isLvm(DmDevice dm) {
            if (lvDmNames.contains(dm.dmName()) || dm.uuid().startsWith("LVM-")) {
                return true;
            }
            int dash = dm.dmName().lastIndexOf('-');
            return dash > 0 && lvDmNames.contains(dm.dmName().substring(0, dash));
        }

        private String title(List<Box> boxes, int row) {
            Set<String> kinds = new LinkedHashSet<>();
            for (Box b : boxes) {
                BlockDevice d = layout.device(b.device());
                kinds.add(d instanceof Disk ? "disks" : d instanceof Partition ? "partitions"
                        : d instanceof MdDevice ? "md" : d instanceof DmDevice dm && isLvm(dm) ? "LVs" : "dm");
            }
            if (kinds.isEmpty()) {
                return "row " + row;
            }
            return String.join(" / ", kinds);
        }
    }
}
